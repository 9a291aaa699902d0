"""What the ``versions``, ``show`` and ``diff`` commands print, as text: pure, no I/O.

Each view chooses between a document for people (:mod:`._render`, markdown or text) and
the plain data dumped as JSON (:mod:`._plain`) by the format asked for; the command line
writes the text out (:mod:`mcp_skew.commands.versions`).
"""

from __future__ import annotations

from .._jsontext import to_json
from ._plain import diff_to_dict, profile_to_dict, versions_to_dict
from ._profile import Profile
from ._registry import BUILTIN, Registry
from ._render import Format, diff_document, profile_document, render, versions_section

__all__ = ["diff_view", "profile_view", "versions_view"]


def _ordered(registry: Registry) -> list[Profile]:
    """The registry's profiles, oldest first (third-party ones just after their base)."""
    return sorted(registry, key=lambda p: registry.index(p.revision))


def versions_view(registry: Registry, fmt: Format, *, seps: bool = False) -> str:
    """``mcp-skew versions``: the revisions of ``registry`` (with ``seps``, the SEP layers the
    built-in drafts are made of)."""
    if seps:
        from ._seps import seps_document  # noqa: PLC0415 - the drafts, only for --seps

        return seps_document(fmt)
    profiles, builtin = _ordered(registry), [p.revision for p in BUILTIN]
    if fmt == "json":
        return to_json(versions_to_dict(profiles, builtin))
    return render("MCP revisions", (versions_section(profiles, builtin),), fmt)


def profile_view(profile: Profile, fmt: Format) -> str:
    """``mcp-skew show REV``: the full derived profile of one revision."""
    if fmt == "json":
        return to_json(profile_to_dict(profile))
    return profile_document(profile, fmt)


def diff_view(a: Profile, b: Profile, fmt: Format) -> str:
    """``mcp-skew diff A B``: every change between two revisions."""
    if fmt == "json":
        return to_json(diff_to_dict(a, b))
    return diff_document(a, b, fmt)

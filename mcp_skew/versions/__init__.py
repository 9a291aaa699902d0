"""Profiles of every MCP revision, as checked deltas, with an ordered registry.

Public API: :data:`REGISTRY`, :func:`profile_for`, :data:`REVISIONS`, :data:`LATEST`,
the profile types in ``_profile`` (a diff's steps and tables are ``_diff``'s
``changes_between`` and ``table_delta``), and the plugin loaders :func:`load_profile_file`
and :func:`load_entry_points`; the built-in drafts (``next``, ``next+sep-3279``:
:func:`with_drafts_named`, and the SEP layers they are made of, :func:`seps_document`); what
the ``versions``, ``show`` and ``diff`` commands print (:func:`versions_view`,
:func:`profile_view`, :func:`diff_view`: a document for people or the plain data as JSON,
whose pieces, ``profile_document``, ``profile_to_dict`` and the others, are imported from
``_render`` and ``_plain``; their JSON is written by :func:`mcp_skew._jsontext.to_json`),
and the reference pages (:func:`reference_pages`, :data:`REGENERATE`).
Shared with the migration guides (internal): :func:`deltas_between` (the way from one
profile to another in table deltas, by step and in all; a cite and a table delta are plain
data by their own ``to_dict``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ._auth import LAYOUTS, plain_layout, rule_values
from ._extensions import EXTENSIONS
from ._features import carriage, lost_features
from ._http_headers import HTTP_HEADERS, HttpHeader
from ._plugins import ProfileFileError, load_entry_points, with_profile_files
from ._profile import (
    Change,
    Cite,
    Deprecation,
    Direction,
    Era,
    Impact,
    Invalidation,
    Kind,
    Method,
    Obligation,
    Profile,
)
from ._registry import BUILTIN, REGISTRY, Registry, UnknownRevision, registry_for
from ._words import REVISION_CUTOFF, Message, PeerKind, Role, did_you_mean

if TYPE_CHECKING:
    from ._diff import TableDelta
    from ._plain import deltas_between
    from ._render import REGENERATE, reference_pages
    from ._seps import with_drafts_named
    from ._unknown_fields import required_fields, unknown_fields
    from ._views import diff_view, profile_view, versions_view

__all__ = [
    "BUILTIN",
    "EXTENSIONS",
    "HTTP_HEADERS",
    "LAYOUTS",
    "REGENERATE",
    "REGISTRY",
    "REVISION_CUTOFF",
    "Change",
    "Cite",
    "Deprecation",
    "Direction",
    "Era",
    "HttpHeader",
    "Impact",
    "Invalidation",
    "Kind",
    "Message",
    "Method",
    "Obligation",
    "PeerKind",
    "Profile",
    "ProfileFileError",
    "Registry",
    "Role",
    "TableDelta",
    "UnknownRevision",
    "carriage",
    "deltas_between",
    "did_you_mean",
    "diff_view",
    "load_entry_points",
    "lost_features",
    "plain_layout",
    "profile_view",
    "reference_pages",
    "registry_for",
    "required_fields",
    "rule_values",
    "unknown_fields",
    "versions_view",
    "with_drafts_named",
    "with_profile_files",
]

#: The built-in revisions, oldest first.
REVISIONS: Final[tuple[str, ...]] = tuple(p.revision for p in BUILTIN)


def profile_for(revision: str, registry: Registry = REGISTRY) -> Profile:
    """The profile of ``revision`` in ``registry``; raises :class:`UnknownRevision`."""
    return registry.get(revision)


#: The names read on first use, by module: the documents of profiles and diffs for people
#: (their text tables need ``tabulate``), which the commands import, not the simulator's use
#: of the profiles; the profiles and diffs as plain data and the diffs' tables (``versions``,
#: ``diff``, ``migrate``), the built-in drafts (a command line that names one), the fields
#: the schemas require (a probe, one client quirk): the default matrix reads none of them.
_LATER: Final[dict[str, str]] = {
    **dict.fromkeys(("FORMATS", "REGENERATE", "reference_pages"), "_render"),
    **dict.fromkeys(("deltas_between",), "_plain"),
    **dict.fromkeys(("TableDelta",), "_diff"),
    **dict.fromkeys(("with_drafts_named",), "_seps"),
    **dict.fromkeys(("diff_view", "profile_view", "versions_view"), "_views"),
    **dict.fromkeys(("required_fields", "unknown_fields"), "_unknown_fields"),
}


def __getattr__(name: str) -> Any:
    home = _LATER.get(name)
    value: Any
    if home == "_render":  # on first use (see _LATER)
        from . import _render  # noqa: PLC0415

        value = getattr(_render, name)
    elif home == "_plain":
        from . import _plain  # noqa: PLC0415

        value = getattr(_plain, name)
    elif home == "_diff":
        from . import _diff  # noqa: PLC0415

        value = getattr(_diff, name)
    elif home == "_seps":
        from . import _seps  # noqa: PLC0415

        value = getattr(_seps, name)
    elif home == "_views":
        from . import _views  # noqa: PLC0415

        value = getattr(_views, name)
    elif home == "_unknown_fields":
        from . import _unknown_fields  # noqa: PLC0415

        value = getattr(_unknown_fields, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # read once
    return value

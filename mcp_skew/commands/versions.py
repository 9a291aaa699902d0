"""``mcp-skew versions``, ``show REV`` and ``diff A B``: the profiles, read from the registry.

Every view is rendered by :mod:`mcp_skew.versions` (its documents and their plain data); this module only
parses arguments, looks revisions up (an unknown one raises
:class:`~mcp_skew.versions.UnknownRevision`, which the CLI turns into one error
line and exit code 2) and writes the result to stdout.

Run as a module, it (re)writes the generated reference pages::

    python -m mcp_skew.commands.versions --write docs/generated/profiles
    python -m mcp_skew.commands.versions --check docs/generated/profiles
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .._output import terminal_safe
from .._pagedir import pages_main, sync_pages
from ..versions import (
    BUILTIN,
    REGENERATE,
    Profile,
    Registry,
    diff_document,
    diff_to_dict,
    profile_document,
    profile_to_dict,
    reference_pages,
    render,
    to_json,
    versions_section,
    versions_to_dict,
)

__all__ = ["write_reference_pages"]


def _show(text: str) -> None:
    """``text`` on stdout, a profile file's text shown, never obeyed (its ESC escaped)."""
    sys.stdout.write(terminal_safe(text))


def _ordered(registry: Registry) -> list[Profile]:
    """The registry's profiles, oldest first (third-party ones just after their base)."""
    return sorted(registry, key=lambda p: registry.index(p.revision))


def run_versions(args: argparse.Namespace) -> int:
    if args.seps:
        from ..versions import seps_document  # noqa: PLC0415 - the drafts, only for --seps

        _show(seps_document(args.format))
        return 0
    profiles, builtin = _ordered(args.registry), [p.revision for p in BUILTIN]
    if args.format == "json":
        _show(to_json(versions_to_dict(profiles, builtin)))
    else:
        section = versions_section(profiles, builtin)
        _show(render("MCP revisions", (section,), args.format))
    return 0


def run_show(args: argparse.Namespace) -> int:
    profile = args.registry.get(args.revision)
    if args.format == "json":
        _show(to_json(profile_to_dict(profile)))
    else:
        _show(profile_document(profile, args.format))
    return 0


def run_diff(args: argparse.Namespace) -> int:
    a, b = args.registry.get(args.a), args.registry.get(args.b)
    if args.format == "json":
        _show(to_json(diff_to_dict(a, b)))
    else:
        _show(diff_document(a, b, args.format))
    return 0


# -- the generated reference pages ------------------------------------------------


def write_reference_pages(directory: Path, *, check: bool = False) -> list[str]:
    """Write (or, with ``check``, compare) the pages; returns the names that differ."""
    return sync_pages(directory, reference_pages(BUILTIN), check=check)


def _main(argv: Sequence[str] | None = None) -> int:
    return pages_main(
        argv,
        prog="python -m mcp_skew.commands.versions",
        description="Write the flattened reference page of each built-in revision.",
        write=write_reference_pages,
        regenerate=REGENERATE,
    )


if __name__ == "__main__":
    raise SystemExit(_main())

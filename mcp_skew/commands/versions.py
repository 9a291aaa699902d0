"""``mcp-skew versions``, ``show REV`` and ``diff A B``: the profiles, read from the registry.

Every view is rendered by :mod:`mcp_skew.versions` (:func:`~mcp_skew.versions.versions_view`,
``profile_view``, ``diff_view``: its documents and their plain data); this module only
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
from ..versions import BUILTIN, REGENERATE, diff_view, profile_view, reference_pages, versions_view

__all__ = ["write_reference_pages"]


def _show(text: str) -> None:
    """``text`` on stdout, a profile file's text shown, never obeyed (its ESC escaped)."""
    sys.stdout.write(terminal_safe(text))


def run_versions(args: argparse.Namespace) -> int:
    _show(versions_view(args.registry, args.format, seps=args.seps))
    return 0


def run_show(args: argparse.Namespace) -> int:
    _show(profile_view(args.registry.get(args.revision), args.format))
    return 0


def run_diff(args: argparse.Namespace) -> int:
    a, b = args.registry.get(args.a), args.registry.get(args.b)
    _show(diff_view(a, b, args.format))
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

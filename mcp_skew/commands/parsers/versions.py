"""``mcp-skew versions``, ``show`` and ``diff``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.versions`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import VERSIONS_FORMATS as FORMATS
from . import Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["register"]


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), markdown, or json (machine-readable, sorted keys)",
    )


def register(subparsers: Any) -> None:
    """Add the ``versions``, ``show`` and ``diff`` sub-commands."""
    versions = subparsers.add_parser("versions")
    _add_format(versions)
    versions.add_argument(
        "--seps", action="store_true",
        help="the SEPs in flight as layers over 2026-07-28 (status, date checked, sources, "
        "changes); next = 2026-07-28 + the Final ones, next+LAYER composes another")
    versions.set_defaults(func=Later("versions", "run_versions"))

    show = subparsers.add_parser("show")
    show.add_argument("revision", metavar="REV")
    _add_format(show)
    show.set_defaults(func=Later("versions", "run_show"))

    diff = subparsers.add_parser("diff")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    _add_format(diff)
    diff.set_defaults(func=Later("versions", "run_diff"))

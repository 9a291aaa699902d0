"""``mcp-skew migrate``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.migrate`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import MIGRATE_FORMATS as FORMATS
from . import MIGRATE_ROLES as CHOICES
from . import TRANSPORTS, Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "migrate",
        description="What changes between two revisions and what to do about it: each change "
        "with its rule id, citation, severity for servers and clients, and concrete steps; "
        "breaking changes shown by simulator runs; from the legacy era to the modern one, "
        "how to serve both eras.",
    )
    parser.add_argument("source", metavar="FROM", help="the revision you are on")
    parser.add_argument("target", metavar="TO", help="the revision you are moving to")
    parser.add_argument("--role", choices=CHOICES, default="both",
                        help="whose guide: server, client or both (default: %(default)s)")
    parser.add_argument("--transport", choices=TRANSPORTS, default=None,
                        help="keep only the changes, checklist items and proof rows that apply "
                        "on this transport (stdio or http); the others are named, not shown "
                        "(default: every transport)")
    parser.add_argument("--format", choices=FORMATS, default="markdown",
                        help="markdown (default), json, or html (one self-contained file)")
    parser.set_defaults(func=Later("migrate", "run_migrate"))

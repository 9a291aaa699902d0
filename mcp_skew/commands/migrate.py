"""``mcp-skew migrate FROM TO``: the migration guide between two revisions.

The guide is generated (:mod:`mcp_skew.migrate`): every change on the way with
its rule id, citation, severity for the role and steps, simulator transcripts
for the breaking ones, and the serve-both-eras checklist with its proof when
FROM is legacy and TO modern. An unknown revision raises
:class:`~mcp_skew.versions.UnknownRevision` (one line, exit code 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._output import terminal_safe
from ..migrate import CHOICES, FORMATS, build_guide, render

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "migrate",
        help="the migration guide from one revision to another (either may be the older)",
        description="What changes between two revisions and what to do about it: each change "
        "with its rule id, citation, severity for servers and clients, and concrete steps; "
        "breaking changes shown by simulator runs; from the legacy era to the modern one, "
        "how to serve both eras.",
    )
    parser.add_argument("source", metavar="FROM", help="the revision you are on")
    parser.add_argument("target", metavar="TO", help="the revision you are moving to")
    parser.add_argument("--role", choices=CHOICES, default="both",
                        help="whose guide: server, client or both (default: %(default)s)")
    parser.add_argument("--format", choices=FORMATS, default="markdown",
                        help="markdown (default), json, or html (one self-contained file)")
    parser.set_defaults(func=run_migrate)


def run_migrate(args: argparse.Namespace) -> int:
    source, target = args.registry.get(args.source), args.registry.get(args.target)
    # a profile file's text shown, never obeyed (its ESC escaped)
    sys.stdout.write(terminal_safe(render(build_guide(source, target, args.role), args.format)))
    return 0

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

from .._output import terminal_safe
from ..migrate import build_guide, render

__all__: list[str] = []  # run through the parser's func (commands.parsers.Later)


def run_migrate(args: argparse.Namespace) -> int:
    source, target = args.registry.get(args.source), args.registry.get(args.target)
    # a profile file's text shown, never obeyed (its ESC escaped)
    guide = build_guide(source, target, args.role, transport=args.transport)
    sys.stdout.write(terminal_safe(render(guide, args.format)))
    return 0

"""``mcp-skew record``, ``show-log`` and ``replay``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.record`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["register", "replay_options"]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "record",
        description="Configure the client to start `mcp-skew record --log FILE -- COMMAND "
        "ARGS...` instead of the server. Every byte passes through unchanged and in order; "
        "every line is appended to FILE as JSON Lines, with time and direction, flushed at "
        "once. The server's standard error passes through and is logged too. The exit code "
        "is the server's.",
    )
    p.add_argument("--log", required=True, metavar="FILE", help="the wire log to append to")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ARGS...",
                   help="the server command, run directly (no shell)")
    p.set_defaults(func=Later("record", "_record"))

    s: argparse.ArgumentParser = sub.add_parser(
        "show-log",
        description="Print a wire log (from record, or serve --record) with arrows and times, "
        "and annotate it: which revision each side speaks, the negotiation path, and "
        "findings where a message breaks its revision's rules.",
    )
    s.add_argument("file", metavar="FILE")
    s.add_argument("--full", action="store_true", help="never clip long lines")
    s.add_argument("--width", default=160, metavar="N",
                   help="clip lines longer than N characters (default: %(default)s)")
    s.add_argument("--no-notes", action="store_true", help="only the summary under the lines")
    s.add_argument("--no-stderr", action="store_true", help="leave out the server's stderr")
    s.add_argument("--json", action="store_true", help="the annotation as one JSON object")
    s.set_defaults(func=Later("record", "_show"))

    r: argparse.ArgumentParser = sub.add_parser(
        "replay",
        description="Send the client's lines of a wire log again, to a simulated server "
        "(--server PEER) or to a real one (-- COMMAND ARGS...), and show, request by request, "
        "whether the answers are the same, differ (with a short JSON diff) or are missing. "
        "Exit code 0 when every answer is the same, 1 otherwise.",
    )
    r.add_argument("file", metavar="FILE")
    replay_options(r)
    r.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ARGS...",
                   help="a real server command, run directly (no shell)")
    r.set_defaults(func=Later("record", "_replay"))


def replay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", metavar="PEER", help="a simulated server peer spec")
    p.add_argument("--timeout", default=5.0, metavar="S",
                   help="seconds to wait for each answer of a real server (default: %(default)s)")
    p.add_argument("--ignore", action="append", default=[], metavar="PATH",
                   help="a JSON path not to compare, e.g. result.serverInfo (repeatable)")
    p.add_argument("--json", action="store_true", help="the comparison as one JSON object")

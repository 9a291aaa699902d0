"""``mcp-skew serve``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.serve`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DEFAULT_HOST", "register"]


DEFAULT_HOST = "127.0.0.1"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        description="Run a simulated server of any revision, kind and quirks as a real MCP "
        "server, e.g. legacy:2025-06-18+silent or dual:2026-07-28,2025-11-25. It offers the "
        "tools echo and fail (a tool error, isError), the resource mem://hello, and no prompts; "
        "an unknown tool and a missing resource get the protocol errors of the revision in use. "
        "On stdio it reads newline-delimited JSON-RPC from standard input and writes only MCP "
        "messages to standard output; everything else goes to standard error.",
    )
    p.add_argument("peer", metavar="PEER", help="server peer spec, KIND:REV[,REV...][+QUIRK...]")
    p.add_argument("--http", metavar="[HOST:]PORT",
                   help="serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio "
                   f"(HOST defaults to {DEFAULT_HOST}; PORT 0 picks a free port)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow a HOST that is not loopback, and any Origin and Host header")
    p.add_argument("--max-connections", metavar="N", default=None,
                   help="with --http: serve at most N connections at once, half of them "
                   "HTTP+SSE streams (default 512; past it: 503 with Retry-After)")
    p.add_argument("--record", metavar="FILE",
                   help="append the wire log (JSON Lines; see mcp-skew show-log) to FILE")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="say nothing on standard error but the address and errors")
    p.set_defaults(func=Later("serve", "_main"))

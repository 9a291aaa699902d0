"""``mcp-skew simulate``: the parser (name, help, arguments); the implementation is
:mod:`mcp_skew.commands.simulate`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import SCENARIOS, TRANSPORTS, Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        description="Negotiate a simulated client with a simulated server, then play a "
        "scenario. Peers use the notation KIND:REV[,REV...][+QUIRK...], e.g. "
        "dual:2026-07-28,2025-11-25 or legacy:2025-06-18+silent.",
    )
    p.add_argument("--client", required=True, metavar="SPEC", help="client peer spec")
    p.add_argument("--server", required=True, metavar="SPEC", help="server peer spec")
    p.add_argument("--scenario", default="default", choices=sorted(SCENARIOS),
                   help="what the client does after negotiating (default: %(default)s)")
    p.add_argument("--transport", default="stdio", choices=TRANSPORTS,
                   help="stdio (default), or http: Streamable HTTP, each message a POST; "
                   "--trace shows each exchange's method, path, status and MCP headers")
    p.add_argument("--server-change", action="append", default=[], metavar="MS=SPEC",
                   help="at simulated time MS, replace the server by one of SPEC (an upgrade or "
                   "a downgrade the client is not told of; stdio only; repeatable), e.g. "
                   "--scenario long --server-change 100000=legacy:2025-11-25")
    p.add_argument("--via", metavar="BRIDGE",
                   help="a bridge between them (client -> bridge -> server): a named one "
                   "(supergateway@4, mcp-proxy-py@0.13, mcp-proxy-js@6, mcp-remote@0.1) or "
                   "bridge[:REV,...][+QUIRK...]; the client meets its downstream side, "
                   "--trace shows both legs")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--trace", action="store_true", help="print the transcript as a wire log")
    out.add_argument("--json", action="store_true", help="print the run as one JSON object")
    p.set_defaults(func=Later("simulate", "_main"))

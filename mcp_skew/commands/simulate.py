"""``mcp-skew simulate``: one run between a simulated client and a simulated server."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._numbers import parse_int
from .._output import terminal_safe
from ..errors import UsageError
from ..peers import resolve_peer
from ..simulator import SCENARIOS, TRANSPORTS, PeerSpec, render_trace, run, summary_line
from ..simulator.http.auth import NOT_OVER_STDIO

__all__ = ["register"]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="one run: a simulated client against a simulated server",
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
    out = p.add_mutually_exclusive_group()
    out.add_argument("--trace", action="store_true", help="print the transcript as a wire log")
    out.add_argument("--json", action="store_true", help="print the run as one JSON object")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    client = resolve_peer(args.client, "client", args.registry)
    server = resolve_peer(args.server, "server", args.registry)
    changes = [_server_change(text, args.registry) for text in args.server_change]
    if changes and args.transport != "stdio":
        raise UsageError("--server-change is simulated over stdio only")
    if SCENARIOS[args.scenario].protected and args.transport == "stdio":
        raise UsageError(NOT_OVER_STDIO)
    record = run(client, server, args.scenario, transport=args.transport, server_changes=changes)
    lines: list[str] = []  # shown, never obeyed: a peer file's label, a server's name
    if args.json:
        lines.append(json.dumps(record.to_document(), indent=2))
    elif args.trace:
        lines.append(render_trace(record))
    else:
        lines.append(summary_line(record))
        lines.append("path: " + " -> ".join(record.session.path))
        refused = [st for st in record.steps if st.got.startswith("invalid result")]
        if refused:  # a client that validates results (strict-results) failed these requests
            lines.append("requests failed on the result: " + "; ".join(
                f"{st.name}: {st.got}" for st in refused))
    for line in lines:
        print(terminal_safe(line))
    return 0


def _server_change(text: str, registry: Any) -> tuple[int, PeerSpec]:
    """``MS=SPEC`` as (simulated ms, server spec); a clear error when it is not one."""
    ms, sep, spec = text.partition("=")
    if not sep or not spec.strip():
        raise UsageError(f"--server-change {text!r}: use MS=SPEC, e.g. 100000=legacy:2025-11-25")
    try:  # ASCII digits, at most 2**53 (a number JSON readers keep exact): no 5,000 digits
        at = parse_int(ms, 0, 2**53)
    except ValueError:
        raise UsageError(f"--server-change {text[:60]!r}: {ms[:40]!r} is not a time in whole "
                         "milliseconds (0 to 2**53)") from None
    return at, resolve_peer(spec, "server", registry)

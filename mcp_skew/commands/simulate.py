"""``mcp-skew simulate``: one run between a simulated client and a simulated server."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._numbers import parse_int
from .._output import terminal_safe
from ..errors import UsageError
from ..peers import resolve_bridge, resolve_peer
from ..simulator import NOT_OVER_STDIO, SCENARIOS, PeerSpec, render_trace, run, summary_line

__all__: list[str] = []  # run through the parser's func (commands.parsers.Later)


def _main(args: argparse.Namespace) -> int:
    client = resolve_peer(args.client, "client", args.registry)
    server = resolve_peer(args.server, "server", args.registry)
    via = resolve_bridge(args.via, args.registry) if args.via is not None else None
    changes = [_server_change(text, args.registry) for text in args.server_change]
    if changes and args.transport != "stdio":
        raise UsageError("--server-change is simulated over stdio only")
    if via is not None and (changes or args.transport != "stdio"):
        raise UsageError("--via: the bridge sets the client's transport (its downstream side); "
                         "--transport and --server-change are not simulated behind a bridge")
    if via is not None and SCENARIOS[args.scenario].protected:
        raise UsageError("--via: authorization (scenario auth) is not simulated behind a bridge")
    if SCENARIOS[args.scenario].protected and args.transport == "stdio":
        raise UsageError(NOT_OVER_STDIO)
    record = run(client, server, args.scenario, transport=args.transport, server_changes=changes,
                 via=via)
    lines: list[str] = []  # shown, never obeyed: a peer file's label, a server's name
    if args.json:
        lines.append(json.dumps(record.to_document(), indent=2))
    elif args.trace:
        lines.append(render_trace(record))
    else:
        lines.append(summary_line(record))
        lines.append("path: " + " -> ".join(record.session.path))
        if via is not None:
            lines.append(f"upstream path ({via.name}): " + (
                "; ".join(record.upstream_path) or "nothing reached the server"))
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

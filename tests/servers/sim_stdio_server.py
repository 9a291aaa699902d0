"""A simulated MCP server over real stdio: mcp-skew's SimServer behind newline-delimited JSON.

Usage: ``python sim_stdio_server.py SPEC [--banner TEXT] [--stderr TEXT] [--drop METHOD]
[--gate PATH]``, where SPEC is
a server peer spec (``legacy:2025-06-18+unknown-32602``). ``--banner`` prints a line of
text on stdout before anything else (a common real-world mistake); ``--stderr`` writes a
line to stderr at start; ``--drop METHOD`` leaves every request of that method unanswered
(repeatable); ``--gate PATH`` holds the start until PATH exists (at most
``GATE_S`` seconds), so a test can keep servers running until it has seen what it looks for,
whatever the machine's speed. Test helper for the probe; not part of mcp-skew.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from mcp_skew.simulator import SimServer, parse_peer

#: the longest a gated start waits (below the probe's 60 s startup bound)
GATE_S = 45.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("spec")
    parser.add_argument("--banner")
    parser.add_argument("--stderr")
    parser.add_argument("--drop", action="append", default=[])
    parser.add_argument("--gate", type=Path)
    args = parser.parse_args()
    if args.gate is not None:
        deadline = time.monotonic() + GATE_S
        while not args.gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    server = SimServer(parse_peer(args.spec, "server"))
    if args.stderr:
        print(args.stderr, file=sys.stderr, flush=True)
    if args.banner:
        print(args.banner, flush=True)
    time.sleep(server.startup_ms / 1000)
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("method") in args.drop:
            continue
        reaction = server.receive(message)
        for reply in reaction.replies:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
        if reaction.exit:
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

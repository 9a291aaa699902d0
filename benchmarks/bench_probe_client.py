"""Benchmark probe-client (a script, not a test): the default server set against one client.

Every run starts the client, which starts the served simulator (``mcp-skew serve``), so the
floor is a client start plus a server start per server, divided by ``--jobs``, plus the
probe waits of the silent servers. It prints the wall time of the whole set, each run's
time, and the slowest run. The client is the scripted test client
(``tests/clients/scripted_client.py``, dual-era, 3 s probe wait) unless a command follows
``--`` (with ``{server}`` in it), e.g. the TypeScript v2 client::

    .venv/bin/python benchmarks/bench_probe_client.py --jobs 2 -- python3 \\
        tests/clients/result_exit.py node mcp_skew/realpeers/servers/ts_client.mjs \\
        $NODE_MODULES --v2 --mode auto --probe-timeout 3000 -- {server}

``--json`` prints one machine-readable line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from mcp_skew.peers import resolve_peer
from mcp_skew.probe_client import probe_client
from mcp_skew.probe_client._runner import ProbeClientOptions, cases
from mcp_skew.probe_client._servers import default_servers
from mcp_skew.versions import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
SCRIPTED = [sys.executable, str(ROOT / "tests" / "clients" / "scripted_client.py"),
            "--probe-timeout", "3", "--", "{server}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=90.0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    argv = argv or SCRIPTED
    servers = cases(default_servers(REGISTRY), lambda s: resolve_peer(s, "server"))
    opts = ProbeClientOptions(servers=servers, registry=REGISTRY, deadline_s=args.timeout,
                              jobs=args.jobs)
    started = time.monotonic()
    report = probe_client(argv, opts)
    wall = time.monotonic() - started
    runs = {r.server: r.seconds for r in report.runs}
    doc = {"wall_s": round(wall, 2), "servers": len(runs), "jobs": args.jobs,
           "works": sum(r.observed.outcome == "works" for r in report.rows),
           "peer": report.inferred.notation, "slowest_s": max(runs.values(), default=0.0),
           "cpus": os.cpu_count(), "python": platform.python_version(), "runs_s": runs}
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"{doc['servers']} servers, {args.jobs} at a time: {doc['wall_s']} s "
          f"({doc['works']} work; slowest run {doc['slowest_s']} s; {doc['cpus']} CPUs)")
    print(f"inferred: {doc['peer']}")
    for server, seconds in runs.items():
        print(f"  {seconds:7.2f} s  {server}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

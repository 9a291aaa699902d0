"""Benchmark ``mcp-skew serve --http`` under load (a script, not a test).

Starts ``mcp-skew serve PEER --http 127.0.0.1:0`` as its own process, then
sends ``--requests`` requests (default 2,000), ``--concurrency`` at once (default
200), each on a connection of its own (the worst case for the listen backlog
and the accept loop): a legacy ``initialize`` (a new session each, default) or,
with ``--peer modern:2026-07-28``, a stateless ``server/discover``. The client is
asyncio with raw sockets in this process, so it does not share the server's
interpreter. Prints the count of answers by status, errors (connection refused
or reset, timeouts, wrong answers), the latency percentiles (from connect to
the last byte of the answer), the throughput and the server's peak memory.

The goal: no error, p95 at most 0.5 s on a 2-core machine (docs/serve-and-record.md).

Run it with ``.venv/bin/python benchmarks/bench_serve_http.py`` (``--json`` for a
machine-readable line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

from mcp_skew import __version__

MODERN_META = "io.modelcontextprotocol/protocolVersion"
MODERN_CAPS = "io.modelcontextprotocol/clientCapabilities"


def _body(peer: str) -> tuple[bytes, dict[str, str]]:
    if peer.startswith("modern"):
        message = {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                   "params": {"_meta": {MODERN_META: "2026-07-28", MODERN_CAPS: {}}}}
        return json.dumps(message).encode(), {"MCP-Protocol-Version": "2026-07-28",
                                              "Mcp-Method": "server/discover"}
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                          "clientInfo": {"name": "bench", "version": "0"}}}
    return json.dumps(message).encode(), {}


async def _one(port: int, data: bytes, timeout: float) -> tuple[float, int | str]:
    start = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port),
                                                timeout)
        try:
            writer.write(data)
            raw = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
    except (OSError, TimeoutError) as exc:
        return time.perf_counter() - start, type(exc).__name__
    elapsed = time.perf_counter() - start
    head, _, body = raw.partition(b"\r\n\r\n")
    try:
        status = int(head.split()[1])
        json.loads(body)
    except (IndexError, ValueError):
        return elapsed, "bad answer"
    return elapsed, status


async def _load(port: int, peer: str, requests: int, concurrency: int, timeout: float
                ) -> list[tuple[float, int | str]]:
    body, extra = _body(peer)
    head = ["POST /mcp HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
            "Accept: application/json, text/event-stream", f"Content-Length: {len(body)}",
            "Connection: close", *(f"{k}: {v}" for k, v in extra.items())]
    data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    gate = asyncio.Semaphore(concurrency)

    async def limited() -> tuple[float, int | str]:
        async with gate:
            return await _one(port, data, timeout)

    return list(await asyncio.gather(*(limited() for _ in range(requests))))


def _peak_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", default="legacy:2025-11-25")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=10.0, help="per request, seconds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", args.peer, "--http", "127.0.0.1:0"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr
        line = proc.stderr.readline()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        started = time.perf_counter()
        results = asyncio.run(_load(port, args.peer, args.requests, args.concurrency,
                                    args.timeout))
        wall = time.perf_counter() - started
        peak = _peak_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    times = sorted(t for t, _ in results)
    outcomes = Counter(str(o) for _, o in results)
    errors = sum(n for o, n in outcomes.items() if o not in ("200",))
    cuts = statistics.quantiles(times, n=100)
    figures: dict[str, Any] = {
        "version": __version__, "python": platform.python_version(), "cpus": os.cpu_count(),
        "peer": args.peer, "requests": args.requests, "concurrency": args.concurrency,
        "outcomes": dict(outcomes), "errors": errors,
        "p50_s": round(cuts[49], 4), "p95_s": round(cuts[94], 4), "p99_s": round(cuts[98], 4),
        "max_s": round(times[-1], 4), "wall_s": round(wall, 3),
        "requests_per_s": round(args.requests / wall, 1), "server_peak_rss_kib": peak,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

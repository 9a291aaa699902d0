"""Measure ``mcp-skew serve --http`` under the load attacks of issue 33 (a script, not a test).

Each part starts ``mcp-skew serve -q PEER --http 127.0.0.1:0`` as its own process (the
``--root`` checkout's code, so that an older one can be measured with the same script) and
attacks it from this process with raw sockets:

- **stall**: ``--attackers`` clients each POST a ``--form-mib`` MiB form body to the test
  authorization server's token endpoint (``legacy:2025-11-25+auth=prm``), while another
  client GETs the protected resource metadata over and over; prints the longest wait of
  that other client while the attack ran, and how long the attack's answers took.
- **tables** (``legacy:2025-11-25+auth=scoped``): ``--big`` registrations whose redirect
  URI is ``--field-mib`` MiB long and as many client-credentials tokens with a scope that
  long (distinct scope names), then ``--small`` ordinary
  registrations and tokens; prints the server's resident memory (VmRSS) before and after
  each batch, and the answers' statuses.
- **streams**: ``--streams`` HTTP+SSE streams (``legacy:2024-11-05``) whose client reads the
  ``endpoint`` event and then nothing; each gets ``--posts`` ``tools/call echo`` of
  ``--echo-kib`` KiB (one POST at a time, so that what stays is what the streams hold);
  prints the server's VmRSS and VmHWM after, how many streams the server closed, and VmRSS
  once the clients have left (what the allocator keeps of memory freed).

The caps these stay under are in docs/serve-and-record.md and docs/auth.md (§Limits of the
test authorization server). Figures (2 busy cores, defaults; before: the code of issue 33,
``--root`` at the commit before the fix; after: this one):

========================================  ==================  =====================
                                          before              after
========================================  ==================  =====================
stall: 4 POSTs of 4 MiB to /auth/token    18.0 s to answer    0.05 s (413 from
                                          (400 each)          Content-Length; the
                                                              client, still sending,
                                                              reads a reset: 0)
stall: other client's longest wait        12.3 s              0.04 s
tables: RSS after 20 registrations with   +76 MB              +6 MB (413; as much as
a 3 MiB redirect URI                                          with none: the first
                                                              requests' imports)
tables: RSS after 20 tokens with a 3 MiB  +845 MB             +0 MB (413)
scope (distinct names, layout scoped)
tables: RSS after 3,000 + 3,000 ordinary  +3 MB               +3 MB (caps: 1,000
registrations and tokens                                      clients, 10,000 tokens)
tables (``--big 0 --small 12000``): RSS  +3.7 MB (12,000     +1.8 MB (1,000 kept)
after 12,000 ordinary registrations      kept)
... and then 12,000 ordinary tokens      +6.0 MB (12,000     +5.8 MB (10,000 kept)
                                          kept)
streams: 60 unread streams, 20 echoes of  1,039 MB, no        133 MB peak (64 MiB
1 MiB each: server RSS                    stream closed       global cap), 35 streams
                                                              closed; 124 MB once the
                                                              clients left
========================================  ==================  =====================

Run it with ``.venv/bin/python benchmarks/bench_serve_attacks.py [--part stall|tables|
streams] [--root /path/to/checkout]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MIB = 1 << 20


@contextmanager
def _serve(root: Path, peer: str) -> Iterator[tuple[int, int]]:
    """``(port, pid)`` of a running ``serve --http``; stopped after."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", peer, "--http", "127.0.0.1:0"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, cwd=root)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _kib(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def _request(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
             ) -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
            f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def _ask(port: int, data: bytes, timeout: float = 120.0) -> tuple[int, bytes, float]:
    """``(status, answer, seconds)`` of one request on a connection of its own (status 0:
    no answer)."""
    start = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(data)
            with contextlib.suppress(OSError):  # refused mid-body (413): read its answer
                await writer.drain()
            raw = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return 0, b"", time.perf_counter() - start
    status = int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else 0
    return status, raw.partition(b"\r\n\r\n")[2], time.perf_counter() - start


# -- stall -------------------------------------------------------------------------------------

async def _stall(port: int, attackers: int, form_mib: float) -> dict[str, Any]:
    size = int(form_mib * MIB)
    pairs = b"x=%41%42&" * (size // 9)
    form = _request("POST", "/auth/token", pairs,
                    {"Content-Type": "application/x-www-form-urlencoded"})
    probe = _request("GET", "/.well-known/oauth-protected-resource/mcp")
    baseline = [(await _ask(port, probe))[2] for _ in range(20)]
    done = asyncio.Event()
    waits: list[float] = []

    async def other_client() -> None:
        while not done.is_set():
            waits.append((await _ask(port, probe))[2])

    watcher = asyncio.ensure_future(other_client())
    start = time.perf_counter()
    answers = await asyncio.gather(*(_ask(port, form) for _ in range(attackers)))
    attack_s = time.perf_counter() - start
    done.set()
    await watcher
    return {"attackers": attackers, "form_bytes": len(pairs),
            "attack_statuses": dict(Counter(str(s) for s, _, _ in answers)),
            "attack_s": round(attack_s, 3),
            "other_client_p50_before_s": round(sorted(baseline)[10], 4),
            "other_client_max_wait_during_s": round(max(waits, default=0.0), 3),
            "other_client_requests_during": len(waits)}


# -- tables ------------------------------------------------------------------------------------

async def _tables(port: int, pid: int, big: int, small: int, field_mib: float,
                  ) -> dict[str, Any]:
    figures: dict[str, Any] = {"rss_start_kib": _kib(pid, "VmRSS")}
    long = "a" * int(field_mib * MIB)
    json_type = {"Content-Type": "application/json"}
    form_type = {"Content-Type": "application/x-www-form-urlencoded"}
    resource = f"http://127.0.0.1:{port}/mcp"

    def registration(uri: str) -> bytes:
        return _request("POST", "/auth/register", json.dumps(
            {"redirect_uris": [uri], "application_type": "native"}).encode(), json_type)

    def token(scope: str) -> bytes:
        return _request("POST", "/auth/token", (
            "grant_type=client_credentials&client_id=mcp-skew-preregistered&"
            f"client_secret=mcp-skew-secret&resource={resource}&scope={scope}").encode(),
            form_type)

    scopes, count = [], 0  # distinct scopes, as many as fit the field
    while count < len(long):
        scopes.append(f"s{len(scopes)}")
        count += len(scopes[-1]) + 1
    scopes_text = "+".join(scopes)
    statuses: Counter[str] = Counter()
    for _ in range(big):
        statuses["big register " + str((await _ask(port, registration(
            "http://127.0.0.1:1/" + long)))[0])] += 1
    figures["rss_after_big_registrations_kib"] = _kib(pid, "VmRSS")
    for _ in range(big):
        statuses["big token " + str((await _ask(port, token(scopes_text)))[0])] += 1
    figures["rss_after_big_tokens_kib"] = _kib(pid, "VmRSS")
    for start in range(0, small, 50):
        for status, _, _ in await asyncio.gather(*(
                _ask(port, registration(f"http://127.0.0.1:1/cb{i}"))
                for i in range(start, min(small, start + 50)))):
            statuses[f"small register {status}"] += 1
    figures["rss_after_small_registrations_kib"] = _kib(pid, "VmRSS")
    for start in range(0, small, 50):
        for status, _, _ in await asyncio.gather(*(
                _ask(port, token("mcp:read")) for _ in range(start, min(small, start + 50)))):
            statuses[f"small token {status}"] += 1
    figures["rss_after_small_tokens_kib"] = _kib(pid, "VmRSS")
    figures["statuses"] = dict(statuses)
    figures["big"], figures["small"], figures["field_bytes"] = big, small, len(long)
    return figures


# -- streams -----------------------------------------------------------------------------------

async def _open_stream(port: int) -> tuple[asyncio.StreamWriter, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    seen = b""
    while b"session_id=" not in seen or b"\n" not in seen.partition(b"session_id=")[2]:
        chunk = await asyncio.wait_for(reader.read(4096), 30)
        if not chunk:
            raise OSError("the stream closed before its endpoint event")
        seen += chunk
    endpoint = seen.split(b"data: ", 1)[1].split(b"\n", 1)[0].decode()
    return writer, endpoint  # never read again


async def _streams(port: int, pid: int, streams: int, posts: int, echo_kib: int,
                   ) -> dict[str, Any]:
    figures: dict[str, Any] = {"rss_start_kib": _kib(pid, "VmRSS")}
    opened = [await _open_stream(port) for _ in range(streams)]
    json_type = {"Content-Type": "application/json"}
    init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"}}}).encode()
    ready = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
    text = "x" * (echo_kib * 1024)
    statuses: Counter[str] = Counter()
    for _, endpoint in opened:
        for body in (init, ready):
            statuses[str((await _ask(port, _request("POST", endpoint, body, json_type)))[0])] += 1
    for n in range(posts):
        call = json.dumps({"jsonrpc": "2.0", "id": n + 1, "method": "tools/call",
                           "params": {"name": "echo", "arguments": {"text": text}}}).encode()
        for _, endpoint in opened:  # one at a time: what stays is the streams', not the POSTs'
            statuses[str((await _ask(port, _request("POST", endpoint, call, json_type)))[0])] += 1
    figures["rss_after_kib"] = _kib(pid, "VmRSS")
    figures["peak_rss_kib"] = _kib(pid, "VmHWM")
    figures["post_statuses"] = dict(statuses)
    figures["streams"], figures["posts_each"], figures["echo_kib"] = streams, posts, echo_kib
    figures["streams_closed_by_server (POSTs answered 404)"] = statuses.get("404", 0)
    for writer, _ in opened:
        writer.close()
    await asyncio.sleep(2)  # the streams see their clients gone (they look every 0.05 s)
    figures["rss_after_clients_left_kib"] = _kib(pid, "VmRSS")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("stall", "tables", "streams"), action="append")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout whose mcp_skew runs the server")
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--form-mib", type=float, default=4.0 - 1 / 64)
    parser.add_argument("--big", type=int, default=20)
    parser.add_argument("--small", type=int, default=3000)
    parser.add_argument("--field-mib", type=float, default=3.0)
    parser.add_argument("--streams", type=int, default=60)
    parser.add_argument("--posts", type=int, default=20)
    parser.add_argument("--echo-kib", type=int, default=1024)
    args = parser.parse_args()
    parts = args.part or ["stall", "tables", "streams"]
    for part in parts:
        if part == "stall":
            with _serve(args.root, "legacy:2025-11-25+auth=prm") as (port, _pid):
                figures = asyncio.run(_stall(port, args.attackers, args.form_mib))
        elif part == "tables":
            with _serve(args.root, "legacy:2025-11-25+auth=scoped") as (port, pid):
                figures = asyncio.run(_tables(port, pid, args.big, args.small, args.field_mib))
        else:
            with _serve(args.root, "legacy:2024-11-05") as (port, pid):
                figures = asyncio.run(_streams(port, pid, args.streams, args.posts,
                                               args.echo_kib))
        print(json.dumps({"part": part, "root": str(args.root), **figures}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure how real MCP servers and clients behave at the protocol seams.

Not a test: a script that installs real implementations in cached, isolated
environments (``mcp_skew.realpeers._envs``), starts each server over stdio,
sends raw newline-delimited JSON-RPC lines with a per-message timeout, and
records every exchange: what was sent, what came back (or "no answer within
X s"), whether the process has exited, its exit code, and its stderr tail.
Clients are measured by pointing them at ``logging_fake_server.py`` and at
real servers.

Usage::

    python benchmarks/measure_real_peers.py [--only NAME ...] [--timeout 3]
        [--out /tmp/mcp-skew-real-peers.json] [--no-clients] [--no-servers]

The JSON output is the raw evidence behind docs/real-peers.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mcp_skew.realpeers._envs import (  # noqa: E402
    EnvironmentUnavailable,
    ensure_npm_env,
    ensure_python_env,
)

SERVERS_DIR = REPO / "mcp_skew" / "realpeers" / "servers"
MODERN = "2026-07-28"
META_PV = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_INFO = "io.modelcontextprotocol/clientInfo"

Json = dict[str, Any]

# ---------------------------------------------------------------------------
# Implementations under test
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PyImpl:
    name: str
    requirements: tuple[str, ...]
    script: str = "py_mcp_server.py"
    extra_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class NpmImpl:
    name: str
    packages: tuple[str, ...]
    extra_args: tuple[str, ...] = ()


PY_IMPLS: list[PyImpl] = [
    PyImpl("mcp-1.0.0", ("mcp==1.0.0", "pydantic==2.10.*")),
    PyImpl("mcp-1.9.4", ("mcp==1.9.4", "pydantic==2.11.*")),
    PyImpl("mcp-1.10.0", ("mcp==1.10.0", "pydantic==2.11.*")),
    PyImpl("mcp-1.22.0", ("mcp==1.22.0",)),
    PyImpl("mcp-1.23.0", ("mcp==1.23.0",)),
    PyImpl("mcp-1.30.0", ("mcp==1.30.0",)),
    PyImpl("mcp-2.0.0", ("mcp==2.0.0",)),
    PyImpl("mcp-2.3.0", ("mcp==2.3.0",)),
    PyImpl("mcp-2.3.0-lowlevel", ("mcp==2.3.0",), extra_args=("--low-level",)),
    PyImpl("fastmcp-4.2.3", ("fastmcp==4.2.3",), script="fastmcp_server.py"),
]
NPM_IMPLS: list[NpmImpl] = [
    NpmImpl("ts-sdk-1.32.2", ("@modelcontextprotocol/sdk@1.32.2",), ("--v1",)),
    NpmImpl(
        "ts-server-2.4.0-serveStdio",
        ("@modelcontextprotocol/server@2.4.0", "@modelcontextprotocol/client@2.4.0"),
        ("--v2",),
    ),
    NpmImpl(
        "ts-server-2.4.0-connect",
        ("@modelcontextprotocol/server@2.4.0", "@modelcontextprotocol/client@2.4.0"),
        ("--v2", "--plain-connect"),
    ),
]

# ---------------------------------------------------------------------------
# A stdio peer spoken to line by line
# ---------------------------------------------------------------------------


def _tail(path: Path, lines: int = 12) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.strip().splitlines()[-lines:])


class StdioPeer:
    """A subprocess whose stdout lines are collected by a reader thread."""

    def __init__(self, cmd: list[str], *, cwd: Path | None = None) -> None:
        self.cmd = cmd
        self._errfile = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in close()
            prefix="mcp-skew-stderr-", suffix=".log", delete=False
        )
        self.stderr_path = Path(self._errfile.name)
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errfile,
            env={
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "NO_COLOR": "1",
                "FASTMCP_LOG_LEVEL": "WARNING",
            },
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.started = time.monotonic()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\n"))
        self.lines.put(None)

    def write(self, obj: Json) -> str | None:
        """Write one line; return an error string if the pipe is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(obj) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def read_until(self, want_id: Any, timeout: float) -> tuple[Json | None, list[Any], bool]:
        """Collect lines until a response with ``want_id``; (response, other lines, eof)."""
        deadline = time.monotonic() + timeout
        others: list[Any] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, others, False
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None, others, False
            if line is None:
                return None, others, True
            try:
                msg = json.loads(line)
            except ValueError:
                others.append({"non_json": line})
                continue
            if isinstance(msg, dict) and "method" not in msg and msg.get("id") == want_id:
                return msg, others, False
            others.append(msg)

    def drain(self, wait: float) -> tuple[list[Any], bool]:
        _, others, eof = self.read_until(object(), wait)
        return others, eof

    def close(self, wait: float = 2.0) -> Json:
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=wait)
            how = "exited after stdin closed"
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                code = self.proc.wait(timeout=2)
                how = "terminated (SIGTERM) after stdin closed"
            except subprocess.TimeoutExpired:
                self.proc.kill()
                code = self.proc.wait()
                how = "killed"
        self._errfile.close()
        info = {"how": how, "exit_code": code, "stderr_tail": _tail(self.stderr_path)}
        with contextlib.suppress(OSError):
            self.stderr_path.unlink()
        return info


# ---------------------------------------------------------------------------
# Message builders
# ---------------------------------------------------------------------------


def meta(version: str = MODERN) -> Json:
    return {
        META_PV: version,
        META_CAPS: {},
        META_INFO: {"name": "mcp-skew-probe", "version": "0"},
    }


def req(rid: int, method: str, params: Json | None = None) -> Json:
    msg: Json = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def init(rid: int, version: str) -> Json:
    return req(
        rid,
        "initialize",
        {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "mcp-skew-probe", "version": "0"},
        },
    )


INITIALIZED: Json = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def modern(rid: int, method: str, params: Json | None = None, version: str = MODERN) -> Json:
    return req(rid, method, {**(params or {}), "_meta": meta(version)})


# ---------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------


@dataclass
class Session:
    peer: StdioPeer
    timeout: float
    exchanges: list[Json] = field(default_factory=list)

    def send(self, msg: Json, label: str = "") -> Json | None:
        t0 = time.monotonic()
        rec: Json = {"label": label or msg.get("method", "?"), "sent": msg}
        err = self.peer.write(msg)
        if err is not None:
            rec["write_error"] = err
        if "id" in msg and err is None:
            resp, others, eof = self.peer.read_until(msg["id"], self.timeout)
            rec["response"] = resp
            if resp is None:
                rec["no_answer"] = "stdout closed (EOF)" if eof else f"no answer within {self.timeout:g} s"
            if others:
                rec["other_messages"] = others
            rec["elapsed_s"] = round(time.monotonic() - t0, 3)
        else:
            others, eof = self.peer.drain(0.3)
            if others:
                rec["other_messages"] = others
            if eof:
                rec["eof"] = True
        time.sleep(0.05)
        code = self.peer.proc.poll()
        rec["process_alive"] = code is None
        if code is not None:
            rec["exit_code"] = code
        self.exchanges.append(rec)
        return rec.get("response")


Scenario = Callable[[Session], None]


def sc_discover_meta(s: Session) -> None:
    """(a) server/discover first with 2026-07-28 _meta; then legacy initialize (h: era fixed?)."""
    s.send(modern(1, "server/discover"), "server/discover with _meta")
    s.send(init(2, "2025-11-25"), "initialize 2025-11-25 after modern discover")
    s.send(INITIALIZED)
    s.send(req(3, "tools/list"), "legacy tools/list after modern-then-initialize")


def sc_discover_nometa(s: Session) -> None:
    """(b) server/discover first WITHOUT _meta; then initialize."""
    s.send(req(1, "server/discover"), "server/discover without _meta")
    s.send(req(2, "server/discover", {}), "server/discover with empty params")
    s.send(init(3, "2025-11-25"), "initialize 2025-11-25 after bare discover")


def sc_ping_first(s: Session) -> None:
    """(c) ping before initialize, then initialize."""
    s.send(req(1, "ping"), "ping before initialize")
    s.send(init(2, "2025-06-18"), "initialize after early ping")


def sc_unknown_first(s: Session) -> None:
    """(d)+(e) foo/bar before initialize, then initialize, initialized, tools/list."""
    s.send(req(1, "foo/bar"), "foo/bar before initialize")
    s.send(init(2, "2025-06-18"), "initialize after foo/bar")
    s.send(INITIALIZED)
    s.send(req(3, "tools/list"), "tools/list")


def sc_tools_list_first(s: Session) -> None:
    """tools/list (legacy shape) before initialize."""
    s.send(req(1, "tools/list"), "tools/list before initialize")
    s.send(init(2, "2025-06-18"), "initialize after early tools/list")


def make_init_version(version: str) -> Scenario:
    def sc(s: Session) -> None:
        s.send(init(1, version), f"initialize {version}")
        s.send(INITIALIZED)
        s.send(req(2, "ping"), "ping after handshake")

    sc.__doc__ = f"(f) initialize with protocolVersion {version}"
    return sc


def sc_operation(s: Session) -> None:
    """(g) after initialize+initialized: the operation-phase probes; then a modern request."""
    s.send(init(1, "2025-06-18"), "initialize 2025-06-18")
    s.send(INITIALIZED)
    s.send(req(2, "tools/list"), "tools/list")
    s.send(req(3, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}), "tools/call echo")
    s.send(req(4, "tools/call", {"name": "fail", "arguments": {"text": "x"}}), "tools/call fail")
    s.send(req(5, "tools/call", {"name": "nosuch", "arguments": {}}), "tools/call nosuch")
    s.send(req(6, "resources/read", {"uri": "mem://hello"}), "resources/read mem://hello")
    s.send(req(7, "resources/read", {"uri": "mem://missing"}), "resources/read missing")
    s.send(req(8, "prompts/list"), "prompts/list")
    s.send(req(9, "foo/bar"), "unknown method after init")
    s.send(modern(10, "server/discover"), "server/discover with _meta after legacy init")
    s.send(modern(11, "tools/list"), "modern tools/list after legacy init")


def sc_modern_first(s: Session) -> None:
    """(h) a modern tools/list as the first request, more modern requests, then initialize."""
    s.send(modern(1, "tools/list"), "modern tools/list first")
    s.send(
        modern(2, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
        "modern tools/call echo",
    )
    s.send(modern(3, "resources/read", {"uri": "mem://missing"}), "modern resources/read missing")
    s.send(modern(4, "tools/list", version="2099-01-01"), "modern tools/list at 2099-01-01")
    s.send(modern(5, "tools/list", version="2025-11-25"), "tools/list with _meta 2025-11-25")
    s.send(req(6, "tools/list", {}), "tools/list without _meta after modern")
    s.send(req(7, "ping"), "ping after modern")
    s.send(init(8, "2025-11-25"), "initialize after modern requests")


def sc_discover_bad_version(s: Session) -> None:
    """server/discover with an unsupported modern version."""
    s.send(modern(1, "server/discover", version="2099-01-01"), "server/discover at 2099-01-01")
    s.send(modern(2, "server/discover"), "server/discover at 2026-07-28 after -32022")


SCENARIOS: dict[str, Scenario] = {
    "a_discover_meta": sc_discover_meta,
    "b_discover_nometa": sc_discover_nometa,
    "c_ping_first": sc_ping_first,
    "de_unknown_first": sc_unknown_first,
    "tools_list_first": sc_tools_list_first,
    **{
        f"f_init_{v}": make_init_version(v)
        for v in ("2025-06-18", "2025-11-25", "2024-11-05", "2026-07-28", "1999-01-01")
    },
    "g_operation": sc_operation,
    "h_modern_first": sc_modern_first,
    "h_discover_bad_version": sc_discover_bad_version,
}


def run_scenario(cmd: list[str], scenario: Scenario, timeout: float) -> Json:
    peer = StdioPeer(cmd)
    time.sleep(0.2)
    s = Session(peer, timeout)
    try:
        scenario(s)
    finally:
        end = peer.close()
    return {"exchanges": s.exchanges, "end": end}


# ---------------------------------------------------------------------------
# Clients
# ---------------------------------------------------------------------------

CLIENT_V2 = r"""
import sys, json, time, anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.client import Client
how, cmd = sys.argv[1], json.loads(sys.argv[2])
params = StdioServerParameters(command=cmd[0], args=cmd[1:])
async def main():
    t0 = time.monotonic()
    try:
        if how == "session":
            async with stdio_client(params) as (r, w):
                async with ClientSession(r, w) as s:
                    res = await s.initialize()
                    out = {"protocol_version": res.protocol_version}
        else:
            async with Client(params, mode=how) as c:
                tl = await c.list_tools()
                out = {"protocol_version": c.protocol_version,
                       "tools": [t.name for t in tl.tools]}
        out["ok"] = True
    except BaseException as e:
        while isinstance(e, BaseExceptionGroup) and e.exceptions:
            e = e.exceptions[0]
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"[:600]}
    out["elapsed_s"] = round(time.monotonic() - t0, 2)
    print("RESULT " + json.dumps(out), flush=True)
anyio.run(main)
"""

CLIENT_V1 = r"""
import sys, json, time, anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
how, cmd = sys.argv[1], json.loads(sys.argv[2])
params = StdioServerParameters(command=cmd[0], args=cmd[1:])
async def main():
    t0 = time.monotonic()
    try:
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                res = await s.initialize()
                out = {"protocol_version": res.protocolVersion}
                tl = await s.list_tools()
                out["tools"] = [t.name for t in tl.tools]
        out["ok"] = True
    except BaseException as e:
        while isinstance(e, BaseExceptionGroup) and e.exceptions:
            e = e.exceptions[0]
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"[:600]}
    out["elapsed_s"] = round(time.monotonic() - t0, 2)
    print("RESULT " + json.dumps(out), flush=True)
anyio.run(main)
"""


def run_client(python: Path, code: str, how: str, server_cmd: list[str], log: Path | None) -> Json:
    if log is not None:
        log.unlink(missing_ok=True)
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            [str(python), "-c", code, how, json.dumps(server_cmd)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        out, err, rc = proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout if isinstance(exc.stdout, str) else ""
        err, rc = "client timed out after 60 s", None
    result: Json = {"exit_code": rc, "wall_s": round(time.monotonic() - t0, 2)}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            result.update(json.loads(line[7:]))
    if "ok" not in result:
        result["stderr_tail"] = "\n".join(err.strip().splitlines()[-8:])
    if log is not None and log.exists():
        result["server_saw"] = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    return result


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def build_envs(only: set[str] | None) -> tuple[dict[str, list[str]], dict[str, Json]]:
    cmds: dict[str, list[str]] = {}
    info: dict[str, Json] = {}
    for p in PY_IMPLS:
        if only and p.name not in only:
            continue
        try:
            env = ensure_python_env(p.requirements)
        except EnvironmentUnavailable as exc:
            info[p.name] = {"unavailable": str(exc)}
            continue
        cmds[p.name] = [str(env.python), str(SERVERS_DIR / p.script), *p.extra_args]
        info[p.name] = {
            "requirements": list(p.requirements),
            "install_seconds": round(env.install_seconds, 1),
            "python": str(env.python),
        }
    for n in NPM_IMPLS:
        if only and n.name not in only:
            continue
        try:
            nenv = ensure_npm_env(n.packages)
        except EnvironmentUnavailable as exc:
            info[n.name] = {"unavailable": str(exc)}
            continue
        cmds[n.name] = [
            "node",
            str(SERVERS_DIR / "ts_sdk_server.mjs"),
            str(nenv.node_modules),
            *n.extra_args,
        ]
        info[n.name] = {
            "packages": list(n.packages),
            "install_seconds": round(nenv.install_seconds, 1),
            "node_modules": str(nenv.node_modules),
        }
    return cmds, info


def measure_clients(cmds: dict[str, list[str]]) -> Json:
    fake = SERVERS_DIR / "logging_fake_server.py"
    log = Path(tempfile.gettempdir()) / "mcp-skew-fake-server.jsonl"
    results: Json = {}
    v2 = ensure_python_env(("mcp==2.3.0",)).python
    v1 = ensure_python_env(("mcp==1.22.0",)).python

    def fake_cmd(*args: str) -> list[str]:
        return [sys.executable, str(fake), "--log", str(log), *args]

    fakes = {
        "fake-silent-legacy": fake_cmd("--unknown", "silent"),
        "fake-32601-legacy": fake_cmd("--unknown=-32601"),
        "fake-32602-legacy": fake_cmd("--unknown=-32602"),
        "fake-silent-exit-on-unknown": fake_cmd("--exit-on-unknown"),
        "fake-modern": fake_cmd("--discover", "result"),
        "fake-32022-legacy-listed": fake_cmd("--discover=-32022:2025-11-25,2026-07-28"),
        "fake-32022-modern-only-disjoint": fake_cmd("--discover=-32022:2099-01-01"),
        "fake-answers-1999": fake_cmd("--unknown=-32601", "--answer-version", "1999-01-01"),
        "fake-answers-2024": fake_cmd("--unknown=-32601", "--answer-version", "2024-11-05"),
    }
    for how in ("auto", "legacy", "session"):
        for fname, fcmd in fakes.items():
            results[f"mcp-2.3.0 client mode={how} vs {fname}"] = run_client(v2, CLIENT_V2, how, fcmd, log)
    for fname in ("fake-32601-legacy", "fake-answers-1999", "fake-answers-2024", "fake-modern"):
        results[f"mcp-1.22.0 client vs {fname}"] = run_client(v1, CLIENT_V1, "", fakes[fname], log)
    for sname in ("mcp-1.0.0", "mcp-1.9.4", "mcp-1.22.0", "mcp-2.3.0", "ts-sdk-1.32.2"):
        if sname in cmds:
            for how in ("auto", "legacy"):
                results[f"mcp-2.3.0 client mode={how} vs real {sname}"] = run_client(
                    v2, CLIENT_V2, how, cmds[sname], None
                )
            results[f"mcp-1.22.0 client vs real {sname}"] = run_client(v1, CLIENT_V1, "", cmds[sname], None)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="implementation names to measure")
    ap.add_argument("--scenario", nargs="*", help="scenario names to run")
    ap.add_argument("--timeout", type=float, default=3.0, help="per-message answer timeout, seconds")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "mcp-skew-real-peers.json")
    ap.add_argument("--no-clients", action="store_true")
    ap.add_argument("--no-servers", action="store_true")
    ap.add_argument("--jobs", type=int, default=2, help="scenarios run in parallel")
    args = ap.parse_args()

    cmds, info = build_envs(set(args.only) if args.only else None)
    report: Json = {"timeout_s": args.timeout, "environments": info, "servers": {}, "clients": {}}
    if not args.no_servers:
        chosen = {k: v for k, v in SCENARIOS.items() if not args.scenario or k in args.scenario}
        jobs = [(impl, sname) for impl in cmds for sname in chosen]
        with ThreadPoolExecutor(args.jobs) as pool:
            futs = {
                job: pool.submit(run_scenario, cmds[job[0]], chosen[job[1]], args.timeout) for job in jobs
            }
            for (impl, sname), fut in futs.items():
                entry = fut.result()
                entry["command"] = cmds[impl]
                report["servers"].setdefault(impl, {})[sname] = entry
                print(f"{impl:28s} {sname:24s} done", file=sys.stderr, flush=True)
    if not args.no_clients:
        report["clients"] = measure_clients(cmds)
    args.out.write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

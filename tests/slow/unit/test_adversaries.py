"""probe, record and replay against hostile servers (tests/_adversaries/server.py): each run
ends in bounded time, with a documented exit code and no traceback, and leaves no process of
the server's behind (the process table is read after each run)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from _paths import ADVERSARY
from _waits import BOUND_S

from mcp_skew.serve._log import LogWriter

pytestmark = pytest.mark.slow

MODES = ["hang", "exit", "junk", "flood", "huge", "storm", "ignore-term", "setsid",
         "surrogates", "deep"]
MCP_SKEW = [sys.executable, "-m", "mcp_skew"]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "0"}}}
#: A line of 200 KB: more than a pipe holds, so a server that never reads blocks its writer.
BIG = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
       "params": {"name": "echo", "arguments": {"text": "x" * 200_000}}}


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _state(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return "Z"


def left_behind(token: str) -> list[int]:
    """Live processes whose command line carries ``token`` (zombies are dead already)."""
    mine = token.encode()
    return [int(pid) for pid in os.listdir("/proc")
            if pid.isdigit() and mine in _cmdline(pid) and _state(pid) != "Z"]


@contextlib.contextmanager
def adversary(mode: str) -> Iterator[list[str]]:
    """The command of an adversary; after the block, the process table must hold none of its
    processes (any found are killed, so one failure does not spill into the next test)."""
    token = f"adv-{uuid.uuid4().hex}"
    try:
        yield [sys.executable, str(ADVERSARY), mode, token]
    finally:
        deadline = time.monotonic() + BOUND_S  # a process killed a moment ago may still be exiting
        while left_behind(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = left_behind(token)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left behind by {mode}: {left}"


def run(cmd: list[str], data: bytes = b"", *, term_after: float | None = None,
        started: Path | None = None, bound: float = 2 * BOUND_S) -> tuple[int, str, float]:
    """Run ``cmd`` with ``data`` on standard input; SIGTERM it ``term_after`` seconds after
    ``started`` (a log) names a started server, as a client stops a server it started.
    Returns (code, stderr, seconds)."""
    start = time.monotonic()
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE) as proc:
        assert proc.stdin and proc.stderr
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(data)
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        while started is not None and proc.poll() is None and time.monotonic() - start < bound \
                and b'"event": "start"' not in (started.read_bytes() if started.exists() else b""):
            time.sleep(0.05)
        if term_after is not None:
            try:
                proc.wait(term_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGTERM)
        try:
            err = proc.stderr.read() if proc.wait(bound) is not None else b""
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail(f"{cmd[2:4]} did not end within {bound} s")
    return proc.returncode, err.decode(errors="replace"), time.monotonic() - start


def lines(*messages: object) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def probe(mode: str, tmp_path: Path) -> None:
    with adversary(mode) as server:
        code, err, took = run([*MCP_SKEW, "probe", "--quiet", "--no-prober",
                               "--client", "dual:2026-07-28,2025-11-25", "--timeout", "1",
                               "--probe-timeout", "1", "--client-timeout", "8",
                               "--startup-timeout", "3",
                               "--format", "json", "--record", str(tmp_path / "rec"),
                               "--", *server])
    assert "Traceback" not in err
    # 2: a server that never answers anything did not start (one line, no card)
    assert code == 0 or (code == 2 and "mcp-skew: error: the server did not start: " in err), err
    assert took < BOUND_S  # --client-timeout 8 bounds it: seconds, even on a loaded machine


def record(mode: str, tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    with adversary(mode) as server:
        code, err, took = run([*MCP_SKEW, "record", "--log", str(log), "--", *server],
                              lines(INIT, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
                              term_after=0.5, started=log)
    assert "Traceback" not in err
    # the server's own code; 128+N for a signal: SIGTERM passed on, SIGKILL after the grace;
    # or our SIGTERM came as record was exiting, its work done (the server's exit logged)
    done = b'"event": "exit"' in log.read_bytes()
    assert code in (0, 3, 128 + signal.SIGTERM, 128 + signal.SIGKILL) or \
        (code == -signal.SIGTERM and done), (code, err)
    assert took < BOUND_S  # stopped half a second after the start, then a grace
    show = subprocess.run([*MCP_SKEW, "show-log", str(log)], capture_output=True, timeout=60,
                          check=False)
    assert show.returncode == 0 and b"Traceback" not in show.stderr


def replay(mode: str, tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    writer = LogWriter(log)
    for message in (INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, BIG):
        writer.line("c2s", json.dumps(message))
    writer.close()
    with adversary(mode) as server:
        code, err, took = run([*MCP_SKEW, "replay", str(log), "--timeout", "1", "--",
                               *server])
    assert "Traceback" not in err
    assert code in (0, 1), (code, err)  # 1: the answers differ from the recording
    assert took < BOUND_S  # --timeout 1 per answer


@pytest.mark.parametrize("mode", MODES)
def test_probe_record_and_replay(mode: str, tmp_path: Path) -> None:
    """The three commands at once (they wait more than they compute), each with its own
    adversary; every failure is reported."""
    runs = {"probe": probe, "record": record, "replay": replay}
    with ThreadPoolExecutor(len(runs)) as pool:
        futures = {}
        for name, check in runs.items():
            (tmp_path / name).mkdir()
            futures[name] = pool.submit(check, mode, tmp_path / name)
    failed = {name: repr(f.exception()) for name, f in futures.items() if f.exception()}
    assert not failed


def test_record_with_a_log_it_cannot_write_leaves_no_server() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with adversary("ignore-term") as server:
        code, err, _ = run([*MCP_SKEW, "record", "--log", "/dev/full", "--", *server],
                           lines(INIT))
    assert code == 2 and "cannot write the log /dev/full" in err
    assert "Traceback" not in err

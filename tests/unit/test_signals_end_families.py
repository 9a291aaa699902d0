"""Every signal ends the family: SIGTERM, SIGINT and SIGHUP to ``record``, ``probe``,
``census`` and ``serve`` (and SIGKILL to the first three) leave no process behind, not even
a grandchild that left by a double fork, ``setsid`` and an ``exec`` with an empty environment
(``tests/_adversaries/escape_server.py``); and such a grandchild does not outlive a command that
ends normally (``record``, ``probe``, ``replay``, ``census``) either.

Each test marks every process of its own with a fresh token in the command line and waits on
events (the token's processes appearing, the command exiting); the one bound on the processes
going is far above the second or so it takes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _proctree import default_signals

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")]

ESCAPE = Path(__file__).resolve().parents[1] / "_adversaries" / "escape_server.py"
MCP_SKEW = [sys.executable, "-m", "mcp_skew"]
START_S = 120.0  #: for a command to get as far as the test waits for (a busy machine)
GONE_S = 20.0  #: for every process to be gone (it takes about a second)
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}


def _table() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent, command line) of every live process."""
    out: dict[int, tuple[int, bytes]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if fields[0] != b"Z":
            out[int(name)] = (int(fields[1]), cmdline)
    return out


def with_token(token: str) -> list[int]:
    return [pid for pid, (_, cmd) in _table().items() if token.encode() in cmd]


def descendants(root: int) -> set[int]:
    table = _table()
    found: set[int] = set()
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, _) in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def wait_for(what: Callable[[], object], bound_s: float, why: str) -> None:
    give_up = time.monotonic() + bound_s
    while not what():
        assert time.monotonic() < give_up, why
        time.sleep(0.05)


def assert_gone(token: str, also: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    def gone() -> bool:
        live = _table()
        return not with_token(token) and not (also & live.keys())
    wait_for(gone, GONE_S, f"left behind: {with_token(token)} "
                           f"{sorted(also & _table().keys())}")



@contextlib.contextmanager
def running(argv: list[str], token: str, *, stdin: int = subprocess.PIPE,
            escaped: int = 1) -> Iterator[subprocess.Popen[bytes]]:
    """``argv`` started; yields once the escaped grandchild runs (``escaped`` of them)."""
    proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=default_signals)  # noqa: PLW1509 - dispositions only
    try:
        wait_for(lambda: len(with_token(f"{token}-escaped")) >= escaped or proc.poll() is not None,
                 START_S, "the server's grandchild never started")
        assert proc.poll() is None, proc.communicate()[1].decode()
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=START_S)
        for pid in with_token(token):  # never leave them to the next test
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def stop(proc: subprocess.Popen[bytes], sig: int) -> set[int]:
    """Send ``sig``; the command's descendants at that moment (they must go too)."""
    family = descendants(proc.pid)
    proc.send_signal(sig)
    proc.wait(START_S)
    return family


def server(token: str, mode: str = "answer") -> list[str]:
    return [sys.executable, str(ESCAPE), token, mode]


def _token() -> str:
    return f"fam-{uuid.uuid4().hex}"


# -- record ----------------------------------------------------------------------------------
@pytest.mark.parametrize("sig", [*SIGNALS, signal.SIGKILL], ids=lambda s: s.name)
def test_a_signal_to_record_ends_its_family(tmp_path: Path, sig: signal.Signals) -> None:
    token = _token()
    with running([*MCP_SKEW, "record", "--log", str(tmp_path / "w.jsonl"), "--",
                  *server(token)], token) as proc:
        family = stop(proc, sig)
        assert proc.returncode != 0
    assert_gone(token, family)


@pytest.mark.parametrize("delay_s", [0.0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0])
def test_sigterm_right_after_record_starts_ends_it_and_leaves_nothing(
        tmp_path: Path, delay_s: float) -> None:
    # at each moment of its start (the interpreter, the parser, the registry, the lazy imports,
    # the server starting): stopped, never run on with its server (its stdin stays open)
    token = _token()
    proc = subprocess.Popen([*MCP_SKEW, "record", "--log", str(tmp_path / "w.jsonl"), "--",
                             *server(token)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(delay_s)  # where in its start the signal lands (a lower bound: safe)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(START_S)  # a stop that was lost would run on: this would time out
        # stopped while starting (-15 in the interpreter's own start, else 143), or the
        # server was up: passed on, and this server ignores SIGTERM, so killed after the grace
        assert code in (-signal.SIGTERM, 128 + signal.SIGTERM, 128 + signal.SIGKILL), \
            proc.communicate()[1]
        assert b"Traceback" not in proc.communicate()[1]
        assert_gone(token)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
        for pid in with_token(token):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_record_ending_normally_leaves_no_escaped_grandchild(tmp_path: Path) -> None:
    token = _token()
    data = (json.dumps(INIT) + "\n").encode()
    proc = subprocess.run([*MCP_SKEW, "record", "--log", str(tmp_path / "w.jsonl"), "--",
                           *server(token)], input=data, capture_output=True, timeout=START_S,
                          check=False)
    assert b'"result"' in proc.stdout
    assert_gone(token)


# -- probe -----------------------------------------------------------------------------------
@pytest.mark.parametrize("sig", [*SIGNALS, signal.SIGKILL], ids=lambda s: s.name)
def test_a_signal_to_probe_ends_its_family(sig: signal.Signals) -> None:
    token = _token()
    with running([*MCP_SKEW, "probe", "--timeout", "60", "--", *server(token, "hang")],
                 token) as proc:
        family = stop(proc, sig)
        if sig != signal.SIGKILL:
            assert proc.returncode == 128 + sig, proc.communicate()[1]
    assert_gone(token, family)


def test_probe_ending_normally_leaves_no_escaped_grandchild() -> None:
    token = _token()
    proc = subprocess.run([*MCP_SKEW, "probe", "--", *server(token)], capture_output=True,
                          timeout=START_S * 3, check=False)
    assert b"Traceback" not in proc.stderr
    assert_gone(token)


# -- replay ----------------------------------------------------------------------------------
def test_replay_leaves_no_escaped_grandchild(tmp_path: Path) -> None:
    log = tmp_path / "w.jsonl"
    first = _token()
    subprocess.run([*MCP_SKEW, "record", "--log", str(log), "--", *server(first)],
                   input=(json.dumps(INIT) + "\n").encode(), capture_output=True,
                   timeout=START_S, check=True)
    token = _token()
    proc = subprocess.run([*MCP_SKEW, "replay", str(log), "--", *server(token)],
                          capture_output=True, timeout=START_S, check=False)
    assert b"Traceback" not in proc.stderr
    assert_gone(first)
    assert_gone(token)


# -- census ----------------------------------------------------------------------------------
def _listing(tmp_path: Path, token: str, mode: str, count: int = 1) -> Path:
    servers = [{"server": {
        "name": f"io.example/escape-{i}", "version": "1.0.0", "description": "escapes",
        "packages": [{"registryType": "local", "identifier": ESCAPE.name, "version": "1.0.0",
                      "transport": {"type": "stdio"},
                      "packageArguments": [{"type": "positional", "value": token},
                                           {"type": "positional", "value": mode}]}]},
        "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active",
                                                                 "isLatest": True}}}
        for i in range(count)]
    path = tmp_path / "listing.json"
    path.write_text(json.dumps([{"servers": servers}]))
    return path


def _census(tmp_path: Path, token: str, mode: str, *extra: str) -> list[str]:
    return [*MCP_SKEW, "census", str(_listing(tmp_path, token, mode)), "--db",
            str(tmp_path / "c.sqlite"), "--local-root", str(ESCAPE.parent), "--sandbox", "none",
            "--jobs", "1", "--probe-jobs", "1", *extra]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: s.name)
def test_a_signal_to_census_ends_its_workers_and_servers(tmp_path: Path,
                                                         sig: signal.Signals) -> None:
    token = _token()
    # a server that never answers: each of its clients waits its full timeout, so the job
    # (and a worker left behind) would run for many minutes
    argv = _census(tmp_path, token, "hang", "--timeout", "120", "--client-timeout", "120")
    with running(argv, token) as proc:
        family = stop(proc, sig)
        if sig != signal.SIGKILL:
            assert proc.returncode == 128 + sig
    assert family, "the census had no worker"
    assert_gone(token, family)


def test_sigint_to_census_lets_the_running_job_finish_then_leaves_nothing(tmp_path: Path
                                                                          ) -> None:
    token = _token()  # Ctrl-C: start nothing new, keep what runs (it ends within its bounds)
    # a server that never answers keeps the job running whatever the machine's speed (an
    # answering one can finish before the signal); short bounds end it: two starts of 3 s
    argv = _census(tmp_path, token, "hang", "--timeout", "2", "--client-timeout", "5",
                   "--startup-timeout", "3")
    with running(argv, token) as proc:
        family = stop(proc, signal.SIGINT)
        assert proc.returncode == 128 + signal.SIGINT
    assert_gone(token, family)


def test_census_ending_normally_leaves_no_escaped_grandchild(tmp_path: Path) -> None:
    token = _token()
    proc = subprocess.run(_census(tmp_path, token, "answer"), capture_output=True,
                          timeout=START_S * 3, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    assert_gone(token)


# -- serve -----------------------------------------------------------------------------------
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("how", [[], ["--http", "127.0.0.1:0"]], ids=["stdio", "http"])
def test_a_signal_ends_serve_without_a_traceback(tmp_path: Path, sig: signal.Signals,
                                                 how: list[str]) -> None:
    token = _token()  # serve starts no process; its own must go, and quietly
    log = tmp_path / f"{token}.jsonl"
    proc = subprocess.Popen([*MCP_SKEW, "serve", "legacy:2025-06-18", *how, "--record",
                             str(log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=default_signals)  # noqa: PLW1509 - as above
    try:
        wait_for(lambda: b'"event": "start"' in (log.read_bytes() if log.exists() else b""),
                 START_S, "serve did not start")
        family = descendants(proc.pid)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=START_S)
        # stopped as every command is (docs/serve-and-record.md): 128 + the signal's number
        assert proc.returncode == 128 + sig, err
        assert f"mcp-skew: stopped ({sig.name})".encode() in err, err
        assert b"Traceback" not in err, err.decode()
        assert_gone(token, family)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

"""``mcp-skew record``: a transparent stdio proxy that logs every line, with tiny servers.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_record_proxy.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _serve_helpers import readline
from _waits import BOUND_S

from mcp_skew.serve._log import read_log

TIMEOUT = BOUND_S


#: Echoes each chunk of stdin to stdout unchanged, notes it on stderr; exits 0 at EOF,
#: or as argv[1] says: "exit:N" after the first chunk, "kill" (SIGKILL itself), "term"
#: (prints 'ready', then on SIGTERM prints 'got TERM' and exits 0), "wait-eof".
ECHO = r'''
import os, signal, sys
mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode == "term":
    def on_term(signum, frame):
        os.write(1, b"got TERM\n")
        os._exit(0)
    signal.signal(signal.SIGTERM, on_term)
    os.write(1, b"ready\n")
    signal.pause()
if mode == "wait-eof":
    while os.read(0, 65536):
        pass
    os.write(1, b"saw EOF\n")
    sys.exit(0)
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    os.write(1, chunk)
    os.write(2, b"echoed %d bytes\n" % len(chunk))
    if mode.startswith("exit:"):
        sys.exit(int(mode[5:]))
    if mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
'''


@pytest.fixture
def echo(tmp_path: Path) -> Path:
    path = tmp_path / "echo.py"
    path.write_text(ECHO)
    return path


def record(log: Path, echo: Path, *args: str, data: bytes = b"") -> subprocess.CompletedProcess[
        bytes]:
    return subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
                           sys.executable, str(echo), *args], input=data, capture_output=True,
                          timeout=TIMEOUT, check=False)


def joined(log: Path, direction: str) -> bytes:
    entries, _ = read_log(log)
    out = b""
    for e in entries:
        if e.dir == direction:
            assert e.line is not None
            out += e.line.encode("utf-8", "surrogateescape") + (b"" if e.partial else b"\n")
    return out


#: Awkward bytes: unicode, invalid UTF-8, CRLF, an empty line, a long line, no final newline.
AWKWARD = (b'{"jsonrpc":"2.0","id":1,"method":"initialize"}\n'
           + "caf\u00e9 \u2603 \U0001f600\n".encode()
           + b"\xff\xfe invalid utf-8 \xc3\n"
           + b"crlf line\r\n"
           + b"\n"
           + b"x" * 200_000 + b"\n"
           + b"no newline at the end")


def test_bytes_pass_unchanged_and_the_log_rebuilds_them(tmp_path: Path, echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = record(log, echo, data=AWKWARD)
    assert proc.returncode == 0
    assert proc.stdout == AWKWARD  # the echo server returns what it got: the proxy is clean
    assert joined(log, "c2s") == AWKWARD
    assert joined(log, "s2c") == AWKWARD
    entries, warnings = read_log(log)
    assert not warnings
    first = next(e for e in entries if e.dir == "c2s")
    assert first.message == {"jsonrpc": "2.0", "id": 1, "method": "initialize"}
    assert next(e for e in entries if e.dir == "c2s" and e.partial).line == \
        "no newline at the end"


def test_stderr_passes_through_and_is_logged(tmp_path: Path, echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = record(log, echo, data=b"hello\n")
    assert b"echoed 6 bytes" in proc.stderr
    entries, _ = read_log(log)
    assert any(e.dir == "stderr" and e.line == "echoed 6 bytes" for e in entries)
    assert entries[0].kind == "start" and entries[0].get("argv")[-1] == str(echo)
    assert entries[-1].kind == "exit" and entries[-1].get("code") == 0


def test_a_crash_is_logged_with_its_exit_code(tmp_path: Path, echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = record(log, echo, "exit:3", data=b"one\ntwo\n")
    assert proc.returncode == 3
    entries, _ = read_log(log)
    assert entries[-1].text == "server exited with code 3"


def test_a_kill_is_logged_with_its_signal(tmp_path: Path, echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = record(log, echo, "kill", data=b"one\n")
    assert proc.returncode == 128 + signal.SIGKILL
    entries, _ = read_log(log)
    assert entries[-1].get("signal") == "SIGKILL"
    assert any(e.dir == "c2s" and e.line == "one" for e in entries)  # nothing seen is lost


def test_closing_our_stdin_closes_the_servers(tmp_path: Path, echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = record(log, echo, "wait-eof", data=b"a\nb\n")
    assert proc.returncode == 0 and proc.stdout == b"saw EOF\n"
    events = [e.kind for e in read_log(log)[0] if e.dir == "event"]
    assert events == ["start", "eof", "exit"]


def test_sigterm_is_passed_on_and_the_log_is_flushed_as_it_goes(tmp_path: Path,
                                                                echo: Path) -> None:
    log = tmp_path / "wire.jsonl"
    cmd = [sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
           sys.executable, str(echo), "term"]
    # its own process group, so a failing test can stop the proxy and its server together
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          start_new_session=True) as proc:
        try:
            assert proc.stdout
            assert readline(proc.stdout, TIMEOUT) == b"ready\n"
            lines = [e.line for e in read_log(log)[0] if e.dir == "s2c"]
            assert lines == ["ready"]  # already on disk while everything still runs
            proc.send_signal(signal.SIGTERM)
            assert readline(proc.stdout, TIMEOUT) == b"got TERM\n"
            assert proc.wait(TIMEOUT) == 0
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    entries, _ = read_log(log)
    assert any(e.kind == "signal" and e.get("signal") == "SIGTERM" for e in entries)


def test_a_command_that_cannot_run(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
                           str(tmp_path / "no-such-server")], capture_output=True,
                          timeout=TIMEOUT, check=False)
    assert proc.returncode == 127 and b"cannot run" in proc.stderr
    assert read_log(log)[0][0].kind == "spawn-failed"


def test_record_needs_a_command(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log",
                           str(tmp_path / "x.jsonl"), "--"], capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    assert proc.returncode == 2 and "give the server command after --" in proc.stderr


def test_proxy_in_front_of_a_simulated_server(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    data = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "t", "version": "0"}}}) + "\n").encode()
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
                           sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-06-18"],
                          input=data, capture_output=True, timeout=TIMEOUT, check=False)
    assert proc.returncode == 0
    assert joined(log, "c2s") == data and joined(log, "s2c") == proc.stdout
    assert json.loads(proc.stdout)["result"]["protocolVersion"] == "2025-06-18"

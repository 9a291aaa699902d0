"""``mcp-skew record`` when it is stopped: a forwarded unterminated line is logged, a server
that ignores the signal is killed after the grace, and a proxy killed outright takes its
server down (the supervisor's PR_SET_PDEATHSIG)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from _paths import ADVERSARY
from _waits import BOUND_S, until

from mcp_skew.serve._log import LineSplitter, read_log

pytestmark = pytest.mark.slow

TIMEOUT = BOUND_S


def _alive(token: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if token.encode() in Path(f"/proc/{pid}/cmdline").read_bytes() and \
                    Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
                found.append(int(pid))
        except (OSError, IndexError):
            continue
    return found


@contextlib.contextmanager
def recording(tmp_path: Path, mode: str) -> Iterator[tuple[subprocess.Popen[bytes], Path, str]]:
    token = f"adv-{uuid.uuid4().hex}"
    log = tmp_path / "wire.jsonl"
    cmd = [sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
           sys.executable, str(ADVERSARY), mode, token]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        until(lambda: b'"event": "start"' in (log.read_bytes() if log.exists() else b""),
              "record to start its server")
        yield proc, log, token
    finally:
        with contextlib.suppress(OSError):
            proc.kill()
        proc.communicate(timeout=TIMEOUT)
        with contextlib.suppress(AssertionError):  # a process killed a moment ago may be exiting
            until(lambda: not _alive(token), "the server to be gone")
        left = _alive(token)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, "the server outlived record"


def test_a_forwarded_unterminated_line_is_logged_when_record_is_stopped(tmp_path: Path) -> None:
    with recording(tmp_path, "ignore-term") as (proc, log, _):
        assert proc.stdin
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,')
        proc.stdin.flush()
        # the server answered the first line: it is up, ignoring SIGTERM, and record has read
        # what followed that line in the same chunk
        until(lambda: any(e.dir == "s2c" for e in read_log(log)[0]), "the answer to the first line")
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(TIMEOUT)
        took = time.monotonic() - start
    assert code == 128 + signal.SIGKILL  # the server ignored SIGTERM: killed after the grace
    assert took < TIMEOUT  # the grace, not for ever
    entries, _ = read_log(log)
    sent = [e for e in entries if e.dir == "c2s"]
    assert [e.line for e in sent] == ['{"jsonrpc":"2.0","id":1,"method":"ping"}',
                                      '{"jsonrpc":"2.0","id":2,']
    assert sent[-1].partial
    assert [e.kind for e in entries if e.dir == "event"][-1] == "exit"


def test_record_killed_outright_takes_its_server_down(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux only")
    with recording(tmp_path, "ignore-term") as (proc, _, token):
        assert _alive(token)
        proc.kill()  # SIGKILL: no handler runs; the kernel sends the server SIGKILL
        proc.wait(TIMEOUT)
        until(lambda: not _alive(token), "the kernel to end the server")


def test_the_line_splitter_cuts_any_chunking_the_same() -> None:
    data = b'{"a":1}\n\n' + b"x" * 100_000 + b"\nlast"
    for size in (1, 7, 4096, len(data)):
        split = LineSplitter()
        got = [line for i in range(0, len(data), size) for line in split.feed(data[i:i + size])]
        assert got == [b'{"a":1}', b"", b"x" * 100_000]
        assert split.finish() == b"last"

"""``mcp-skew serve PEER`` on stdio: a simulated server driven by a process writing lines.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_serve_stdio.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import initialize, modern, readline, request

from mcp_skew.serve._log import read_log

TIMEOUT = 60  # a bound that only stops a hang: the work takes a second or two


def discover(msg_id: int = 0, rev: str = "2026-07-28") -> dict[str, Any]:
    return modern(msg_id, "server/discover", rev=rev)


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def lines(*messages: Any) -> bytes:
    return b"".join((m if isinstance(m, str) else json.dumps(m)).encode() + b"\n"
                    for m in messages)


def serve(peer: str, data: bytes, *extra: str) -> tuple[int, list[Any], str]:
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "serve", peer, *extra],
                          input=data, capture_output=True, timeout=TIMEOUT, check=False)
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    return proc.returncode, out, proc.stderr.decode()


# -- over a real process -------------------------------------------------------------------

def test_legacy_initialize_counter_offer_over_stdio() -> None:
    code, out, err = serve("legacy:2025-06-18", lines(initialize(), INITIALIZED,
                                                      request(2, "tools/list")))
    assert code == 0
    assert out[0]["result"]["protocolVersion"] == "2025-06-18"
    assert [t["name"] for t in out[1]["result"]["tools"]] == ["echo", "fail"]
    assert "recv initialize id=1" in err and "standard input closed" in err


def test_modern_discover_over_stdio() -> None:
    code, out, _ = serve("modern:2026-07-28", lines(discover()))
    result = out[0]["result"]
    assert code == 0 and result["supportedVersions"] == ["2026-07-28"]
    assert {"resultType", "ttlMs", "cacheScope"} <= result.keys()


def test_dual_era_answers_both_eras() -> None:
    _, out, _ = serve("dual:2026-07-28,2025-11-25", lines(discover(), initialize()))
    assert out[0]["result"]["supportedVersions"] == ["2026-07-28"]
    assert out[1]["result"]["protocolVersion"] == "2025-11-25"


def test_silent_leaves_the_probe_unanswered() -> None:
    code, out, err = serve("legacy:2025-06-18+silent", lines(discover(), initialize()))
    assert code == 0
    assert [m["id"] for m in out] == [1]  # only initialize is answered
    assert "no answer to server/discover id=0" in err


def test_silent_exit_exits_on_the_next_input_with_stdin_still_open() -> None:
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-06-18+silent-exit"]
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        assert proc.stdin and proc.stdout
        try:
            proc.stdin.write(lines(discover()))
            proc.stdin.flush()
            time.sleep(0.5)
            assert proc.poll() is None  # silent, still alive
            proc.stdin.write(lines(initialize()))
            proc.stdin.flush()
            assert proc.wait(TIMEOUT) == 1
            assert proc.stdout.read() == b""  # it never answered
        finally:
            proc.kill()


def test_slow_start_delays_the_first_answer() -> None:
    # timed from the spawn: the server sleeps 3 s once started, so no answer comes sooner
    # however busy the machine (a slow machine only makes the wait longer)
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-11-25+slow=3000"]
    started = time.monotonic()
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as proc:
        assert proc.stdin and proc.stdout
        try:
            proc.stdin.write(lines(initialize()))
            proc.stdin.flush()
            answer = readline(proc.stdout, TIMEOUT)
            waited = time.monotonic() - started
            assert json.loads(answer)["id"] == 1
            assert waited >= 3.0
        finally:
            proc.kill()
            proc.wait(TIMEOUT)


def test_stdout_carries_only_mcp_messages_and_record_keeps_the_transcript(tmp_path: Path
                                                                          ) -> None:
    log = tmp_path / "serve.jsonl"
    data = lines(discover(), initialize(), INITIALIZED, "not json")
    code, out, _ = serve("legacy:2025-06-18+unknown-32602", data, "--record", str(log))
    assert code == 0 and all(m["jsonrpc"] == "2.0" for m in out)
    assert out[0]["error"]["code"] == -32602 and out[-1]["error"]["code"] == -32700
    entries, warnings = read_log(log)
    assert not warnings
    sent = [e.line for e in entries if e.dir == "c2s"]
    assert "\n".join(sent) + "\n" == data.decode()
    assert [e.message for e in entries if e.dir == "s2c"] == out
    assert entries[0].kind == "start" and entries[-1].kind == "client-eof"


def test_quiet_keeps_stderr_empty() -> None:
    _, _, err = serve("legacy:2025-06-18", lines(initialize()), "-q")
    assert err == ""


def test_bad_peer_is_one_line_and_exit_2() -> None:
    code, out, err = serve("legacy:2026-07-28", b"")
    assert code == 2 and out == []
    assert err.count("\n") == 1 and "legacy peer takes legacy revisions only" in err


def test_serve_ts_sdk_1_drops_a_malformed_line_as_the_real_server_does() -> None:
    code, out, _ = serve("ts-sdk@1", lines("{not json", request(1, "ping")), "-q")
    assert code == 0 and out == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_outlives_stdin_over_a_real_process_ends_on_sigterm() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "mcp_skew", "serve",
                             "server-everything@2025.5.12"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(lines(request(1, "ping")))
        proc.stdin.close()
        # events, not a clock: it answers, then says it saw the end of its input and runs on
        assert json.loads(proc.stdout.readline()) == {"jsonrpc": "2.0", "id": 1, "result": {}}
        said = ""
        while "standard input closed" not in said:
            line = proc.stderr.readline().decode()
            assert line, "serve exited without saying it saw the end of standard input"
            said += line
        assert "running on until signalled" in said
        with pytest.raises(subprocess.TimeoutExpired):  # only a fast machine could fail this
            proc.wait(timeout=0.5)
        proc.terminate()
        assert proc.wait(timeout=TIMEOUT) != 0
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

"""``wire._procs``: the family of a spawned server, found by a mechanism a grandchild cannot
leave (a PID namespace, or the supervisor's subreaper tree: ``MCP_SKEW_FAMILY=tree``), ends
with :func:`end`, with the spawning process killed outright, and with the supervisor killed
outright (its orphans are re-parented to us and found as family); the supervisor is invisible
otherwise (exit codes, signals, a command that cannot be run)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_skew.wire import _procs

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not _procs.supervised(), reason="the supervisor is Linux's")]

ESCAPE = Path(__file__).resolve().parents[1] / "_adversaries" / "escape_server.py"
BOUND_S = 60.0  #: far above the second or so any of this takes


def with_token(token: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                state = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
                if state != b"Z" and token.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
            except (OSError, IndexError):
                continue
    return found


def wait_until(check: object, why: str) -> None:
    give_up = time.monotonic() + BOUND_S
    while not check():  # type: ignore[operator]
        assert time.monotonic() < give_up, why
        time.sleep(0.05)


@pytest.fixture(params=["auto", "tree"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MCP_SKEW_FAMILY", request.param)
    return str(request.param)


@contextlib.contextmanager
def escaping() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    token = f"procs-{uuid.uuid4().hex}"
    proc = _procs.spawn([sys.executable, str(ESCAPE), token], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: with_token(f"{token}-escaped"), "the grandchild never started")
        yield proc, token
    finally:
        _procs.end(proc, grace_s=0.1)
        for pid in with_token(token):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_end_ends_a_grandchild_that_left_by_setsid_a_double_fork_and_no_environment(
        mode: str) -> None:
    with escaping() as (proc, token):
        assert _procs.family(proc.pid) >= set(with_token(token))
        _procs.end(proc, grace_s=0.1)
        wait_until(lambda: not with_token(token), f"left: {with_token(token)}")


def test_a_killed_supervisors_orphans_are_re_parented_to_us_and_found(mode: str) -> None:
    with escaping() as (proc, token):
        os.kill(proc.pid, signal.SIGKILL)  # no supervisor any more: its tree comes to us
        proc.wait(BOUND_S)
        _procs.end(proc, grace_s=0.1)
        wait_until(lambda: not with_token(token), f"left: {with_token(token)}")


def test_the_spawning_process_killed_outright_takes_the_family_down(mode: str) -> None:
    token = f"procs-{uuid.uuid4().hex}"
    script = textwrap.dedent(f"""
        import os, signal, subprocess, sys, time
        from mcp_skew.wire import _procs
        _procs.spawn([sys.executable, {str(ESCAPE)!r}, {token!r}], stdin=subprocess.PIPE)
        print("started", flush=True)
        time.sleep(3600)
    """)
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        assert owner.stdout is not None and owner.stdout.readline() == b"started\n"
        wait_until(lambda: with_token(f"{token}-escaped"), "the grandchild never started")
        owner.kill()
        owner.wait(BOUND_S)
        wait_until(lambda: not with_token(token), f"left: {with_token(token)}")
    finally:
        if owner.poll() is None:
            owner.kill()
        for pid in with_token(token):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("command", "code"), [("exit 7", 7), ("kill -TERM $$", -15),
                                               ("kill -KILL $$", -9)])
def test_the_supervisor_exits_as_the_server_did(mode: str, command: str, code: int) -> None:
    proc = _procs.spawn(["sh", "-c", command])
    try:
        assert proc.wait(BOUND_S) == code
    finally:
        _procs.end(proc)


def test_a_command_that_cannot_run_raises_as_popen_does(mode: str, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _procs.spawn([str(tmp_path / "missing")])
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(PermissionError):
        _procs.spawn([str(script)])


def test_signals_reach_the_server_and_stdio_is_the_servers_alone(mode: str) -> None:
    proc = _procs.spawn(["sh", "-c", "trap 'echo got-term; exit 3' TERM; echo up; "
                         "while :; do sleep 0.05; done"], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
        proc.send_signal(signal.SIGTERM)
        assert proc.stdout.read() == b"got-term\n"  # end of file: no supervisor holds it
        assert proc.wait(BOUND_S) == 3
    finally:
        _procs.end(proc)

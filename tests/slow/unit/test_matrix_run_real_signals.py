"""A signal to ``matrix --run-real`` while it runs real peers: it exits at once with 128 + the
signal's number ("mcp-skew: stopped (...)" on standard error, nothing on standard output),
and no process it started (a real client driver, the real server that driver started) is
left. The real packages are replaced by cheap fakes (``tests/_adversaries/fake_run_real.py``:
nothing is installed), so this needs no network; it starts processes (slow)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from _proctree import default_signals
from _waits import BOUND_S, until

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")

FAKE = Path(__file__).resolve().parents[2] / "_adversaries" / "fake_run_real.py"


def with_token(token: str) -> list[int]:
    """The live (not zombie) processes whose command line holds ``token``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            state = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if state != b"Z" and token.encode() in cmdline:
            found.append(int(name))
    return found



@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: s.name)
def test_a_signal_stops_run_real_at_once_and_leaves_no_process(sig: signal.Signals) -> None:
    token = f"realsig-{uuid.uuid4().hex}"
    proc = subprocess.Popen([sys.executable, str(FAKE), token], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            preexec_fn=default_signals)  # noqa: PLW1509 - a signal disposition only
    try:
        until(lambda: with_token(f"{token}-server") or proc.poll() is not None,
              "a real pair to be running")
        assert proc.poll() is None, proc.communicate()[1].decode()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=BOUND_S)  # the drivers' own bound is 180 s
        assert proc.returncode == 128 + sig, err.decode()
        assert out == b""
        assert f"mcp-skew: stopped ({sig.name})" in err.decode()
        assert b"Traceback" not in err
        until(lambda: not with_token(token), f"every process of the run to go: "
              f"{with_token(token)}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in with_token(token):  # never leave them to the next test
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

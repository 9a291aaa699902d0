"""A signal stops ``probe-client`` at once (issue 33: it waited for the running client's
``--timeout``, 57 s after the signal with ``--timeout 60``), with the exit code of the other
commands (128 + the signal's number), no traceback, and no process of the client's family
left: not the client (it ignores every stop signal), not the child it started in a session
of its own (which ignores them too), not the simulated server it spawned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import TESTS
from _proctree import default_signals, marked
from _waits import BOUND_S, until

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")

STUBBORN = TESTS / "clients" / "stubborn_client.py"
#: far above the test's bound: a stop that waits for the deadline fails the test
DEADLINE_S = "600"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: s.name)
@pytest.mark.parametrize("flood", [False, True], ids=["quiet", "flood"])
def test_a_signal_stops_probe_client_at_once_with_the_clients_family(
        tmp_path: Path, sig: signal.Signals, flood: bool) -> None:
    pidfile = tmp_path / "pids"
    argv = [sys.executable, "-m", "mcp_skew", "probe-client", "--quiet", "--server",
            "legacy:2025-06-18", "--timeout", DEADLINE_S, "--", sys.executable, str(STUBBORN),
            str(pidfile), *(["flood"] if flood else []), "--", "{server}"]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=default_signals)  # noqa: PLW1509 - a signal disposition only
    try:
        until(lambda: pidfile.exists() or proc.poll() is not None, "the client to be running")
        assert proc.poll() is None, proc.communicate()[1].decode()
        # the client, its child in a session of its own, the server (and their supervisors)
        until(lambda: len(marked(proc.pid)) >= 3, "the client's family to be marked")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=BOUND_S)
        assert proc.returncode == 128 + sig, err.decode()
        assert out == b""
        assert err.decode().endswith(f"mcp-skew: stopped ({sig.name})\n"), err.decode()[-500:]
        assert b"Traceback" not in err
        until(lambda: not marked(proc.pid), "the client's family to be gone")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in marked(proc.pid):
            os.kill(pid, signal.SIGKILL)

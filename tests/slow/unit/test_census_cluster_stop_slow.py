"""A signal while ``census --cluster`` starts its Dask cluster (issue 33: Dask's ``atexit``
hook then closed the half-started cluster again and printed an ``AssertionError``
traceback): the census stops with 128 + the signal's number, no traceback, and no worker
process left. The signal is sent as soon as the first worker process of the cluster exists,
while its nanny is still starting it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import TESTS
from _proctree import cmdline, default_signals, descendants
from _waits import BOUND_S, until

pytest.importorskip("distributed", reason="the cluster extra: pip install 'mcp-skew[cluster]'")
pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")

LISTING = TESTS / "census" / "listing.json"


def _workers(pid: int) -> list[int]:
    """The cluster's worker processes (multiprocessing children) under ``pid``."""
    return [p for p in descendants(pid) if "multiprocessing" in cmdline(p)
            and "resource_tracker" not in cmdline(p)]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_while_the_cluster_starts_is_a_clean_stop(tmp_path: Path,
                                                            sig: signal.Signals) -> None:
    argv = [sys.executable, "-m", "mcp_skew", "census", str(LISTING), "--db",
            str(tmp_path / "c.sqlite"), "--cluster", "local:2", "--sandbox", "none",
            "--local-root", str(TESTS / "servers")]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)  # noqa: PLW1509 - a signal disposition only
    try:
        until(lambda: _workers(proc.pid) or proc.poll() is not None,
              "the cluster's first worker process")
        started = _workers(proc.pid)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=BOUND_S)
        assert proc.returncode == 128 + sig, err
        assert "Traceback" not in err, err
        assert "Error" not in err, err
        until(lambda: not any(Path(f"/proc/{p}").exists() and "multiprocessing" in cmdline(p)
                              for p in started), "the cluster's workers to be gone")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

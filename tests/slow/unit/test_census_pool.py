"""The census executors' processes: the local pool keeps its width after a worker crash, and
``--cluster local:N`` listens on loopback only, on no well-known port, serving nothing over
HTTP (no dashboard, no metrics).

Both run ``mcp-skew census`` in a subprocess on a listing of slow local servers and watch
its process tree (Linux ``/proc``; psutil for the sockets).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from _paths import TESTS
from _proctree import descendants, probing_workers

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")]

LOCAL = ["--local-root", str(TESTS / "servers"), "--probe-jobs", "1"]
#: slow enough that several jobs are running whenever the tree is looked at
PEER = "legacy:2025-06-18+slow=400"


def _listing(path: Path, count: int, gate: Path | None = None) -> Path:
    """A listing of ``count`` local servers; with ``gate``, each server's start is held until
    that file exists (``sim_stdio_server.py --gate``)."""
    words = [PEER] if gate is None else ["--gate", str(gate), PEER]
    servers = [{"server": {"name": f"io.example/pool-{i:02d}", "version": "1.0.0", "packages": [
        {"registryType": "local", "identifier": "sim_stdio_server.py", "version": "1.0.0",
         "transport": {"type": "stdio"},
         "packageArguments": [{"type": "positional", "value": w} for w in words]}]}}
        for i in range(count)]
    path.write_text(json.dumps({"servers": servers, "metadata": {}}))
    return path


def _busy(pid: int) -> set[int]:
    """Pool workers under ``pid`` running a server now."""
    return set(probing_workers(pid))


def _statuses(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [str(r[0]) for r in conn.execute("SELECT status FROM results")]


def _census(listing: Path, db: Path, *executor: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mcp_skew", "census", str(listing), "--db",
                             str(db), *executor, *LOCAL], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _finish(proc: subprocess.Popen[str]) -> None:
    try:
        proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_the_local_pool_keeps_its_width_after_a_worker_crash(tmp_path: Path) -> None:
    # Every server's start waits on a gate the test opens once it has seen the rebuilt pool
    # run two jobs at once: the jobs last as long as the test needs to see them, however
    # slowly the machine runs the pool (short jobs might never be seen side by side).
    count = 10
    db = tmp_path / "census.sqlite"
    gate = tmp_path / "gate"
    proc = _census(_listing(tmp_path / "listing.json", count, gate), db, "--jobs", "2")
    killed: int | None = None
    width_after = 0
    try:
        deadline = time.monotonic() + 240
        while proc.poll() is None and time.monotonic() < deadline:
            busy = _busy(proc.pid)
            if killed is None and len(busy) >= 2:
                killed = min(busy)
                os.kill(killed, signal.SIGKILL)
            elif killed is not None:
                # the workers of the pool rebuilt after the crash, running jobs side by side
                width_after = max(width_after, len(busy - {killed}))
                if width_after == 2:
                    gate.touch()
            time.sleep(0.02)
    finally:
        gate.touch()
        _finish(proc)
    assert killed is not None, "no two workers were seen probing at once"
    assert proc.returncode == 0, proc.stderr
    assert width_after == 2, "after the crash the jobs no longer ran two at a time"
    assert _statuses(db) == ["probed"] * count


def _listening(pid: int) -> list[tuple[str, int]]:
    psutil = pytest.importorskip("psutil")
    out = []
    for p in [pid, *descendants(pid)]:
        try:
            conns = psutil.Process(p).net_connections(kind="inet")
        except (psutil.Error, OSError):
            continue
        out += [(c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN]
    return sorted(set(out))


def _http_status(port: int, path: str) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except (OSError, ValueError, http.client.HTTPException):
        return None  # not HTTP (a Dask comm port)


def test_a_local_dask_cluster_listens_on_loopback_only_and_serves_no_http(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster extra")
    db = tmp_path / "census.sqlite"
    proc = _census(_listing(tmp_path / "listing.json", 6), db, "--cluster", "local:2")
    seen: list[tuple[str, int]] = []
    served: dict[int, list[int | None]] = {}
    try:
        deadline = time.monotonic() + 240
        while proc.poll() is None and time.monotonic() < deadline:
            if _busy(proc.pid):  # the cluster is up and running jobs
                seen = _listening(proc.pid)
                served = {port: [_http_status(port, p) for p in ("/health", "/status", "/metrics")]
                          for _, port in seen}
                break
            time.sleep(0.05)
    finally:
        _finish(proc)
    assert proc.returncode == 0, proc.stderr
    assert seen, "the cluster was not seen running"
    assert {ip for ip, _ in seen} == {"127.0.0.1"}, seen
    assert 8787 not in {port for _, port in seen}  # the dashboard's well-known port
    # the scheduler's and the workers' HTTP servers answer nothing: no dashboard, no metrics
    assert all(code in (None, 404) for codes in served.values() for code in codes), served
    assert _statuses(db) == ["probed"] * 6

"""Scratch folders of a census's jobs do not outlive it (issue 33: killed census runs left
them behind). Each job's folder (its server's HOME, TMPDIR and working directory) is named
after the worker that owns it; a stop (SIGTERM) removes those of the workers it killed, and
the next census removes those that a census killed outright (SIGKILL) left.

The census runs with its own TMPDIR, so the test sees exactly its scratch folders; its
servers are held at their start (``sim_stdio_server.py --gate``) until the test has seen
every job's folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import TESTS
from _proctree import default_signals, probing_workers
from _waits import BOUND_S, until

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")

#: the scratch folders' names begin so (mcp_skew.census._work.SCRATCH_PREFIX)
SCRATCH_PREFIX = "mcp-skew-census-"
LOCAL = ["--local-root", str(TESTS / "servers"), "--probe-jobs", "1", "--sandbox", "none",
         "--startup-timeout", "600"]


def _listing(path: Path, gate: Path, count: int = 2) -> Path:
    servers = [{"server": {"name": f"io.example/scratch-{i}", "version": "1.0.0", "packages": [
        {"registryType": "local", "identifier": "sim_stdio_server.py", "version": "1.0.0",
         "transport": {"type": "stdio"},
         "packageArguments": [{"type": "positional", "value": w}
                              for w in ("--gate", str(gate), "legacy:2025-06-18")]}]}}
        for i in range(count)]
    path.write_text(json.dumps({"servers": servers}), encoding="utf-8")
    return path


def _scratch(tmp: Path) -> list[Path]:
    return sorted(p for p in tmp.iterdir() if p.name.startswith(SCRATCH_PREFIX))


def _census(listing: Path, db: Path, tmp: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "mcp_skew", "census", str(listing), "--db", str(db), "--jobs",
         "2", *LOCAL], env={**os.environ, "TMPDIR": str(tmp)}, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=default_signals)  # noqa: PLW1509 - a signal disposition only


def _running_jobs(tmp_path: Path) -> tuple[subprocess.Popen[str], Path, Path]:
    """A census with both jobs' servers held at their start, and its TMPDIR."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    gate = tmp_path / "gate"
    listing = _listing(tmp_path / "listing.json", gate)
    proc = _census(listing, tmp_path / "c.sqlite", tmp)
    until(lambda: (len(_scratch(tmp)) == 2 and len(probing_workers(proc.pid)) == 2)
          or proc.poll() is not None, "both jobs to run their servers")
    assert proc.poll() is None, proc.communicate()[1]
    return proc, tmp, listing


def _gone(pids: list[int]) -> bool:
    def alive(pid: int) -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            return False
        return state != b"Z"
    return not any(alive(p) for p in pids)


def test_a_stopped_census_leaves_no_scratch_folder(tmp_path: Path) -> None:
    proc, tmp, _ = _running_jobs(tmp_path)
    try:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_S)
        assert proc.returncode == 128 + signal.SIGTERM, err
        assert _scratch(tmp) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_next_census_removes_what_a_killed_census_left(tmp_path: Path) -> None:
    proc, tmp, listing = _running_jobs(tmp_path)
    workers = probing_workers(proc.pid)
    proc.kill()  # SIGKILL: nothing of the census runs again; its workers see it gone
    proc.communicate(timeout=BOUND_S)
    until(lambda: _gone(workers), "the workers to stop (their census is gone)")
    left = _scratch(tmp)
    assert len(left) == 2  # a worker killed outright cannot remove its folder
    (tmp_path / "gate").touch()  # the next census's servers start at once
    again = _census(listing, tmp_path / "c.sqlite", tmp)
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert _scratch(tmp) == []

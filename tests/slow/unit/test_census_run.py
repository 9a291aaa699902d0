"""``mcp-skew census`` end to end on the test listing (tests/census/listing.json): local
servers exposed through the ``local`` package hook, a missing package, one needing an API
key, one crashing at start, a remote at a loopback ``mcp-skew serve --http``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _http_servers import free_port, serving
from _paths import TESTS
from _proctree import probing_workers

from mcp_skew.census._store import CensusDB
from mcp_skew.cli import main

LISTING = TESTS / "census" / "listing.json"
LOCAL = ["--local-root", str(TESTS / "servers"), "--probe-jobs", "2"]
EXPECTED = {
    "io.example/legacy-0618@1.0.0#package0": ("probed", "legacy:2025-06-18"),
    "io.example/dual@2.0.0#package0": ("probed", "dual:2026-07-28,2025-11-25"),
    "io.example/needs-key@0.3.0#package0": ("needs-config", None),
    "io.example/missing@0.0.1#package0": ("install-failed", None),
    "io.example/crashes@0.1.0#package0": ("start-failed", None),
    "io.example/remote-modern@1.0.0#remote0": ("probed", "modern:2026-07-28"),
}


@pytest.fixture(scope="module")
def listing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The test listing, its remote pointing at a live ``mcp-skew serve --http``."""
    port = free_port()
    argv = [sys.executable, "-m", "mcp_skew", "serve", "modern:2026-07-28", "--http",
            f"127.0.0.1:{port}", "-q"]
    path = tmp_path_factory.mktemp("listing") / "listing.json"
    for url in serving(argv, port, "mcp-skew serve --http"):
        path.write_text(LISTING.read_text().replace("http://127.0.0.1:8765/mcp", url))
        yield path


def _rows(db: Path) -> dict[str, dict[str, Any]]:
    store = CensusDB(db, create=False)
    try:
        return {r["key"]: r for r in store.rows(report=False)}
    finally:
        store.close()


def _summary(db: Path) -> dict[str, tuple[str, str | None]]:
    return {k: (r["status"], r["peer"]) for k, r in _rows(db).items()}


@pytest.fixture(scope="module")
def census_db(listing: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("census") / "census.sqlite"
    assert main(["census", str(listing), "--db", str(db), "--remotes", "--jobs", "2",
                 *LOCAL]) == 0
    return db


def test_every_entry_gets_its_status(census_db: Path) -> None:
    rows = _rows(census_db)
    assert _summary(census_db) == EXPECTED
    assert "EXAMPLE_API_KEY is required" in rows["io.example/needs-key@0.3.0#package0"]["error"]
    crash = rows["io.example/crashes@0.1.0#package0"]
    assert "exited before answering anything" in crash["error"]
    assert "cannot load configuration" in crash["error"]
    legacy = rows["io.example/legacy-0618@1.0.0#package0"]
    report = json.loads(_full_report(census_db, legacy["key"]))
    assert report["peer"]["spec"] == "legacy:2025-06-18"  # the probe's own JSON report
    assert legacy["readiness"]["modern"] is False and legacy["readiness"]["dual"] is True
    assert legacy["readiness"]["dual_mark"] == "era-fallback"
    assert legacy["server_info"] == {"name": "mcp-skew-server", "version": "0.1.0"}
    assert legacy["probe_ms"] > 0 and legacy["start_ms"] is not None


def _full_report(db: Path, key: str) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT report FROM results WHERE key=?", (key,)).fetchone()[0])


def test_each_server_ran_in_its_scratch_home_under_limits(census_db: Path) -> None:
    report = json.loads(_full_report(census_db, "io.example/dual@2.0.0#package0"))
    start = report["clients"][0]["transcript"][0]
    argv = start["argv"]
    assert argv[3].endswith("_limits.py") and argv[4:9] == ["60", "4096", "4096", "64", "--"]
    assert argv[-2].endswith("sim_stdio_server.py") and argv[-1] == "dual:2026-07-28,2025-11-25"


def test_the_report_in_each_format(census_db: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["census", "report", "--db", str(census_db), "--format", "json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["statuses"] == {"install-failed": 1, "needs-config": 1, "probed": 3,
                               "start-failed": 1}
    ready = rep["readiness"]
    assert (ready["probed"], ready["modern"], ready["dual"], ready["dual_fallback"]) == (3, 2, 3, 1)
    assert ready["installed"] == 4  # the server that crashes for every client counts
    assert ready["legacy"]["2025-06-18"] == 1 and ready["legacy"]["2025-11-25"] == 1
    assert [(s["sdk"], s["servers"], s["started"]) for s in rep["by_sdk"]] == [
        ("serverInfo mcp-skew-server", 3, 3), ("unknown", 1, 0)]
    kinds = {k["kind"]: k["count"] for k in rep["failure_kinds"]}
    assert kinds == {"crash at start": 1, "missing package": 1, "needs configuration": 1,
                     "protocol": 1}
    assert rep["clients"]["modern-only"] == ["2026-07-28"]
    assert rep["clients"]["legacy 2024-11-05"] == ["2024-11-05"]
    causes = [f["cause"].split(":")[0] for f in rep["failures"]]
    assert sorted(causes) == ["install-failed", "modern-only client fails", "needs-config",
                              "start-failed"]
    assert len(rep["cards"]) == 6
    assert main(["census", "report", "--db", str(census_db)]) == 0
    md = capsys.readouterr().out
    assert "- a modern-only client (2026-07-28) reaches 2 of 4 (50%);" in md
    assert "### io.example/crashes 0.1.0" in md and "None" not in md
    assert main(["census", "report", "--db", str(census_db), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("MCP census\n") and "failures by kind:" in text
    assert "None" not in text
    out = tmp_path / "census.html"
    assert main(["census", "report", "--db", str(census_db), "--format", "html",
                 "--out", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<details>") == 6
    # the same database, the same report, byte for byte
    assert main(["census", "report", "--db", str(census_db)]) == 0
    assert capsys.readouterr().out == md


def test_a_rerun_keeps_what_is_stored_and_refresh_probes_again(census_db: Path, listing: Path,
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    census_db = Path(shutil.copy(census_db, tmp_path / "census.sqlite"))
    before = _rows(census_db)
    assert main(["census", str(listing), "--db", str(census_db), "--remotes", *LOCAL]) == 0
    assert "6 already in" in capsys.readouterr().out and _rows(census_db) == before
    assert main(["census", str(listing), "--db", str(census_db), "--jobs", "2", "--refresh",
                 "--progress", *LOCAL]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 6 and lines[-1].startswith("census: 6 done, 2 failed, 0 remaining, ")
    assert lines[-1].endswith(" servers/min")
    after = _rows(census_db)
    assert {r["run"] for r in after.values()} == {max(r["run"] for r in before.values()) + 2}
    # without --remotes a remote is skipped, and a later run with --remotes does it
    assert after["io.example/remote-modern@1.0.0#remote0"]["status"] == "skipped"


def test_the_matrix_reads_the_census_peers(census_db: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--clients", "2025-06-18", "modern:2026-07-28", "--servers",
                 f"@{census_db}", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    labels = [s["label"] for s in data["servers"]]
    assert labels == ["dual@2.0.0", "legacy-0618@1.0.0", "remote-modern@1.0.0"]


def test_killed_midway_then_rerun_probes_each_entry_exactly_once(listing: Path,
                                                                 tmp_path: Path) -> None:
    db = tmp_path / "census.sqlite"
    # slow servers, one at a time, so that the kill lands in the middle
    slow = tmp_path / "slow.json"
    slow.write_text(listing.read_text().replace('"legacy:2025-06-18"', '"legacy:2025-06-18+slow=300"'))
    argv = [sys.executable, "-m", "mcp_skew", "census", str(slow), "--db", str(db), "--jobs", "1",
            "--remotes", *LOCAL]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists() and _count(db) >= 2:
                break
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    first = _rows(db)
    assert 2 <= len(first) < len(EXPECTED), "the kill did not land midway"
    assert main(["census", str(slow), "--db", str(db), "--remotes", "--jobs", "2", *LOCAL]) == 0
    rows = _rows(db)
    assert {k: r["status"] for k, r in rows.items()} == {k: s for k, (s, _) in EXPECTED.items()}
    for key, row in first.items():  # what the killed run stored was not probed again
        assert rows[key]["run"] == row["run"] == 1
    assert {r["run"] for k, r in rows.items() if k not in first} == {2}


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_dask_local_cluster_gives_the_local_pool_results(listing: Path, census_db: Path,
                                                          tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster extra: pip install 'mcp-skew[cluster]'")
    db = tmp_path / "dask.sqlite"
    assert main(["census", str(listing), "--db", str(db), "--remotes", "--cluster", "local:2",
                 *LOCAL]) == 0
    local = {k: (r["status"], r["peer"], r["error"]) for k, r in _rows(census_db).items()
             if r["status"] != "skipped"}
    dask = {k: (r["status"], r["peer"], r["error"]) for k, r in _rows(db).items()}
    assert dask.keys() == EXPECTED.keys()
    assert {k: v for k, v in dask.items() if k in local} == local


def test_help_does_not_import_dask_and_cluster_without_it_says_how_to_install() -> None:
    code = ("import sys, contextlib, io\n"
            "from mcp_skew.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: main(['census', '--help'])\n"
            "    except SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == "[]"
    hide = ("import sys, importlib.util\nreal = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda n, *a: None if n == 'distributed' else real(n, *a)\n"
            "from mcp_skew.cli import main\n"
            f"sys.exit(main(['census', {str(LISTING)!r}, '--cluster', 'local:2', '--db', 'x']))")
    got = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True,
                         timeout=60, check=False)
    assert got.returncode == 2
    assert got.stderr == ("mcp-skew: error: --cluster and --scheduler need Dask: "
                          "pip install 'mcp-skew[cluster]'\n")


def _kill_a_busy_worker(argv: list[str]) -> tuple[int | None, subprocess.Popen[str]]:
    """Run a census; SIGKILL the first worker seen running a server; let the census finish."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    killed = None
    try:
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and proc.poll() is None:
            busy = probing_workers(proc.pid)
            if busy:
                killed = busy[0]
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.02)
        proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return killed, proc


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("executor", [["--jobs", "2"], ["--cluster", "local:2"]],
                         ids=["local-pool", "dask"])
def test_a_worker_killed_mid_probe_loses_no_job(listing: Path, tmp_path: Path,
                                                executor: list[str]) -> None:
    if executor[0] == "--cluster":
        pytest.importorskip("distributed", reason="the cluster extra")
    db = tmp_path / "census.sqlite"
    slow = tmp_path / "slow.json"
    slow.write_text(listing.read_text().replace('"legacy:2025-06-18"', '"legacy:2025-06-18+slow=300"'))
    killed, proc = _kill_a_busy_worker([sys.executable, "-m", "mcp_skew", "census", str(slow),
                                        "--db", str(db), "--remotes", *executor, *LOCAL])
    assert killed is not None, "no worker was seen probing"
    assert proc.returncode == 0
    assert {k: r["status"] for k, r in _rows(db).items()} == {k: s for k, (s, _) in EXPECTED.items()}


def test_an_existing_dask_cluster_via_scheduler(listing: Path, census_db: Path,
                                                 tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    db = tmp_path / "sched.sqlite"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert main(["census", str(listing), "--db", str(db), "--remotes", "--scheduler",
                     cluster.scheduler_address, *LOCAL]) == 0
    assert _summary(db) == EXPECTED
    # the jobs ran in the cluster's worker process, not in this one
    workers = {r["worker"] for r in _rows(db).values() if r["status"] == "probed"}
    assert len(workers) == 1 and not workers.pop().endswith(f":{os.getpid()}")

"""``census --install-jobs N``: installs ahead of the probes, on threads of the census process
(no process here: the installs and the workers are stand-ins that record what they are given).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from _fuzz import check_outcome, run_cli

from mcp_skew.census import _ahead, _census, _work
from mcp_skew.census._ahead import InstallAhead, parse_install_jobs
from mcp_skew.census._listing import Job
from mcp_skew.census._store import CensusDB
from mcp_skew.census._work import Settings, install_ahead, job_row
from mcp_skew.errors import UsageError
from mcp_skew.realpeers import EnvironmentUnavailable


def _job(i: int, *, kind: str = "package", transport: str = "stdio",
         required_input: bool = False) -> Job:
    spec: dict[str, Any] = {"registryType": "pypi", "identifier": f"server-{i}",
                            "version": "1.0.0", "transport": {"type": transport}}
    if required_input:
        spec["environmentVariables"] = [{"name": "API_KEY", "isRequired": True}]
    if kind == "remote":
        spec = {"type": "streamable-http", "url": "https://example.invalid/mcp"}
    return Job(f"io.example/s{i}", "1.0.0", kind, 0, spec)


# -- the option --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["0", "1", "3", "32"])
def test_install_jobs_accepts_zero_to_the_most(text: str) -> None:
    assert parse_install_jobs(text) == int(text)


@pytest.mark.parametrize("text", ["-1", "33", "1000", "abc", "", "²", "３", "1.5", " 2", "9" * 30])
def test_install_jobs_refuses_the_rest(text: str) -> None:
    with pytest.raises(UsageError, match=r"--install-jobs .*: expected a count .* 0 \(none ahead\) "
                       r"to 32"):
        parse_install_jobs(text)


@pytest.mark.parametrize("text", ["-1", "33", "x"])
def test_a_bad_install_jobs_is_one_line_and_exit_2_before_anything(tmp_path: Path,
                                                                   text: str) -> None:
    db = tmp_path / "c.sqlite"
    listing = tmp_path / "l.json"
    listing.write_text('{"servers": []}')
    argv = ["census", str(listing), "--db", str(db), "--install-jobs", text]
    outcome = run_cli(argv)
    check_outcome(argv, outcome)
    assert outcome[0] == 2 and "--install-jobs" in outcome[2]
    assert not db.exists()


# -- what is installed ahead -------------------------------------------------------------------
@pytest.fixture
def installs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The packages ``_work._install`` is asked for (none is really installed)."""
    asked: list[str] = []

    def fake(job: Job, settings: Settings) -> object:
        asked.append(job.spec["identifier"])
        if job.spec["identifier"] == "server-fails":
            raise EnvironmentUnavailable("uv install server-fails==1.0.0: exit code 1")
        return object()

    monkeypatch.setattr(_work, "_install", fake)
    return asked


def test_install_ahead_installs_a_stdio_package(installs: list[str]) -> None:
    assert install_ahead(_job(1), Settings()) is True
    assert installs == ["server-1"]


@pytest.mark.parametrize("job", [_job(1, kind="remote"), _job(1, transport="sse"),
                                 _job(1, required_input=True)],
                         ids=["remote", "not-stdio", "needs-config"])
def test_install_ahead_installs_nothing_the_job_would_not(installs: list[str], job: Job) -> None:
    assert install_ahead(job, Settings()) is False
    assert installs == []


def test_install_ahead_never_raises(installs: list[str]) -> None:
    job = Job("io.example/f", "1.0.0", "package", 0,
              {"registryType": "pypi", "identifier": "server-fails", "version": "1.0.0",
               "transport": {"type": "stdio"}})
    assert install_ahead(job, Settings()) is False
    assert installs == ["server-fails"]


# -- how far ahead -----------------------------------------------------------------------------
def test_the_threads_stay_within_lead_of_the_rows_stored() -> None:
    ahead = InstallAhead([_job(i) for i in range(5)], Settings(), threads=0, lead=2)
    assert [ahead._take(), ahead._take()] == [_job(0), _job(1)]
    assert not ahead.may_start()  # a third would be 3 past no row stored
    ahead.stored()
    assert ahead.may_start()
    assert ahead._take() == _job(2)
    assert not ahead.may_start()
    ahead.stop()
    ahead.stored()
    assert ahead._take() is None  # stopped: nothing more


def test_the_threads_end_when_every_job_is_taken() -> None:
    ahead = InstallAhead([_job(0)], Settings(), threads=0, lead=5)
    assert ahead._take() == _job(0)
    assert ahead._take() is None


def _fake_workers(seen: dict[str, threading.Event], order: list[str]) -> Any:
    """A run_local that, like a worker waiting on an environment's lock, stores a job's row
    only once the install ahead of it has happened."""

    def run_local(jobs: list[Job], settings: Settings, store: Any, *, workers: int) -> None:
        for job in jobs:
            assert seen[job.spec["identifier"]].wait(30), f"{job.key} was never installed ahead"
            order.append(job.spec["identifier"])
            store(job_row(job, "install-failed", error="not run in this test"))

    return run_local


def test_run_census_installs_every_job_ahead_of_its_worker(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    jobs = [_job(i) for i in range(7)]
    seen = {job.spec["identifier"]: threading.Event() for job in jobs}
    threads: set[str] = set()

    def fake_ahead(job: Job, settings: Settings) -> bool:
        threads.add(threading.current_thread().name)
        seen[job.spec["identifier"]].set()
        return True

    order: list[str] = []
    monkeypatch.setattr(_ahead, "install_ahead", fake_ahead)
    monkeypatch.setattr(_census, "run_local", _fake_workers(seen, order))
    db = CensusDB(tmp_path / "c.sqlite")
    try:
        done = _census.run_census(jobs, db, Settings(), source="t", workers=2, install_jobs=3)
        assert done.ran == 7 and len(db.done_keys()) == 7
    finally:
        db.close()
    assert order == [f"server-{i}" for i in range(7)]
    assert threads <= {"census-install-0", "census-install-1", "census-install-2"}


def test_run_census_installs_nothing_ahead_with_zero_or_a_scheduler(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    called: list[Job] = []
    monkeypatch.setattr(_ahead, "install_ahead", lambda job, settings: called.append(job))

    def workers(jobs: list[Job], settings: Settings, store: Any, **kw: Any) -> None:
        for job in jobs:
            store(job_row(job, "install-failed", error="not run in this test"))

    monkeypatch.setattr(_census, "run_local", workers)
    monkeypatch.setattr(_census, "run_dask", workers)
    for i, extra in enumerate([{"install_jobs": 0},
                               {"install_jobs": 3, "scheduler": "tcp://127.0.0.1:8786"}]):
        db = CensusDB(tmp_path / f"c{i}.sqlite")
        try:
            assert _census.run_census([_job(0), _job(1)], db, Settings(), source="t",
                                      **extra).ran == 2
        finally:
            db.close()
    assert called == []

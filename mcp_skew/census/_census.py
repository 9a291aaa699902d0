"""A census run (the jobs the database lacks, on an executor) and its peers for the matrix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ._ahead import InstallAhead
from ._execute import CensusProgress, run_dask, run_local
from ._listing import Job
from ._store import CensusDB, is_census_db
from ._work import RETRYABLE, Settings, sweep_scratch

if TYPE_CHECKING:
    from ..simulator import PeerSpec

__all__ = ["CensusRun", "census_peers", "run_census"]


@dataclass(frozen=True, slots=True)
class CensusRun:
    """What one census run did."""

    run: int
    listed: int
    kept: int  #: jobs the database already held (not run again)
    ran: int


def run_census(jobs: Sequence[Job], db: CensusDB, settings: Settings, *, source: str,
               workers: int = 2, cluster: str | None = None, scheduler: str | None = None,
               refresh: bool = False, retry_failed: bool = False, install_jobs: int = 0,
               progress: Callable[[int], CensusProgress] | None = None,
               on_row: Callable[[dict[str, Any]], None] | None = None) -> CensusRun:
    """Run the jobs the database does not hold yet (all with ``refresh``; with
    ``retry_failed`` also those whose row failed in a way that may pass, :data:`RETRYABLE`);
    store each row as its job ends.

    ``install_jobs`` threads of this process install the packages of the next jobs ahead
    of the workers (:mod:`._ahead`), at most ``workers + 2 * install_jobs`` jobs past the
    rows stored, when the workers are on this machine (the local pool, ``--cluster local``;
    not ``--scheduler``, whose workers have their own caches).

    ``progress(total)`` makes the callback that sees each row as it is stored.
    """
    kept = set() if refresh else db.done_keys(retry=RETRYABLE if retry_failed else ())
    todo = [job for job in jobs if job.key not in kept]
    executor = f"dask {scheduler or cluster}" if (cluster or scheduler) else f"local {workers}"
    run = db.start_run(source, len(todo), executor)
    shown = progress(len(todo)) if progress is not None else None

    ahead = None
    if install_jobs > 0 and len(todo) > 1 and scheduler is None:
        width = workers if cluster is None else int(cluster.partition(":")[2] or workers)
        ahead = InstallAhead(todo, settings, threads=install_jobs,
                             lead=width + 2 * install_jobs).start()

    def store(row: dict[str, Any]) -> None:
        if ahead is not None:
            ahead.stored()
        db.put(row, run)
        if shown is not None:
            shown(row)
        if on_row is not None:
            on_row(row)

    sweep_scratch()  # what workers of an earlier census killed outright left here
    try:
        if todo and (cluster or scheduler):
            run_dask(todo, settings, store, cluster=cluster, scheduler=scheduler)
        elif todo:
            run_local(todo, settings, store, workers=workers)
    finally:
        if ahead is not None:
            ahead.stop()
        sweep_scratch()  # after a stop: the scratch folders of the workers it killed
    return CensusRun(run, len(jobs), len(jobs) - len(todo), len(todo))


def census_peers(path: str | Path, role: str = "server") -> tuple[PeerSpec, ...] | None:
    """Every peer a census inferred, labelled with its server (``matrix --servers @DB``);
    None when ``path`` is no census database (:func:`._store.is_census_db`: another
    ``@FILE``, a saved peer)."""
    if not is_census_db(path):
        return None
    from ..simulator import parse_peer  # noqa: PLC0415 - pydantic, only when used

    if role != "server":
        raise UsageError(f"{path}: a census describes servers; it cannot be used as a {role}")
    db = CensusDB(path, create=False)
    try:
        rows = [r for r in db.rows(report=False) if r["status"] == "probed" and r["peer"]]
    finally:
        db.close()
    if not rows:
        raise UsageError(f"{path}: the census inferred no peer")
    out = []
    for row in rows:
        name = row["server"].rsplit("/", 1)[-1]
        label = f"{name}@{row['version']}" + (f"#{row['idx']}" if row["idx"] else "")
        out.append(replace(parse_peer(row["peer"], "server"), label=label,
                           note=f"census: {row['server']} {row['version']} "
                           f"({row['registry_type']} {row['identifier']}); {row['sentence']}"))
    return tuple(out)

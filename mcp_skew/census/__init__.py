"""The census: probe many servers from an MCP Registry listing, store the results in SQLite.

``read_listing`` / ``read_registry`` turn a listing in the registry's format into
jobs (one per package or remote of each server entry); :func:`run_census` runs
the jobs that the database does not hold yet, on a local process pool or a Dask
cluster, each server installed at its pinned version in a cached environment and
started in isolation (:mod:`._work`); :func:`build_report` and :func:`render_report`
read the database back; :func:`census_peers` gives the inferred peers to the matrix.

Public API: :class:`Settings`, :class:`CensusDB`, :func:`read_listing`,
:func:`read_registry`, :func:`run_census`, :func:`build_report`, :func:`render_report`,
:func:`census_peers`, :func:`is_census_db`; shared with the command line: the sandbox's
:func:`sandbox_tool` (:data:`SUPPORTED`, :class:`Unsupported`) and the runner's pieces
(:func:`max_local_workers`, :func:`parse_cluster`, :func:`parse_scheduler`, :func:`check_cluster`,
:func:`check_scheduler`, :func:`parse_install_jobs`, :class:`CensusProgress`,
:func:`progress_stream`, :data:`MAX_WORKERS_PER_CPU`).
This module imports no Dask, no probe runner and no pydantic: the commands' ``--help``
reads it.
"""

from __future__ import annotations

from ._ahead import parse_install_jobs
from ._census import census_peers, run_census
from ._execute import (
    MAX_WORKERS_PER_CPU,
    CensusProgress,
    check_cluster,
    check_scheduler,
    max_local_workers,
    parse_cluster,
    parse_scheduler,
    progress_stream,
)
from ._launch import SUPPORTED, Unsupported, sandbox_tool
from ._listing import read_listing, read_registry
from ._report import build_report, render_report
from ._store import CensusDB, is_census_db
from ._work import NO_NETWORK, NO_SANDBOX, Settings

__all__ = [
    "MAX_WORKERS_PER_CPU",
    "NO_NETWORK",
    "NO_SANDBOX",
    "SUPPORTED",
    "CensusDB",
    "CensusProgress",
    "Settings",
    "Unsupported",
    "build_report",
    "census_peers",
    "check_cluster",
    "check_scheduler",
    "is_census_db",
    "max_local_workers",
    "parse_cluster",
    "parse_install_jobs",
    "parse_scheduler",
    "progress_stream",
    "read_listing",
    "read_registry",
    "render_report",
    "run_census",
    "sandbox_tool",
]

"""The census: probe many servers from an MCP Registry listing, store the results in SQLite.

``read_listing`` / ``read_registry`` turn a listing in the registry's format into
jobs (one per package or remote of each server entry); :func:`run_census` runs
the jobs that the database does not hold yet, on a local process pool or a Dask
cluster, each server installed at its pinned version in a cached environment and
started in isolation (:mod:`._work`); :func:`build_report` and :func:`render_report`
read the database back; :func:`census_peers` gives the inferred peers to the matrix.

Public API: :class:`Settings`, :class:`CensusDB`, :func:`read_listing`,
:func:`read_registry`, :func:`run_census`, :func:`build_report`, :func:`render_report`,
:func:`census_peers`, :func:`is_census_db`, :func:`parse_install_jobs`; the command's entry
point :func:`run_command` (``mcp-skew census``, in :mod:`._command`: the command line's parser
names it, and the sandbox and runner pieces it uses stay inside this package).
This module imports no Dask, no probe runner and no pydantic.
"""

from __future__ import annotations

from ._ahead import parse_install_jobs
from ._census import census_peers, run_census
from ._command import run_command
from ._listing import read_listing, read_registry
from ._report import build_report, render_report
from ._store import CensusDB, is_census_db
from ._work import Settings

__all__ = [
    "CensusDB",
    "Settings",
    "build_report",
    "census_peers",
    "is_census_db",
    "parse_install_jobs",
    "read_listing",
    "read_registry",
    "render_report",
    "run_census",
    "run_command",
]

"""The census: probe many servers from an MCP Registry listing, store the results in SQLite.

``_listing.read_listing`` / ``read_registry`` turn a listing in the registry's format into
jobs (one per package or remote of each server entry); ``_census.run_census`` runs the
jobs that the database (``_store.CensusDB``) does not hold yet, on a local process pool or
a Dask cluster, each server installed at its pinned version in a cached environment and
started in isolation (:mod:`._work`); ``_report.build_report`` and ``render_report`` read
the database back; :func:`census_peers` gives the inferred peers to the matrix (None for a
file that is no census database).

Its face lists what the rest of mcp-skew uses: the command's entry point :func:`run_command`
(``mcp-skew census``, in :mod:`._command`: the command line's parser names it, and the
sandbox and runner pieces it uses stay inside this package) and what the matrix reads of a
census database (:func:`census_peers`); the rest is imported from its
module (the tests do). This module imports no Dask, no probe runner and no pydantic.
"""

from __future__ import annotations

from ._census import census_peers
from ._command import run_command

__all__ = [
    "census_peers",
    "run_command",
]

"""The census database: one SQLite row per server entry and package (or remote).

Theory of operation
-------------------
Only the process that runs the census writes, one row as each job completes, in
its own transaction (WAL journal), so a census killed at any moment keeps every
row it had stored. A later run skips the jobs whose row has a final status
(:data:`~mcp_skew.census._work.FINAL`) and runs the rest; ``refresh`` runs all.
Each census run gets a number (``runs`` table); a row says which run stored it,
so a resumed census shows which jobs each run did.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Final

from .. import _jsontext
from ..errors import UsageError
from ._work import FINAL

__all__ = ["COLUMNS", "CensusDB", "is_census_db"]

SCHEMA_VERSION: Final = 1
_MAGIC: Final = b"SQLite format 3\x00"
#: Row columns (JSON columns hold JSON text).
COLUMNS: Final = (
    "key", "server", "version", "kind", "idx", "registry_type", "identifier",
    "package_version", "status", "error", "peer", "sentence", "server_info", "dependencies",
    "readiness", "install_s", "install_cached", "start_ms", "probe_ms", "client_ms", "total_s",
    "worker", "report", "run",
)
_JSON: Final = frozenset({"server_info", "dependencies", "readiness"})
_DDL: Final = f"""
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (run INTEGER PRIMARY KEY, started REAL NOT NULL,
    source TEXT NOT NULL, jobs INTEGER NOT NULL, executor TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results ({", ".join(
    f"{c} TEXT PRIMARY KEY" if c == "key" else
    f"{c} INTEGER" if c in ("idx", "run", "install_cached", "start_ms", "probe_ms", "client_ms")
    else f"{c} REAL" if c in ("install_s", "total_s") else f"{c} TEXT" for c in COLUMNS)});
"""


_TABLES: Final = {"meta": ("name", "value"),
                  "runs": ("run", "started", "source", "jobs", "executor"),
                  "results": COLUMNS}


def is_census_db(path: str | Path) -> bool:
    """Whether ``path`` is a regular file that starts like an SQLite database."""
    p = Path(path)
    try:
        if not p.is_file():  # before opening: a FIFO with no writer would block the open
            return False
        with p.open("rb") as handle:
            return handle.read(len(_MAGIC)) == _MAGIC
    except OSError:
        return False


class CensusDB:
    """The census's SQLite database (created if absent; refused if it is something else)."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if self.path.exists() and not is_census_db(self.path):
            why = "" if self.path.is_file() else ", not even a regular file"
            raise UsageError(f"{self.path}: not a census database (SQLite){why}")
        if not self.path.exists() and not create:
            raise UsageError(f"{self.path}: no such census database")
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None)
            self._check_tables()  # before any write: never write into another's database
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(_DDL)
            self._check_version()
            if create:  # a census writes a row as each job ends: refused now, not mid-run
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute("UPDATE meta SET value = value WHERE name = 'schema'")
                self.conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise UsageError(f"{self.path}: cannot use it as a census database: {exc}") from None

    def _check_tables(self) -> None:
        """The tables have the columns this mcp-skew writes (a database of another program
        may have tables of the same names, or others)."""
        names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type='table'")}
        if names and "meta" not in names:
            raise UsageError(f"{self.path}: not a census database: it holds the tables "
                             f"{', '.join(sorted(names)[:5])} and no 'meta'")
        for table, wanted in _TABLES.items():
            have = [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]
            if have != list(wanted) and (have or names):
                raise UsageError(f"{self.path}: not a census database: its table {table!r} has "
                                 f"the columns {', '.join(have) or '(none)'}")

    def _check_version(self) -> None:
        got = self.conn.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
        if got is None:
            self.conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif got[0] != str(SCHEMA_VERSION):
            raise UsageError(f"{self.path}: census database schema {got[0]}, this mcp-skew "
                             f"reads {SCHEMA_VERSION}")

    def close(self) -> None:
        self.conn.close()

    def start_run(self, source: str, jobs: int, executor: str) -> int:
        cur = self.conn.execute("INSERT INTO runs (started, source, jobs, executor) "
                                "VALUES (?, ?, ?, ?)", (time.time(), source, jobs, executor))
        return int(cur.lastrowid or 0)

    def done_keys(self, *, retry: tuple[str, ...] = ()) -> set[str]:
        """Keys whose row a re-run keeps (but those of a status in ``retry``)."""
        keep = tuple(s for s in FINAL if s not in retry)
        marks = ",".join("?" * len(keep))
        rows = self.conn.execute(f"SELECT key FROM results WHERE status IN ({marks})", keep)
        return {r[0] for r in rows}

    def put(self, row: dict[str, Any], run: int) -> None:
        """Store one job's row (replacing an older row of the same key), committed at once."""
        values = [json.dumps(row.get(c), sort_keys=True) if c in _JSON and row.get(c) is not None
                  else run if c == "run" else row.get(c) for c in COLUMNS]
        try:
            self.conn.execute(f"INSERT OR REPLACE INTO results ({','.join(COLUMNS)}) "
                              f"VALUES ({','.join('?' * len(COLUMNS))})", values)
        except sqlite3.Error as exc:  # the disk filled, the file was made read-only
            raise UsageError(f"{self.path}: cannot store a row: {exc}") from None

    def rows(self, *, report: bool = True) -> list[dict[str, Any]]:
        """Every row, in key order, JSON columns parsed (the probe report too, if asked)."""
        cols = [c for c in COLUMNS if report or c != "report"]
        out = []
        try:
            for values in self.conn.execute(
                    f"SELECT {','.join(cols)} FROM results ORDER BY key"):
                row = dict(zip(cols, values, strict=True))
                for c in _JSON:
                    row[c] = self._json(row, c)
                out.append(row)
        except sqlite3.Error as exc:
            raise UsageError(f"{self.path}: cannot read it: {exc}") from None
        return out

    def _json(self, row: dict[str, Any], column: str) -> Any:
        """A JSON column's value (read with limits); a bad one is one line naming the row."""
        text = row[column]
        if not text:
            return None
        if not isinstance(text, str):
            raise UsageError(f"{self.path}: row {row.get('key')!r}: column {column} is not "
                             "JSON text")
        try:
            return _jsontext.loads(text, _jsontext.FILE)
        except ValueError as exc:
            raise UsageError(f"{self.path}: row {row.get('key')!r}: column {column} is not "
                             f"JSON ({exc})") from None

    def run_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

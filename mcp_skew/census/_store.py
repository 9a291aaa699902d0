"""The census database: one SQLite row per server entry and package (or remote).

Theory of operation
-------------------
Only the process that runs the census writes, one row as each job completes, in
its own transaction (WAL journal), so a census killed at any moment keeps every
row it had stored. A later run skips the jobs whose row has a final status
(:data:`~mcp_skew.census._work.FINAL`) and runs the rest; ``refresh`` runs all.
Each census run gets a number (``runs`` table); a row says which run stored it,
so a resumed census shows which jobs each run did.

A census database may come from elsewhere (``census report --db``, ``matrix --servers
@census.sqlite``): it is untrusted input, and SQLite runs code a database carries (a view's
query, a trigger's statements, a check or default expression) on a read or a write. So it is
opened read-only (``mode=ro``) where it is only read, with ``trusted_schema`` off (and
SQLite's defensive mode where Python exposes it), and its schema is checked before any
statement touches a table: exactly the tables ``meta``, ``runs`` and ``results``, each defined
as this mcp-skew defines it, and nothing else but their automatic indexes (no view, no
trigger, no index of expressions, no other table). Each statement runs under a budget of
SQLite virtual-machine steps (:data:`STEP_BUDGET`), checked by a progress handler that also
stops it at once when a signal stops the command. Every value read is checked for its type.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from .. import _jsontext, _stopping
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
#: The most SQLite virtual-machine steps one statement may take (a census of a million rows
#: reads in far fewer); the progress handler is called every :data:`_STEPS_PER_CALL`.
STEP_BUDGET: Final = 2_000_000_000
_STEPS_PER_CALL: Final = 10_000
#: What each column of ``results`` may hold (None is allowed in all but ``key``).
_TEXT: Final = (str,)
_INTEGER: Final = (int,)
_REAL: Final = (float, int)
_TYPES: Final = {c: _INTEGER if c in ("idx", "run", "install_cached", "start_ms", "probe_ms",
                                      "client_ms")
                 else _REAL if c in ("install_s", "total_s") else _TEXT for c in COLUMNS}
#: The columns every row has a value in (a census always stores them).
_NOT_NULL: Final = ("key", "server", "status")
_TYPE_NAMES: Final = {str: "text", int: "an integer", float: "a real", bytes: "a blob"}


def _reference_sql() -> dict[str, str]:
    """Each table's ``CREATE TABLE`` text as SQLite stores it for this module's DDL."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(_DDL)
        return {name: " ".join(sql.split()) for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


_REFERENCE: Final = _reference_sql()


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
    """The census's SQLite database (created if absent; refused if it is something else).
    With ``create`` false it is only read: opened read-only, and never created."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if self.path.exists() and not is_census_db(self.path):
            why = "" if self.path.is_file() else ", not even a regular file"
            raise UsageError(f"{self.path}: not a census database (SQLite){why}")
        if not self.path.exists() and not create:
            raise UsageError(f"{self.path}: no such census database")
        self._steps = 0
        self._stopped: KeyboardInterrupt | None = None
        self._read_only = not create
        try:
            if create:
                self.conn = sqlite3.connect(self.path, isolation_level=None)
            else:  # only read: SQLite may not write a byte of it
                uri = f"file:{urllib.parse.quote(str(self.path.absolute()))}?mode=ro"
                self.conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            self._guard()
            self._check_tables()  # before any write: never write into another's database
            if create:
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.executescript(_DDL)
            self._check_version(create)
            if create:  # a census writes a row as each job ends: refused now, not mid-run
                self.conn.execute("BEGIN IMMEDIATE")
                self.conn.execute("UPDATE meta SET value = value WHERE name = 'schema'")
                self.conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self._stop_if_stopped()
            raise UsageError(f"{self.path}: cannot use it as a census database: {exc}") from None

    # -- untrusted input: what SQLite may run, and for how long ----------------------------------
    def _guard(self) -> None:
        """No function of the schema runs (``trusted_schema``), defensive mode where Python
        exposes it (3.12+), and every statement bounded and stoppable (:meth:`_progress`)."""
        self.conn.execute("PRAGMA trusted_schema=OFF")
        defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
        setconfig = getattr(self.conn, "setconfig", None)
        if defensive is not None and setconfig is not None:
            setconfig(defensive, True)
        self.conn.set_progress_handler(self._progress, _STEPS_PER_CALL)

    def _progress(self) -> int:
        """SQLite's progress handler: non-zero interrupts the statement. A signal's handler
        runs here (the statement is Python's only way back to the interpreter): its
        ``KeyboardInterrupt`` is kept, to be raised once SQLite has stopped."""
        try:
            self._steps += _STEPS_PER_CALL
            return int(self._steps > STEP_BUDGET)
        except KeyboardInterrupt as exc:
            self._stopped = exc
            return 1

    def _stop_if_stopped(self) -> None:
        """After an SQLite error: raise the stop that interrupted the statement, if one did
        (SQLite's own callback drops the exception a signal's handler raised inside it)."""
        stopped, self._stopped = self._stopped, None
        if stopped is not None:
            raise stopped
        _stopping.check()

    def _run(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """``execute`` with a fresh step budget (the rows are stepped under it too)."""
        self._steps = 0
        return self.conn.execute(sql, params)

    def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Any]:
        """The rows of ``sql``; a stop, or a budget spent, is one line (or the stop)."""
        try:
            yield from self._run(sql, params)
        except sqlite3.Error as exc:
            self._stop_if_stopped()
            if self._steps > STEP_BUDGET:
                raise UsageError(f"{self.path}: a query took more than {STEP_BUDGET:,} SQLite "
                                 "steps; not a census database this mcp-skew reads") from None
            raise UsageError(f"{self.path}: cannot read it: {exc}") from None

    def _check_tables(self) -> None:
        """The schema is this mcp-skew's, and holds nothing else (a database of another
        program may have tables of the same names, or others; a hostile one, a view or a
        trigger that runs when a table is read or written)."""
        objects = list(self._fetch("SELECT type, name, tbl_name, sql FROM sqlite_master"))
        names = {name for kind, name, _, _ in objects if kind == "table"}
        if not names and self._read_only:
            raise UsageError(f"{self.path}: not a census database: it holds no table")
        if names and "meta" not in names:
            raise UsageError(f"{self.path}: not a census database: it holds the tables "
                             f"{', '.join(sorted(map(str, names))[:5])} and no 'meta'")
        for kind, name, table, sql in objects:
            allowed = (kind == "table" and name in _TABLES) or (
                kind == "index" and sql is None and table in _TABLES)  # a key's own index
            if not allowed:
                raise UsageError(f"{self.path}: not a census database: it holds the "
                                 f"{kind} {str(name)[:60]!r} (a census database holds the "
                                 "tables meta, runs and results, and nothing else)")
        for table, wanted in _TABLES.items():
            have = [r[1] for r in self._fetch(f"PRAGMA table_info({table})")]
            if have != list(wanted) and (have or names):
                raise UsageError(f"{self.path}: not a census database: its table {table!r} has "
                                 f"the columns {', '.join(map(str, have)) or '(none)'}")
        for kind, name, _, sql in objects:
            if kind == "table" and " ".join(str(sql).split()) != _REFERENCE[name]:
                raise UsageError(f"{self.path}: not a census database: its table {name!r} is "
                                 "not defined as a census defines it (types, keys or "
                                 "constraints differ)")

    def _check_version(self, create: bool) -> None:
        got = next(iter(self._fetch("SELECT value FROM meta WHERE name='schema'")), None)
        if got is None and create:
            self.conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif got is None:
            raise UsageError(f"{self.path}: not a census database: it holds no schema version")
        elif got[0] != str(SCHEMA_VERSION):
            raise UsageError(f"{self.path}: census database schema {str(got[0])[:40]}, "
                             f"this mcp-skew reads {SCHEMA_VERSION}")

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
        rows = self._fetch(f"SELECT key FROM results WHERE status IN ({marks})", keep)
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
        """Every row, in key order, each value of its column's type, JSON columns parsed and
        of their shape (the probe report too, if asked); a bad one is one line naming it."""
        cols = [c for c in COLUMNS if report or c != "report"]
        out = []
        for values in self._fetch(f"SELECT {','.join(cols)} FROM results ORDER BY key"):
            row = dict(zip(cols, values, strict=True))
            for c in cols:
                self._typed(row, c)
            for c in _JSON:
                row[c] = self._json(row, c)
                if row[c] is not None and not _SHAPES[c](row[c]):
                    raise UsageError(f"{self.path}: row {_said(row['key'])}: column {c} does "
                                     "not hold what a census stores there")
            out.append(row)
        return out

    def _typed(self, row: dict[str, Any], column: str) -> None:
        value = row[column]
        if value is None and column not in _NOT_NULL:
            return
        if not isinstance(value, _TYPES[column]) or isinstance(value, bool):
            got = _TYPE_NAMES.get(type(value), "null")
            raise UsageError(f"{self.path}: row {_said(row['key'])}: column {column} holds "
                             f"{got}, expected {_TYPE_NAMES[_TYPES[column][0]]}")

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
        return int(next(iter(self._fetch("SELECT COUNT(*) FROM runs")))[0])


def _said(key: Any) -> str:
    """A row's key in an error line (shortened: it comes from the database)."""
    return repr(str(key)[:80])


def _optional(value: Any, kinds: type | tuple[type, ...]) -> bool:
    return value is None or isinstance(value, kinds)


def _readiness_shape(value: Any) -> bool:
    """What :func:`~mcp_skew.census._work.readiness` stores: flags, a reason, a mark, a
    number of milliseconds, and a flag per legacy revision."""
    if not isinstance(value, dict):
        return False
    legacy = value.get("legacy", {})
    return (isinstance(legacy, dict) and all(isinstance(k, str) and _optional(v, bool)
                                             for k, v in legacy.items())
            and all(_optional(value.get(k), bool) for k in ("modern", "dual", "legacy_any"))
            and all(_optional(value.get(k), str) for k in ("modern_reason", "dual_mark"))
            and _optional(value.get("dual_fallback_ms"), int)
            and not isinstance(value.get("dual_fallback_ms"), bool))


#: The shape of each JSON column's value, as the census stores it.
_SHAPES: Final = {
    "server_info": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and _optional(x, str) for k, x in v.items()),
    "dependencies": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and isinstance(x, str) for k, x in v.items()),
    "readiness": _readiness_shape,
}

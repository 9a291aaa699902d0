"""A census database from elsewhere is untrusted input (issue 33): SQLite runs what a schema
carries (a view's query, a trigger's statements), so ``census report``, ``matrix --servers
@census.sqlite`` and the census itself refuse every schema object but the census's own three
tables, open it read-only where they only read, and bound each statement."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import pytest
from _fuzz import run_cli

from mcp_skew import _stopping
from mcp_skew.census import _store
from mcp_skew.census._store import CensusDB
from mcp_skew.errors import UsageError

COLUMNS = ", ".join(_store.COLUMNS)
#: A query that never ends by itself: counting an endless recursive sequence.
ENDLESS = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
           "SELECT count(*) FROM c")


def _census(path: Path, rows: int = 2) -> Path:
    db = CensusDB(path)
    run = db.start_run("listing", rows, "local 1")
    for i in range(rows):
        db.put({"key": f"k{i}", "server": f"io.x/s{i}", "version": "1", "status": "probed",
                "peer": "legacy:2025-06-18", "readiness": {"modern": False, "legacy": {}}}, run)
    db.close()
    return path


def _results_as_view(path: Path, select: str) -> None:
    """The census's tables, but ``results`` a view with the same columns."""
    _census(path)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE results")
        conn.execute(f"CREATE VIEW results ({COLUMNS}) AS {select}")


def _row_count(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM results").fetchone()[0])


@pytest.mark.parametrize("command", ["report", "matrix"])
def test_a_results_view_is_refused_with_one_line(tmp_path: Path, command: str) -> None:
    path = tmp_path / "c.sqlite"
    cells = ", ".join(["'k'", "'io.x/s'", *["NULL"] * 6, "'probed'", *["NULL"] * 15])
    _results_as_view(path, f"SELECT {cells}")
    argv = (["census", "report", "--db", str(path)] if command == "report"
            else ["matrix", "--servers", f"@{path}"])
    code, out, err = run_cli(argv)
    assert (code, out) == (2, ""), err
    assert err == (f"mcp-skew: error: {path}: not a census database: it holds the view "
                   "'results' (a census database holds the tables meta, runs and results, "
                   "and nothing else)\n")


def test_an_endless_results_view_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """The view of the issue: reading it never ended, and no signal stopped it."""
    path = tmp_path / "c.sqlite"
    _results_as_view(path, f"SELECT {', '.join(['x'] * len(_store.COLUMNS))} FROM ("
                     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                     "SELECT x FROM c)")
    code, _, err = run_cli(["census", "report", "--db", str(path)])
    assert code == 2 and "it holds the view 'results'" in err and err.count("\n") == 1


def test_a_trigger_is_refused_and_deletes_nothing(tmp_path: Path) -> None:
    """A trigger on ``runs`` that empties ``results``: the census's own first write (its run's
    row) made it delete every row it had stored."""
    path = _census(tmp_path / "c.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM results; END")
    with pytest.raises(UsageError, match="it holds the trigger 'wipe'"):
        CensusDB(path)
    assert _row_count(path) == 2
    code, _, err = run_cli(["census", "report", "--db", str(path)])
    assert code == 2 and "it holds the trigger 'wipe'" in err and err.count("\n") == 1


@pytest.mark.parametrize(("sql", "says"), [
    ("CREATE TABLE extra (a)", "it holds the table 'extra'"),
    ("CREATE INDEX odd ON results (lower(server))", "it holds the index 'odd'"),
    ("CREATE VIEW v AS SELECT 1", "it holds the view 'v'"),
])
def test_any_other_schema_object_is_refused(tmp_path: Path, sql: str, says: str) -> None:
    path = _census(tmp_path / "c.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute(sql)
    for create in (True, False):
        with pytest.raises(UsageError, match=says):
            CensusDB(path, create=create)


def test_a_table_of_the_census_defined_otherwise_is_refused(tmp_path: Path) -> None:
    """The same column names, but a check that runs on every write, and no key."""
    path = _census(tmp_path / "c.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE meta")
        conn.execute("CREATE TABLE meta (name, value CHECK (length(randomblob(10)) > 0))")
        conn.execute("INSERT INTO meta VALUES ('schema', '1')")
    for create in (True, False):
        with pytest.raises(UsageError, match="its table 'meta' is not defined as a census "):
            CensusDB(path, create=create)


def test_a_database_that_is_only_read_is_not_written(tmp_path: Path) -> None:
    """``census report`` opens it read-only: no table is created in an empty SQLite file."""
    path = tmp_path / "c.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT "
                                  "NULL)").connection.close()
    code, _, err = run_cli(["census", "report", "--db", str(path)])
    assert code == 2 and err.count("\n") == 1, err
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "results" not in tables


@pytest.mark.parametrize(("column", "value", "says"), [
    ("server", b"io.x", "column server holds a blob, expected text"),
    ("idx", "one", "column idx holds text, expected an integer"),
    ("total_s", b"\x00", "column total_s holds a blob, expected a real"),
    ("server", None, "column server holds null, expected text"),
    ("readiness", '{"legacy": 5}', "column readiness does not hold what a census stores there"),
    ("readiness", "[1]", "column readiness does not hold what a census stores there"),
    ("dependencies", '{"mcp": 1}', "column dependencies does not hold what a census stores there"),
])
@pytest.mark.parametrize("command", ["report", "matrix"])
def test_a_value_of_the_wrong_type_is_one_line(tmp_path: Path, column: str, value: object,
                                               says: str, command: str) -> None:
    path = _census(tmp_path / "c.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE results SET {column} = ? WHERE key = 'k1'", (value,))
    argv = (["census", "report", "--db", str(path)] if command == "report"
            else ["matrix", "--servers", f"@{path}"])
    code, out, err = run_cli(argv)
    assert (code, out) == (2, ""), err
    assert err == f"mcp-skew: error: {path}: row 'k1': {says}\n"


def test_a_statement_over_its_step_budget_is_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = CensusDB(_census(tmp_path / "c.sqlite"), create=False)
    monkeypatch.setattr(_store, "STEP_BUDGET", 1_000_000)
    try:
        with pytest.raises(UsageError, match="a query took more than 1,000,000 SQLite steps"):
            list(db._fetch(ENDLESS))
    finally:
        db.close()


def test_a_signal_stops_a_long_statement(tmp_path: Path) -> None:
    """SIGTERM lands while SQLite runs a statement: the progress handler lets Python run the
    signal's handler, and the stop comes out as the command's stop (exit 143)."""
    db = CensusDB(_census(tmp_path / "c.sqlite"), create=False)
    # a C function (no Python frame): the signal's handler runs at the next Python code,
    # which only the progress handler gives while the statement runs on
    db.conn.create_function("send", 2, os.kill)
    try:
        with pytest.raises(_stopping.Terminated) as stopped, _stopping.stopping():
            list(db._fetch(f"{ENDLESS} WHERE x > 1 OR send(?, ?) IS NULL",
                           (os.getpid(), signal.SIGTERM)))
        assert stopped.value.signum == signal.SIGTERM
    finally:
        db.close()

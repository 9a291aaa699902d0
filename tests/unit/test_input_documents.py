"""Wire logs, census listings and census databases read with typed checks: each bad one
is one line on stderr and exit code 2 (never a traceback), in every command that reads it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from _fuzz import run_cli

from mcp_skew.census._store import CensusDB
from mcp_skew.errors import UsageError

HEADER = {"format": "mcp-skew-transcript", "format_version": 1, "source": "record",
          "clock": "wall"}
INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "c", "version": "1"}}})


def _lines(*records: dict[str, Any], header: bool = True) -> str:
    return "".join(json.dumps(r) + "\n" for r in ([HEADER] if header else []) + list(records))


def _run(t: str, ms: Any = 0) -> dict[str, Any]:
    return {"t": t, "ms": ms, "dir": "c2s", "line": INIT}


#: (case, log text, what the one line says after the file's name)
BAD_LOGS: list[tuple[str, str, str]] = [
    ("ms-too-large-for-a-float", _lines({"ms": 10**400, "dir": "c2s", "line": INIT}),
     ":2: 'ms': should be a number from 0 to 1000000000000000 (milliseconds)"),
    ("ms-beyond-the-bound", _lines({"ms": 10**16, "dir": "c2s", "line": INIT}),
     ":2: 'ms': should be a number from 0 to"),
    ("probe-t_ms-too-large", json.dumps({"t_ms": 10**40, "event": "x"}) + "\n",
     ":1: 'ms': should be a number from 0 to"),
    ("naive-after-aware", _lines(_run("2026-08-30T09:15:02Z"), _run("2026-08-30T09:15:03", 1)),
     ":3: 't': no UTC offset, where the times before have one"),
    ("aware-after-naive", _lines(_run("2026-08-30T09:15:02"), _run("2026-08-30T09:15:03Z", 1)),
     ":3: 't': a UTC offset, where the times before have none"),
    ("mixed-without-ms", json.dumps({"t": "2026-08-30T09:15:02Z", "dir": "c2s", "line": INIT})
     + "\n" + json.dumps({"t": "2026-08-30T09:15:03", "dir": "c2s", "line": INIT}) + "\n",
     ":2: 't': no UTC offset"),
    ("t-not-a-time", _lines(_run("yesterday")), ":2: 't': 'yesterday' is not an ISO 8601 time"),
    ("t-a-number", _lines(_run(5)), ":2: 't': should be a string (an ISO 8601 time)"),
    ("event-code-a-string", _lines({"ms": 0, "dir": "event", "event": "exit", "code": "1"}),
     ":2: 'code': Input should be a valid integer"),
    ("event-argv-of-numbers", _lines({"ms": 0, "dir": "event", "event": "start", "argv": [1]}),
     ":2: 'argv.0': Input should be a valid string"),
    ("event-name-a-list", _lines({"ms": 0, "dir": "event", "event": ["exit"]}),
     ":2: 'event': Input should be a valid string"),
    ("run-t_ms-a-string", json.dumps({"transcript": [{"t_ms": "x", "dir": "c2s",
                                                       "message": {}}],
                                      "events": [{"t_ms": 0, "event": "x"}]}),
     ": transcript[0]: 't_ms': should be a number (milliseconds)"),
    ("run-event-t_ms-a-list", json.dumps({"transcript": [{"t_ms": 0, "dir": "c2s",
                                                           "message": {}}],
                                          "events": [{"t_ms": [1], "event": "x"},
                                                     {"t_ms": 0, "event": "y"}]}),
     ": events[0]: 't_ms': should be a number (milliseconds)"),
    ("run-event-t_ms-huge", json.dumps({"transcript": [{"t_ms": 0, "dir": "c2s",
                                                         "message": {}}],
                                        "events": [{"t_ms": 10**40, "event": "x"}]}),
     ": events[0]: 't_ms': should be a number from 0 to"),
]


@pytest.mark.parametrize(("text", "says"), [c[1:] for c in BAD_LOGS],
                         ids=[c[0] for c in BAD_LOGS])
@pytest.mark.parametrize("command", [["show-log"], ["show-log", "--json"],
                                     ["replay", "--server", "legacy:2025-06-18"]])
def test_a_bad_log_is_one_line(tmp_path: Path, text: str, says: str,
                               command: list[str]) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli([command[0], str(path), *command[1:]])
    assert (code, out) == (2, ""), err
    assert err.startswith(f"mcp-skew: error: {path}{says}"), err
    assert err.count("\n") == 1, err


def test_times_all_with_or_all_without_an_offset_are_read(tmp_path: Path) -> None:
    for zone in ("Z", ""):
        path = tmp_path / f"log{zone}.jsonl"
        path.write_text(_lines(_run(f"2026-08-30T09:15:02{zone}"),
                               _run(f"2026-08-30T09:15:03{zone}", 10**15)), encoding="utf-8")
        code, out, err = run_cli(["show-log", str(path), "--json"])
        assert code == 0, err
        assert json.loads(out)["entries"][-1]["ms"] == 10**15


# -- census listings and databases ---------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_listing_nested_100000_deep_is_one_line(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    code, _, err = run_cli(["census", "--db", str(tmp_path / "c.sqlite"), str(path)])
    assert code == 2
    assert "nested deeper than 128 levels" in err and err.count("\n") == 1, err
    assert not (tmp_path / "c.sqlite").exists()  # refused before the database is made


def _census_db(path: Path) -> Path:
    db = CensusDB(path)
    db.start_run("listing", 1, "local 1")
    db.put({"key": "k", "server": "io.x/s", "status": "probed", "readiness": {"a": 1}}, 1)
    db.close()
    return path


def _foreign_results(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE results (a, b)")


def _foreign_other(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")


def _foreign_meta(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE meta (x)")


def _bad_json(path: Path) -> None:
    _census_db(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET readiness = '{bad'")


def _deep_json(path: Path) -> None:
    _census_db(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET readiness = ?", ("[" * 100_000 + "]" * 100_000,))


BAD_DBS = [
    ("foreign-results", _foreign_results, "not a census database: it holds the tables results "
     "and no 'meta'"),
    ("foreign-other", _foreign_other, "not a census database: it holds the tables users"),
    ("foreign-meta", _foreign_meta, "not a census database: its table 'meta' has the columns x"),
    ("bad-json", _bad_json, "row 'k': column readiness is not JSON (Expecting property name"),
    ("deep-json", _deep_json, "row 'k': column readiness is not JSON (nested deeper than 128"),
]


@pytest.mark.parametrize(("make", "says"), [c[1:] for c in BAD_DBS], ids=[c[0] for c in BAD_DBS])
@pytest.mark.parametrize("command", ["report", "matrix"])
def test_a_bad_census_db_is_one_line(tmp_path: Path, make: Any, says: str,
                                     command: str) -> None:
    path = tmp_path / "c.sqlite"
    make(path)
    before = path.read_bytes()
    argv = (["census", "report", "--db", str(path)] if command == "report"
            else ["matrix", "--servers", f"@{path}"])
    code, out, err = run_cli(argv)
    assert (code, out) == (2, ""), err
    assert err.startswith(f"mcp-skew: error: {path}: {says}"), err
    assert err.count("\n") == 1, err
    if make in (_foreign_results, _foreign_other, _foreign_meta):
        assert path.read_bytes() == before  # nothing written into another program's database


def test_a_read_only_census_db_is_refused_before_the_census_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _census_db(tmp_path / "c.sqlite")
    connect = sqlite3.connect

    def read_only(target: Any, **kwargs: Any) -> sqlite3.Connection:
        # root writes through a file mode of 0444: open it the way a read-only file opens
        kwargs.pop("uri", None)
        return connect(f"file:{target}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(UsageError, match=r"cannot use it as a census database: "
                       r"attempt to write a readonly database"):
        CensusDB(path)


def test_a_file_name_no_system_can_encode_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A peer file named with a lone surrogate (found by the CLI fuzz): one line, exit 2."""
    from mcp_skew.cli import main

    assert main(["simulate", "--client", "@+\ud800", "--server", "2025-03-26"]) == 2
    err = capsys.readouterr().err
    assert "not a file name this system can encode" in err and err.count("\n") == 1


def test_a_file_name_with_a_nul_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A peer file named with NUL (found by the CLI fuzz): one line, exit 2."""
    from mcp_skew.cli import main

    assert main(["rollout", "--clients", "2024-11-05", "--fleet", "@\x00"]) == 2
    err = capsys.readouterr().err
    assert "not a file name" in err and err.count("\n") == 1

"""No FIFO hangs: an input that is a FIFO with no writer reads as empty (opened without
blocking), an output that is a FIFO with no reader is refused at once; and an output
path that is one of the command's inputs is refused, through links too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _fuzz import run_cli

from mcp_skew.census._store import CensusDB

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


#: argv (``{f}``: the FIFO) -> what the one error line says
READERS = [
    (["simulate", "--client", "@{f}", "--server", "legacy:2025-06-18"], "not JSON"),
    (["matrix", "--servers", "@{f}"], "not JSON"),
    (["--profile", "{f}", "versions"], "field revision: Field required"),
    (["show-log", "{f}"], "the log {f} is empty"),
    (["replay", "{f}", "--server", "legacy:2025-06-18"], "the log {f} is empty"),
    (["matrix", "--from", "{f}"], "--from {f}: not JSON"),
    (["census", "report", "--db", "{f}"], "{f}: not a census database (SQLite), not even a "
     "regular file"),
]
WRITERS = [
    (["record", "--log", "{f}", "--", "true"], "cannot write the log {f}: a FIFO with no reader"),
    (["serve", "legacy:2025-06-18", "--record", "{f}"],
     "cannot write the log {f}: a FIFO with no reader"),
]


@pytest.mark.parametrize(("argv", "says"), READERS + WRITERS,
                         ids=[" ".join(a[:2]) for a, _ in READERS + WRITERS])
def test_a_fifo_nobody_opens_is_one_line(fifo: Path, argv: list[str], says: str) -> None:
    code, _, err = run_cli([a.format(f=fifo) for a in argv])
    assert code == 2
    assert says.format(f=fifo) in err and err.count("\n") == 1, err


def test_probe_record_refuses_a_fifo_at_a_transcripts_name(tmp_path: Path) -> None:
    from mcp_skew.errors import UsageError
    from mcp_skew.probe._runner import _recorder
    from mcp_skew.probe._target import ProbeOptions

    os.mkfifo(tmp_path / "00-x.jsonl")
    opts = ProbeOptions(record_dir=tmp_path)
    with pytest.raises(UsageError, match=r"00-x\.jsonl: a FIFO with no reader"):
        _recorder(opts, 0, "x")


@pytest.mark.parametrize("via", ["same", "link"])
def test_census_report_out_is_not_its_database(tmp_path: Path, via: str) -> None:
    db = tmp_path / "c.sqlite"
    CensusDB(db).close()
    before = db.read_bytes()
    out = db
    if via == "link":
        out = tmp_path / "report.html"
        out.symlink_to(db)
    code, _, err = run_cli(["census", "report", "--db", str(db), "--out", str(out)])
    assert code == 2
    assert f"--out {out}: is {db}, an input of the command" in err and err.count("\n") == 1
    assert db.read_bytes() == before


def test_matrix_out_is_not_its_from_document(tmp_path: Path) -> None:
    doc = tmp_path / "m.json"
    code, out, _ = run_cli(["matrix", "--clients", "legacy:2025-06-18", "--servers",
                            "legacy:2025-06-18", "--format", "json"])
    assert code == 0
    doc.write_text(out, encoding="utf-8")
    hard = tmp_path / "hard.json"
    os.link(doc, hard)  # the same file by inode, under another name
    code, _, err = run_cli(["matrix", "--from", str(doc), "--out", str(hard)])
    assert code == 2 and "an input of the command" in err, err
    assert doc.read_text(encoding="utf-8") == out

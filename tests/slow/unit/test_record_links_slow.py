"""``mcp-skew probe --record DIR`` with a symbolic link planted in DIR: one line, exit 2, and
the link's target (a file outside DIR) unchanged; a DIR of an earlier run's regular files is
written again. These start a server process (slow); the writers' own tests are in
``tests/unit/test_record_links.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _paths import SERVERS

from mcp_skew.cli import main

SERVER = ["--", sys.executable, str(SERVERS / "sim_stdio_server.py"), "legacy:2025-11-25"]
ONE = ["probe", "--quiet", "--no-prober", "--client", "legacy:2025-11-25"]
KEPT = "the target's own text\n"


@pytest.mark.parametrize("name", ["01-legacy_2025-11-25.jsonl",
                                  "01-legacy_2025-11-25.stderr.log", "report.json"])
def test_a_planted_symlink_is_refused_in_one_line(tmp_path: Path, name: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "elsewhere" / "precious.txt"
    outside.parent.mkdir()
    outside.write_text(KEPT)
    record = tmp_path / "rec"
    record.mkdir()
    (record / name).symlink_to(outside)
    code = main([*ONE, "--record", str(record), *SERVER])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == [f"mcp-skew: error: --record {record / name}: a symbolic link "
                                "(not followed)"]
    assert outside.read_text() == KEPT
    assert (record / name).is_symlink()


def test_an_earlier_runs_files_are_written_again(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "rec"
    assert main([*ONE, "--record", str(record), *SERVER]) == 0
    first = (record / "01-legacy_2025-11-25.jsonl").read_text()
    assert main([*ONE, "--record", str(record), *SERVER]) == 0
    again = (record / "01-legacy_2025-11-25.jsonl").read_text()
    assert again.count("\n") == first.count("\n") > 1  # written again, not appended
    assert (record / "report.json").read_text().startswith("{")
    capsys.readouterr()

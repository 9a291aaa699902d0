"""``{server}`` inside a client's shell command, with ``--record DIR`` naming a folder whose
name holds ``$(...)`` (issue 33: the shell ran it): nothing runs but the client and its
server. The server's words (a relay to the server probe-client serves, issue 37) hold no
part of the record folder's name at all."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from _paths import TESTS

from mcp_skew.cli import main

CLIENT = [sys.executable, str(TESTS / "clients" / "scripted_client.py")]


def test_a_record_dir_with_shell_syntax_runs_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "rec $(touch pwned-dollar) `touch pwned-tick` \"x"
    out = tmp_path / "card.json"
    shell = f'exec {shlex.join(CLIENT)} --era legacy --revisions 2025-11-25 -- {{server}}'
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--timeout", "60", "--record", str(record), "--server", "legacy:2025-11-25",
                 "--", "sh", "-c", shell])
    err = capsys.readouterr().err
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.glob("pwned*")) == []
    card = json.loads(out.read_text(encoding="utf-8"))
    (row,) = card["rows"]
    assert row["observed"]["outcome"] == "works", row
    assert (record / "01.jsonl").is_file()

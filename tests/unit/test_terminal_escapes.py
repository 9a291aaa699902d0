"""Strings from outside reach the terminal escaped: a peer file's label with ESC/OSC and
bidi controls is shown as ``\\u001b``/``\\u202e`` by ``matrix`` and ``simulate`` (and JSON
output stays the same JSON), never obeyed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_skew.cli import main

HOSTILE = "evil\x1b]0;owned\x07\x1b[2J\u202etxt.exe"


@pytest.fixture
def peer_file(tmp_path: Path) -> Path:
    path = tmp_path / "peer.json"
    path.write_text(json.dumps({"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18",
                                "label": HOSTILE, "sentence": "s", "target": "t",
                                "evidence": {}}))
    return path


def _no_controls(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\u001b" in text


def test_matrix_in_colour_keeps_its_colours_and_escapes_the_label(
        peer_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--clients", "2025-06-18", "--servers", f"@{peer_file}",
                 "--color", "always"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[32m" in out and "\x1b[0m" in out  # the matrix's own colours
    assert "\x1b]" not in out and "\x1b[2J" not in out and "\x07" not in out
    assert "\u202e" not in out and "\\u001b" in out  # the label's controls, shown escaped


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_matrix_shows_a_peer_label_escaped(peer_file: Path, fmt: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--clients", "2025-06-18", "--servers", f"@{peer_file}",
                 "--format", fmt]) == 0
    out = capsys.readouterr().out
    _no_controls(out)
    if fmt == "json":
        labels = [s["label"] for s in json.loads(out)["servers"]]
        assert labels == [HOSTILE]  # read back, the same JSON


@pytest.mark.parametrize("extra", [[], ["--trace"], ["--json"]])
def test_simulate_shows_a_peer_label_escaped(peer_file: Path, extra: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", "2025-06-18", "--server", f"@{peer_file}",
                 *extra]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out


def test_census_report_shows_a_registry_name_escaped(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from mcp_skew.census._store import CensusDB

    db_path = tmp_path / "c.sqlite"
    db = CensusDB(db_path)
    try:
        run = db.start_run("listing.json", 1, "local")
        db.put({"key": f"{HOSTILE}@1#package0", "server": HOSTILE, "version": "1",
                "kind": "package", "idx": 0, "registry_type": "npm", "identifier": HOSTILE,
                "package_version": "1", "status": "start-failed", "worker": "w",
                "error": f"no answer; stderr: {HOSTILE}",
                "server_info": {"name": HOSTILE, "version": "1"}}, run)
    finally:
        db.close()
    assert main(["census", "report", "--db", str(db_path)]) == 0
    _no_controls(capsys.readouterr().out)

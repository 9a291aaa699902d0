"""Text from outside (labels of @FILE peers, server names from a census database, every
string of a --from document, a profile file's text) is shown, never obeyed: no ESC or
other control character of its own reaches the output of any renderer, whatever
``--color`` says, and in HTML it is escaped and shown (issue 33)."""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from _fuzz import run_cli
from _fuzz_inputs import FULL_PROFILE, MATRIX_FORMATS, MATRIX_VIEWS

from mcp_skew._markup import code_span, escape
from mcp_skew._output import terminal_safe
from mcp_skew.census._store import CensusDB

#: What a terminal acts on (tab and newline aside).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: A label with its own colour codes (the very ones the matrix writes), a title change, a C1 CSI.
LABEL = "L\x1b[32mGREEN\x1b[0m\x1b]0;owned\x07\x9b2J\u202e<script>x</script>"


def _peer(tmp_path: Path, role: str) -> str:
    path = tmp_path / f"{role}.json"
    path.write_text(json.dumps({"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18",
                                "role": role, "label": LABEL, "target": "t\x1b[2J",
                                "sentence": "s\x1b[2J"}), encoding="utf-8")
    return f"@{path}"


@pytest.mark.parametrize("fmt", MATRIX_FORMATS)
@pytest.mark.parametrize("view", MATRIX_VIEWS)
def test_a_peer_files_label_is_shown_in_every_matrix_format(tmp_path: Path, fmt: str,
                                                             view: str) -> None:
    code, out, err = run_cli(["matrix", "--clients", _peer(tmp_path, "client"), "--servers",
                              _peer(tmp_path, "server"), "--format", fmt, "--view", view,
                              "--color", "never"])
    assert code == 0, err
    assert not CONTROL.search(out), CONTROL.findall(out)
    if fmt != "json":
        assert "\\u001b[32mGREEN" in out  # shown as the terminal shows it
    if fmt in ("html", "junit"):
        assert "<script>x" not in out  # markup escaped (Markdown: inside code spans)


def test_with_colour_only_the_matrixs_own_codes_are_raw(tmp_path: Path) -> None:
    code, out, _ = run_cli(["matrix", "--clients", _peer(tmp_path, "client"), "--servers",
                            _peer(tmp_path, "server"), "legacy:2025-06-18",
                            "--color", "always"])
    assert code == 0
    assert "\x1b[32mGREEN" not in out and "\\u001b[32mGREEN" in out
    assert set(re.findall("\x1b\\[\\d+m", out)) <= {"\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"}
    assert "\x1b]" not in out and "\x9b" not in out


def test_both_transports_and_a_written_file_show_it_too(tmp_path: Path) -> None:
    out_file = tmp_path / "m.md"
    code, _, err = run_cli(["matrix", "--clients", _peer(tmp_path, "client"), "--servers",
                            _peer(tmp_path, "server"), "--transport", "both", "--format",
                            "markdown", "--out", str(out_file)])
    assert code == 0, err
    assert not CONTROL.search(out_file.read_text(encoding="utf-8"))


def test_server_names_from_a_census_database_are_shown(tmp_path: Path) -> None:
    db_path = tmp_path / "c.sqlite"
    db = CensusDB(db_path)
    db.start_run("listing", 1, "local 1")
    db.put({"key": "k", "server": "io.x/\x1b[31mevil\x1b]0;t\x07", "version": "1\x1b[2J",
            "status": "probed", "peer": "legacy:2025-06-18", "sentence": "x\x1b[2J",
            "registry_type": "npm", "identifier": "x"}, 1)
    db.close()
    for fmt in MATRIX_FORMATS:
        code, out, err = run_cli(["matrix", "--servers", f"@{db_path}", "--clients",
                                  "legacy:2025-06-18", "--format", fmt, "--color", "never"])
        assert code == 0, err
        assert not CONTROL.search(out), (fmt, CONTROL.findall(out))


def test_every_string_of_a_from_document_is_shown(tmp_path: Path) -> None:
    _, out, _ = run_cli(["matrix", "--clients", "dual:2026-07-28,2025-11-25", "--servers",
                         "legacy:2025-06-18+silent", "--format", "json"])
    doc: dict[str, Any] = json.loads(out)
    cell = doc["cells"][0][0]
    cell["reason"] += "\x1b[2J"
    cell["path"] = [step + "\x07" for step in cell["path"]]
    cell["revision"] = "2025-06-18\x1b[31m"
    for record in cell["transcript"]:
        record.setdefault("text", "t\x1b]0;x\x07")
    doc["scenario"] = "default\x1b[2J"
    source = tmp_path / "m.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    for fmt in MATRIX_FORMATS:
        for view in MATRIX_VIEWS:
            code, out, err = run_cli(["matrix", "--from", str(source), "--format", fmt,
                                      "--view", view])
            assert code == 0, err
            assert not CONTROL.search(out), (fmt, view, CONTROL.findall(out))


def test_rollout_shows_a_peer_files_label(tmp_path: Path) -> None:
    for fmt in ("text", "html"):
        code, out, err = run_cli(["rollout", "--clients", "legacy:2025-06-18*2", "--fleet",
                                  _peer(tmp_path, "server") + "*2", "--duration", "2m",
                                  "--format", fmt])
        assert code == 0, err
        assert not CONTROL.search(out), (fmt, CONTROL.findall(out))


@pytest.mark.parametrize("command", [["versions"], ["show", "2099-01-01"],
                                     ["diff", "2026-07-28", "2099-01-01"],
                                     ["migrate", "2026-07-28", "2099-01-01"]])
def test_a_profile_files_text_is_shown(tmp_path: Path, command: list[str]) -> None:
    doc = copy.deepcopy(FULL_PROFILE)
    doc["title"] = "draft\x1b]0;owned\x07"
    doc["changes"][1]["summary"] = "Batches\x1b[2J again"
    doc["changes"][0]["steps"] = ["Servers: answer\x1b[31m x/search."]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run_cli(["--profile", str(path), *command])
    assert code == 0, err
    assert not CONTROL.search(out), CONTROL.findall(out)


def test_html_escape_shows_controls_as_the_terminal_does() -> None:
    assert escape("<b>\x1b[31m&") == "&lt;b&gt;\\u001b[31m&amp;"
    every = "".join(map(chr, range(0x3000))) + "\ud800\udfff"
    assert escape(every) == html.escape(terminal_safe(every), quote=True)


def test_a_backtick_in_a_label_cannot_close_its_markdown_code_span(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18",
                                "role": "server", "label": "x` <img src=x> `y"}),
                    encoding="utf-8")
    for fmt in ("markdown", "github"):
        code, out, err = run_cli(["matrix", "--clients", "legacy:2025-06-18", "--servers",
                                  f"@{path}", "--format", fmt])
        assert code == 0, err
        assert "| ``x` <img src=x> `y`` |" in out  # one span, fenced by two backticks
        assert "| `x` <img src=x> `y` |" not in out


def test_code_span() -> None:
    assert code_span("a") == "`a`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`a") == "`` `a ``"
    assert code_span("a``b`") == "``` a``b` ```"

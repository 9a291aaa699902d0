"""``mcp-skew matrix`` on the command line: options, files, progress, interruption."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from mcp_skew.cli import main
from mcp_skew.matrix import Matrix, build_matrix, render
from mcp_skew.matrix import _command as command
from mcp_skew.matrix._render import TRANSCRIPT_FORMATS
from mcp_skew.peers import builtin_peers


@pytest.fixture(autouse=True)
def _no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Captured stdout is no terminal: with COLUMNS unset the text format is the wide table
    (the fitted layout has its own tests, in test_matrix_width.py)."""
    monkeypatch.delenv("COLUMNS", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["matrix", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_no_arguments_prints_the_built_in_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys)
    assert code == 0 and err == ""
    assert out.startswith("MCP compatibility matrix") and "client \\ server" in out
    assert "dual 2026+25-11 restart" in out and "lenient" in out  # a row, a column
    assert "156 pairs (12 clients × 13 servers" in out


def test_specs_with_commas_stay_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--clients", "dual:2026-07-28,2025-11-25", "2025-06-18",
                        "--clients", "modern:2026-07-28", "--servers",
                        "legacy:2025-11-25,2025-06-18+silent", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [a["notation"] for a in data["clients"]] == [
        "dual:2026-07-28,2025-11-25", "legacy:2025-06-18", "modern:2026-07-28"]
    assert [a["label"] for a in data["servers"]] == ["legacy 25-11+25-06 silent"]


def test_a_bad_spec_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--clients", "legacy:2026-07-28")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "legacy peer takes legacy revisions only" in err


def test_scenario_is_passed_to_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--clients", "2025-11-25", "--servers", "2025-11-25",
                        "--scenario", "handshake", "--format", "json")
    cell = json.loads(out)["cells"][0][0]
    assert code == 0 and cell["scenario"] == "handshake" and cell["steps"] == []


def test_out_writes_the_file_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "m.xml"
    code, out, err = _run(capsys, "--format", "junit", "--out", str(target))
    assert code == 0 and out == ""
    assert f"wrote {target}" in err
    assert len(ET.parse(target).getroot().findall("./testsuite/testcase")) == 156
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["m.xml"]


def test_out_to_a_missing_directory_is_a_usage_error(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--clients", "2025-11-25", "--servers", "2025-11-25",
                        "--out", str(tmp_path / "no" / "such.md"))
    assert code == 2 and "--out" in err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Matrix]:
    """The default matrix, run once, and its JSON file."""
    matrix = build_matrix(builtin_peers("client"), builtin_peers("server"))
    path = tmp_path_factory.mktemp("matrix") / "m.json"
    path.write_text(render(matrix, "json"), encoding="utf-8")
    return path, matrix


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "grid", "html", "csv", "junit",
                                 "json"])
def test_from_renders_without_running(fmt: str, saved: tuple[Path, Matrix],
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    source, matrix = saved

    def no_runs(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("--from must not run the simulator")

    monkeypatch.setattr(command, "build_matrix", no_runs)
    code, out, _ = _run(capsys, "--from", str(source), "--format", fmt)
    assert code == 0 and out == render(matrix, fmt)
    if fmt == "json":
        assert out == source.read_text(encoding="utf-8")


def test_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    document = _run(capsys, "--clients", "2025-11-25", "--servers", "2025-11-25",
                    "--format", "json")[1]
    monkeypatch.setattr("sys.stdin", io.StringIO(document))
    code, out, _ = _run(capsys, "--from", "-", "--format", "csv")
    assert code == 0 and out.count("\n") == 2


@pytest.mark.parametrize(("content", "message"), [
    (None, "No such file"),
    ("{not json", "not JSON"),
    ('{"format": "other"}', "not an mcp-skew matrix"),
])
def test_from_bad_input_is_one_line_and_exit_2(content: str | None, message: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = _run(capsys, "--from", str(path))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_from_takes_no_peers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--from", str(tmp_path / "m.json"), "--clients", "2025-11-25")
    assert code == 2 and "takes no --clients" in err


def test_progress_on_request_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--progress", "--format", "csv")
    assert code == 0
    lines = err.splitlines()
    assert lines[-1] == "matrix: 156/156 pairs" and 5 <= len(lines) <= 11
    assert "matrix:" not in out


def test_progress_on_a_terminal_rewrites_one_line_and_clears_it() -> None:
    stream = io.StringIO()
    progress = command.Progress(stream, tty=True, delay=0.0)
    for done in range(1, 4):
        progress(done, 3)
    progress.clear()
    text = stream.getvalue()
    assert "\n" not in text and text.startswith("\rmatrix: ") and text.endswith("\r\x1b[K")


def test_interrupted_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "build_matrix", interrupted)
    target = tmp_path / "m.html"
    code, out, err = _run(capsys, "--format", "html", "--out", str(target))
    assert code == 130 and out == "" and "interrupted" in err
    assert not target.exists()


def test_features_view(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--view", "features", "--format", "markdown")
    assert code == 0 and "Features lost" in out and "ok, loses" in out


def test_colour_always_and_never(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--clients", "2025-11-25", "--servers", "2025-11-25")
    assert "\x1b[32m" in _run(capsys, *args, "--color", "always")[1]
    assert "\x1b[" not in _run(capsys, *args, "--color", "never")[1]


def test_help_names_wide_and_the_width_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["matrix", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--wide" in text and "COLUMNS" in text and "terminal" in text


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "grid", "csv", "html", "json",
                                 "junit"])
def test_only_the_formats_that_show_transcripts_keep_them(
        fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[bool] = []

    def spy(*args: Any, keep_transcripts: bool = True, **kwargs: Any) -> Matrix:
        kept.append(keep_transcripts)
        return build_matrix(*args, keep_transcripts=keep_transcripts, **kwargs)

    monkeypatch.setattr(command, "build_matrix", spy)
    code, out, _ = _run(capsys, "--clients", "2025-11-25", "--servers", "2025-11-25",
                        "--format", fmt)
    assert code == 0 and out
    assert kept == [fmt in ("html", "json", "junit")]
    assert kept == [fmt in TRANSCRIPT_FORMATS]


class _Writes(io.StringIO):
    """A stdout that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_the_text_matrix_is_written_a_line_at_a_time(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """The text format goes out as it is laid out (nothing written is kept): the same text
    as the whole rendering (``--out``), in one write per line of the table and of the prose
    under it."""
    out = _Writes()
    monkeypatch.setattr("sys.stdout", out)
    argv = ["matrix", "--clients", "2025-11-25", "legacy:2025-06-18", "--servers", "2025-11-25",
            "legacy:2024-11-05+silent"]
    assert main(argv) == 0
    assert main([*argv, "--out", str(tmp_path / "m.txt")]) == 0
    whole = (tmp_path / "m.txt").read_text(encoding="utf-8")
    assert out.getvalue() == whole and "silent" in whole and "✗" in whole
    assert out.writes[0] == whole.split("\n", 1)[0] + "\n\n"  # the title and its blank line
    assert out.writes[1:] == [f"{line}\n" for line in whole.split("\n")[2:-1]]


def test_other_outputs_are_written_whole(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    out = _Writes()
    monkeypatch.setattr("sys.stdout", out)
    assert main(["matrix", "--clients", "2025-11-25", "--servers", "2025-11-25",
                 "--format", "markdown"]) == 0
    assert len(out.writes) == 1 and out.writes[0].startswith("# Compatibility matrix")
    assert main(["matrix", "--clients", "2025-11-25", "--servers", "2025-11-25",
                 "--out", str(tmp_path / "m.txt")]) == 0
    assert (tmp_path / "m.txt").read_text(encoding="utf-8").startswith("MCP compatibility")

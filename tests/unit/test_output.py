"""Output through one helper: atomic for regular files, written through FIFOs and links."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from mcp_skew._output import emit, terminal_safe, write_output
from mcp_skew.errors import UsageError


def test_a_symlink_stays_and_its_target_is_written(tmp_path: Path) -> None:
    target = tmp_path / "t.txt"
    target.write_text("old")
    link = tmp_path / "l.txt"
    link.symlink_to(target)
    write_output(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_output(fifo, "through")
    reader.join(5)
    assert got == [b"through"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_directory_or_a_missing_parent_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is a directory"):
        write_output(tmp_path, "x")
    with pytest.raises(UsageError, match="no such directory"):
        write_output(tmp_path / "missing" / "x.txt", "x")


def test_terminal_safe_escapes_what_a_terminal_obeys() -> None:
    assert terminal_safe("\x1b]0;t\x07a\tb\nc\x9b\ud800") == "\\u001b]0;t\\u0007a\tb\nc\\u009b\\ud800"


def test_a_report_goes_to_its_file_verbatim_or_to_the_terminal_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "server \x1b[2J says\n"
    emit(None, text)
    assert capsys.readouterr().out == "server \\u001b[2J says\n"  # shown, never obeyed
    out = tmp_path / "report.txt"
    emit(out, text)
    assert out.read_text() == text and capsys.readouterr().out == ""
    with pytest.raises(UsageError):  # the file is one of the inputs: never overwritten
        emit(out, text, [out])

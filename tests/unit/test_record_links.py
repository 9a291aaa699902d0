"""``--record DIR`` never writes through a link it did not create: a symbolic link (or a hard
link, or what is not a regular file) planted at a name the command picks is refused with one
line, and the file it points to stays as it was. In this process, on the writers themselves
(the probe's command-line runs are in ``tests/slow/unit/test_record_links_slow.py``)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from mcp_skew._output import check_plain_name, write_in_dir
from mcp_skew.errors import UsageError
from mcp_skew.probe import ProbeOptions
from mcp_skew.probe._runner import _recorder
from mcp_skew.probe_client._launch import fresh_log
from mcp_skew.wire import JsonlRecorder, open_new

KEPT = "the target's own text\n"


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file outside the directory the command writes, which must stay unchanged."""
    target = tmp_path_factory.mktemp("elsewhere") / "precious.txt"
    target.write_text(KEPT)
    return target


def plant(where: Path, outside: Path) -> Path:
    where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(outside)
    return where


def test_a_new_name_is_created_and_an_old_regular_file_emptied(tmp_path: Path) -> None:
    os.close(open_new(tmp_path / "new.jsonl"))
    assert (tmp_path / "new.jsonl").read_text() == ""
    (tmp_path / "old.jsonl").write_text("an earlier run\n")
    fd = open_new(tmp_path / "old.jsonl")
    os.write(fd, b"x")
    os.close(fd)
    assert (tmp_path / "old.jsonl").read_text() == "x"


@pytest.mark.parametrize("dangling", [False, True])
def test_a_planted_symlink_is_refused_and_its_target_kept(tmp_path: Path, outside: Path,
                                                          dangling: bool) -> None:
    target = outside.with_name("not-yet.txt") if dangling else outside
    link = plant(tmp_path / "01-x.jsonl", target)
    with pytest.raises(OSError, match="a symbolic link") as raised:
        open_new(link)
    assert raised.value.errno == errno.ELOOP
    assert outside.read_text() == KEPT
    assert not outside.with_name("not-yet.txt").exists()
    assert link.is_symlink()


def test_a_hard_link_a_directory_and_a_lone_fifo_are_refused(tmp_path: Path,
                                                             outside: Path) -> None:
    hard = tmp_path / "hard.jsonl"
    try:
        os.link(outside, hard)
    except OSError:  # another file system: no hard link to plant
        pass
    else:
        with pytest.raises(OSError, match="another hard link"):
            open_new(hard)
        assert outside.read_text() == KEPT
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(OSError):
        open_new(tmp_path / "dir.jsonl")
    os.mkfifo(tmp_path / "fifo.jsonl")
    with pytest.raises(OSError) as raised:
        open_new(tmp_path / "fifo.jsonl")
    assert raised.value.errno == errno.ENXIO  # at once, not a wait for a reader


def test_the_probe_recorder_refuses_a_planted_link_in_one_line(tmp_path: Path,
                                                               outside: Path) -> None:
    plant(tmp_path / "01-legacy_2025-11-25.stderr.log", outside)
    with pytest.raises(UsageError) as raised:
        _recorder(ProbeOptions(record_dir=tmp_path), 1, "legacy:2025-11-25")
    assert str(raised.value) == (f"--record {tmp_path}/01-legacy_2025-11-25.stderr.log: "
                                 "a symbolic link (not followed)")
    assert outside.read_text() == KEPT
    with pytest.raises(OSError, match="symbolic link"):
        JsonlRecorder(tmp_path / "02.jsonl", tmp_path / "01-legacy_2025-11-25.stderr.log")
    assert outside.read_text() == KEPT


@pytest.mark.parametrize("write", [
    lambda path: write_in_dir(path, "{}\n"),
    check_plain_name,
    fresh_log,
])
def test_the_report_and_probe_client_logs_refuse_a_planted_link(
        tmp_path: Path, outside: Path, write: Callable[[Path], object]) -> None:
    link = plant(tmp_path / "report.json", outside)
    with pytest.raises(UsageError, match=r"^--record .*report\.json: a symbolic link"):
        write(link)
    assert outside.read_text() == KEPT


def test_the_report_replaces_a_regular_file_and_refuses_a_fifo(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("old\n")
    write_in_dir(report, "{}\n")
    assert report.read_text() == "{}\n"
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(UsageError, match="not a regular file"):
        write_in_dir(tmp_path / "fifo.json", "{}\n")

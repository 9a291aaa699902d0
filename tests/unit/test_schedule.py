"""The slow and real-peer steps' scheduler (tests/_schedule.py): units of work and their order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _schedule
import pytest
from _paths import ROOT

TESTS = ROOT / "tests"


@dataclass
class FakeItem:
    path: Path
    name: str


def _items(*specs: tuple[str, str]) -> list[Any]:
    return [FakeItem(TESTS / file, name) for file, name in specs]


def test_a_spread_file_gives_a_unit_per_test_and_any_other_file_one_unit() -> None:
    spread = next(iter(sorted(_schedule.SPREAD)))
    assert _schedule.unit_of(f"tests/{spread}::test_a[x@1]", ROOT) == f"tests/{spread}::test_a[x@1]"
    assert _schedule.unit_of("tests/slow/unit/test_x.py::test_a[p]", ROOT) == \
        "tests/slow/unit/test_x.py"
    assert _schedule.unit_of("tests/slow/unit/test_x.py::Klass::test_b", ROOT) == \
        "tests/slow/unit/test_x.py"


def test_the_longest_units_go_first_and_a_files_tests_stay_together(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_schedule, "SPREAD", frozenset({"interop/spread.py"}))
    monkeypatch.setattr(_schedule, "SECONDS", {"interop/long.py": 100, "interop/spread.py": 90,
                                               "interop/mid.py": 40})
    items = _items(("interop/short.py", "s1"), ("interop/mid.py", "m1"),
                   ("interop/spread.py", "p1"), ("interop/long.py", "l1"),
                   ("interop/mid.py", "m2"), ("interop/spread.py", "p2"),
                   ("interop/long.py", "l2"), ("interop/other.py", "o1"))
    _schedule.order(items, TESTS)
    # long (100) as one unit; spread's two tests 45 each, mid (40), then the files not in
    # the table in their collected order
    assert [i.name for i in items] == ["l1", "l2", "p1", "p2", "m1", "m2", "s1", "o1"]


def test_every_listed_file_exists() -> None:
    for name in (*_schedule.SPREAD, *_schedule.SECONDS):
        assert (TESTS / name).is_file(), name


def test_the_durations_pytest_printed_are_summed_by_file_the_longest_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "ci.out"
    saved.write_text(
        "============================= slowest durations ==============================\n"
        "61.50s call     tests/interop/test_b.py::test_one[py-mcp@2.3]\n"
        "20.25s setup    tests/interop/test_a.py::test_x\n"
        "12.00s call     tests/interop/test_a.py::Klass::test_y\n"
        "3.00s teardown tests/interop/test_b.py::test_two\n"
        "(412 durations < 1s hidden.  Use -vv to show these durations.)\n"
        "FAILED tests/interop/test_a.py::test_x - assert 1 == 2\n")
    assert _schedule.seconds_by_file(saved.read_text().splitlines()) == {
        "interop/test_b.py": 64.5, "interop/test_a.py": 32.25}
    assert list(_schedule.seconds_by_file(saved.read_text().splitlines())) == [
        "interop/test_b.py", "interop/test_a.py"]
    assert _schedule.main([str(saved)]) == 0
    assert capsys.readouterr().out == '    "interop/test_b.py": 64,\n    "interop/test_a.py": 32,\n'
    assert _schedule.main([str(tmp_path / "missing.out")]) == 2
    assert "cannot read" in capsys.readouterr().err

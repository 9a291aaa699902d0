"""``wire.family_usage``: a process family and what each member is doing (scheduler state, CPU
ticks), from ONE scan of ``/proc``. The drift checks poll it every 0.1 s while a server
starts (``_drift._cpu_sample``: ``wait_until_idle``, ``wait_listening``, the client stall
watch); it used to read the family's ``stat`` files twice a sample (once to find the family,
once for the figures). Replayed on a made-up ``/proc`` in a temporary folder."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mcp_skew.realpeers import _drift
from mcp_skew.wire import _procs

#: pid -> (command, state, parent, group, session, utime, stime): a supervisor (10) and its
#: server (11, in its session) with a child (12); a stranger (20); a zombie child of 11 (13)
PROCS = {10: ("python3", "S", 1, 10, 10, 1, 1), 11: ("node) x (", "R", 10, 11, 10, 30, 5),
         12: ("sh", "S", 11, 11, 10, 2, 0), 13: ("gone", "Z", 11, 11, 10, 0, 0),
         20: ("bash", "R", 1, 20, 20, 99, 99)}


@pytest.fixture
def proc_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """A made-up /proc; the count of ``stat`` reads by pid."""
    for pid, (comm, state, parent, group, session, utime, stime) in PROCS.items():
        folder = tmp_path / str(pid)
        folder.mkdir()
        rest = [state, parent, group, session, 0, -1, 0, 0, 0, 0, 0, utime, stime, 0, 0]
        (folder / "stat").write_text(f"{pid} ({comm}) " + " ".join(map(str, rest)) + "\n")
    (tmp_path / "self").mkdir()
    reads: Counter[str] = Counter()
    real = Path.read_text

    def counted(self: Path, *args: object, **kw: object) -> str:
        if self.name == "stat":
            reads[self.parent.name] += 1
        return real(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_procs, "_PROC", tmp_path)
    monkeypatch.setattr(Path, "read_text", counted)
    monkeypatch.setattr(_procs, "subreaper", lambda: False)
    return reads


def test_the_family_and_each_members_figures_from_one_scan(proc_root: Counter[str]) -> None:
    assert _procs.family_usage(10) == {10: ("S", 2), 11: ("R", 35), 12: ("S", 2), 13: ("Z", 0)}
    assert set(proc_root) == {str(p) for p in PROCS}
    assert set(proc_root.values()) == {1}  # each stat read once: the scan gives both


def test_a_sample_of_the_family_reads_proc_once(proc_root: Counter[str]) -> None:
    assert _drift._cpu_sample(10) == ("R", 39)  # a member runnable: the family is busy
    assert set(proc_root.values()) == {1}


def test_family_is_what_it_was(proc_root: Counter[str]) -> None:
    assert _procs.family(10) == {10, 11, 12, 13}
    assert _procs.family(20) == {20}


def test_a_gone_process_has_no_family(proc_root: Counter[str]) -> None:
    assert _procs.family_usage(99) == {}
    assert _drift._cpu_sample(99) is None

"""The gate every worker process of ``census --cluster local`` starts through
(:class:`mcp_skew.census._execute.SpawnGate`): a stop shuts it, a start under way ends
first, and none begins after. The slow side (a real stop while a start is under way) is
``tests/slow/unit/test_census_cluster_stop_slow.py``."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Iterator
from multiprocessing import spawn
from multiprocessing.context import SpawnContext, SpawnProcess

import pytest
from _waits import BOUND_S

from mcp_skew.census import _execute
from mcp_skew.census._execute import SpawnGate, StartRefused, is_spawn_child


def test_a_shut_gate_refuses_every_start_and_runs_none() -> None:
    gate = SpawnGate()
    ran: list[int] = []
    gate.start(lambda: ran.append(1))
    assert gate.close(BOUND_S) is True
    with pytest.raises(StartRefused):
        gate.start(lambda: ran.append(2))
    assert ran == [1]


def test_a_start_under_way_ends_before_the_gate_shuts_and_the_next_is_refused() -> None:
    gate = SpawnGate()
    inside, release = threading.Event(), threading.Event()
    events: list[str] = []

    def held() -> None:
        inside.set()
        assert release.wait(BOUND_S)
        events.append("first started")

    def second() -> None:
        try:
            gate.start(lambda: events.append("second started"))
        except StartRefused:
            events.append("second refused")

    first = threading.Thread(target=gate.start, args=(held,))
    first.start()
    assert inside.wait(BOUND_S)
    # the start under way holds the gate for as long as it lasts: a close bounded shorter
    # says so (its child would have to be killed as it is), and shuts the gate all the same
    assert gate.close(0.05) is False
    late = threading.Thread(target=second)
    late.start()  # waits for the gate, or finds it shut: refused either way
    release.set()
    first.join(BOUND_S)
    late.join(BOUND_S)
    assert gate.close(BOUND_S) is True  # nothing under way now
    assert events == ["first started", "second refused"]


@pytest.fixture
def spawn_context() -> Iterator[SpawnContext]:
    context = multiprocessing.get_context("spawn")
    yield context
    vars(context).pop("Process", None)  # a test that shut its gate left it in place


def test_the_spawn_context_starts_through_the_gate_inside_and_plainly_after(
        spawn_context: SpawnContext) -> None:
    with _execute._gated_spawns() as gate:
        assert spawn_context.Process is _execute._GatedProcess
        assert _execute._GatedProcess.gate is gate
    assert spawn_context.Process is SpawnProcess


def test_a_shut_gate_stays_and_a_process_it_refuses_never_starts(
        spawn_context: SpawnContext) -> None:
    with _execute._gated_spawns() as gate:
        gate.close(BOUND_S)
    # Dask's loop runs on after a stop: a nanny whose worker died would start another
    assert spawn_context.Process is _execute._GatedProcess
    proc = spawn_context.Process(target=print)
    with pytest.raises(StartRefused):
        proc.start()
    assert proc.pid is None
    assert proc not in multiprocessing.active_children()


def test_a_spawn_childs_command_line_is_told_from_the_resource_trackers_and_others() -> None:
    child = spawn.get_command_line(tracker_fd=5, pipe_handle=7)
    assert is_spawn_child(child)
    # multiprocessing/resource_tracker.py ensure_running: the tracker is no worker
    tracker = [sys.executable, "-c", "from multiprocessing.resource_tracker import main;main(5)"]
    assert not is_spawn_child(tracker)
    assert not is_spawn_child([sys.executable, "-m", "mcp_skew", "census", "l.json"])
    assert not is_spawn_child([])


def test_a_cluster_that_fails_to_start_without_a_stop_leaves_spawns_and_logging_as_they_were(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    class Broken:
        @staticmethod
        def LocalCluster(**_kw: object) -> None:
            raise RuntimeError("no cluster here")

    monkeypatch.setattr(_execute, "_distributed", lambda: Broken)
    before = multiprocessing.get_context("spawn").Process
    with pytest.raises(RuntimeError, match="no cluster here"):
        _execute.run_dask([], None, lambda _row: None,  # type: ignore[arg-type]
                          cluster="local:1", scheduler=None)
    assert multiprocessing.get_context("spawn").Process is before
    assert logging.root.manager.disable == logging.NOTSET

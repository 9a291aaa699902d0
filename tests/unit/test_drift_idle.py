"""The drift checks wait for a real server to be idle before the first raw probe: a process
that used no CPU but is runnable (waiting its turn on a busy machine) or in disk sleep is not
idle. An HTTP server is waited for until it listens while it is busy starting, however long
(``wait_listening``): only an idle streak without listening, or its exit, ends the wait."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from _fake_process import Closing, FakeClock, FakeProc, busy_samples

from mcp_skew.realpeers import _drift


def _replay(samples: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Feed ``samples`` to wait_until_idle (no clock, no /proc); the number of samples it read."""
    feed: Iterator[tuple[str, int]] = iter(samples)
    read: list[int] = []

    def sample(_pid: int) -> tuple[str, int] | None:
        read.append(1)
        return next(feed, None)

    monkeypatch.setattr(_drift, "_cpu_sample", sample)
    monkeypatch.setattr(_drift.time, "sleep", lambda _s: None)
    _drift.wait_until_idle(1, limit_s=1e9, quiet_polls=3)
    return read


def test_a_sleeping_process_with_steady_ticks_is_idle_after_three_polls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(_replay([("S", 5)] * 10, monkeypatch)) == 4  # the first sample, then 3 quiet


def test_a_runnable_process_is_not_idle_though_its_ticks_stand_still(
        monkeypatch: pytest.MonkeyPatch) -> None:
    samples = [("R", 5)] * 6 + [("S", 5)] * 10  # waits its turn, then sleeps on its input
    assert len(_replay(samples, monkeypatch)) == 6 + 3  # the six runnable, then three quiet


def test_cpu_use_restarts_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = [("S", 1), ("S", 1), ("S", 2), ("S", 2), ("S", 2), ("S", 2)]
    assert len(_replay(samples, monkeypatch)) == 6


def test_a_process_in_disk_sleep_is_not_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    # an interpreter reading its modules on a busy machine: no CPU used, but not waiting
    samples = [("D", 5)] * 5 + [("S", 5)] * 10
    assert len(_replay(samples, monkeypatch)) == 5 + 3


def _listen(samples: Iterator[tuple[str, int]], listens_at: float | None,
            monkeypatch: pytest.MonkeyPatch, exits_at: float | None = None) -> tuple[bool, float]:
    """wait_listening on a replayed process (a poll each 0.1 s): its answer, and when."""
    clock = FakeClock()

    def connect(*_args: object, **_kw: object) -> socket.socket:
        if listens_at is not None and clock.now >= listens_at:
            return Closing()  # type: ignore[return-value]
        raise ConnectionRefusedError

    monkeypatch.setattr(_drift, "time", clock)
    monkeypatch.setattr(socket, "create_connection", connect)
    monkeypatch.setattr(_drift, "_cpu_sample", lambda _pid: next(samples, ("S", 0)))
    got = _drift.wait_listening(FakeProc(exits_at, clock), 1, idle_s=5.0,  # type: ignore[arg-type]
                                ceiling_s=600.0)
    return got, clock.now


def test_a_server_busy_starting_is_waited_for_past_any_fixed_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 45 s of start-up (fastmcp at load 20 took longer than the 20 s the wait had)
    assert _listen(busy_samples(), 45.0, monkeypatch) == (True, pytest.approx(45.0, abs=0.2))


def test_a_server_idle_without_listening_is_given_up_after_the_idle_streak(
        monkeypatch: pytest.MonkeyPatch) -> None:
    got, when = _listen(iter([("R", 1)] * 30), None, monkeypatch)  # 3 s busy, then asleep
    assert not got and 3.0 + 5.0 < when < 3.0 + 5.0 + 0.5


def test_a_server_that_exits_is_given_up_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    got, when = _listen(busy_samples(), None, monkeypatch, exits_at=2.0)
    assert not got and when == pytest.approx(2.0, abs=0.2)


def test_the_ceiling_ends_a_server_busy_for_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    got, when = _listen(busy_samples(), None, monkeypatch)
    assert not got and when == pytest.approx(600.0, abs=0.2)

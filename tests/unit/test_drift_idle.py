"""The drift checks wait for a real server to be idle before the first raw probe: a process
that used no CPU but is runnable (waiting its turn on a busy machine) is not idle."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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

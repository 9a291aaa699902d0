"""``start_bridge`` (``probe --via``) waits for a bridge to listen as the drift checks wait for
an HTTP server (``_drift.wait_listening``): for as long as its process family is busy
starting, past any fixed time (a busy machine stretched a bridge's start past the 60 s it
had); a bridge that exits fails at once, one idle without listening fails after the idle
streak; each is one line. Replayed: the process, its /proc samples, the port and the clock
given, so no process starts and no socket opens."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from _fake_process import Closing, FakeClock, FakeProc, busy_samples

from mcp_skew.errors import UsageError
from mcp_skew.peers import NamedBridge
from mcp_skew.peers._family import Package
from mcp_skew.realpeers import _bridge_start, _drift

BRIDGE = NamedBridge("toy@1", Package("npm", ("toy@1.0.0",), "1.0.0"), "bridge", "a test",
                     argv=("toy", "--port", "{port}", "{argv}"))


def _start(samples: Iterator[tuple[str, int]], listens_at: float | None,
           monkeypatch: pytest.MonkeyPatch, exits_at: float | None = None, **wait: float
           ) -> tuple[str | UsageError, float, list[list[str]]]:
    """start_bridge on a replayed bridge: its URL or its error, when, and what was started."""
    clock = FakeClock()
    started: list[list[str]] = []

    def spawn(argv: list[str], **_kw: Any) -> FakeProc:
        started.append(argv)
        return FakeProc(exits_at, clock, code=3)

    def connect(*_args: object, **_kw: object) -> socket.socket:
        if listens_at is not None and clock.now >= listens_at:
            return Closing()  # type: ignore[return-value]
        raise ConnectionRefusedError

    monkeypatch.setattr(_bridge_start, "spawn", spawn)
    monkeypatch.setattr(_bridge_start, "end", lambda _proc: None)
    monkeypatch.setattr(_bridge_start, "_free_port", lambda: 4321)
    monkeypatch.setattr(_bridge_start, "time", clock)
    monkeypatch.setattr(_drift, "time", clock)
    monkeypatch.setattr(socket, "create_connection", connect)
    monkeypatch.setattr(_drift, "_cpu_sample", lambda _pid: next(samples, ("S", 0)))
    try:
        url, _proc = _bridge_start.start_bridge(BRIDGE, ["server", "arg"], **wait)
    except UsageError as exc:
        return exc, clock.now, started
    return url, clock.now, started


def test_a_bridge_busy_starting_past_the_old_fixed_wait_is_waited_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    got, when, started = _start(busy_samples(), 90.0, monkeypatch)
    assert got == "http://127.0.0.1:4321/mcp"
    assert when == pytest.approx(90.0, abs=0.2)
    assert started == [["toy", "--port", "4321", "server", "arg"]]


def test_a_bridge_that_exits_fails_at_once_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    got, when, _ = _start(busy_samples(), None, monkeypatch, exits_at=1.0)
    assert isinstance(got, UsageError) and when == pytest.approx(1.0, abs=0.2)
    assert str(got) == "--via toy@1: it exited (code 3) before it listened on port 4321"


def test_a_bridge_idle_without_listening_fails_after_the_idle_streak(
        monkeypatch: pytest.MonkeyPatch) -> None:
    got, when, _ = _start(iter([("R", 1)] * 30), None, monkeypatch)  # 3 s busy, then asleep
    assert isinstance(got, UsageError) and 3.0 + 5.0 < when < 3.0 + 5.0 + 0.5
    assert str(got) == "--via toy@1: it sat idle for 5 s without listening on port 4321"
    assert "\n" not in str(got)


def test_a_bridge_idle_through_its_servers_cold_start_is_waited_for_as_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a bridge that opens its server's session before it listens (mcp-proxy-py) sleeps
    # through the server's cold start: probe --via gives it --startup-timeout (here 10 s)
    asleep = [("S", 1)] * 200
    got, when, _ = _start(iter(asleep), 9.0, monkeypatch, idle_s=10.0)
    assert got == "http://127.0.0.1:4321/mcp" and when == pytest.approx(9.0, abs=0.2)
    got, _, _ = _start(iter(asleep), 9.0, monkeypatch)  # the default: 5 s idle
    assert isinstance(got, UsageError)


def test_probe_via_gives_the_bridge_its_startup_timeout_to_sit_idle(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import mcp_skew.realpeers
    from mcp_skew.cli import main

    asked: list[dict[str, float]] = []

    def bridge_running(_bridge: object, _command: object, **wait: float) -> Any:
        asked.append(wait)
        raise UsageError("no bridge started here")

    monkeypatch.setattr(mcp_skew.realpeers, "bridge_running", bridge_running)
    for timeout, idle in (("30", 30.0), ("2", 5.0)):
        assert main(["probe", "--via", "supergateway@4", "--startup-timeout", timeout, "--",
                     "server"]) == 2
        assert asked.pop() == {"idle_s": idle, "ceiling_s": 600.0}
    assert "no bridge started here" in capsys.readouterr().err

"""A client drift check whose model predicts a stall (py-mcp 1.0 after its server asks it
roots/list) ends its real run when the stall is observed (``_stall.StallWatch``), not at
``run_driver``'s whole bound: the server's request seen in the wire log, then nothing written
by the client while its process family is idle, for a bound derived from the client's own
answers in this run. A client that writes again, or a family busy (or waiting its turn on a
busy machine), restarts the count. Replayed: a wire log written by hand, /proc samples and a
clock given, so no process starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_skew.realpeers._stall import (
    STALL_FACTOR,
    STALL_FLOOR_MS,
    StallWatch,
    stall_bound_ms,
    wire_state,
)


def _record(ms: float, direction: str, message: dict[str, object]) -> str:
    return json.dumps({"t": "2026-12-05T00:00:00Z", "ms": ms, "dir": direction,
                       "message": message})


INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}
INIT_RESULT = {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05"}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
ROOTS = {"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"}
TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
TOOLS_RESULT = {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}

#: py-mcp 1.0 against an asks-roots server, as the real log reads (the client's answer to
#: the initialize result came 2 ms later; then roots/list, tools/list, its result)
STALLED = [_record(0.1, "event", {}), _record(0.2, "c2s", INIT), _record(0.4, "s2c", INIT_RESULT),
           _record(2.4, "c2s", INITIALIZED), _record(2.6, "s2c", ROOTS),
           _record(2.7, "c2s", TOOLS), _record(2.8, "s2c", TOOLS_RESULT)]


def test_the_wire_state_sees_the_request_and_the_clients_slowest_answer() -> None:
    state = wire_state("\n".join(STALLED) + '\n{"partial')
    assert state.asked and state.written == 3
    assert state.slowest_ms == pytest.approx(2.0)
    assert not wire_state("\n".join(STALLED[:4])).asked  # no request of the server's yet


def test_the_bound_is_a_multiple_of_the_slowest_answer_above_a_floor() -> None:
    assert stall_bound_ms(2.0) == STALL_FLOOR_MS
    assert stall_bound_ms(3_000) == STALL_FACTOR * 3_000


#: the poll's period here: a binary fraction, so that the clock's sums are exact
STEP_S = 0.125


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _poll(log: Path, samples: list[tuple[str, int] | None], writes: dict[int, str] | None = None,
          step_s: float = STEP_S) -> tuple[str | None, float]:
    """Poll a watch once a ``step_s`` over ``samples`` (the family's state and ticks), with
    ``writes`` appended to the log before the poll of that index: the reason and when."""
    clock = _Clock()
    feed = iter(samples)
    watch = StallWatch(log, sample=lambda _pid: next(feed), clock=clock)
    for n in range(len(samples)):
        if writes and n in writes:
            with log.open("a", encoding="utf-8") as out:
                out.write(writes[n] + "\n")
        reason = watch(1)
        if reason is not None:
            return reason, clock.now
        clock.now += step_s
    return None, clock.now


def test_a_stall_is_decided_after_the_bound_of_idle_silence(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    log.write_text("\n".join(STALLED) + "\n")
    reason, when = _poll(log, [("S", 7)] * 100)
    assert reason is not None and "stalled" in reason
    # the first poll reads the ticks, the second starts the streak, the bound ends it
    assert when == 1 * STEP_S + STALL_FLOOR_MS / 1000


def test_no_stall_before_the_server_asks(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    log.write_text("\n".join(STALLED[:4]) + "\n")
    assert _poll(log, [("S", 7)] * 100) == (None, 100 * STEP_S)


def test_a_busy_or_waiting_family_restarts_the_count(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    log.write_text("\n".join(STALLED) + "\n")
    # idle 1.875 s (under the bound), then a tick used, then runnable without a tick
    # (its turn on a busy machine)
    samples: list[tuple[str, int] | None] = [("S", 7)] * 16 + [("S", 8)] + [("R", 8)] * 30
    samples += [("S", 8)] * 40
    reason, when = _poll(log, samples)
    assert reason is not None
    assert when == (16 + 1 + 30) * STEP_S + STALL_FLOOR_MS / 1000


def test_a_client_that_writes_again_restarts_the_count(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    log.write_text("\n".join(STALLED) + "\n")
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    reason, when = _poll(log, [("S", 7)] * 100, writes={15: _record(3.0, "c2s", ping)})
    assert reason is not None
    assert when == 16 * STEP_S + STALL_FLOOR_MS / 1000  # the poll after the write


def test_without_proc_no_stall_is_seen(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    log.write_text("\n".join(STALLED) + "\n")
    assert _poll(log, [None] * 100)[0] is None


def test_a_log_read_inside_a_character_being_written_is_no_error(tmp_path: Path) -> None:
    # the recorder writes UTF-8; a poll may read half of a character it is still writing
    log = tmp_path / "wire.jsonl"
    log.write_bytes(("\n".join(STALLED) + "\n").encode() + "é".encode()[:1])
    reason, _ = _poll(log, [("S", 7)] * 100)
    assert reason is not None and "stalled" in reason

"""``wire._procs``: a process being started while every family is ended is never missed.

:func:`~mcp_skew.wire._procs.end_all` refuses new processes and ends the ones listed; a
:func:`~mcp_skew.wire._procs.spawn` that had passed its first look at the refusal when
``end_all`` ran must not start a process ``end_all`` did not list. These tests stop a spawn
at that point (between its first look and the start) and run ``end_all`` there, in this
process: ``Popen`` is a stand-in that starts nothing and counts, and the supervisor is off.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from _waits import BOUND_S

from mcp_skew.wire import _procs


class _Popen:
    """Starts nothing: records that a process would have started."""

    started: ClassVar[list[_Popen]] = []

    def __init__(self, argv: list[str], **_: Any) -> None:
        self.pid = -1 - len(self.started)  # never a real pid
        self.argv = argv
        self.started.append(self)

    def poll(self) -> int:
        return 0


class _Subprocess:
    Popen = _Popen


@pytest.fixture
def paused_spawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event,
                                                                    threading.Event]]:
    """A spawn stops at its first step after the refusal check (``subreaper()``) until told."""
    reached, go = threading.Event(), threading.Event()

    def subreaper() -> bool:
        reached.set()
        assert go.wait(BOUND_S)
        return False

    ended: list[Any] = []
    _Popen.started = []
    monkeypatch.setattr(_procs, "subprocess", _Subprocess)
    monkeypatch.setattr(_procs, "supervised", lambda: False)
    monkeypatch.setattr(_procs, "subreaper", subreaper)
    monkeypatch.setattr(_procs, "end", lambda proc, **_: ended.append(proc))
    monkeypatch.setattr(_procs, "_live", {})
    monkeypatch.setattr(_procs, "_marks", {})
    monkeypatch.setattr(_procs, "_closing", [])
    yield reached, go


def _spawn_in_thread() -> tuple[threading.Thread, list[BaseException | _Popen]]:
    out: list[BaseException | _Popen] = []

    def run() -> None:
        try:
            out.append(_procs.spawn(["server"]))  # type: ignore[arg-type]
        except OSError as exc:
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_a_spawn_under_way_when_everything_ends_is_refused(
        paused_spawn: tuple[threading.Event, threading.Event]) -> None:
    reached, go = paused_spawn
    thread, out = _spawn_in_thread()
    assert reached.wait(BOUND_S)  # past the first look at the refusal
    _procs.end_all(refuse=True)  # lists nothing: the spawn has not started its process
    go.set()
    thread.join(BOUND_S)
    (result,) = out
    assert isinstance(result, OSError) and result.errno == errno.ECANCELED
    assert _Popen.started == []  # no process started that end_all did not see
    assert _procs._live == {}


def test_a_spawn_is_refused_at_once_after_a_signal_handler_refused() -> None:
    closing = list(_procs._closing)
    try:
        _procs.refuse()
        with pytest.raises(OSError) as caught:
            _procs.spawn(["never-run"])
        assert caught.value.errno == errno.ECANCELED
    finally:
        _procs._closing[:] = closing


def test_after_reopen_a_spawn_starts_again(
        paused_spawn: tuple[threading.Event, threading.Event]) -> None:
    _, go = paused_spawn
    _procs.end_all(refuse=True)
    _procs.reopen()
    go.set()
    thread, out = _spawn_in_thread()
    thread.join(BOUND_S)
    (result,) = out
    assert isinstance(result, _Popen) and _Popen.started == [result]
    assert _procs._live == {result.pid: result}

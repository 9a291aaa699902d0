"""A client drift check's real run decided before its driver reports: a stall, observed.

A client model with ``stalls-on-server-request`` (py-mcp 1.0) predicts that the real client,
once its server has asked it something, reads no more answers: its driver never prints its
``RESULT``, and the check used to wait out :func:`._client_drift.run_driver`'s whole bound
(150 s, and the grace on top) to see it. Where the model predicts the stall, the real run is
watched instead (:class:`StallWatch`, polled by ``run_driver``): the stall is observed when
the served server's wire log shows its request to the client, and after it the client wrote
nothing while its driver's whole process family (the driver and the server it started) sat
idle, asleep and using no CPU (``/proc``, :func:`._drift._cpu_sample`), for
:func:`stall_bound_ms`: :data:`STALL_FACTOR` times the slowest the client was seen to answer
the server in this run, never under :data:`STALL_FLOOR_MS`.

The verdict stays as strict: a client that goes on reads its answer and reports (or writes
again, which restarts the count); a busy machine makes the family busy or waiting its turn
(``R``), which restarts the count too, so load stretches the wait, never shortens it; and
without ``/proc`` no idle streak is seen and the run's own bound ends the wait, as before.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ._drift import _cpu_sample, _quiet

__all__ = ["STALL_FACTOR", "STALL_FLOOR_MS", "StallWatch", "WireState", "stall_bound_ms",
           "wire_state"]

#: The stall's silence is at least this many times the client's slowest answer seen ...
STALL_FACTOR: Final = 4
#: ... and never under this (ms): a client that answers in milliseconds is given seconds.
STALL_FLOOR_MS: Final = 2_000


@dataclass(frozen=True, slots=True)
class WireState:
    """What a served server's wire log shows so far, for the stall's verdict."""

    asked: bool  #: the server has sent the client a request (the model's stall begins there)
    written: int  #: how many records the client has written (its messages, in order)
    slowest_ms: float  #: the longest the client took from a server's message to its next one


def wire_state(text: str) -> WireState:
    """:class:`WireState` of a wire log's text (``mcp-skew serve --record``: each record's
    ``dir`` and ``ms`` since the server started; a partial last line is skipped)."""
    asked, written, slowest = False, 0, 0.0
    heard: float | None = None  # when the server's last message went out, unanswered so far
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or not isinstance(record.get("ms"), int | float):
            continue
        message = record.get("message")
        if record.get("dir") == "s2c":
            heard = record["ms"] if heard is None else heard
            if isinstance(message, dict) and "method" in message and "id" in message:
                asked = True
        elif record.get("dir") == "c2s":
            written += 1
            if heard is not None:
                slowest = max(slowest, record["ms"] - heard)
            heard = None
    return WireState(asked, written, slowest)


def stall_bound_ms(slowest_ms: float) -> int:
    """How long the client must sit idle and silent after the server's request for a stall."""
    return max(STALL_FLOOR_MS, int(STALL_FACTOR * slowest_ms))


class StallWatch:
    """One poll at a time (``run_driver``'s ``decided``): the stall's reason once observed,
    else None. ``sample`` and ``clock`` are the family's ``/proc`` figures and the time."""

    def __init__(self, log: Path,
                 sample: Callable[[int], tuple[str, int] | None] = _cpu_sample,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self._sample, self._clock = sample, clock
        self._text = ""
        self._state = WireState(False, 0, 0.0)
        self._written = -1
        self._ticks: int | None = None
        self._since: float | None = None

    def _read(self) -> WireState:
        try:  # (a read may end inside a character the recorder is still writing)
            text = self.log.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return self._state
        if text != self._text:
            self._text, self._state = text, wire_state(text)
        return self._state

    def __call__(self, pid: int) -> str | None:
        state, now = self._read(), self._clock()
        sample = self._sample(pid)
        quiet = (sample is not None and self._ticks is not None
                 and _quiet(sample[0], sample[1], self._ticks))
        self._ticks = sample[1] if sample is not None else None
        if not state.asked or not quiet or state.written != self._written:
            self._written, self._since = state.written, None
            return None
        self._since = now if self._since is None else self._since
        bound = stall_bound_ms(state.slowest_ms)
        if (now - self._since) * 1000 < bound:
            return None
        return (f"the client stalled: after the server's request it wrote nothing, its "
                f"processes idle, for {bound / 1000:g} s")

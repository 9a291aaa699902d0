"""Waiting in tests: on an event, with a bound far above what the work needs.

A test never bets on how fast the machine is. It waits for the thing it needs (a line, a
file, a process gone) and gives up only at :data:`BOUND_S`, which is there to stop a hang,
not to measure: work that takes a second on a quiet machine takes several on a busy one,
never a minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["BOUND_S", "until"]

#: the bound on any wait in a test: far above what the work needs on a loaded machine
BOUND_S = 60.0


def until(done: Callable[[], object], what: str, bound_s: float = BOUND_S,
          step_s: float = 0.02) -> None:
    """Return as soon as ``done()`` is true; fail naming ``what`` after ``bound_s``."""
    give_up = time.monotonic() + bound_s
    while not done():
        assert time.monotonic() < give_up, f"gave up after {bound_s:g} s waiting for {what}"
        time.sleep(step_s)

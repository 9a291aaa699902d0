"""``run_driver`` ends a client driver's run as soon as its outcome is decided (``decided``,
a stall observed by ``_stall.StallWatch`` in the drift checks), not at its own bound: the
driver and what it started are ended at once, without the grace for a close; without
``decided`` a silent driver is still waited out to the bound. Real processes: a driver that
sleeps (a stalled client) and starts a child that sleeps too."""

from __future__ import annotations

import sys
import time

import pytest
from _waits import BOUND_S

from mcp_skew.realpeers._client_drift import run_driver
from mcp_skew.wire._procs import family

pytestmark = pytest.mark.slow

#: a stalled client: it starts its server (a sleeping child), then reads no more
STALLED = ("import subprocess, sys, time\n"
           "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
           "print('started', flush=True)\ntime.sleep(600)")


def test_a_decided_outcome_ends_the_run_at_once_with_its_family() -> None:
    seen: list[set[int]] = []

    def decided(pid: int) -> str | None:
        members = family(pid)
        if len(members) < 3:  # the supervisor, the driver, its child: not all started yet
            return None
        seen.append(members)
        return "stalled here"

    started = time.monotonic()
    run = run_driver([sys.executable, "-c", STALLED], timeout_s=BOUND_S, grace_s=BOUND_S,
                     decided=decided)
    assert run.stalled == "stalled here" and run.result == {} and not run.hung_on_close
    assert "did not finish" not in run.stderr
    assert time.monotonic() - started < BOUND_S  # neither the bound nor the grace waited out
    assert not {p for p in seen[0] if _alive(p)}  # the driver's family, all ended


def test_without_a_decision_a_silent_driver_is_waited_out_to_the_bound() -> None:
    started = time.monotonic()
    run = run_driver([sys.executable, "-c", "import time; time.sleep(600)"], timeout_s=1.0,
                     grace_s=0.1)
    assert run.stalled == "" and "did not finish within 1 s" in run.stderr
    assert time.monotonic() - started >= 1.0


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[:1] != ["Z"]
    except OSError:
        return False

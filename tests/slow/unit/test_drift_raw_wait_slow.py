"""The drift checks' raw probes wait a multiple of the slowest the same server was seen to
be in this run (``_drift.raw_wait_ms``): a server that answers, and exits after stdin's end,
later than the old fixed 2 s, as a real one does on a busy machine, is read as answering and
exiting, not as silent ("none") or outliving its stdin.

Real processes: tests/servers/slow_answers.py, each answer and its exit DELAY_MS late (a
sleep: a lower bound whatever the load, so the fixed 2 s always misses it).
"""

from __future__ import annotations

import sys

import pytest
from _paths import TESTS

from mcp_skew.realpeers import _drift

pytestmark = pytest.mark.slow

DELAY_MS = 2_500  # above the raw probes' floor of 2 s
COMMAND = [sys.executable, str(TESTS / "servers" / "slow_answers.py"), str(DELAY_MS)]
PROBE = (_drift._raw_request(1, "foo/bar"), _drift._raw_initialize(2, "2025-06-18"),
         _drift.CloseStdin())


def test_waits_scaled_by_the_measured_cold_start_read_every_late_answer_and_the_exit() -> None:
    cold = _drift.cold_start_ms(COMMAND)
    assert cold is not None and cold >= DELAY_MS  # the first answer is the cold start
    real = _drift._raw_run(_drift._real_link(COMMAND), PROBE, cold).answers
    assert real == ["error -32601", "result 2025-06-18", "exits on stdin EOF"]


def test_the_fixed_floor_alone_reads_the_same_server_as_silent_and_outliving_stdin() -> None:
    # the failure under load that the scaled wait mends: nothing measured, 2 s for each
    real = _drift._raw_run(_drift._real_link(COMMAND), PROBE).answers
    assert real == ["none", "none", "outlives stdin"]

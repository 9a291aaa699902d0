"""The drift checks' raw probes wait for an answer, or for an exit after stdin's end, for a
multiple of the slowest the same server was seen to be in this run (``raw_wait_ms``): a
loaded machine's slow server is not read as silent, nor as outliving its stdin."""

from __future__ import annotations

from mcp_skew.probe import allowance
from mcp_skew.realpeers import _drift


def test_without_a_measure_the_wait_is_the_floor() -> None:
    assert _drift.raw_wait_ms(None) == _drift.RAW_TIMEOUT_MS == 2_000


def test_a_fast_server_keeps_the_floor() -> None:
    # a quiet machine: the cold start well under a quarter of the floor
    assert _drift.raw_wait_ms(0) == _drift.raw_wait_ms(300) == _drift.RAW_TIMEOUT_MS


def test_a_slow_server_is_waited_for_a_multiple_of_its_own_slowest() -> None:
    assert _drift.raw_wait_ms(1_500) == 6_000
    assert _drift.raw_wait_ms(4_000) == 4 * 4_000
    # the wait is far above the time the same server took: only a silence is waited out
    assert all(_drift.raw_wait_ms(ms) >= _drift.RAW_FACTOR * ms for ms in (1_000, 5_000, 15_000))


def test_the_wait_grows_with_the_slowest_and_never_passes_the_ceiling() -> None:
    waits = [_drift.raw_wait_ms(ms) for ms in range(0, 40_000, 250)]
    assert waits == sorted(waits)
    assert _drift.raw_wait_ms(10**9) == _drift.RAW_CEILING_MS == 60_000


def test_a_first_answer_has_the_probes_allowance_for_a_measured_cold_start() -> None:
    bound = _drift.startup_bound_ms()
    assert _drift._startup_allowance(1_000, jobs=2) == allowance(1_000, 2, bound) < bound
    # a longer cold start, a longer allowance, up to the bound
    waits = [_drift._startup_allowance(ms, jobs=2) for ms in range(0, 2 * bound, 500)]
    assert waits == sorted(waits) and waits[-1] == bound


def test_with_no_cold_start_measured_a_first_answer_has_the_whole_startup_bound() -> None:
    # a server silent at its cold start: nothing says how late its first answer may come
    assert _drift._startup_allowance(None, jobs=2) == _drift.startup_bound_ms()
    assert _drift._startup_allowance(None, jobs=1) == _drift.startup_bound_ms() == 60_000

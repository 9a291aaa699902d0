"""A real client's probe wait in a client drift check covers the served server's cold start
(``_client_drift.probe_wait_ms``): on a busy machine ``mcp-skew serve`` can take longer to
start than a 3 s probe wait, and the real client would fall back where its model, which has
no start-up, was answered."""

from __future__ import annotations

from mcp_skew.realpeers import _client_drift

wait = _client_drift.probe_wait_ms


def test_a_quiet_machine_keeps_the_checks_own_wait() -> None:
    assert wait(3_000, 60_000, 400) == 3_000  # ts-client@2.4:auto's 3 s; serve starts in 0.4 s
    assert wait(None, 10_000, 400) is None  # py-mcp@2.0:auto keeps its package's 10 s


def test_a_slow_serve_start_lengthens_the_wait_to_a_multiple_of_it() -> None:
    assert wait(3_000, 60_000, 2_000) == _client_drift.PROBE_FACTOR * 2_000 == 8_000
    assert wait(None, 10_000, 5_000) == 20_000  # past the package's default: given explicitly
    assert wait(10_000, None, 4_000) == 16_000  # a wait the model does not state (pin mode)


def test_no_probe_or_nothing_measured_changes_nothing() -> None:
    assert wait(None, None, 9_000) is None  # a client that does not probe
    assert wait(3_000, 60_000, None) == 3_000  # serve's cold start unknown

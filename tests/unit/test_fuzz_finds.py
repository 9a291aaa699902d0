"""What the fuzz suite (tests/property/test_fuzz_cli.py) found, one test each.

Each was a Python traceback: ``int()`` on text that ``str.isdigit()`` accepts (``"²"``)
or ``int()`` of a ``nan``/``inf`` that ``type=float`` let through.
"""

from __future__ import annotations

import pytest
from _fuzz import check_outcome, run_cli

from mcp_skew.census._execute import parse_cluster
from mcp_skew.errors import UsageError
from mcp_skew.simulator.http._sse import SseParser


@pytest.mark.parametrize("count", ["²", "١٢", "５", "", "0", "1e3"])
def test_a_rollout_count_is_ascii_digits(count: str) -> None:
    argv = ["rollout", "--clients", f"legacy:2025-06-18*{count}", "--fleet", "legacy:2025-11-25"]
    outcome = run_cli(argv)
    check_outcome(argv, outcome)
    assert outcome[0] == 2 and "the count after '*'" in outcome[2]


@pytest.mark.parametrize(("option", "value"), [
    ("--timeout", "nan"), ("--timeout", "inf"), ("--install-timeout", "Infinity"),
    ("--client-timeout", "1e400"), ("--cpu", "9" * 30), ("--probe-jobs", "0"),
])
def test_census_bounds_refuse_nan_inf_and_huge(option: str, value: str) -> None:
    argv = ["census", option, value]
    outcome = run_cli(argv)
    check_outcome(argv, outcome)
    assert outcome[0] == 2 and f"{option} must be positive and at most" in outcome[2]


@pytest.mark.parametrize("text", ["local:²", "local:١", "local:0", "local:x"])
def test_census_cluster_count_is_ascii_digits(text: str) -> None:
    with pytest.raises(UsageError, match="expected local or local:N"):
        parse_cluster(text)


def test_an_sse_retry_of_unicode_digits_is_ignored() -> None:
    parser = SseParser()
    events = parser.feed(b"retry: \xc2\xb2\ndata: x\n\n")
    assert [e.data for e in events] == ["x"] and events[0].retry_ms is None
    assert parser.feed(b"retry: 7\ndata: y\n\n")[0].retry_ms == 7


@pytest.mark.parametrize("at", ["9" * 5000, "9" * 40, "²", "١", "1e3"])
def test_a_server_change_time_is_bounded(at: str) -> None:
    argv = ["simulate", "--client", "dual:2026-07-28,2025-11-25", "--server",
            "legacy:2025-11-25", "--server-change", f"{at}=legacy:2025-06-18"]
    outcome = run_cli(argv)
    check_outcome(argv, outcome)
    assert outcome[0] == 2 and "is not a time in whole milliseconds" in outcome[2]

"""The per-plan and per-request tables the sweep fills as it runs stop growing at their
bounds, and what they give past them is what they would have kept (a review of issue 36's
sweep work: a step plan's results by outcome, a sealer's texts by id)."""

from __future__ import annotations

import json

from mcp_skew.simulator._scenario import LIST_TOOLS, PLAN_RESULTS, StepPlan, _result_of
from mcp_skew.simulator.messages import _json, _wire
from mcp_skew.versions import REGISTRY

MODERN = REGISTRY.get("2026-07-28")


def test_a_step_plan_keeps_at_most_its_bound_of_results_and_gives_the_same_past_it() -> None:
    plan = StepPlan(LIST_TOOLS, MODERN)
    codes = range(-33000, -33000 + 3 * PLAN_RESULTS)
    got = [plan.error_result(code) for code in codes]
    assert got == [_result_of(plan.name, False, plan.expected, f"error {code}") for code in codes]
    assert len(plan._errors) == PLAN_RESULTS and len(plan._results) == PLAN_RESULTS
    assert [plan.error_result(code) for code in codes] == got  # kept or not, the same


def test_a_sealer_keeps_at_most_its_bound_of_texts_and_each_text_is_its_message() -> None:
    sealer = _wire.sealer(MODERN, "tools/call", {"name": "echo", "arguments": {"text": "hi"}})
    for msg_id in range(1, 3 * _wire.SEALER_TEXTS):
        message = sealer(msg_id)
        assert isinstance(message, _json.Sealed) and message["id"] == msg_id
        assert message.text == json.dumps(message)
        assert len(sealer._texts) <= _wire.SEALER_TEXTS


def test_a_simulator_cache_starts_again_past_its_limit_and_keeps_the_newest() -> None:
    from mcp_skew._memo import LIMIT, remember

    cache: dict[int, str] = {}
    for n in range(LIMIT + 10):
        assert remember(cache, n, str(n)) == str(n)
        assert len(cache) <= LIMIT
    assert cache[LIMIT + 9] == str(LIMIT + 9) and 0 not in cache

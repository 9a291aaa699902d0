"""The client's result cache and era decisions (``mcp_skew.simulator._cache``).

Freshness is ``now < t_received + ttlMs`` (2026-07-28 ``server/utilities/caching.mdx``
§Freshness Calculation); an absent ttlMs is stale at once; notifications invalidate what
the profile's ``cache_invalidations`` rows name.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.simulator._cache import ClientCache, listen_filter, params_key
from mcp_skew.versions import REGISTRY, Era

MODERN = REGISTRY.get("2026-07-28")
LEGACY = REGISTRY.get("2025-11-25")
TOOLS: dict[str, Any] = {"tools": [], "resultType": "complete", "ttlMs": 60000,
                         "cacheScope": "public"}


def put(cache: ClientCache, now: int, result: dict[str, Any], *, method: str = "tools/list",
        params: dict[str, Any] | None = None, server: str = "s") -> Any:
    return cache.put(now, method, params or {}, result, profile=MODERN, server=server)


def get(cache: ClientCache, now: int, *, method: str = "tools/list",
        params: dict[str, Any] | None = None, server: str = "s") -> Any:
    return cache.get(now, method, params or {}, profile=MODERN, server=server)


def test_a_result_is_fresh_until_its_ttl_and_not_one_ms_longer() -> None:
    cache = ClientCache()
    stored = put(cache, 1000, TOOLS)
    assert stored.kept and stored.expires_at_ms == 61000
    assert get(cache, 1000).hit
    assert get(cache, 60999).hit
    late = get(cache, 61000)
    assert late.status == "expired" and late.result is None
    assert get(cache, 61001).status == "miss"  # the expired entry was dropped


@pytest.mark.parametrize(("hints", "why"), [
    ({}, "no ttlMs"), ({"ttlMs": 0}, "ttlMs 0"), ({"ttlMs": -5}, "ttlMs -5"),
    ({"ttlMs": 1.5}, "not an integer"), ({"ttlMs": True}, "not an integer"),
    ({"ttlMs": "60000"}, "not an integer"),
])
def test_absent_zero_negative_or_bad_ttl_is_stale_at_once(hints: dict[str, Any], why: str) -> None:
    cache = ClientCache()
    stored = put(cache, 0, {"tools": [], **hints})
    assert not stored.kept and why in stored.why
    assert get(cache, 0).status == "miss"


def test_only_the_profiles_cacheable_methods_are_kept() -> None:
    cache = ClientCache()
    assert not put(cache, 0, {**TOOLS, "content": []}, method="tools/call").kept
    assert get(cache, 0, method="tools/call").status == "uncacheable"
    # a legacy revision has no cacheable results at all
    legacy = cache.put(0, "tools/list", {}, TOOLS, profile=LEGACY, server="s")
    assert not legacy.kept and "2025-11-25" in legacy.why


def test_mrtr_retries_and_input_required_results_are_never_cached() -> None:
    cache = ClientCache()
    assert not put(cache, 0, TOOLS, method="resources/read",
                   params={"uri": "a", "requestState": "x"}).kept
    assert not put(cache, 0, {**TOOLS, "resultType": "input_required"},
                   method="resources/read", params={"uri": "a"}).kept


def test_the_key_is_server_method_params_and_scope() -> None:
    cache = ClientCache()
    put(cache, 0, TOOLS, method="resources/read", params={"uri": "a"})
    assert get(cache, 1, method="resources/read", params={"uri": "a"}).hit
    assert get(cache, 1, method="resources/read", params={"uri": "b"}).status == "miss"
    assert get(cache, 1, method="resources/read", params={"uri": "a"}, server="t").status == "miss"
    # _meta is not a relevant param: another revision's request finds the same entry
    assert params_key({"uri": "a", "_meta": {"v": 1}}) == params_key({"uri": "a"})


def test_private_results_stay_in_their_authorization_context() -> None:
    alice, bob = ClientCache(context="alice"), ClientCache(context="bob")
    private = {**TOOLS, "cacheScope": "private"}
    stored = put(alice, 0, private)
    assert stored.key is not None and stored.key[3] == "private:alice"
    assert get(alice, 1).hit
    # one cache object, another context: a new cache for bob's token does not see it
    assert get(bob, 1).status == "miss"
    # an absent scope is kept as private, the narrower reading
    assert put(alice, 0, {"tools": [], "ttlMs": 10}).key[3] == "private:alice"  # type: ignore[index]


def test_list_changed_invalidates_only_that_list_of_that_server() -> None:
    cache = ClientCache()
    put(cache, 0, TOOLS)
    put(cache, 0, TOOLS, server="other")
    put(cache, 0, {**TOOLS, "resources": []}, method="resources/list")
    dropped = cache.invalidate({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
                               profile=MODERN, server="s")
    assert [k[:2] for k in dropped] == [("s", "tools/list")]
    assert get(cache, 1).status == "miss"
    assert get(cache, 1, server="other").hit
    assert get(cache, 1, method="resources/list").hit


def test_resources_updated_invalidates_the_read_of_its_uri_only() -> None:
    cache = ClientCache()
    for uri in ("mem://a", "mem://b"):
        put(cache, 0, {**TOOLS, "contents": []}, method="resources/read", params={"uri": uri})
    note = {"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": "mem://a"}}
    assert len(cache.invalidate(note, profile=MODERN, server="s")) == 1
    assert get(cache, 1, method="resources/read", params={"uri": "mem://a"}).status == "miss"
    assert get(cache, 1, method="resources/read", params={"uri": "mem://b"}).hit


def test_a_notification_the_profile_does_not_list_invalidates_nothing() -> None:
    cache = ClientCache()
    put(cache, 0, TOOLS)
    assert cache.invalidate({"method": "notifications/message"}, profile=MODERN, server="s") == []
    # a legacy profile has no invalidation rows
    assert cache.invalidate({"method": "notifications/tools/list_changed"},
                            profile=LEGACY, server="s") == []
    assert get(cache, 1).hit


def test_listen_filter_comes_from_the_profile_rows() -> None:
    assert listen_filter(MODERN, ("tools/list",)) == {"toolsListChanged": True}
    assert listen_filter(MODERN, ("resources/read", "prompts/list"), ("mem://a",)) == {
        "promptsListChanged": True, "resourceSubscriptions": ["mem://a"]}
    assert listen_filter(LEGACY, ("tools/list",)) == {}


def test_era_decisions_are_per_server_and_can_be_forgotten() -> None:
    cache = ClientCache()
    assert cache.era_for("a") is None
    cache.remember_era(5, "a", Era.MODERN, "2026-07-28")
    cache.remember_era(6, "b", Era.LEGACY, "2025-11-25")
    decision = cache.era_for("a")
    assert decision is not None and decision.era is Era.MODERN and decision.decided_at_ms == 5
    assert cache.forget_era("a") == decision
    assert cache.era_for("a") is None
    assert cache.era_for("b") is not None

"""Properties of caching clients on the simulated clock.

- A client never serves a cached result past its ``ttlMs``: every cache hit comes
  before ``t_received + ttlMs`` of the answer it reuses (2026-07-28
  ``server/utilities/caching.mdx`` §Freshness Calculation), and it asks again only
  when that answer is stale (or it ignores hints: ``no-cache``). Checked on the
  :class:`ClientCache` against a model, and on whole runs from their transcripts.
- No request is lost or answered twice: every request on the wire gets one answer,
  or the transcript says why not (a timeout, the server's exit, a listen stream that
  stays open), and every request step of the scenario has exactly one result.
- The same input gives the same transcript, byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from _strategies import peers
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.simulator import PeerSpec, RunRecord, Scenario, Step, parse_peer, run
from mcp_skew.simulator._cache import ClientCache
from mcp_skew.simulator._scenario import Listen, ServerEvent
from mcp_skew.transcript import Note
from mcp_skew.versions import REGISTRY

SETTINGS = settings(max_examples=80, deadline=None)
MODERN = REGISTRY.get("2026-07-28")
M = MODERN.revision
METHODS = ("tools/list", "resources/list", "resources/read")


# -- the cache against a model ------------------------------------------------------------------

#: Times and ttls on a coarse grid, so that "exactly at expiry" comes up often.
OPS = st.lists(st.tuples(
    st.sampled_from([0, 1, 10, 100, 1_000]) | st.integers(0, 5_000),  # time passes
    st.sampled_from(["put", "get", "invalidate"]),
    st.sampled_from(METHODS),
    st.sampled_from(["a", "b"]),  # a uri: part of the params key
    st.one_of(st.none(), st.sampled_from([-10, 0, 1, 10, 100, 1_000]),
              st.integers(-10, 8_000)),  # ttlMs (None: absent)
), max_size=40)


@SETTINGS
@given(OPS)
def test_the_cache_never_serves_past_ttl(ops: list[tuple[int, str, str, str, int | None]]) -> None:
    cache = ClientCache()
    model: dict[tuple[str, str], tuple[int, int, int]] = {}  # key -> (at, ttl, serial)
    now = serial = 0
    for step, op, method, uri, ttl in ops:
        now += step
        params = {"uri": uri} if method == "resources/read" else {}
        key = (method, uri if method == "resources/read" else "")
        if op == "put":
            serial += 1
            result: dict[str, Any] = {"serial": serial, "cacheScope": "public"}
            if ttl is not None:
                result["ttlMs"] = ttl
            cache.put(now, method, params, result, profile=MODERN, server="s")
            if ttl is not None and ttl > 0:
                model[key] = (now, ttl, serial)
            else:
                model.pop(key, None)  # a newer answer, stale at once: nothing to serve
        elif op == "get":
            found = cache.get(now, method, params, profile=MODERN, server="s")
            kept = model.get(key)
            fresh = kept is not None and now < kept[0] + kept[1]
            assert found.hit == fresh, (found, kept, now)
            if found.hit:
                assert kept is not None and found.result is not None
                assert found.result["serial"] == kept[2]
                assert found.expires_at_ms == kept[0] + kept[1] > now
            elif kept is not None:
                del model[key]
        else:
            note = ({"method": "notifications/resources/updated", "params": {"uri": uri}}
                    if method == "resources/read" else
                    {"method": "notifications/tools/list_changed" if method == "tools/list"
                     else "notifications/resources/list_changed"})
            cache.invalidate(note, profile=MODERN, server="s")
            model.pop(key, None)


# -- whole runs ---------------------------------------------------------------------------------

@st.composite
def timed_scenarios(draw: st.DrawFn) -> Scenario:
    """Lists and calls at random simulated times, maybe a listen stream and a change."""
    times = sorted(draw(st.lists(st.integers(0, 200_000), min_size=1, max_size=8)))
    steps: list[Step | Listen | ServerEvent] = []
    if draw(st.booleans()):
        steps.append(Listen("listen", ("tools/list",), at_ms=0))
    for i, at in enumerate(times):
        method = draw(st.sampled_from(["tools/list", "tools/list", "tools/call",
                                       "resources/list"]))
        params = {"name": "echo", "arguments": {"text": "hi"}} if method == "tools/call" else {}
        steps.append(Step(f"step {i}", method, params, "result", at_ms=at))
    for at in draw(st.lists(st.integers(0, 200_000), max_size=2)):
        steps.append(ServerEvent("change", at, "notifications/tools/list_changed"))
    return Scenario("random", "", tuple(steps), keeps_cache=True)


def ttl_servers() -> st.SearchStrategy[PeerSpec]:
    head = st.sampled_from([f"modern:{M}", f"dual:{M},2025-11-25", "legacy:2025-11-25"])
    ttl = st.one_of(st.just(""), st.integers(0, 120_000).map("+ttl={}".format))
    return st.tuples(head, ttl).map(
        lambda p: parse_peer(p[0] + (p[1] if not p[0].startswith("legacy") else ""), "server"))


def _requests(record: RunRecord) -> dict[Any, tuple[int, dict[str, Any]]]:
    return {e.message["id"]: (e.t_ms, e.message) for e in record.transcript.entries
            if e.dir == "c2s" and isinstance(e.message, dict) and "id" in e.message}


def _check_freshness(record: RunRecord) -> None:
    """Hits only while fresh; a cacheable request goes out only when nothing fresh is kept."""
    requests = _requests(record)
    kept: dict[str, tuple[int, int]] = {}  # method -> (received, ttl) of the last answer
    caching = record.client.client_policy.cache
    for item in record.transcript.timeline():
        if isinstance(item, Note):
            if item.kind != "cache":
                continue
            if item.text.startswith("cache hit: "):
                method = item.text.removeprefix("cache hit: ").split(" ")[0]
                received, ttl = kept[method]
                assert item.t_ms < received + ttl, (item, received, ttl)
            elif " invalidates " in item.text:
                for method in item.text.split(" invalidates ")[1].split(", "):
                    kept.pop(method, None)
            elif item.text.startswith("cache: the era decision ") and "probe the server again" \
                    in item.text:  # the client re-probes and drops all this server said
                kept.clear()
            continue
        message = item.message
        if item.dir == "c2s" and isinstance(message, dict) and message.get("method") in METHODS:
            last = kept.get(message["method"])
            if caching and last is not None and record.revision is not None:
                assert item.t_ms >= last[0] + last[1], (item, last)  # asked only when stale
        if item.dir == "s2c" and "id" in message and message["id"] in requests:
            asked = requests[message["id"]][1]["method"]
            result = message.get("result")
            if isinstance(result, dict) and isinstance(result.get("ttlMs"), int) \
                    and result["ttlMs"] > 0:
                kept[asked] = (item.t_ms, result["ttlMs"])
            elif asked in kept:
                del kept[asked]


def _check_answered_once(record: RunRecord, scenario: Scenario) -> None:
    requests = _requests(record)
    answers: dict[Any, int] = {}
    for e in record.transcript.entries:
        if e.dir == "s2c" and "id" in e.message:
            assert e.message["id"] in requests
            answers[e.message["id"]] = answers.get(e.message["id"], 0) + 1
    assert all(n == 1 for n in answers.values()), answers
    notes = " | ".join(n.text for n in record.transcript.notes)
    for msg_id, (_, message) in requests.items():
        if msg_id in answers or message["method"] == "subscriptions/listen":
            continue
        assert f"no answer to id {msg_id} " in notes or "exited" in notes, (msg_id, notes)
    if record.status == "ok" or record.steps:
        assert [s.name for s in record.steps] == [s.name for s in scenario.requests]


@SETTINGS
@given(peers("client", quirks=False) | peers("client", kinds=("modern", "dual"))
       .map(lambda p: parse_peer(p.notation + "+no-cache", "client")),
       ttl_servers(), timed_scenarios(),
       st.lists(st.tuples(st.integers(0, 200_000), ttl_servers()), max_size=2))
def test_caching_runs_serve_nothing_stale_and_lose_no_request(
        client: PeerSpec, server: PeerSpec, scenario: Scenario,
        changes: list[tuple[int, PeerSpec]]) -> None:
    record = run(client, server, scenario, server_changes=changes)
    times = [item.t_ms for item in record.transcript.timeline()]
    assert times == sorted(times)
    _check_freshness(record)
    _check_answered_once(record, scenario)


@SETTINGS
@given(peers("client"), ttl_servers(), timed_scenarios(),
       st.lists(st.tuples(st.integers(0, 200_000), ttl_servers()), max_size=2))
def test_the_same_input_gives_the_same_transcript(
        client: PeerSpec, server: PeerSpec, scenario: Scenario,
        changes: list[tuple[int, PeerSpec]]) -> None:
    first = run(client, server, scenario, server_changes=changes).to_dict()
    again = run(client, server, scenario, server_changes=changes).to_dict()
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)

"""Virtual time, client caches and per-request versions in the simulator's scenarios.

- ``cache``: against ``modern:2026-07-28`` (ttlMs 60000) the wire carries exactly two
  ``tools/list`` requests; an absent ttlMs (an older server) is stale at once;
- ``listen``: a ``notifications/tools/list_changed`` on the stream drops the fresh list;
- a modern request answered with -32022 in the middle of a session is retried with a
  revision from ``data.supported`` (2026-07-28 ``basic/versioning.mdx``);
- the dual-era client's era decision is cached per server and re-probed when the server
  changes under it (``run(..., server_changes=...)``); single-era clients fail instead.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.simulator import SCENARIOS, RunRecord, Scenario, Step, parse_peer, run
from mcp_skew.versions import REGISTRY, Change, Cite, Impact, Registry

M = "2026-07-28"
DUAL = f"dual:{M},2025-11-25"
DRAFT = "2026-12-draft"


def simulate(client: str, server: str, scenario: str | Scenario = "cache",
             changes: tuple[tuple[int, str], ...] = (),
             registry: Registry = REGISTRY) -> RunRecord:
    return run(parse_peer(client, "client", registry), parse_peer(server, "server", registry),
               scenario, server_changes=[(ms, parse_peer(s, "server", registry))
                                         for ms, s in changes])


def sent(record: RunRecord, method: str) -> list[tuple[int, dict[str, Any]]]:
    """The ``method`` requests on the wire: (time, message)."""
    return [(e.t_ms, e.message) for e in record.transcript.entries
            if e.dir == "c2s" and isinstance(e.message, dict) and e.message.get("method") == method]


def remarks(record: RunRecord) -> list[tuple[int, str]]:
    return [(n.t_ms, n.text) for n in record.transcript.notes if n.kind == "cache"]


# -- the cache scenario -----------------------------------------------------------------------


def test_cache_scenario_sends_exactly_two_lists_to_a_2026_07_28_server() -> None:
    record = simulate(f"modern:{M}", f"modern:{M}")
    assert [t for t, _ in sent(record, "tools/list")] == [0, 90_000]
    assert [st.got for st in record.steps] == ["result (cached)", "result (cached)", "result",
                                               "result"]
    assert all(st.ok for st in record.steps)
    assert (30_000, "cache hit: tools/list (kept at 10 ms, fresh until 60010 ms): no request") \
        in remarks(record)
    assert (90_000, "cache: tools/list expired at 60010 ms (kept at 10 ms): ask again") \
        in remarks(record)
    assert [t for t, _ in sent(record, "tools/call")] == [90_010]


def test_cache_scenario_with_a_discovering_client_also_sends_two_lists() -> None:
    record = simulate(f"modern:{M}+discover", f"modern:{M}")
    assert len(sent(record, "server/discover")) == 1
    assert [t for t, _ in sent(record, "tools/list")] == [10, 90_000]


def test_the_simulated_clock_places_each_request_at_its_time() -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25")
    # a legacy session has no caching hints: each list goes on the wire at its time
    assert [t for t, _ in sent(record, "tools/list")] == [10, 30_000, 90_000]
    assert all(st.ok and st.got == "result" for st in record.steps)
    assert remarks(record) == [(10, "cache: era decision for this server: legacy, 2025-11-25")]


def test_an_absent_ttl_is_stale_at_once() -> None:
    record = simulate(f"modern:{M}", f"modern:{M}+no-cache-hints")
    assert len(sent(record, "tools/list")) == 4
    assert sum("no ttlMs (an older server): stale at once" in text
               for _, text in remarks(record)) == 4
    assert not any("hit" in text for _, text in remarks(record))


def test_a_dual_client_caches_the_discover_result_and_its_era() -> None:
    record = simulate(DUAL, DUAL)
    assert (10, "cache: keep server/discover (public, ttlMs 60000): fresh until 60010 ms") \
        in remarks(record)
    assert (10, f"cache: era decision for this server: modern, {M}") in remarks(record)


def test_scenarios_without_a_cache_are_as_before() -> None:
    """default, handshake and lists keep no cache: no remark, the negotiation's list is not
    reused, so the default scenario's list still goes on the wire."""
    for scenario in ("default", "handshake", "lists"):
        assert not SCENARIOS[scenario].keeps_cache
        record = simulate(f"modern:{M}", f"modern:{M}", scenario)
        assert remarks(record) == []
    assert len(sent(simulate(f"modern:{M}", f"modern:{M}", "default"), "tools/list")) == 2


# -- invalidation ------------------------------------------------------------------------------


def test_list_changed_on_the_listen_stream_drops_the_fresh_list() -> None:
    record = simulate(f"modern:{M}", f"modern:{M}", "listen")
    ((_, listen),) = sent(record, "subscriptions/listen")
    assert listen["params"]["notifications"] == {"toolsListChanged": True}
    notes = [(e.t_ms, e.message) for e in record.transcript.entries
             if e.dir == "s2c" and "method" in e.message]
    assert [m["method"] for _, m in notes] == ["notifications/subscriptions/acknowledged",
                                               "notifications/tools/list_changed"]
    assert notes[1][0] == 10_005
    assert notes[1][1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen["id"]
    assert [t for t, _ in sent(record, "tools/list")] == [0, 20_000]
    assert (20_000, "cache: notifications/tools/list_changed (arrived at 10005 ms) invalidates "
            "tools/list") \
        in remarks(record)
    assert [st.got for st in record.steps] == ["result (cached)", "result", "result (cached)"]


def test_without_the_notification_the_list_stays_fresh() -> None:
    plain = Scenario("no-change", "", tuple(s for s in SCENARIOS["listen"].steps
                                            if not s.name.startswith("the server")),
                     keeps_cache=True)
    record = simulate(f"modern:{M}", f"modern:{M}", plain)
    assert [t for t, _ in sent(record, "tools/list")] == [0]


def test_a_legacy_session_has_no_listen_stream() -> None:
    record = simulate(DUAL, "legacy:2025-11-25", "listen")
    assert sent(record, "subscriptions/listen") == []
    assert any("no subscriptions/listen in 2025-11-25" in n.text for n in record.transcript.notes)
    assert all(st.ok for st in record.steps)


# -- per-request versions: -32022 in the middle of a session ------------------------------------


def _with_draft() -> Registry:
    draft = REGISTRY.get(M).evolve(revision=DRAFT, changes=(Change(
        "draft-note", "a draft that changes nothing on the wire",
        Cite(DRAFT, "https://example.com/draft"), Impact.CLARIFICATION),))
    return REGISTRY.with_profile(draft)


def test_a_32022_mid_session_is_retried_with_a_supported_revision() -> None:
    """The pool's server is replaced at 30 s by one without the draft: the first request that
    reaches it after that (the call at 60 s; the list at 60 s is still cached) gets -32022 with
    data.supported = [2026-07-28] and is sent again under 2026-07-28."""
    registry = _with_draft()
    record = simulate(f"modern:{DRAFT},{M}", f"modern:{DRAFT},{M}", "long",
                      ((30_000, f"modern:{M}"),), registry)
    calls = sent(record, "tools/call")
    versions = [m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] for _, m in calls]
    assert versions == [DRAFT, DRAFT, M, M, M, M]
    refused = next(e.message for e in record.transcript.entries
                   if e.dir == "s2c" and e.message.get("id") == calls[1][1]["id"])
    assert refused["error"]["code"] == -32022
    assert refused["error"]["data"] == {"supported": [M], "requested": DRAFT}
    assert record.session.path[-2:] == ["error -32022", f"retry {M}"]
    assert record.revision == M and record.session.mark == "retry-32022"
    assert all(st.ok for st in record.steps)


def test_a_32022_naming_no_shared_revision_fails_the_request() -> None:
    registry = _with_draft()
    record = simulate(f"modern:{DRAFT}", f"modern:{DRAFT},{M}", "long",
                      ((30_000, f"modern:{M}"),), registry)
    assert len(sent(record, "tools/call")) == 5  # no retry
    assert [st.ok for st in record.steps][:3] == [True, True, True]
    assert not any(st.ok for st in record.steps[3:])
    assert "retry" not in " ".join(record.session.path)


# -- the era decision, and a server that changes under the client -------------------------------


def test_a_dual_client_reprobes_when_its_server_is_downgraded() -> None:
    record = simulate(DUAL, DUAL, "long", ((100_000, "legacy:2025-11-25"),))
    assert any(n.kind == "server-change" for n in record.transcript.notes)
    path = list(record.session.path)
    assert path == [f"discover {M}", f"accepted {M}", "cached era modern failed on tools/list",
                    f"discover {M}", "error -32601", "initialize 2025-11-25",
                    "accepted 2025-11-25"]
    # the wasted round trips: the refused list, the refused probe; then the handshake
    after = [(t, m["method"]) for t, m in
             (( e.t_ms, e.message) for e in record.transcript.entries if e.dir == "c2s")
             if 100_000 <= t < 120_040]
    assert after == [(120_000, "tools/list"), (120_010, "server/discover"),
                     (120_020, "initialize"), (120_030, "notifications/initialized"),
                     (120_030, "tools/list")]
    assert (120_010, "cache: the era decision (modern) failed on tools/list (error -32601): "
            "probe the server again") in remarks(record)
    assert all(st.ok for st in record.steps)
    assert record.revision == "2025-11-25" and record.session.mark == "era-fallback"


def test_a_dual_client_reprobes_when_its_server_is_upgraded() -> None:
    record = simulate(DUAL, "legacy:2025-11-25", "long", ((100_000, f"modern:{M}"),))
    assert "cached era legacy failed on tools/list" in record.session.path
    assert record.revision == M and all(st.ok for st in record.steps)


def test_the_same_server_again_keeps_the_era_decision() -> None:
    record = simulate(DUAL, DUAL, "long", ((100_000, DUAL),))
    assert not any(step.kind == "era-stale" for step in record.session.path)
    assert all(st.ok for st in record.steps)


@pytest.mark.parametrize(("client", "server", "new"), [
    (f"modern:{M}", f"modern:{M}", "legacy:2025-11-25"),
    ("legacy:2025-11-25", "legacy:2025-11-25", f"modern:{M}"),
])
def test_a_single_era_client_fails_when_the_server_changes_era(client: str, server: str,
                                                               new: str) -> None:
    record = simulate(client, server, "long", ((100_000, new),))
    late = [st for st in record.steps if st.name.endswith(("2 min)", "3 min)", "4 min)"))]
    assert late and not any(st.ok for st in late)
    assert all(st.ok for st in record.steps[:2])
    assert not any(step.kind == "era-stale" for step in record.session.path)


def test_a_reprobe_that_finds_no_way_to_talk_fails_the_run() -> None:
    record = simulate(DUAL, DUAL, "long", ((100_000, "legacy:2024-11-05"),))
    assert record.status == "failed" and record.revision is None
    assert "cached era modern failed on tools/list" in record.session.path
    assert record.steps and not record.steps[-1].ok and record.steps[-1].got == "no session"


# -- the CLI ------------------------------------------------------------------------------------


def test_simulate_trace_shows_the_cache_at_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", f"modern:{M}", "--server", f"modern:{M}",
                 "--scenario", "cache", "--trace"]) == 0
    out = capsys.readouterr().out
    assert "   10 ms  ..  cache: keep tools/list (public, ttlMs 60000): fresh until 60010 ms" in out
    assert "30000 ms  ..  cache hit: tools/list" in out
    assert "90000 ms  ..  cache: tools/list expired at 60010 ms" in out


def test_simulate_server_change_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", DUAL, "--server", DUAL, "--scenario", "long",
                 "--server-change", "100000=legacy:2025-11-25", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    events = [r for r in doc["transcript"] if r["dir"] == "event"]
    assert {"cache", "server-change"} <= {r["event"] for r in events}
    assert doc["revision"] == "2025-11-25"


@pytest.mark.parametrize(("value", "words"), [
    ("x", "use MS=SPEC"), ("abc=2025-11-25", "whole milliseconds"),
    ("1.5=2025-11-25", "whole milliseconds"), ("100=", "use MS=SPEC"),
    ("100=bogus:1", "unknown kind"),
])
def test_simulate_server_change_rejects_bad_values(value: str, words: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--client", DUAL, "--server", DUAL, "--scenario", "long",
                 "--server-change", value])
    err = capsys.readouterr().err
    assert code == 2 and words in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_simulate_server_change_is_stdio_only(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--client", DUAL, "--server", DUAL, "--transport", "http",
                 "--server-change", "5=2025-11-25"])
    assert code == 2 and "stdio only" in capsys.readouterr().err


def test_a_step_time_is_a_simulated_time_over_http_too() -> None:
    record = run(parse_peer(f"modern:{M}", "client"), parse_peer(f"modern:{M}", "server"),
                 "cache", transport="http")
    assert [e.t_ms for e in record.transcript.entries
            if e.dir == "c2s" and e.message.get("method") == "tools/list"] == [0, 90_000]


def test_a_step_at_a_time_already_past_runs_at_once() -> None:
    scenario = Scenario("late", "", (Step("list", "tools/list", {}, "result", at_ms=5),),
                        keeps_cache=True)
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25", scenario)
    assert [t for t, _ in sent(record, "tools/list")] == [10]


@pytest.mark.parametrize("scenario", ["cache", "listen", "long"])
def test_every_caching_scenario_runs_over_http(scenario: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Over Streamable HTTP the clock and the cache work; a scenario's server events are not
    simulated there, and the transcript says so."""
    assert main(["simulate", "--client", DUAL, "--server", DUAL, "--transport", "http",
                 "--scenario", scenario, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all(step["ok"] for step in doc["steps"])
    skipped = [r for r in doc["transcript"] if r.get("text", "").startswith("not simulated")]
    assert bool(skipped) == bool(SCENARIOS[scenario].server_events)

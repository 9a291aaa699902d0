"""Every named quirk, pinned by a test that shows the behaviour it names.

Tests say which quirks they pin with ``@pins(...)``; ``test_every_quirk_is_pinned``
compares that with :data:`QUIRKS`. Each quirk also has an example run in
:data:`EXAMPLES`, whose outcome must differ from the same run without the quirk.

``docs/quirks.md`` is generated from :data:`QUIRKS`, :data:`EXAMPLES` and the pins
by this module; a golden test keeps it current. To rewrite it::

    PYTHONPATH=tests .venv/bin/python tests/unit/test_simulator_quirks.py
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from _links import ScriptedLink

from mcp_skew.errors import UsageError
from mcp_skew.simulator import ClientCache, RunRecord, SimClient, SimServer, parse_peer, run
from mcp_skew.simulator.machine import Event, Reply
from mcp_skew.simulator.messages import _wire
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.simulator.quirks._table import Quirk
from mcp_skew.versions import REGISTRY, Era

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "quirks.md"
MODERN = REGISTRY.of_era(Era.MODERN)[-1]  # 2026-07-28
DUAL = f"dual:{MODERN},2025-11-25"

#: quirk -> names of the tests that pin it
PINNED: dict[str, list[str]] = {}

F = TypeVar("F", bound=Callable[..., Any])


def pins(*quirks: str) -> Callable[[F], F]:
    """Mark a test as pinning the behaviour of ``quirks``."""

    def mark(test: F) -> F:
        for quirk in quirks:
            assert quirk in QUIRKS, f"{test.__name__} pins an unknown quirk {quirk!r}"
            PINNED.setdefault(quirk, []).append(test.__name__)
        return test

    return mark


def simulate(client: str, server: str, scenario: str = "default",
             transport: str = "stdio") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario,
               transport=transport)  # type: ignore[arg-type]


def scenario_of(quirk: str) -> str:
    return SCENARIO_OF.get(quirk, "default")


def wire_count(record: RunRecord, method: str) -> int:
    """How many ``method`` requests crossed the wire."""
    return sum(1 for e in record.transcript.entries
               if e.dir == "c2s" and isinstance(e.message, dict) and e.message.get("method") == method)


def transport_of(quirk: str) -> str:
    """Where a quirk's example runs: over stdio, or over HTTP for an HTTP-only quirk."""
    return "stdio" if "stdio" in QUIRKS[quirk].transports else "http"


def server(spec: str) -> SimServer:
    return SimServer(parse_peer(spec, "server"))


def initialize(msg_id: int, revision: str) -> dict[str, Any]:
    profile = REGISTRY.get(revision)
    params = {"protocolVersion": revision, "capabilities": {},
              "clientInfo": _wire.implementation("test")}
    return _wire.request(profile, msg_id, "initialize", params)


def modern(msg_id: int, method: str, revision: str = MODERN) -> dict[str, Any]:
    return _wire.request(REGISTRY.get(revision), msg_id, method)


def legacy(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return _wire.request(REGISTRY.get("2025-11-25"), msg_id, method, params)


def only_reply(srv: SimServer, message: dict[str, Any]) -> dict[str, Any]:
    reaction = srv.receive(message)
    assert len(reaction.replies) == 1 and not reaction.exit
    reply: dict[str, Any] = reaction.replies[0]
    assert reply["id"] == message["id"]
    return reply


# -- examples: one run per quirk, and its twin without the quirk ------------------------------

#: quirk -> (client spec, server spec): the run that shows the quirk (None: no run does).
EXAMPLES: dict[str, tuple[str, str] | None] = {
    "unknown-32601": (DUAL, "legacy:2025-11-25+unknown-32601"),
    "unknown-32602": (DUAL, "legacy:2025-11-25+unknown-32602"),
    "silent": (DUAL, "legacy:2025-11-25+silent"),
    "silent-exit": (DUAL, "legacy:2025-11-25+silent-exit"),
    "lenient": (f"modern:{MODERN}", "legacy:2025-11-25+lenient"),
    "fixed": ("legacy:2025-11-25,2025-06-18", "legacy:2025-11-25,2025-06-18+fixed=2025-06-18"),
    "echo": ("legacy:2025-11-25", "legacy:2025-06-18+echo"),
    "reject": ("legacy:2025-11-25,2025-06-18", "legacy:2025-06-18+reject"),
    "slow": (DUAL, f"modern:{MODERN}+slow=5000"),
    "no-result-type": (f"modern:{MODERN}", f"modern:{MODERN}+no-result-type"),
    "no-cache-hints": (f"modern:{MODERN}", f"modern:{MODERN}+no-cache-hints"),
    "sticky-era": (DUAL, f"{DUAL}+slow=5000+sticky-era"),
    "strict": (f"modern:{MODERN}+strict", f"modern:{MODERN}+no-result-type"),
    "fallback-32601": (f"{DUAL}+fallback-32601", "legacy:2025-11-25+unknown-32602"),
    "exact": ("legacy:2025-11-25,2025-06-18+exact", "legacy:2025-06-18"),
    "restart": (f"{DUAL}+restart", "legacy:2025-11-25+silent-exit"),
    "discover": (f"modern:{MODERN}+discover", "legacy:2025-11-25+lenient"),
    "probe-timeout": (f"{DUAL}+probe-timeout=500", "legacy:2025-11-25+silent"),
    "keeps-era": None,
    "early-32602": (f"modern:{MODERN}", "legacy:2025-11-25+early-32602"),
    "not-found-code": ("legacy:2025-11-25", "legacy:2025-11-25+not-found-code=0"),
    "strict-lifecycle": None,
    "fallback-denylist": None,
    "legacy-32022": ("legacy:2025-11-25", f"modern:{MODERN}+legacy-32022"),
    # over Streamable HTTP (transport_of): these quirks do nothing over stdio
    "not-initialized-32000": (DUAL, "legacy:2025-11-25+not-initialized-32000"),
    "empty-400": (DUAL, "legacy:2025-11-25+empty-400"),
    "no-get": ("legacy:2024-11-05", "legacy:2025-11-25,2024-11-05+no-get"),
    "post-first": ("legacy:2024-11-05+post-first", "legacy:2025-11-25,2024-11-05+no-get"),
    "session-expiry": ("legacy:2025-11-25", "legacy:2025-11-25+session-expiry=2"),
    # in the cache scenario (SCENARIO_OF): these quirks change what a caching client reuses
    "ttl": (f"modern:{MODERN}", f"modern:{MODERN}+ttl=0"),
    "no-cache": (f"modern:{MODERN}+no-cache", f"modern:{MODERN}"),
    "strict-results": (f"modern:{MODERN}+strict-results", f"modern:{MODERN}+no-result-type"),
    "one-transport": (DUAL, "legacy:2025-11-25+not-initialized-32000+one-transport"),
    "connect-timeout": (f"{DUAL}+probe-timeout=60000+connect-timeout=15000",
                        "legacy:2025-11-25+silent"),
    "latency": (DUAL, f"{DUAL}+latency=4000"),
    "request-timeout": ("legacy:2025-11-25+request-timeout=15000", "legacy:2025-11-25+slow=12000"),
    "no-reprobe": (f"{DUAL}+probe-timeout=1000+no-reprobe", f"{DUAL}+slow=2000+sticky-era"),
    "init-after-discover": (f"{DUAL}+init-after-discover", f"{DUAL}+sticky-era"),
    "both-at-once": (f"{DUAL}+both-at-once", f"{DUAL}+sticky-era"),
    "exit-fatal": (f"{DUAL}+restart+exit-fatal", "legacy:2025-11-25+silent-exit"),
    "restart-after-exit": (f"{DUAL}+restart-after-exit", "legacy:2025-11-25+silent-exit"),
    "discover-incomplete": (f"{DUAL}+strict-discover", f"{DUAL}+discover-incomplete"),
    "strict-discover": (f"{DUAL}+strict-discover", f"{DUAL}+discover-incomplete"),
    "raw-retry": (f"modern:{MODERN}+strict-results+raw-retry", f"modern:{MODERN}+no-result-type"),
    "asks-roots": ("legacy:2024-11-05+stalls-on-server-request",
                   "legacy:2025-11-25,2024-11-05+asks-roots"),
    "stalls-on-server-request": ("legacy:2024-11-05+stalls-on-server-request",
                                 "legacy:2025-11-25,2024-11-05+asks-roots"),
    "early-tools-32603": (f"modern:{MODERN}", "legacy:2025-11-25+lenient+early-tools-32603"),
    "discover-legacy": (DUAL, f"{DUAL}+discover-legacy"),
    "discover-fallback": (f"dual:{MODERN},2025-11-25,2025-06-18+discover-fallback",
                          f"{DUAL}+discover-legacy"),
    "logging": ("legacy:2025-11-25+legacy-set-level", f"{DUAL}+logging"),
    "legacy-set-level": (f"{DUAL}+legacy-set-level", f"{DUAL}+logging"),
    "era-set-level": (f"{DUAL}+era-set-level", "legacy:2025-11-25+logging"),
    "untyped-input-schema": ("legacy:2025-11-25+strict-tools",
                             "legacy:2025-11-25+untyped-input-schema"),
    "strict-tools": ("legacy:2025-11-25+strict-tools", "legacy:2025-11-25+untyped-input-schema"),
    # how a client reads a tool call (docs/calls.md)
    "dialect-2020-12-only": ("legacy:2025-11-25+dialect-2020-12-only",
                             "legacy:2025-11-25+draft-07-output-schema"),
    "draft-07-output-schema": ("legacy:2025-11-25+dialect-2020-12-only",
                               "legacy:2025-11-25+draft-07-output-schema"),
    "declared-dialects": ("legacy:2025-11-25+declared-dialects",
                          "legacy:2025-11-25+draft-04-output-schema"),
    "draft-04-output-schema": ("legacy:2025-11-25+declared-dialects",
                               "legacy:2025-11-25+draft-04-output-schema"),
    "needs-structured-content": ("legacy:2025-11-25+needs-structured-content",
                                 "legacy:2025-11-25+no-structured-content"),
    "no-structured-content": ("legacy:2025-11-25+needs-structured-content",
                              "legacy:2025-11-25+no-structured-content"),
    "checks-structured-content": None,
    "checks-header-on-initialize": ("legacy:2025-11-25,2025-06-18+header-on-initialize",
                                    "legacy:2025-06-18+checks-header-on-initialize"),
    "header-on-initialize": ("legacy:2025-11-25,2025-06-18+header-on-initialize",
                             "legacy:2025-06-18+checks-header-on-initialize"),
    "missing-session-32600": ("legacy:2025-11-25+drops-session-id",
                              "legacy:2025-11-25+missing-session-32600"),
    "stateless-http": ("legacy:2025-11-25+drops-session-id", "legacy:2025-11-25+stateless-http"),
    "drops-session-id": ("legacy:2025-11-25+drops-session-id", "legacy:2025-11-25"),
    "no-requested": None,
    "supported-all": None,
    "drop-unparsable": None,
    "outlives-stdin": None,
    # in scenario auth (over Streamable HTTP): what a protected server publishes, how a
    # client discovers (tests/unit/test_auth_cases.py has the cases)
    "auth": ("legacy:2025-06-18", "legacy:2025-06-18+auth=origin"),
    "no-iss": (f"modern:{MODERN}", f"modern:{MODERN}+no-iss"),
    "wrong-iss": (f"modern:{MODERN}", f"modern:{MODERN}+wrong-iss"),
    "auth-origin-fallback": ("legacy:2025-06-18+auth-origin-fallback",
                             "legacy:2025-06-18+auth=origin"),
    "rfc8414-only": ("legacy:2025-11-25+rfc8414-only", "legacy:2025-11-25+auth=oidc"),
    "dcr-only": ("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=no-dcr"),
    "client-credentials": ("legacy:2025-11-25+client-credentials", "legacy:2025-11-25"),
    "auth-fallback": (f"{DUAL}+dcr-only+auth-fallback", "legacy:2025-11-25+auth=no-dcr"),
    "resource-with-prm-only": ("legacy:2025-06-18+auth-origin-fallback+resource-with-prm-only",
                               "legacy:2025-06-18+auth=origin"),
    "default-endpoints": ("legacy:2025-11-25,2025-03-26+auth-origin-fallback+default-endpoints",
                          "legacy:2025-03-26+auth=defaults"),
    "dcr-app-type": ("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm+dcr-app-type"),
    "as-moves": ("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm+as-moves"),
    "dcr-native": ("legacy:2025-11-25+dcr-only+dcr-native",
                   "legacy:2025-11-25+auth=prm+dcr-app-type"),
    "openid-scope": ("legacy:2025-11-25+dcr-only+openid-scope",
                     "legacy:2025-11-25+auth=prm+strict-scopes"),
    "strict-scopes": ("legacy:2025-11-25+dcr-only+openid-scope",
                      "legacy:2025-11-25+auth=prm+strict-scopes"),
    "reauthorize-same-scope": ("legacy:2025-11-25+dcr-only+reauthorize-same-scope",
                               "legacy:2025-11-25+auth=scoped"),
    # extensions (+ext=...): the MCP Apps host loses its app (scenario apps)
    "ext-unadvertised": (f"{DUAL}+ext-unadvertised+ext=ui", f"{DUAL}+ext=ui"),
    "no-ui-read": (f"{DUAL}+no-ui-read+ext=ui", f"{DUAL}+ext=ui"),
    "ext-once": (f"{DUAL}+ext=ui", f"{DUAL}+ext-once+ext=ui"),
}
#: quirk -> the scenario its example runs in (default: ``default``)
SCENARIO_OF = {"ttl": "cache", "no-cache": "cache", "ext-unadvertised": "apps",
               "no-ui-read": "apps", "ext-once": "apps"}
SCENARIO_OF.update(dict.fromkeys(("auth", "no-iss", "wrong-iss", "auth-origin-fallback",
                                  "rfc8414-only", "dcr-only", "client-credentials",
                                  "auth-fallback", "resource-with-prm-only",
                                  "default-endpoints", "dcr-app-type", "as-moves", "dcr-native",
                                  "openid-scope", "strict-scopes", "reauthorize-same-scope"),
                                 "auth"))
#: why a quirk has no example run
NO_EXAMPLE = {
    "strict-lifecycle": "no simulated client sends ping before initialize, so no run shows "
    "it; the tests drive the server directly",
    "fallback-denylist": "no simulated server answers the probe with -32022 naming a handshake "
    "revision, or with -32020/-32021, so no run shows it; the tests script the probe's answer",
}
NO_EXAMPLE["keeps-era"] = ("it shows across a restart of the server (the same server "
                           "upgraded between two runs sharing the client's cache) or a server "
                           "that changes under the client (scenario long with a server "
                           "change); one run of a pair has neither, so the tests run both")
NO_EXAMPLE.update({
    "supported-all": "the registry has one modern revision, so no built-in client asks a "
    "dual-era server for one it lacks; the tests send the server such a request "
    "(tests/unit/test_unsupported_lists_legacy.py runs it with a draft profile)",
    "no-requested": "every simulated client names a version (initialize carries one), so no "
    "run shows it; the tests send the server a request without one",
    "drop-unparsable": "simulated links carry parsed messages, so no run sends a line that is "
    "not JSON; the tests drive the server's edge (tests/unit/test_serve_stdio.py too)",
    "outlives-stdin": "a run has no process; tests/unit/test_serve_stdio.py serves it on "
    "standard input",
})
NO_EXAMPLE["checks-structured-content"] = (
    "the simulated server's structuredContent always matches its outputSchema, so no run shows "
    "it; the probe's call step reads it (test_call_quirks_refuse_what_the_sdk_refuses, "
    "tests/unit/test_probe_calls.py)")
#: quirks that name the default behaviour, so their twin run is identical
DEFAULTS = {"unknown-32601"}


def without(spec: str, quirk: str) -> str:
    head, *quirks = spec.split("+")
    return "+".join([head, *(q for q in quirks if q.partition("=")[0] != quirk)])


def example(quirk: str) -> tuple[str, str]:
    pair = EXAMPLES[quirk]
    assert pair is not None, NO_EXAMPLE[quirk]
    return pair


def twin(quirk: str) -> tuple[str, str]:
    client, srv = example(quirk)
    role = QUIRKS[quirk].role
    return (without(client, quirk), srv) if role == "client" else (client, without(srv, quirk))


def outcome(record: RunRecord) -> dict[str, Any]:
    d = record.to_dict()
    return {k: d[k] for k in ("status", "revision", "era", "path", "reason", "steps", "findings")}


@pytest.mark.parametrize("quirk", sorted(q for q, pair in EXAMPLES.items() if pair))
def test_example_differs_from_its_twin_without_the_quirk(quirk: str) -> None:
    client, srv = example(quirk)
    assert parse_peer(client if QUIRKS[quirk].role == "client" else srv,
                      QUIRKS[quirk].role).has(quirk)
    over = transport_of(quirk)
    scenario = scenario_of(quirk)
    with_quirk = outcome(simulate(client, srv, scenario, transport=over))
    plain = outcome(simulate(*twin(quirk), scenario, transport=over))
    if quirk in DEFAULTS:
        assert with_quirk == plain
    else:
        assert with_quirk != plain


def test_every_quirk_is_pinned() -> None:
    assert set(PINNED) == set(QUIRKS), set(QUIRKS) ^ set(PINNED)
    assert set(EXAMPLES) == set(QUIRKS), set(QUIRKS) ^ set(EXAMPLES)
    assert {q for q, pair in EXAMPLES.items() if pair is None} == set(NO_EXAMPLE)


def test_every_quirk_says_what_it_does_and_where_it_is_seen() -> None:
    for quirk in QUIRKS.values():
        assert quirk.summary and quirk.seen_in, quirk.name
        assert quirk.role in ("client", "server")
        assert quirk.kinds and set(quirk.kinds) <= {"legacy", "modern", "dual"}
        assert quirk.transports and set(quirk.transports) <= {"stdio", "http"}
        if "stdio" not in quirk.transports:  # an HTTP-only quirk says so
            assert "over HTTP" in quirk.summary and "over stdio it does nothing" in quirk.summary


# -- servers: an unknown or early request -------------------------------------------------------

#: quirk -> what a legacy server does with server/discover before initialize
EARLY = [
    ("", {"error": -32601}),
    ("+unknown-32601", {"error": -32601}),
    ("+unknown-32602", {"error": -32602}),
    ("+silent", {}),
    ("+silent-exit", {}),
    ("+lenient", {"error": -32601}),  # lenient serves known methods; discover is unknown
]


@pins("unknown-32601", "unknown-32602", "silent", "silent-exit", "lenient")
@pytest.mark.parametrize(("quirk", "answer"), EARLY, ids=[q or "plain" for q, _ in EARLY])
def test_unknown_request_before_initialize(quirk: str, answer: dict[str, int]) -> None:
    srv = server(f"legacy:2025-11-25{quirk}")
    reaction = srv.receive(modern(1, "server/discover"))
    assert not reaction.exit
    if not answer:
        assert reaction.replies == []
    else:
        (reply,) = reaction.replies
        assert reply["error"]["code"] == answer["error"] and reply["id"] == 1


@pins("unknown-32601", "unknown-32602", "silent", "lenient")
@pytest.mark.parametrize(("quirk", "code"), [("", -32601), ("+unknown-32601", -32601),
                                             ("+unknown-32602", -32602), ("+silent", None),
                                             ("+lenient", "result")])
def test_known_request_before_initialize(quirk: str, code: int | str | None) -> None:
    """tools/list before initialize: refused by default, served by a lenient server."""
    srv = server(f"legacy:2025-11-25{quirk}")
    reaction = srv.receive(legacy(1, "tools/list"))
    if code is None:
        assert reaction.replies == []
    elif code == "result":
        assert [t["name"] for t in reaction.replies[0]["result"]["tools"]] == ["echo", "fail"]
    else:
        assert reaction.replies[0]["error"]["code"] == code


@pins("silent-exit")
def test_silent_exit_says_nothing_then_exits_on_the_next_input() -> None:
    srv = server("legacy:2025-11-25+silent-exit")
    first = srv.receive(modern(1, "server/discover"))
    assert (first.replies, first.exit) == ([], False)
    second = srv.receive(initialize(2, "2025-11-25"))
    assert (second.replies, second.exit) == ([], True)
    assert srv.dead
    assert srv.receive(initialize(3, "2025-11-25")).replies == []


@pins("silent-exit", "restart")
def test_restart_against_silent_exit() -> None:
    gives_up = simulate(DUAL, "legacy:2025-11-25+silent-exit")
    assert gives_up.status == "failed"
    assert gives_up.session.reason == "initialize 2025-11-25: server exited"
    assert "the server process exited" in [n.text for n in gives_up.transcript.notes]
    restarts = simulate(f"{DUAL}+restart", "legacy:2025-11-25+silent-exit")
    assert restarts.status == "ok" and restarts.revision == "2025-11-25"
    assert "restart" in restarts.session.path
    notes = [n.text for n in restarts.transcript.notes]
    assert "client restarts the server process" in notes
    assert "the server process exited" not in notes


@pins("silent", "restart")
def test_restart_also_replaces_a_wedged_server_after_a_timeout() -> None:
    record = simulate(f"{DUAL}+restart", "legacy:2025-11-25+silent")
    assert record.session.path == [f"discover {MODERN}", "timeout after 3000 ms", "restart",
                                   "initialize 2025-11-25", "accepted 2025-11-25"]


@pins("restart")
def test_restart_is_not_needed_when_the_probe_gets_an_error() -> None:
    record = simulate(f"{DUAL}+restart", "legacy:2025-11-25")
    assert "restart" not in record.session.path and record.mark == "era-fallback"


@pins("lenient")
def test_lenient_server_runs_a_modern_clients_request_under_legacy_rules() -> None:
    record = simulate(f"modern:{MODERN}", "legacy:2025-11-25+lenient")
    reply = record.transcript.entries[1].message["result"]
    assert "resultType" not in reply  # served as 2025-11-25, not 2026-07-28
    assert record.status == "failed" and record.session.path[-1] == "served under legacy rules"


# -- servers: answering initialize ------------------------------------------------------------

LEGACY = REGISTRY.of_era(Era.LEGACY)


@pins("fixed")
@pytest.mark.parametrize("asked", LEGACY)
def test_fixed_answers_every_initialize_with_one_revision(asked: str) -> None:
    srv = server("legacy:2025-11-25,2025-06-18+fixed=2025-06-18")
    reply = only_reply(srv, initialize(1, asked))
    assert reply["result"]["protocolVersion"] == "2025-06-18"


@pins("fixed")
def test_fixed_sends_a_client_that_supports_it_down_and_one_that_does_not_away() -> None:
    down = simulate("legacy:2025-11-25,2025-06-18", "legacy:2025-11-25,2025-06-18+fixed=2025-06-18")
    assert (down.status, down.revision, down.mark) == ("ok", "2025-06-18", "downgraded")
    away = simulate("legacy:2025-11-25", "legacy:2025-11-25+fixed=2025-06-18")
    assert away.status == "failed" and away.session.path[-1] == "disconnect"


@pins("echo")
@pytest.mark.parametrize("asked", LEGACY)
def test_echo_echoes_the_asked_revision(asked: str) -> None:
    srv = server("legacy:2025-06-18+echo")
    assert only_reply(srv, initialize(1, asked))["result"]["protocolVersion"] == asked


@pins("echo")
def test_echo_lets_a_client_negotiate_a_revision_the_server_does_not_support() -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-06-18+echo")
    assert record.status == "ok" and record.revision == "2025-11-25"
    assert record.revision not in record.server.revisions


@pins("reject")
def test_reject_gives_32602_with_supported_and_requested() -> None:
    srv = server("legacy:2025-06-18,2025-03-26+reject")
    reply = only_reply(srv, initialize(1, "2025-11-25"))
    assert reply["error"]["code"] == -32602
    assert reply["error"]["data"] == {"supported": ["2025-06-18", "2025-03-26"],
                                      "requested": "2025-11-25"}
    # a supported revision is still accepted
    assert only_reply(server("legacy:2025-06-18+reject"),
                      initialize(1, "2025-06-18"))["result"]["protocolVersion"] == "2025-06-18"


@pins("reject")
def test_reject_fails_the_run_where_a_counter_offer_would_have_worked() -> None:
    client = "legacy:2025-11-25,2025-06-18"
    assert simulate(client, "legacy:2025-06-18").status == "ok"
    record = simulate(client, "legacy:2025-06-18+reject")
    assert record.status == "failed"
    assert record.session.path == ["initialize 2025-11-25", "error -32602"]


# -- servers: timing and the era ------------------------------------------------------------------

@pins("slow")
@pytest.mark.parametrize(("slow", "path"), [
    (0, [f"discover {MODERN}", f"accepted {MODERN}"]),
    (2000, [f"discover {MODERN}", f"accepted {MODERN}"]),
    (2995, [f"discover {MODERN}", f"accepted {MODERN}"]),  # read at 2995, answer at 3000
    (2996, [f"discover {MODERN}", "timeout after 3000 ms", "initialize 2025-11-25",
            "error -32601", "re-probe", f"discover {MODERN}", f"accepted {MODERN}"]),
    (5000, [f"discover {MODERN}", "timeout after 3000 ms", "initialize 2025-11-25",
            "error -32601", "re-probe", f"discover {MODERN}", f"accepted {MODERN}"]),
])
def test_slow_races_the_probe_timeout(slow: int, path: list[str]) -> None:
    """Below the timeout the probe is answered; above it the client falls back, is
    refused by the modern server, and probes again (the re-probe path)."""
    record = simulate(DUAL, f"modern:{MODERN}+slow={slow}", "handshake")
    assert record.session.path == path
    assert record.status == "ok" and record.session.era is Era.MODERN
    assert record.mark == ("re-probe" if "re-probe" in path else "direct")
    first_answer = next(e for e in record.transcript.entries if e.dir == "s2c")
    assert first_answer.t_ms == max(slow, 5) + 5  # latency 5 ms each way


@pins("slow")
def test_slow_delays_every_first_answer_by_its_start_time() -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25+slow=700", "handshake")
    assert [e.t_ms for e in record.transcript.entries[:2]] == [0, 705]
    assert simulate("legacy:2025-11-25", "legacy:2025-11-25+slow=20000").session.reason == (
        "initialize 2025-11-25: timeout after 10000 ms")


@pins("sticky-era")
def test_sticky_era_after_a_modern_request_rejects_initialize() -> None:
    srv = server(f"{DUAL}+sticky-era")
    assert "result" in only_reply(srv, modern(1, "server/discover"))
    refused = only_reply(srv, initialize(2, "2025-11-25"))["error"]
    assert refused["code"] == -32022
    assert refused["data"] == {"supported": [MODERN], "requested": "2025-11-25"}
    plain = server(DUAL)
    only_reply(plain, modern(1, "server/discover"))
    assert "result" in only_reply(plain, initialize(2, "2025-11-25"))


@pins("sticky-era")
def test_sticky_era_after_initialize_rejects_modern_requests() -> None:
    srv = server(f"{DUAL}+sticky-era")
    assert "result" in only_reply(srv, initialize(1, "2025-11-25"))
    assert only_reply(srv, modern(2, "tools/list"))["error"]["code"] == -32600
    plain = server(DUAL)
    only_reply(plain, initialize(1, "2025-11-25"))
    assert "resultType" in only_reply(plain, modern(2, "tools/list"))["result"]


@pins("sticky-era", "slow")
def test_sticky_era_turns_a_late_probe_into_a_re_probe() -> None:
    """The slow server reads the timed-out probe first, so it is modern for good."""
    sticky = simulate(DUAL, f"{DUAL}+slow=5000+sticky-era", "handshake")
    assert sticky.session.path[-3:] == ["re-probe", f"discover {MODERN}", f"accepted {MODERN}"]
    assert sticky.mark == "re-probe"
    plain = simulate(DUAL, f"{DUAL}+slow=5000", "handshake")
    assert plain.session.era is Era.LEGACY and plain.mark == "era-fallback"


# -- servers: 2026-07-28 results without their required fields -----------------------------------

@pins("no-result-type", "no-cache-hints")
@pytest.mark.parametrize(("quirk", "finding", "fields"), [
    ("no-result-type", "missing-result-type", {"resultType"}),
    ("no-cache-hints", "missing-cache-hints", {"ttlMs", "cacheScope"}),
])
def test_modern_results_missing_fields(quirk: str, finding: str, fields: set[str]) -> None:
    srv = server(f"modern:{MODERN}+{quirk}")
    for method in ("server/discover", "tools/list"):
        result = only_reply(srv, modern(1, method))["result"]
        assert not fields & set(result), (method, result)
    lenient = simulate(f"modern:{MODERN}", f"modern:{MODERN}+{quirk}")
    assert lenient.status == "ok"
    codes = {f["code"] for f in lenient.to_dict()["findings"]}
    assert codes == {finding}
    plain = simulate(f"modern:{MODERN}", f"modern:{MODERN}")
    assert plain.to_dict()["findings"] == []


@pins("no-cache-hints")
def test_no_cache_hints_leaves_uncacheable_results_alone() -> None:
    result = only_reply(server(f"modern:{MODERN}+no-cache-hints"),
                        modern(1, "tools/call"))  # unknown tool: an error, not a result
    assert "error" in result
    call = _wire.request(REGISTRY.get(MODERN), 2, "tools/call", {"name": "echo",
                                                             "arguments": {"text": "x"}})
    body = only_reply(server(f"modern:{MODERN}+no-cache-hints"), call)["result"]
    assert body["resultType"] == "complete" and "ttlMs" not in body


@pins("supported-all")
def test_supported_all_lists_the_handshake_revisions_in_the_32022() -> None:
    """2026-07-28 basic/versioning.mdx's example lists 2025-11-25 beside 2026-07-28."""
    request = modern(1, "tools/list")
    request["params"]["_meta"][_wire.VERSION_KEY] = "2099-01-01"
    plain = only_reply(server(DUAL), request)["error"]
    every = only_reply(server(f"{DUAL}+supported-all"), request)["error"]
    assert plain["code"] == every["code"] == -32022
    assert plain["data"]["supported"] == [MODERN]
    assert every["data"]["supported"] == [MODERN, "2025-11-25"]


@pins("strict-lifecycle")
@pytest.mark.parametrize(("quirk", "answer"), [("", "result"), ("+strict-lifecycle", -32601),
                                               ("+strict-lifecycle+unknown-32602", -32602),
                                               ("+strict-lifecycle+silent", None),
                                               ("+strict-lifecycle+lenient", "result")])
def test_strict_lifecycle_refuses_ping_before_initialize(quirk: str,
                                                          answer: int | str | None) -> None:
    """basic/lifecycle.mdx allows ping before initialize; a strict-lifecycle server does not."""
    srv = server(f"legacy:2025-11-25{quirk}")
    reaction = srv.receive(legacy(1, "ping"))
    if answer is None:
        assert reaction.replies == []
    elif answer == "result":
        assert reaction.replies[0]["result"] == {}
    else:
        assert reaction.replies[0]["error"]["code"] == answer


@pins("strict-lifecycle")
def test_strict_lifecycle_answers_ping_after_initialize() -> None:
    srv = server("legacy:2025-11-25+strict-lifecycle")
    only_reply(srv, initialize(1, "2025-11-25"))
    assert only_reply(srv, legacy(2, "ping"))["result"] == {}


@pins("early-32602")
@pytest.mark.parametrize(("method", "code"), [("tools/list", -32602), ("resources/read", -32602),
                                              ("server/discover", -32601), ("foo/bar", -32601),
                                              ("ping", "result")])
def test_early_32602_for_known_methods_only(method: str, code: int | str) -> None:
    reply = only_reply(server("legacy:2025-11-25+early-32602"), legacy(1, method))
    if code == "result":
        assert reply["result"] == {}
    else:
        assert reply["error"]["code"] == code


@pins("early-32602")
def test_early_32602_still_lets_a_dual_client_fall_back() -> None:
    """The probe (server/discover) is unknown, so it gets -32601; tools/list would get -32602."""
    record = simulate(DUAL, "legacy:2025-11-25+early-32602")
    assert record.session.path[1] == "error -32601" and record.status == "ok"
    inline = simulate(f"modern:{MODERN}", "legacy:2025-11-25+early-32602")
    assert inline.session.path == [f"tools/list {MODERN}", "error -32602"]


@pins("not-found-code")
@pytest.mark.parametrize(("srv", "code", "ok"), [
    ("legacy:2025-11-25", -32002, True),
    ("legacy:2025-11-25+not-found-code=0", 0, False),
    ("legacy:2025-11-25+not-found-code=-32602", -32602, False),
    (f"modern:{MODERN}", -32602, True),
    (f"modern:{MODERN}+not-found-code=-32603", -32603, False),
])
def test_not_found_code_replaces_the_missing_resource_code(srv: str, code: int, ok: bool) -> None:
    """The scenario judges by the negotiated revision, so a foreign code fails the step."""
    client = "legacy:2025-11-25" if srv.startswith("legacy") else f"modern:{MODERN}"
    record = simulate(client, srv)
    step = next(s for s in record.steps if s.name == "missing resource")
    assert (step.got, step.ok) == (f"error {code}", ok)


@pins("not-found-code")
def test_not_found_code_leaves_a_found_resource_alone() -> None:
    srv = server("legacy:2025-11-25+not-found-code=0")
    only_reply(srv, initialize(1, "2025-11-25"))
    reply = only_reply(srv, legacy(2, "resources/read", {"uri": "mem://hello"}))
    assert reply["result"]["contents"][0]["text"] == "hello"


@pins("legacy-32022")
@pytest.mark.parametrize("message", [initialize(1, "2025-11-25"), legacy(1, "ping"),
                                     legacy(1, "tools/list"), legacy(1, "server/discover")])
def test_legacy_32022_names_the_modern_revisions(message: dict[str, Any]) -> None:
    error = only_reply(server(f"modern:{MODERN}+legacy-32022"), message)["error"]
    assert error["code"] == -32022 and error["data"]["supported"] == [MODERN]
    asked = "2025-11-25" if message["method"] == "initialize" else "unknown"
    assert error["data"]["requested"] == asked
    plain = only_reply(server(f"modern:{MODERN}"), message)["error"]
    # a plain modern-only server: initialize is an unknown method; any other request lacks
    # the required _meta (2026-07-28 basic/index.mdx: -32602)
    assert plain["code"] == (-32601 if message["method"] == "initialize" else -32602)


@pins("legacy-32022")
def test_legacy_32022_leaves_modern_requests_alone() -> None:
    srv = server(f"modern:{MODERN}+legacy-32022")
    assert "result" in only_reply(srv, modern(1, "server/discover"))
    assert simulate(DUAL, f"modern:{MODERN}+legacy-32022").session.path == [
        f"discover {MODERN}", f"accepted {MODERN}"]


@pins("no-requested", "legacy-32022")
@pytest.mark.parametrize("message", [legacy(1, "ping"), legacy(1, "tools/list"),
                                     legacy(1, "server/discover")])
def test_no_requested_leaves_requested_out_where_the_request_named_no_version(
        message: dict[str, Any]) -> None:
    error = only_reply(server(f"modern:{MODERN}+legacy-32022+no-requested"), message)["error"]
    assert error["code"] == -32022 and error["data"] == {"supported": [MODERN]}
    assert error["message"] == ("Unsupported protocol version: the request did not name a "
                                "protocol version")


@pins("no-requested")
def test_no_requested_still_names_the_revision_an_initialize_asked_for() -> None:
    srv = server(f"modern:{MODERN}+legacy-32022+no-requested")
    error = only_reply(srv, initialize(1, "2025-11-25"))["error"]
    assert error["data"] == {"supported": [MODERN], "requested": "2025-11-25"}
    assert error["message"] == "Unsupported protocol version: 2025-11-25"


@pins("early-tools-32603")
def test_early_tools_32603_fails_tools_list_before_initialize_only() -> None:
    srv = server("legacy:2025-11-25+lenient+early-tools-32603")
    assert only_reply(srv, legacy(1, "tools/list"))["error"]["code"] == -32603
    assert "result" in only_reply(srv, legacy(2, "resources/list"))  # lenient for the rest
    assert "result" in only_reply(srv, legacy(3, "ping"))
    assert only_reply(srv, legacy(4, "foo/bar"))["error"]["code"] == -32601
    assert "result" in only_reply(srv, initialize(5, "2025-11-25"))
    assert "result" in only_reply(srv, legacy(6, "tools/list"))


@pins("early-tools-32603")
def test_early_tools_32603_turns_a_modern_clients_era_mismatch_into_an_error() -> None:
    record = simulate(f"modern:{MODERN}", "legacy:2025-11-25+lenient+early-tools-32603")
    assert record.status == "failed" and record.session.path[-1] == "error -32603"


@pins("one-transport", "not-initialized-32000")
def test_one_transport_refuses_every_sessionless_post_after_the_first() -> None:
    record = over_http(DUAL, "legacy:2025-11-25+not-initialized-32000+one-transport")
    assert record.status == "failed"
    assert record.session.path == [
        f"discover {MODERN}", "error -32000", "http: no modern error in the answer, fall back",
        "initialize 2025-11-25", "error -32603"]
    legacy_only = over_http("legacy:2025-11-25", "legacy:2025-11-25+one-transport")
    assert (legacy_only.status, legacy_only.revision) == ("ok", "2025-11-25")
    assert simulate(DUAL, "legacy:2025-11-25+one-transport").status == "ok"  # stdio: nothing


@pins("connect-timeout", "probe-timeout")
def test_connect_timeout_fails_a_silent_probe_instead_of_falling_back() -> None:
    client = f"{DUAL}+probe-timeout=60000+connect-timeout=15000"
    record = simulate(client, "legacy:2025-11-25+silent")
    assert record.status == "failed" and record.session.path == [
        f"discover {MODERN}", "timeout after 15000 ms"]
    assert "connect timed out after 15000 ms" in record.session.reason
    assert simulate(without(client, "connect-timeout"), "legacy:2025-11-25+silent").status == "ok"
    # a probe that is answered in time is not affected
    assert simulate(client, "legacy:2025-11-25").revision == "2025-11-25"
    # a connect timeout longer than the probe wait leaves the fallback alone
    longer = simulate(f"{DUAL}+probe-timeout=3000+connect-timeout=15000", "legacy:2025-11-25+silent")
    assert longer.status == "ok" and longer.mark == "era-fallback"


@pins("raw-retry", "strict-results")
def test_raw_retry_sends_a_refused_request_once_more() -> None:
    srv = f"modern:{MODERN}+no-result-type"
    sent = [e.message["method"] for e in simulate(f"modern:{MODERN}+discover+strict-results"
                                                  "+raw-retry", srv, "lists").transcript.entries
            if e.dir == "c2s"]
    assert sent == ["server/discover", "tools/list", "tools/list", "resources/list",
                    "resources/list"]
    plain = [e.message["method"] for e in simulate(f"modern:{MODERN}+discover+raw-retry", srv,
                                                   "lists").transcript.entries if e.dir == "c2s"]
    assert plain == ["server/discover", "tools/list", "resources/list"]  # nothing refused


@pins("asks-roots")
def test_asks_roots_asks_a_client_that_declared_roots_after_initialized() -> None:
    srv = server("legacy:2025-11-25+asks-roots")
    params = {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}},
              "clientInfo": _wire.implementation("test")}
    assert "result" in only_reply(srv, legacy(1, "initialize", params))
    asked = srv.receive({"jsonrpc": "2.0", "method": "notifications/initialized"}).replies
    assert asked == [{"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"}]
    assert srv.receive({"jsonrpc": "2.0", "id": "roots-1", "result": {"roots": []}}).replies == []
    quiet = server("legacy:2025-11-25+asks-roots")  # no roots declared: nothing asked
    only_reply(quiet, initialize(1, "2025-11-25"))
    assert quiet.receive({"jsonrpc": "2.0", "method": "notifications/initialized"}).replies == []


@pins("stalls-on-server-request", "asks-roots")
def test_stalls_on_server_request_loses_every_answer_after_the_servers_request() -> None:
    record = simulate("legacy:2024-11-05+stalls-on-server-request",
                      "legacy:2025-11-25,2024-11-05+asks-roots", "lists")
    # it connects, then every request waits for ever: the pair fails (connects, then fails)
    assert record.session.status == "ok" and record.revision == "2024-11-05"
    assert record.status == "failed" and record.failed_step == "list tools"
    assert [st.got for st in record.steps] == ["timeout", "timeout"]
    sent = [e.message for e in record.transcript.entries if e.dir == "s2c"]
    assert {"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"} in sent
    assert all(st.ok for st in simulate("legacy:2024-11-05", "legacy:2025-11-25,2024-11-05"
                                        "+asks-roots", "lists").steps)
    assert all(st.ok for st in simulate("legacy:2024-11-05+stalls-on-server-request",
                                        "legacy:2025-11-25,2024-11-05", "lists").steps)


@pins("drop-unparsable")
def test_drop_unparsable_answers_a_line_that_is_not_json_with_nothing() -> None:
    plain = server(f"modern:{MODERN}").unparsable("Expecting value")
    assert plain.replies == [{"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error: Expecting value"}}]
    srv = server("legacy:2025-11-25+drop-unparsable")
    reaction = srv.unparsable("Expecting value")
    assert reaction.replies == [] and not reaction.exit
    assert "result" in only_reply(srv, initialize(1, "2025-11-25"))  # it carries on


@pins("outlives-stdin")
def test_outlives_stdin_is_a_policy_the_stdio_edge_reads() -> None:
    assert server("legacy:2025-11-25+outlives-stdin").policy.outlives_stdin
    assert not server("legacy:2025-11-25").policy.outlives_stdin


# -- clients -----------------------------------------------------------------------------------

@pins("strict-results", "no-result-type", "no-cache-hints")
@pytest.mark.parametrize(("srv", "got"), [
    (f"modern:{MODERN}+no-result-type", "invalid result (tools/list result lacks resultType)"),
    (f"modern:{MODERN}+no-cache-hints",
     "invalid result (tools/list result lacks cacheScope, ttlMs)"),
    (f"{DUAL}+no-result-type", "invalid result (tools/list result lacks resultType)"),
])
@pytest.mark.parametrize("client", [f"modern:{MODERN}+discover+strict-results",
                                    f"{DUAL}+strict-results"])
def test_strict_results_accepts_discover_and_fails_the_request(srv: str, got: str,
                                                               client: str) -> None:
    record = simulate(client, srv, "lists")
    assert record.session.status == "ok" and record.revision == MODERN
    assert record.status == "failed" and record.failed_step == "list tools"  # then fails
    first = record.steps[0]
    assert (first.name, first.ok, first.got) == ("list tools", False, got)
    plain = simulate(without(client, "strict-results"), srv, "lists")
    assert all(st.ok for st in plain.steps)


@pins("strict-results")
def test_strict_results_reads_legacy_results_as_before() -> None:
    record = simulate(f"{DUAL}+strict-results", "legacy:2025-11-25", "lists")
    assert record.revision == "2025-11-25" and all(st.ok for st in record.steps)
    assert all(st.ok for st in simulate(f"{DUAL}+strict-results", DUAL, "lists").steps)


@pins("strict", "no-result-type", "no-cache-hints")
@pytest.mark.parametrize(("srv", "message"), [
    (f"modern:{MODERN}+no-result-type", "strict client: tools/list result lacks resultType"),
    (f"modern:{MODERN}+no-cache-hints",
     "strict client: tools/list result lacks cacheScope, ttlMs"),
])
@pytest.mark.parametrize("discover", [False, True])
def test_strict_client_fails_a_result_without_required_fields(srv: str, message: str,
                                                              discover: bool) -> None:
    client = f"modern:{MODERN}+strict" + ("+discover" if discover else "")
    record = simulate(client, srv)
    assert record.status == "failed" and record.steps == []
    assert record.session.reason == message.replace(
        "tools/list", "server/discover" if discover else "tools/list")
    assert simulate(client.replace("+strict", ""), srv).status == "ok"


@pins("strict")
def test_strict_client_is_content_with_a_conforming_server() -> None:
    for srv in (f"modern:{MODERN}", DUAL, "legacy:2025-11-25"):
        client = f"{DUAL}+strict" if srv.startswith("legacy") else f"modern:{MODERN}+strict"
        assert simulate(client, srv).status == "ok", srv


@pins("fallback-32601")
@pytest.mark.parametrize(("srv", "ok", "reason"), [
    ("legacy:2025-11-25", True, ""),
    ("legacy:2025-11-25+unknown-32602", False,
     "probe got error -32602; this client falls back only on -32601"),
    ("legacy:2025-11-25+silent", False,
     "probe got timeout after 3000 ms; this client falls back only on -32601"),
    (f"modern:{MODERN}", True, ""),
])
def test_fallback_32601_gives_up_on_anything_but_32601(srv: str, ok: bool, reason: str) -> None:
    record = simulate(f"{DUAL}+fallback-32601", srv)
    assert (record.status == "ok") is ok
    assert record.session.reason == reason
    if not ok:
        assert simulate(DUAL, srv).status == "ok"  # a client that follows the spec gets through


@pins("fallback-denylist")
@pytest.mark.parametrize(("code", "supported", "quirk_path", "plain_ok"), [
    (-32022, ["2025-11-25", MODERN], [f"discover {MODERN}", "error -32022", f"retry {MODERN}",
                                      f"discover {MODERN}", "error -32022",
                                      "initialize 2025-11-25", "accepted 2025-11-25"], False),
    (-32022, ["2025-11-25"], [f"discover {MODERN}", "error -32022", "initialize 2025-11-25",
                              "accepted 2025-11-25"], False),
    (-32022, ["2099-01-01"], [f"discover {MODERN}", "error -32022"], False),
    (-32021, None, [f"discover {MODERN}", "error -32021", "initialize 2025-11-25",
                    "accepted 2025-11-25"], False),
    (-32601, None, [f"discover {MODERN}", "error -32601", "initialize 2025-11-25",
                    "accepted 2025-11-25"], True),
])
def test_fallback_denylist_ends_only_on_a_disjoint_modern_32022(
        code: int, supported: list[str] | None, quirk_path: list[str], plain_ok: bool) -> None:
    """Python mcp 2.x auto mode: a -32022 naming a handshake revision, or any other error,
    falls back to initialize (after one re-probe at a shared modern revision)."""
    from mcp_skew.simulator import MemoryLink, SimClient
    from mcp_skew.simulator._server import Reaction

    class ScriptedProbe(SimServer):
        def receive(self, message: dict[str, Any]) -> Reaction:
            if message.get("method") != "server/discover":
                return SimServer.receive(self, message)
            data = None if supported is None else {"supported": supported,
                                                   "requested": MODERN}
            return Reaction(replies=[_wire.error(message["id"], code, "scripted", data)])

    def negotiate(client: str) -> Any:
        spec = parse_peer("legacy:2025-11-25", "server")
        link = MemoryLink(lambda: ScriptedProbe(spec))
        return SimClient(parse_peer(client, "client")).negotiate(link)

    with_quirk = negotiate(f"{DUAL}+fallback-denylist")
    assert with_quirk.path == quirk_path
    assert with_quirk.status == ("ok" if quirk_path[-1].startswith("accepted") else "failed")
    assert (negotiate(DUAL).status == "ok") is plain_ok


def _probe_answered_with(code: int, data: Any) -> ScriptedLink:
    """A server that answers every modern request with one error and accepts initialize."""

    def answer(message: dict[str, Any]) -> Event:
        if message["method"] == "initialize":
            body = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {},
                    "serverInfo": _wire.implementation("scripted")}
            return Reply({"jsonrpc": "2.0", "id": message["id"], "result": body})
        return Reply(_wire.error(message["id"], code, "modern error", data))

    return ScriptedLink(answer)


#: (probe error code, its data, what a fallback-denylist client does)
DENYLIST = [
    (-32021, {"requiredCapabilities": {"sampling": {}}}, "falls back"),
    (-32020, None, "falls back"),
    (-32022, {"supported": ["2025-11-25"], "requested": MODERN}, "falls back"),
    (-32022, {"supported": "2025-11-25", "requested": MODERN}, "falls back"),
    (-32022, {"supported": ["2099-01-01"], "requested": MODERN}, "stays modern"),
    (-32022, {"supported": [MODERN], "requested": MODERN}, "re-probes once"),
]


@pins("fallback-denylist")
@pytest.mark.parametrize(("code", "data", "does"), DENYLIST,
                         ids=[f"{c} {d} {what}" for c, d, what in DENYLIST])
def test_fallback_denylist_falls_back_on_all_but_a_modern_only_32022(code: int, data: Any,
                                                                       does: str) -> None:
    link = _probe_answered_with(code, data)
    client = SimClient(parse_peer(f"{DUAL}+fallback-denylist", "client"))
    session = client.negotiate(link)
    methods = [e.message["method"] for e in link.transcript.entries if e.dir == "c2s"]
    if does == "falls back":
        assert methods[:2] == ["server/discover", "initialize"]
        assert session.status == "ok" and session.era is Era.LEGACY and session.fell_back
    elif does == "stays modern":
        assert methods == ["server/discover"] and session.status == "failed"
    else:
        assert methods == ["server/discover", "server/discover"]
        assert session.path == [f"discover {MODERN}", "error -32022", f"retry {MODERN}",
                                f"discover {MODERN}", "error -32022"]
        assert session.status == "failed"
    # a client that follows the spec never falls back on a recognised modern error
    link = _probe_answered_with(code, data)
    plain = SimClient(parse_peer(DUAL, "client")).negotiate(link)
    assert [e.message["method"] for e in link.transcript.entries if e.dir == "c2s"] == [
        "server/discover"]
    assert plain.status == "failed"


@pins("exact")
def test_exact_refuses_a_counter_offer_it_supports() -> None:
    record = simulate("legacy:2025-11-25,2025-06-18+exact", "legacy:2025-06-18")
    assert record.status == "failed"
    assert record.session.path == ["initialize 2025-11-25", "counter-offer 2025-06-18",
                                   "disconnect"]
    assert record.session.reason == ("server answered 2025-06-18, this client demands the exact "
                                     "revision it asked for")
    same = simulate("legacy:2025-11-25,2025-06-18+exact", "legacy:2025-11-25")
    assert same.status == "ok" and same.revision == "2025-11-25"


@pins("exact")
def test_exact_dual_client_after_fallback() -> None:
    record = simulate(f"dual:{MODERN},2025-11-25,2025-06-18+exact", "legacy:2025-06-18")
    assert record.status == "failed" and record.session.path[-1] == "disconnect"


@pins("discover", "lenient")
def test_discover_first_makes_the_failure_against_legacy_deterministic() -> None:
    """stdio.mdx: a modern-only client SHOULD probe, or a lenient server runs tools/list."""
    inline = simulate(f"modern:{MODERN}", "legacy:2025-11-25+lenient")
    probing = simulate(f"modern:{MODERN}+discover", "legacy:2025-11-25+lenient")
    assert inline.session.path[0] == f"tools/list {MODERN}"
    assert inline.session.path[-1] == "served under legacy rules"
    assert probing.session.path == [f"discover {MODERN}", "error -32601"]
    assert probing.status == "failed"
    assert "modern-only client cannot talk" in probing.session.reason


@pins("discover")
def test_discover_learns_the_server_capabilities() -> None:
    record = simulate(f"modern:{MODERN}+discover", f"modern:{MODERN}")
    assert record.transcript.entries[0].message["method"] == "server/discover"
    assert record.session.server_capabilities == {"tools": {}, "resources": {}}


@pins("probe-timeout")
@pytest.mark.parametrize("ms", [100, 3000, 9000])
def test_probe_timeout_sets_the_wait_for_server_discover(ms: int) -> None:
    record = simulate(f"{DUAL}+probe-timeout={ms}", "legacy:2025-11-25+silent", "handshake")
    assert record.session.path[1] == f"timeout after {ms} ms"
    assert record.transcript.entries[1].t_ms == ms  # initialize leaves at the timeout


@pins("probe-timeout", "slow")
def test_probe_timeout_longer_than_a_slow_start_keeps_a_dual_client_modern() -> None:
    record = simulate(f"{DUAL}+probe-timeout=6000", f"modern:{MODERN}+slow=5000", "handshake")
    assert record.session.path == [f"discover {MODERN}", f"accepted {MODERN}"]


@pins("probe-timeout")
def test_probe_timeout_bounds_a_modern_clients_first_request() -> None:
    """A modern client waits ``request_timeout_ms`` (10 s) for its first request, not the probe."""
    record = simulate(f"modern:{MODERN}+probe-timeout=100", "legacy:2025-11-25+silent")
    assert record.session.path[-1] == "timeout after 10000 ms"


def _upgraded(client: str, before: str, after: str) -> tuple[RunRecord, RunRecord]:
    """The client against ``before``, then, restarted with the caches it kept, against
    ``after`` under the same server key (the server upgraded between the two runs)."""
    cache = ClientCache()
    first = run(parse_peer(client, "client"), parse_peer(before, "server"), "default",
                cache=cache, server_id="the server")
    again = run(parse_peer(client, "client"), parse_peer(after, "server"), "default",
                cache=cache, server_id="the server")
    return first, again


@pins("keeps-era")
def test_keeps_era_stays_legacy_after_the_server_was_upgraded() -> None:
    first, again = _upgraded(f"{DUAL}+keeps-era", "legacy:2025-11-25", DUAL)
    assert first.revision == "2025-11-25"
    assert again.session.path == ["initialize 2025-11-25", "accepted 2025-11-25"]
    assert again.session.era is Era.LEGACY and again.status == "ok"
    _, plain = _upgraded(DUAL, "legacy:2025-11-25", DUAL)
    assert plain.session.path == [f"discover {MODERN}", f"accepted {MODERN}"]  # a fresh probe


@pins("keeps-era")
def test_keeps_era_probes_when_the_kept_decision_fails() -> None:
    _, again = _upgraded(f"{DUAL}+keeps-era", "legacy:2025-11-25", f"modern:{MODERN}")
    assert again.session.path == ["initialize 2025-11-25", "error -32601", f"discover {MODERN}",
                                  f"accepted {MODERN}"]
    assert again.revision == MODERN and all(st.ok for st in again.steps)


@pins("keeps-era")
def test_keeps_era_initializes_again_when_the_server_changes_under_it() -> None:
    server = parse_peer("legacy:2025-11-25", "server")
    upgraded = [(100_000, parse_peer(DUAL, "server"))]
    kept = run(parse_peer(f"{DUAL}+keeps-era", "client"), server, "long", server_changes=upgraded)
    assert kept.session.path[-3:] == ["cached era legacy failed on tools/list",
                                      "initialize 2025-11-25", "accepted 2025-11-25"]
    assert kept.revision == "2025-11-25" and all(st.ok for st in kept.steps)
    plain = run(parse_peer(DUAL, "client"), server, "long", server_changes=upgraded)
    assert plain.revision == MODERN


@pins("keeps-era")
def test_keeps_era_changes_nothing_in_one_run() -> None:
    for srv in ("legacy:2025-11-25", DUAL, f"modern:{MODERN}"):
        kept = simulate(f"{DUAL}+keeps-era", srv)
        plain = simulate(DUAL, srv)
        assert kept.session.path == plain.session.path and kept.revision == plain.revision


# -- quirks over Streamable HTTP (tests/unit/test_http_quirks.py has more) -------------------

def over_http(client: str, server: str, scenario: str = "handshake") -> RunRecord:
    return simulate(client, server, scenario, transport="http")


@pins("not-initialized-32000")
def test_not_initialized_32000_refuses_the_probe_and_the_dual_client_falls_back() -> None:
    record = over_http(DUAL, "legacy:2025-11-25+not-initialized-32000")
    assert record.session.path == [
        f"discover {MODERN}", "error -32000", "http: no modern error in the answer, fall back",
        "initialize 2025-11-25", "accepted 2025-11-25"]
    answer = next(e for e in record.transcript.entries if e.dir == "s2c")
    assert answer.http is not None and answer.http["status"] == 400
    assert answer.message["error"] == {"code": -32000,
                                       "message": "Bad Request: Server not initialized"}
    # over stdio the quirk does nothing: the server's unknown-request answer
    assert simulate(DUAL, "legacy:2025-11-25+not-initialized-32000", "handshake").session.path \
        == simulate(DUAL, "legacy:2025-11-25", "handshake").session.path


@pins("not-initialized-32000")
def test_not_initialized_32000_wins_over_silence_over_http() -> None:
    """The transport refuses the request before the server could stay silent."""
    record = over_http(DUAL, "legacy:2025-11-25+silent+not-initialized-32000")
    assert record.status == "ok" and record.session.path[1] == "error -32000"


@pins("empty-400")
def test_empty_400_is_read_as_no_modern_error() -> None:
    record = over_http(DUAL, "legacy:2025-11-25+empty-400")
    assert record.session.path[:3] == [f"discover {MODERN}", "error -32600",
                                       "http: no modern error in the answer, fall back"]
    assert record.status == "ok" and record.revision == "2025-11-25"
    bare = next(n for n in record.transcript.notes if n.kind == "http")
    assert bare.text.startswith("HTTP 400 Bad Request, no body")
    assert simulate(DUAL, "legacy:2025-11-25+empty-400", "handshake").session.path[1] \
        == "error -32601"


@pins("empty-400", "not-initialized-32000")
def test_empty_400_outranks_not_initialized_32000() -> None:
    for spec in ("legacy:2025-11-25+empty-400+not-initialized-32000",
                 "legacy:2025-11-25+not-initialized-32000+empty-400"):
        assert parse_peer(spec, "server").server_policy.http_presession == "empty"


@pins("no-get")
def test_no_get_closes_the_http_sse_endpoint() -> None:
    record = over_http("legacy:2024-11-05", "legacy:2025-11-25,2024-11-05+no-get")
    assert record.session.path == ["initialize 2024-11-05",
                                   "http+sse: GET got HTTP 405, no SSE stream", "error -32601"]
    plain = over_http("legacy:2024-11-05", "legacy:2025-11-25,2024-11-05")
    assert plain.session.path == ["initialize 2024-11-05", "http+sse: endpoint /messages",
                                  "accepted 2024-11-05"]


@pins("no-get")
def test_no_get_makes_a_2024_11_05_only_server_speak_streamable_http() -> None:
    record = over_http("legacy:2025-11-25,2024-11-05", "legacy:2024-11-05+no-get")
    assert record.session.path == ["initialize 2025-11-25", "counter-offer 2024-11-05",
                                   "accepted 2024-11-05"]


@pins("post-first")
def test_post_first_posts_initialize_before_any_get() -> None:
    record = over_http("legacy:2024-11-05+post-first", "legacy:2025-11-25,2024-11-05+no-get")
    assert record.session.path == ["initialize 2024-11-05", "accepted 2024-11-05"]
    first = record.transcript.entries[0]
    assert first.http is not None and first.http["method"] == "POST"
    # against an HTTP+SSE-only server it falls back to the GET on the 405
    old = over_http("legacy:2024-11-05+post-first", "legacy:2024-11-05")
    assert old.session.path == ["initialize 2024-11-05",
                                "http: HTTP 405 to initialize, try HTTP+SSE",
                                "http+sse: endpoint /messages", "accepted 2024-11-05"]
    # over stdio it does nothing
    assert simulate("legacy:2024-11-05+post-first", "legacy:2024-11-05", "handshake"
                    ).session.path == ["initialize 2024-11-05", "accepted 2024-11-05"]



@pins("session-expiry")
def test_session_expiry_makes_the_client_start_a_new_session() -> None:
    """404 to a request in a session: the client initializes again without a session id and
    sends the request again (2025-03-26 and later basic/transports.mdx §Session Management)."""
    record = over_http("legacy:2025-11-25", "legacy:2025-11-25+session-expiry=2", "default")
    assert record.status == "ok" and all(s.ok for s in record.steps)
    lost = [s for s in record.session.path if s.kind == "session"]
    assert lost[:2] == ["http: HTTP 404 to tools/call in the session, start a new session",
                        "http: new session, initialize 2025-11-25 accepted"]
    assert lost[0].code == 404 and lost[1].revision == "2025-11-25"
    inits = [e for e in record.transcript.entries
             if e.dir == "c2s" and e.message.get("method") == "initialize"]
    assert len(inits) == 1 + len(lost) // 2
    assert all("Mcp-Session-Id" not in (e.http or {}).get("headers", {}) for e in inits)
    # over stdio it does nothing
    assert simulate("legacy:2025-11-25", "legacy:2025-11-25+session-expiry=2").session.path \
        == ["initialize 2025-11-25", "accepted 2025-11-25"]


@pins("session-expiry")
def test_session_expiry_takes_a_count() -> None:
    assert parse_peer("legacy:2025-11-25+session-expiry=3", "server"
                      ).server_policy.http_session_expiry == 3
    for bad in ("session-expiry", "session-expiry=0", "session-expiry=x"):
        with pytest.raises(ValueError):
            parse_peer(f"legacy:2025-11-25+{bad}", "server")


# -- caching: the server's ttlMs, a client that ignores it ------------------------------------


@pins("ttl")
@pytest.mark.parametrize(("ttl", "lists"), [("", 2), ("+ttl=0", 4), ("+ttl=20000", 3),
                                            ("+ttl=100000", 1)])
def test_ttl_sets_how_long_a_caching_client_reuses_the_list(ttl: str, lists: int) -> None:
    """cache scenario: the negotiation's tools/list at 10 ms, then lists at 0, 30 s and 90 s.
    60 s (the default): reused at 0 and 30 s, asked again at 90 s; 0: never reused; 20 s:
    reused at 0, asked at 30 s (expired at 20010 ms), asked at 90 s; 100 s: reused throughout."""
    record = simulate(f"modern:{MODERN}", f"modern:{MODERN}{ttl}", "cache")
    assert record.status == "ok" and all(st.ok for st in record.steps)
    assert wire_count(record, "tools/list") == lists
    hints = [e.message["result"]["ttlMs"] for e in record.transcript.entries
             if e.dir == "s2c" and "tools" in e.message.get("result", {})]
    assert set(hints) == {int(ttl.partition("=")[2] or 60000)}


@pins("ttl")
@pytest.mark.parametrize("bad", ["ttl", "ttl=", "ttl=abc", "ttl=-5", "ttl=1.5", "ttl=\u00b2",
                                 "ttl=1e3"])
def test_ttl_takes_whole_milliseconds(bad: str) -> None:
    with pytest.raises(UsageError, match="ttl") as err:
        parse_peer(f"modern:{MODERN}+{bad}", "server")
    assert "\n" not in str(err.value)


@pins("ttl")
def test_ttl_is_for_servers_that_send_caching_hints() -> None:
    with pytest.raises(UsageError, match="modern/dual servers, not legacy"):
        parse_peer("legacy:2025-11-25+ttl=5", "server")


@pins("no-cache")
def test_no_cache_sends_every_list_whatever_the_ttl() -> None:
    caching = simulate(f"modern:{MODERN}", f"modern:{MODERN}+ttl=100000", "cache")
    ignoring = simulate(f"modern:{MODERN}+no-cache", f"modern:{MODERN}+ttl=100000", "cache")
    assert wire_count(caching, "tools/list") == 1
    assert wire_count(ignoring, "tools/list") == 4
    assert not any(n.kind == "cache" and "hit" in n.text for n in ignoring.transcript.notes)
    assert [st.got for st in ignoring.steps] == ["result"] * 4


@pins("no-cache")
def test_no_cache_changes_nothing_outside_caching_scenarios() -> None:
    for scenario in ("default", "lists"):
        a = simulate(f"modern:{MODERN}+no-cache", f"modern:{MODERN}", scenario)
        b = simulate(f"modern:{MODERN}", f"modern:{MODERN}", scenario)
        assert a.transcript.records() == b.transcript.records()


# -- authorization (scenario auth) --------------------------------------------------------------

def auth_path(client: str, srv: str) -> str:
    record = simulate(client, srv, "auth", transport="http")
    return next(s for s in record.session.path if s.kind == "auth")


@pins("auth")
def test_auth_layout_chooses_what_the_server_publishes() -> None:
    assert "PRM /.well-known/oauth-protected-resource/mcp 200" in auth_path(
        "legacy:2025-11-25", "legacy:2025-11-25+auth=prm")
    assert "PRM /.well-known/oauth-protected-resource/mcp 404 -> PRM " \
        "/.well-known/oauth-protected-resource 200" in auth_path(
            "legacy:2025-11-25", "legacy:2025-11-25+auth=prm-root")
    assert "default endpoints" in auth_path("legacy:2025-03-26", "legacy:2025-03-26+auth=defaults")


@pins("no-iss", "wrong-iss")
def test_iss_quirks_fail_a_client_that_validates_iss_only() -> None:
    for quirk in ("no-iss", "wrong-iss"):
        assert auth_path(f"modern:{MODERN}", f"modern:{MODERN}+{quirk}").startswith("auth failed")
        assert auth_path("legacy:2025-11-25", f"{DUAL}+{quirk}").startswith("auth: ")


@pins("dcr-native")
def test_dcr_native_registers_as_a_native_client_whatever_the_revision() -> None:
    server = "legacy:2025-11-25+auth=prm+dcr-app-type"
    assert simulate("legacy:2025-11-25+dcr-only", server, "auth", transport="http"
                    ).status == "failed"
    assert simulate("legacy:2025-11-25+dcr-only+dcr-native", server, "auth",
                    transport="http").status == "ok"


@pins("openid-scope", "strict-scopes")
def test_an_openid_fallback_scope_is_refused_where_the_server_knows_only_its_own() -> None:
    """With no scope to be found a client omits scope (2025-11-25 basic/authorization.mdx
    §Scope Selection Strategy); mcp-remote asks for openid email profile, which an
    authorization server that knows only the scopes it publishes refuses (RFC 6749
    §4.1.2.1 invalid_scope)."""
    strict = "legacy:2025-11-25+auth=prm+strict-scopes"
    assert simulate("legacy:2025-11-25+dcr-only", strict, "auth", transport="http"
                    ).status == "ok"
    refused = simulate("legacy:2025-11-25+dcr-only+openid-scope", strict, "auth",
                       transport="http")
    assert refused.status == "failed" and "invalid_scope" in (refused.reason or "")
    assert simulate("legacy:2025-11-25+dcr-only+openid-scope", "legacy:2025-11-25+auth=prm",
                    "auth", transport="http").status == "ok"
    # where the server publishes scopes the challenge's is asked for, not the fallback
    scoped = "legacy:2025-11-25+auth=scoped+strict-scopes"
    assert simulate("legacy:2025-11-25+dcr-only+openid-scope", scoped, "auth",
                    transport="http").failed_step == "call a tool"


@pins("reauthorize-same-scope")
def test_reauthorize_same_scope_asks_the_first_scope_again_once() -> None:
    """A 403 insufficient_scope: the spec's client asks for the challenge's scopes
    (2025-11-25 basic/authorization.mdx §Step-Up Authorization Flow); this one authorizes
    again with the scope it asked first, once, and the retry gets the same 403."""
    server = "legacy:2025-11-25+auth=scoped"
    quirky = simulate("legacy:2025-11-25+dcr-only+reauthorize-same-scope", server, "auth",
                      transport="http")
    steps = [str(s) for s in quirky.session.path if str(s).startswith("step-up")]
    assert steps == ["step-up failed: 403 insufficient_scope (scope mcp:tools) -> authorize "
                     "again, scope mcp:read -> authorize 302 -> token 200 -> retry 403"]
    assert quirky.failed_step == "call a tool" and "(at most 1)" in (quirky.reason or "")
    plain = simulate("legacy:2025-11-25+dcr-only", server, "auth", transport="http")
    assert "step-up scope mcp:tools" in " ".join(str(s) for s in plain.session.path)


@pins("dcr-app-type", "as-moves")
def test_registration_quirks_fail_a_client_without_the_2026_rules_only() -> None:
    """2026-07-28 client-registration.mdx §Application Type and Redirect URI Constraints,
    §Authorization Server Binding (tests/unit/test_auth_registration.py has the cases)."""
    for quirk in ("dcr-app-type", "as-moves"):
        older = simulate("legacy:2025-11-25+dcr-only", f"legacy:2025-11-25+auth=prm+{quirk}",
                         "auth", transport="http")
        assert older.status == "failed", quirk
        newer = simulate(f"modern:{MODERN}+dcr-only", f"modern:{MODERN}+auth=prm+{quirk}",
                         "auth", transport="http")
        assert newer.status == "ok", (quirk, newer.reason)


@pins("auth-origin-fallback", "rfc8414-only", "dcr-only")
def test_client_discovery_quirks_narrow_or_widen_the_search() -> None:
    assert auth_path("legacy:2025-06-18+auth-origin-fallback", "legacy:2025-06-18+auth=origin"
                     ).startswith("auth: 401 -> AS metadata /.well-known/oauth-authorization-server")
    assert "openid-configuration" not in auth_path("legacy:2025-11-25+rfc8414-only",
                                                   "legacy:2025-11-25+auth=oidc")
    assert auth_path("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=no-dcr"
                     ).startswith("auth failed")


@pins("client-credentials")
def test_client_credentials_skip_registration_and_the_authorization_request() -> None:
    path = auth_path("legacy:2025-11-25+client-credentials", "legacy:2025-11-25")
    assert "register" not in path and "authorize" not in path and "token 200" in path


@pins("auth-fallback")
def test_auth_fallback_reads_a_401_as_a_legacy_server() -> None:
    record = simulate(f"{DUAL}+dcr-only+auth-fallback", "legacy:2025-11-25+auth=no-dcr", "auth",
                      transport="http")
    assert any(s.kind == "rule" and "quirk auth-fallback" in s for s in record.session.path)
    plain = simulate(f"{DUAL}+dcr-only", "legacy:2025-11-25+auth=no-dcr", "auth",
                     transport="http")
    assert "http: HTTP 401 is an authorization failure, not a legacy server" in \
        plain.session.path


@pins("resource-with-prm-only", "default-endpoints")
def test_the_python_clients_legacy_path_gets_a_token_without_audience() -> None:
    """Seen with the Python mcp 1.30 client (tests/interop/test_auth_realpeer.py)."""
    lenient = "legacy:2025-06-18+auth-origin-fallback"
    assert auth_path(lenient, "legacy:2025-06-18+auth=origin").endswith("retry 200")
    assert auth_path(f"{lenient}+resource-with-prm-only", "legacy:2025-06-18+auth=origin"
                     ).endswith("retry 401")
    client = "legacy:2025-11-25,2025-03-26+auth-origin-fallback"
    assert "default endpoints" in auth_path(f"{client}+default-endpoints",
                                            "legacy:2025-03-26+auth=defaults")
    assert "default endpoints" not in auth_path(client, "legacy:2025-03-26+auth=defaults")
# -- a DiscoverResult that offers no modern revision in common ------------------------------

@pins("discover-legacy")
def test_discover_legacy_lists_only_the_legacy_revisions() -> None:
    reply = only_reply(server(f"{DUAL},2025-06-18+discover-legacy"), modern(1, "server/discover"))
    assert reply["result"]["supportedVersions"] == ["2025-11-25", "2025-06-18"]
    plain = only_reply(server(f"{DUAL},2025-06-18"), modern(1, "server/discover"))
    assert plain["result"]["supportedVersions"] == [MODERN]


@pins("discover-legacy", "discover-fallback")
def test_a_legacy_advertisement_by_the_spec_and_by_the_sdks() -> None:
    """The spec: choose a listed revision both support (here through initialize), else fail;
    the SDKs (discover-fallback): fall back to initialize with the newest, whatever is listed."""
    srv = "dual:2026-07-28,2025-06-18+discover-legacy"
    spec = simulate(f"dual:{MODERN},2025-11-25,2025-06-18", srv, "handshake")
    assert spec.session.path == [f"discover {MODERN}", "choose 2025-06-18",
                                 "initialize 2025-06-18", "accepted 2025-06-18"]
    sdk = simulate(f"dual:{MODERN},2025-11-25,2025-06-18+discover-fallback", srv, "handshake")
    assert sdk.session.path == [f"discover {MODERN}", "no modern revision offered: fall back",
                                "initialize 2025-11-25", "counter-offer 2025-06-18",
                                "accepted 2025-06-18"]
    none = simulate(f"dual:{MODERN},2025-11-25", srv, "handshake")
    assert none.status == "failed" and "no revision in common" in none.reason
    assert simulate(f"dual:{MODERN},2025-11-25+discover-fallback", srv,
                    "handshake").reason == "server answered 2025-06-18, which this client does " \
                                            "not support"


# -- era-gated methods after connecting -------------------------------------------------------

@pins("logging")
def test_logging_declares_the_capability_and_answers_set_level_in_the_legacy_era() -> None:
    srv = server(f"{DUAL}+logging")
    reply = only_reply(srv, initialize(1, "2025-11-25"))
    assert reply["result"]["capabilities"]["logging"] == {}
    set_level = legacy(2, "logging/setLevel", {"level": "debug"})
    assert "result" in only_reply(srv, set_level)
    plain = server(DUAL)
    only_reply(plain, initialize(1, "2025-11-25"))
    assert only_reply(plain, set_level)["error"]["code"] == -32601  # not declared
    found = only_reply(server(f"{DUAL}+logging"), modern(1, "server/discover"))
    assert "logging" in found["result"]["capabilities"]
    removed = only_reply(server(f"{DUAL}+logging"), modern(2, "logging/setLevel"))
    assert removed["error"]["code"] == -32601  # 2026-07-28 has no logging/setLevel


@pins("legacy-set-level", "logging")
def test_legacy_set_level_fails_the_connect_in_the_modern_era() -> None:
    """inspector issue 1990: every CLI command failed against a 2026-07-28 server that
    declares logging."""
    modern_run = simulate(f"{DUAL}+legacy-set-level", f"{DUAL}+logging", "lists")
    assert modern_run.status == "failed" and "logging/setLevel" in modern_run.reason
    legacy_run = simulate("legacy:2025-11-25+legacy-set-level", f"{DUAL}+logging", "lists")
    assert legacy_run.status == "ok"
    assert legacy_run.session.path[-2:] == ["logging/setLevel 2025-11-25", "result"]
    assert simulate(f"{DUAL}+legacy-set-level", DUAL, "lists").status == "ok"  # no logging


@pins("era-set-level")
def test_era_set_level_sets_the_level_in_the_legacy_era_only() -> None:
    """The Inspector 2.12 CLI after the fix of inspector issue 1990: logging/setLevel where
    the server declares logging and the era is legacy; nothing in the modern era."""
    modern_run = simulate(f"{DUAL}+era-set-level", f"{DUAL}+logging", "lists")
    assert modern_run.status == "ok"
    assert "logging/setLevel" not in " ".join(map(str, modern_run.session.path))
    legacy_run = simulate(f"{DUAL}+era-set-level", "legacy:2025-11-25+logging", "lists")
    assert legacy_run.status == "ok"
    assert legacy_run.session.path[-2:] == ["logging/setLevel 2025-11-25", "result"]
    plain = simulate(f"{DUAL}+era-set-level", "legacy:2025-11-25", "lists")
    assert "logging/setLevel" not in " ".join(map(str, plain.session.path))  # no logging


def test_the_era_gated_scenario_expects_32601_where_the_era_removed_the_method() -> None:
    modern_run = simulate(DUAL, DUAL, "era-gated")
    assert [(st.name, st.expected, st.got) for st in modern_run.steps] == [
        ("ping", "error -32601", "error -32601"), ("list tools", "result", "result")]
    legacy_run = simulate("legacy:2025-11-25", DUAL, "era-gated")
    assert all(st.ok and st.expected == "result" for st in legacy_run.steps)


# -- tool definitions clients reject ----------------------------------------------------------

@pins("dialect-2020-12-only", "declared-dialects", "needs-structured-content",
      "checks-structured-content", "draft-07-output-schema", "draft-04-output-schema",
      "no-structured-content")
def test_call_quirks_refuse_what_the_sdk_refuses() -> None:
    """@modelcontextprotocol/client 2.0.0-beta.5 refuses a draft-07 outputSchema, 2.0.0-2.4.0
    read it and refuse draft-04 (PR 2534); the TypeScript clients' callTool refuses a result
    without structuredContent (-32600) or with one that does not match (-32602)."""
    from mcp_skew.probe._calls import call_findings, dialect_findings
    from mcp_skew.probe._exchanges import Exchange

    beta = replace(parse_peer("legacy:2025-11-25+dialect-2020-12-only", "client"), label="beta")
    after = replace(parse_peer("legacy:2025-11-25+declared-dialects+needs-structured-content"
                               "+checks-structured-content", "client"), label="after")
    plain = replace(parse_peer("legacy:2025-11-25", "client"), label="plain")
    named = (beta, after, plain)
    profile = REGISTRY.get("2025-11-25")

    def lists(uri: str) -> dict[str, Any]:
        return {"name": "t", "inputSchema": {"type": "object"},
                "outputSchema": {"$schema": uri, "type": "object"}}

    draft7 = dialect_findings([lists("http://json-schema.org/draft-07/schema#")], profile, 3,
                              named)
    assert [f.code for f in draft7] == ["output-schema-dialect"]
    assert beta.name in draft7[0].message and after.name not in draft7[0].message
    draft4 = dialect_findings([lists("http://json-schema.org/draft-04/schema#")], profile, 3,
                              named)
    assert beta.name in draft4[0].message and after.name in draft4[0].message
    assert plain.name not in draft4[0].message
    assert not dialect_findings([lists("https://json-schema.org/draft/2020-12/schema")],
                                profile, 3, named)
    tool = {"name": "t", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "required": ["n"],
                             "properties": {"n": {"type": "integer"}}}}

    def answer(result: dict[str, Any]) -> Exchange:
        return Exchange(4, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                            "params": {"name": "t", "arguments": {}}}, 0, "2025-11-25",
                        answer_index=5, answer={"jsonrpc": "2.0", "id": 2, "result": result},
                        fate="answered")

    text = [{"type": "text", "text": "{}"}]
    missing = call_findings(answer({"content": text}), tool, {}, profile, named)
    assert [f.code for f in missing] == ["structured-content-missing"]
    assert after.name in missing[0].message and beta.name not in missing[0].message
    wrong = call_findings(answer({"content": text, "structuredContent": {"n": "x"}}), tool, {},
                          profile, named)
    assert [f.code for f in wrong] == ["structured-content-mismatch"]
    assert after.name in wrong[0].message
    assert not call_findings(answer({"content": text, "structuredContent": {"n": 1}}), tool, {},
                             profile, named)
    # the simulator plays them on the default scenario's "call a tool" (where the revision
    # has outputSchema: a 2025-03-26 pair lists none, so nothing is refused)
    for client, srv, got in [
            ("dialect-2020-12-only", "draft-07-output-schema",
             "refused before sending: outputSchema declares draft-07 (-32602)"),
            ("declared-dialects", "draft-04-output-schema",
             "refused before sending: outputSchema declares draft-04 (-32602)"),
            ("needs-structured-content", "no-structured-content",
             "error -32600 (an outputSchema but no structuredContent)")]:
        refused = simulate(f"legacy:2025-11-25+{client}", f"legacy:2025-11-25+{srv}")
        assert refused.failed_step == "call a tool" and refused.steps[1].got == got
        assert simulate("legacy:2025-11-25", f"legacy:2025-11-25+{srv}").status == "ok"
        assert simulate(f"legacy:2025-03-26+{client}", f"legacy:2025-03-26+{srv}").status == "ok"
    assert simulate("legacy:2025-11-25+declared-dialects",
                    "legacy:2025-11-25+draft-07-output-schema").status == "ok"


@pins("untyped-input-schema", "strict-tools")
def test_strict_tools_fails_a_list_with_an_untyped_input_schema() -> None:
    """server-filesystem 2025.1.14: tools without "type" in inputSchema; the TypeScript
    clients' ToolSchema refuses the list, the Python client reads it."""
    srv = server("legacy:2025-11-25+untyped-input-schema")
    only_reply(srv, initialize(1, "2025-11-25"))
    tools = only_reply(srv, legacy(2, "tools/list"))["result"]["tools"]
    assert tools and all("type" not in t["inputSchema"] for t in tools)
    strict = simulate("legacy:2025-11-25+strict-tools", "legacy:2025-11-25+untyped-input-schema",
                      "lists")
    assert strict.status == "failed" and strict.failed_step == "list tools"
    lenient = simulate("legacy:2025-11-25", "legacy:2025-11-25+untyped-input-schema", "lists")
    assert lenient.status == "ok"
    assert [f.code for f in lenient.findings] == ["tool-schema-not-object"]
    plain = simulate("legacy:2025-11-25+strict-tools", "legacy:2025-11-25", "lists")
    assert plain.status == "ok" and not plain.findings


# -- MCP-Protocol-Version on initialize (HTTP) ------------------------------------------------

@pins("checks-header-on-initialize", "header-on-initialize")
def test_a_version_header_on_initialize_meets_a_server_that_checks_it() -> None:
    """vercel/ai issue 14413 (Zapier), Effect-TS/effect PR 7388: the header names the asked
    revision before any is agreed, and a server that checks it refuses with 400."""
    client, srv = "legacy:2025-11-25,2025-06-18", "legacy:2025-06-18+checks-header-on-initialize"
    both = simulate(f"{client}+header-on-initialize", srv, "handshake", transport="http")
    assert both.status == "failed" and "Unsupported protocol version" in both.reason
    sent = [e for e in both.transcript.entries if e.dir == "c2s"]
    assert sent[0].http["headers"]["MCP-Protocol-Version"] == "2025-11-25"
    assert simulate(client, srv, "handshake", transport="http").revision == "2025-06-18"
    assert simulate(f"{client}+header-on-initialize", "legacy:2025-06-18", "handshake",
                    transport="http").revision == "2025-06-18"  # a server that ignores it


# -- HTTP sessions ----------------------------------------------------------------------------

@pins("missing-session-32600", "stateless-http", "drops-session-id")
def test_a_client_that_drops_the_session_works_only_with_a_stateless_server() -> None:
    """python-sdk PR 2950 (400 -32600 'Missing session ID'); datagouv-mcp PR 52's clients."""
    dropper = "legacy:2025-11-25+drops-session-id"
    refused = simulate(dropper, "legacy:2025-11-25+missing-session-32600", "lists",
                       transport="http")
    assert refused.status == "failed" and refused.failed_step == "list tools"
    assert refused.steps[0].got == "error -32600"
    sent = [e for e in refused.transcript.entries if e.dir == "c2s"][1:]
    assert sent and all("Mcp-Session-Id" not in e.http["headers"] for e in sent)
    stateless = simulate(dropper, "legacy:2025-11-25+stateless-http", "lists", transport="http")
    assert stateless.status == "ok" and all(st.ok for st in stateless.steps)
    answers = [e for e in stateless.transcript.entries if e.dir == "s2c"]
    assert all(not (e.http or {}).get("headers", {}).get("Mcp-Session-Id") for e in answers)
    keeper = simulate("legacy:2025-11-25", "legacy:2025-11-25+missing-session-32600", "lists",
                      transport="http")
    assert keeper.status == "ok"
    probe = simulate(DUAL, "legacy:2025-11-25+missing-session-32600", "handshake",
                     transport="http")
    assert probe.revision == "2025-11-25" and probe.mark == "era-fallback"  # no modern error


# -- time: latency, the waits of a client, and what they race ---------------------------------

@pins("latency")
def test_latency_delays_each_answer_and_keeps_the_server_busy() -> None:
    """Each request takes the server its latency: the answer comes after it, and a second
    request sent meanwhile waits for the first to be done."""
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25+latency=300", "lists")
    answers = [e.t_ms for e in record.transcript.entries if e.dir == "s2c"]
    assert answers[0] == 5 + 300 + 5
    assert all(later - earlier >= 300 for earlier, later in itertools.pairwise(answers))
    plain = simulate("legacy:2025-11-25", "legacy:2025-11-25", "lists")
    assert next(e.t_ms for e in plain.transcript.entries if e.dir == "s2c") == 10


@pins("latency", "slow")
def test_latency_is_added_to_the_cold_start_of_the_first_answer() -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25+slow=700+latency=100", "handshake")
    assert [e.t_ms for e in record.transcript.entries[:2]] == [0, 805]


@pins("connect-timeout")
@pytest.mark.parametrize(("cold", "outcome"), [
    (2000, ("ok", "direct")),  # the probe is answered in time
    (4000, ("ok", "era-fallback")),  # the probe times out (3 s), initialize fits in what is left
    (6000, ("failed", "failed")),  # initialize still unanswered when the 5 s run out
])
def test_one_connect_timeout_spans_the_probe_and_initialize(cold: int,
                                                            outcome: tuple[str, str]) -> None:
    """Issue 37's second race: a client whose single 5 s timeout covers both the probe and
    ``initialize``, against a server that starts in 2, 4 or 6 s: it works, goes legacy, fails."""
    record = simulate(f"{DUAL}+connect-timeout=5000", f"{DUAL}+slow={cold}", "handshake")
    assert (record.status, record.mark) == outcome
    if record.status == "failed":
        assert record.session.path[-1] == "timeout after 2000 ms"  # what was left of 5 s
        assert record.session.reason == ("the connect timed out after 5000 ms, during "
                                         "initialize 2025-11-25 (this client's connect timeout)")


@pins("connect-timeout", "request-timeout")
def test_a_legacy_client_takes_a_connect_timeout() -> None:
    """The Inspector's legacy mode: its 15 s connect timeout bounds initialize, which its
    request timeout (60 s) alone would not."""
    client = "legacy:2025-11-25+connect-timeout=15000+request-timeout=60000"
    assert simulate(client, "legacy:2025-11-25+slow=12000").status == "ok"
    late = simulate(client, "legacy:2025-11-25+slow=20000")
    assert late.session.path == ["initialize 2025-11-25", "timeout after 15000 ms"]
    assert "connect timed out after 15000 ms" in late.session.reason
    assert simulate("legacy:2025-11-25", "legacy:2025-11-25+slow=12000").status == "failed"


@pins("request-timeout")
def test_request_timeout_replaces_the_runs_wait_after_the_connect_too() -> None:
    client = parse_peer("modern:2026-07-28+request-timeout=60000", "client")
    assert SimClient(client).request_timeout_ms == 60_000
    assert SimClient(parse_peer("modern:2026-07-28", "client")).request_timeout_ms == 10_000
    late = simulate("modern:2026-07-28+request-timeout=500", f"modern:{MODERN}+slow=1000")
    assert late.session.path[-1] == "timeout after 500 ms"


@pins("no-reprobe")
def test_no_reprobe_fails_where_the_plain_dual_client_probes_again() -> None:
    """Issue 37's first race: a 1 s probe wait against a sticky server that starts in 2 s:
    the late probe fixes the modern era, the fallback initialize gets -32022."""
    server = f"{DUAL}+slow=2000+sticky-era"
    plain = simulate(f"{DUAL}+probe-timeout=1000", server, "handshake")
    assert plain.status == "ok" and plain.mark == "re-probe"
    record = simulate(f"{DUAL}+probe-timeout=1000+no-reprobe", server, "handshake")
    assert record.status == "failed"
    assert record.session.path == [f"discover {MODERN}", "timeout after 1000 ms",
                                   "initialize 2025-11-25", "error -32022"]
    assert record.session.reason.endswith("(quirk no-reprobe)")
    in_time = simulate(f"{DUAL}+probe-timeout=3000+no-reprobe", server, "handshake")
    assert in_time.status == "ok" and in_time.mark == "direct"


@pins("discover-incomplete")
def test_discover_incomplete_leaves_capabilities_out_of_the_discover_result() -> None:
    srv = server(f"{DUAL}+discover-incomplete")
    profile = REGISTRY.get(MODERN)
    reply = srv.receive(_wire.request(profile, 1, "server/discover")).replies[0]
    assert "capabilities" not in reply["result"] and reply["result"]["supportedVersions"]
    plain = server(DUAL).receive(_wire.request(profile, 1, "server/discover")).replies[0]
    assert "capabilities" in plain["result"]


@pins("strict-discover", "discover-incomplete")
def test_strict_discover_falls_back_on_an_incomplete_discover_result() -> None:
    record = simulate(f"{DUAL}+strict-discover", f"{DUAL}+discover-incomplete", "handshake")
    assert record.status == "ok" and record.revision == "2025-11-25"
    assert record.mark == "era-fallback"
    assert "incomplete result (no capabilities): fall back" in record.session.path
    lenient = simulate(DUAL, f"{DUAL}+discover-incomplete", "handshake")
    assert lenient.status == "ok" and lenient.revision == MODERN
    complete = simulate(f"{DUAL}+strict-discover", DUAL, "handshake")
    assert complete.revision == MODERN  # nothing missing: read as modern


@pins("strict-discover")
def test_strict_discover_fails_a_modern_client_and_ignores_the_envelope_fields() -> None:
    record = simulate(f"modern:{MODERN}+discover+strict-discover", f"{DUAL}+discover-incomplete")
    assert record.status == "failed" and "lacks capabilities" in record.session.reason
    # resultType and the caching hints are defaulted by the SDKs: not an incomplete result
    hints = simulate(f"{DUAL}+strict-discover", f"{DUAL}+no-cache-hints+no-result-type",
                     "handshake")
    assert hints.revision == MODERN


# -- the apps' reported behaviours (issue 39; tests/unit/test_apps.py runs the named apps) ------

@pins("init-after-discover")
def test_init_after_discover_is_refused_by_a_sticky_server_and_accepted_by_a_plain_one() -> None:
    sticky = simulate(f"{DUAL}+init-after-discover", f"{DUAL}+sticky-era", "handshake")
    assert sticky.status == "failed" and "-32022" in sticky.session.reason
    assert sticky.session.path[:3] == ["discover 2026-07-28", "accepted 2026-07-28",
                                       "initialize 2025-11-25"]
    plain = simulate(f"{DUAL}+init-after-discover", DUAL, "handshake")
    assert (plain.status, plain.revision) == ("ok", "2025-11-25")
    # the spec's client stays modern with either server
    assert simulate(DUAL, f"{DUAL}+sticky-era", "handshake").revision == MODERN


@pins("both-at-once")
def test_both_at_once_sends_the_handshake_before_the_probe_is_answered() -> None:
    record = simulate(f"{DUAL}+both-at-once", f"{DUAL}+sticky-era", "handshake")
    sent = [e.message.get("method") for e in record.transcript.entries
            if e.dir == "c2s" and isinstance(e.message, dict)]
    first_answer = next(i for i, e in enumerate(record.transcript.entries) if e.dir == "s2c")
    before = [e.message.get("method") for e in record.transcript.entries[:first_answer]
              if e.dir == "c2s" and isinstance(e.message, dict)]
    assert before == ["server/discover", "initialize"] and sent.count("server/discover") == 1
    assert record.status == "failed" and "-32022" in record.session.reason


@pins("exit-fatal", "restart-after-exit")
def test_an_exit_is_fatal_or_restarted() -> None:
    server = "legacy:2025-11-25+silent-exit"
    assert simulate(f"{DUAL}+restart", server, "handshake").status == "ok"
    assert simulate(f"{DUAL}+restart+exit-fatal", server, "handshake").status == "failed"
    again = simulate(f"{DUAL}+restart-after-exit", server, "handshake")
    assert again.status == "ok"
    assert again.session.path[2:5] == ["initialize 2025-11-25", "server exited", "restart"]


# -- extensions: how an MCP App is lost (scenario apps) ----------------------------------------

APP = "ui://mcp-skew/app.html"


def _why(record: RunRecord) -> str:
    """What the failed step got (the reason the app was lost)."""
    return next(st.got for st in record.steps if not st.ok)


def _reads(record: RunRecord) -> list[str]:
    return [e.message["params"]["uri"] for e in record.transcript.entries
            if e.dir == "c2s" and isinstance(e.message, dict)
            and e.message.get("method") == "resources/read"]


@pins("ext-unadvertised")
def test_a_host_that_does_not_advertise_the_extension_gets_no_app() -> None:
    plain = simulate(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui", "apps")
    assert plain.status == "ok" and _reads(plain) == [APP]
    record = simulate(f"{DUAL}+ext-unadvertised+ext=ui", f"{DUAL}+ext=ui", "apps")
    assert "does not advertise" in _why(record)
    caps = [e.message for e in record.transcript.entries if e.dir == "c2s"]
    assert all("extensions" not in json.dumps(m) for m in caps)  # declared nowhere
    assert _reads(record) == []


@pins("no-ui-read")
def test_a_host_that_negotiates_the_app_and_never_reads_it() -> None:
    record = simulate(f"{DUAL}+no-ui-read+ext=ui", f"{DUAL}+ext=ui", "apps")
    sent = [e.message for e in record.transcript.entries if e.dir == "c2s"]
    assert any("io.modelcontextprotocol/ui" in json.dumps(m) for m in sent)  # it advertises
    assert _reads(record) == [] and "never reads" in _why(record)


@pins("ext-once")
def test_a_server_that_reads_extensions_once_loses_them_per_request() -> None:
    # on 2026-07-28 the client's extensions ride in each request's _meta: never in initialize
    modern = simulate(f"{DUAL}+ext=ui", f"{DUAL}+ext-once+ext=ui", "apps")
    assert modern.revision == MODERN and _reads(modern) == []
    assert "no listed tool points at an app" in _why(modern)
    # on a handshake revision they arrive in initialize, which it reads: the app works
    legacy = simulate("legacy:2025-11-25+ext=ui", f"{DUAL}+ext-once+ext=ui", "apps")
    assert legacy.status == "ok" and _reads(legacy) == [APP]


# -- docs/quirks.md ---------------------------------------------------------------------------

VALUE_NOTE = {"none": "", "revision": "=REV", "ms": "=MS", "code": "=CODE", "count": "=N",
              "layout": "=LAYOUT"}


def _example(quirk: str) -> list[str]:
    if EXAMPLES[quirk] is None:
        return [f"No example run: {NO_EXAMPLE[quirk]}."]
    client, srv = example(quirk)
    over = transport_of(quirk)
    scenario = scenario_of(quirk)
    flag = "" if over == "stdio" else f"--transport {over} "
    tail = "" if scenario == "default" else f" --scenario {scenario}"
    lines = [f"Example: `mcp-skew simulate {flag}--client {client} --server {srv}{tail}`", ""]
    if quirk in DEFAULTS:
        lines[-1:-1] = ["", "This is what a legacy server does without any quirk; the name "
                        "lets a spec say so. The two runs below are the same."]
    for label, (c, s) in (("with the quirk", (client, srv)), ("without it", twin(quirk))):
        r = simulate(c, s, scenario, transport=over)
        verdict = f"{r.status}" + (f", {r.revision} ({r.mark})" if r.status == "ok" else "")
        if r.failed_step is not None:  # connects, then fails
            verdict = f"failed after connecting on {r.revision} ({r.mark}): {r.failed_step}"
        lines.append(f"- {label}: {' -> '.join(r.session.path)}: **{verdict}**")
        if scenario != "default":
            lines[-1] += f" (tools/list requests on the wire: {wire_count(r, 'tools/list')})"
        findings = sorted({f["code"] for f in r.to_dict()["findings"]})
        if findings:
            lines[-1] += f" (findings: {', '.join(findings)})"
        failed = [f"{st.name}: expected {st.expected}, got {st.got}" for st in r.steps if not st.ok]
        if failed:
            lines[-1] += f" (failed steps: {'; '.join(failed)})"
    return lines


def _effects(quirk: Quirk) -> str:
    """The policy fields a quirk sets, as the simulator reads them."""
    policy = "ServerPolicy" if quirk.role == "server" else "ClientPolicy"
    parts = []
    for effect in quirk.effects:
        value = "the value" if effect.convert is not None else json.dumps(effect.value)
        rank = f" (rank {effect.rank})" if any(
            e.field == effect.field and q is not quirk for q in QUIRKS.values() for e in q.effects
            if q.role == quirk.role) else ""
        parts.append(f"`{policy}.{effect.field}` = {value}{rank}")
    return ", ".join(parts)


def render_quirks_doc() -> str:
    """docs/quirks.md, from QUIRKS, the examples and the tests that pin each quirk."""
    out = [
        "<!-- generated from mcp_skew.simulator.quirks.QUIRKS by "
        "`PYTHONPATH=tests .venv/bin/python tests/unit/test_simulator_quirks.py`; do not edit. -->",
        "# Quirks",
        "",
        "A quirk is a named way a real client or server departs from the plain spec "
        "behaviour. A peer spec names quirks after `+` (`legacy:2025-06-18+silent`); a quirk "
        "with a value takes it after `=` (`+fixed=2025-03-26`, `+slow=8000`). Each section says "
        "what the quirk does, where it is seen in real implementations, one example run next "
        "to the same run without the quirk, and the tests that pin it.",
        "",
        "The simulator reads no quirk names: each quirk sets fields of the peer's policy "
        "(`ServerPolicy` or `ClientPolicy` in `mcp_skew/simulator/quirks/_policy.py`, whose defaults "
        "are the spec's behaviour), and the policy drives what the peer does. Where two quirks "
        "set the same field, the higher rank wins, whatever their order in the spec.",
        "",
    ]
    for role in ("server", "client"):
        out += [f"## {role.capitalize()} quirks", ""]
        for quirk in (q for q in QUIRKS.values() if q.role == role):
            out += [
                f"### `{quirk.name}{VALUE_NOTE[quirk.value]}`",
                "",
                f"{quirk.summary[0].upper()}{quirk.summary[1:]}.",
                "",
                f"- Applies to: {', '.join(quirk.kinds)} {role}s",
                *([] if "stdio" in quirk.transports else
                  ["- Over: Streamable HTTP only (`--transport http`); over stdio it does nothing"]),
                f"- Sets: {_effects(quirk)}",
                f"- Seen in: {quirk.seen_in}",
                "- Pinned by: " + ", ".join(
                    f"`tests/unit/test_simulator_quirks.py::{t}`" for t in PINNED.get(quirk.name, ())),
                "",
                *_example(quirk.name),
                "",
            ]
    return "\n".join(out).rstrip("\n") + "\n"


def test_docs_quirks_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render_quirks_doc(), (
        "docs/quirks.md is stale: run PYTHONPATH=tests .venv/bin/python tests/unit/test_simulator_quirks.py")


if __name__ == "__main__":
    DOC.write_text(render_quirks_doc(), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC.relative_to(ROOT)}\n")

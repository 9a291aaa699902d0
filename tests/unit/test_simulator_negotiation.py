"""Negotiation: the spec's era table, the dual-era fallback, and the paths a run records.

The era table is the "Compatibility Matrix" of 2026-07-28 ``basic/versioning.mdx``;
every row is a case here, with the row's words in the test ids. The fallback rules
are those of 2026-07-28 ``basic/transports/stdio.mdx`` §Backward Compatibility: a
DiscoverResult or a recognised modern error keeps a dual-era client modern; any
other error, or no answer within the probe timeout, sends it to ``initialize``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from _links import ScriptedLink

from mcp_skew.simulator import RunRecord, SimClient, SimServer, parse_peer, run
from mcp_skew.simulator.machine import Event, Reply
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY, Era

LATEST_MODERN = REGISTRY.of_era(Era.MODERN)[-1]  # 2026-07-28
VENDOR = "2026-12-vendor"  #: a third-party modern revision, to make -32022 happen


#: The built-in revisions and a second modern one (a vendor draft extending 2026-07-28):
#: the built-in registry has one modern revision, so a modern mismatch needs another.
WITH_VENDOR = REGISTRY.with_profile(REGISTRY.get(LATEST_MODERN).evolve(revision=VENDOR, changes=()))


@pytest.fixture
def vendor() -> str:
    """The vendor revision, for -32022 and retries (its peers parse against WITH_VENDOR)."""
    return VENDOR


def simulate(client: str, server: str, scenario: str = "default") -> RunRecord:
    return run(parse_peer(client, "client", WITH_VENDOR), parse_peer(server, "server", WITH_VENDOR),
               scenario)


def sent(record: RunRecord, method: str) -> list[Any]:
    """The c2s messages of one method, in order."""
    return [e for e in record.transcript.entries if e.dir == "c2s"
            and isinstance(e.message, dict) and e.message.get("method") == method]


# -- the era table ---------------------------------------------------------------------------

#: 2026-07-28 basic/versioning.mdx §Compatibility Matrix, row by row (client, server, outcome).
ROWS: dict[str, str] = {
    "Modern/Modern": "Works. server/discover is optional; version mismatches surface as "
    "UnsupportedProtocolVersionError and the client retries with a mutually supported version.",
    "Modern/Legacy": "Fails. The server may reject the request with an implementation-defined "
    "error, stay silent, or even process an era-ambiguous method under legacy semantics.",
    "Dual-era/Modern": "Works. The stdio probe returns a DiscoverResult (or "
    "UnsupportedProtocolVersionError). The client stays modern.",
    "Dual-era/Legacy": "Works. stdio: the probe returns a non-modern error or times out, and "
    "the client falls back to initialize.",
    "Legacy/Modern": "Fails. stdio: the server rejects initialize with a JSON-RPC error. Legacy "
    "clients have no fall-forward mechanism.",
    "Legacy/Dual-era": "Works. The server answers initialize and serves the client according to "
    "the negotiated legacy revision.",
    "Legacy/Legacy": "Works according to the legacy revision.",
}

Outcome = Literal["modern", "legacy", "fails"]

DUAL = f"dual:{LATEST_MODERN},2025-11-25"
LEGACY_QUIRKS = ("unknown-32601", "unknown-32602", "silent", "silent-exit", "lenient")


@dataclass(frozen=True)
class Case:
    row: str
    variant: str
    client: str
    server: str
    outcome: Outcome

    @property
    def id(self) -> str:
        return f"{self.row}: {ROWS[self.row].split('.')[0]} ({self.variant})"


ERA_TABLE = [
    Case("Modern/Modern", "inline", f"modern:{LATEST_MODERN}", f"modern:{LATEST_MODERN}",
         "modern"),
    Case("Modern/Modern", "discover first", f"modern:{LATEST_MODERN}+discover",
         f"modern:{LATEST_MODERN}", "modern"),
    Case("Modern/Modern", "mismatch: -32022, retry", f"modern:{VENDOR},{LATEST_MODERN}",
         f"modern:{LATEST_MODERN}", "modern"),
    *(Case("Modern/Legacy", f"{client}+{quirk}", f"modern:{LATEST_MODERN}{extra}",
           f"legacy:2025-11-25+{quirk}", "fails")
      for quirk in LEGACY_QUIRKS
      for client, extra in (("inline", ""), ("discover first", "+discover"))),
    Case("Dual-era/Modern", "DiscoverResult", DUAL, f"modern:{LATEST_MODERN}", "modern"),
    Case("Dual-era/Modern", "-32022, retry", f"dual:{VENDOR},{LATEST_MODERN},2025-11-25",
         f"modern:{LATEST_MODERN}", "modern"),
    Case("Dual-era/Modern", "dual-era server", DUAL, f"dual:{LATEST_MODERN},2025-11-25",
         "modern"),
    Case("Dual-era/Legacy", "-32601", DUAL, "legacy:2025-11-25", "legacy"),
    Case("Dual-era/Legacy", "-32602", DUAL, "legacy:2025-11-25+unknown-32602", "legacy"),
    Case("Dual-era/Legacy", "silence, after the probe timeout", DUAL,
         "legacy:2025-11-25+silent", "legacy"),
    Case("Dual-era/Legacy", "lenient", DUAL, "legacy:2025-11-25+lenient", "legacy"),
    Case("Dual-era/Legacy", "+restart against silent-exit", f"{DUAL}+restart",
         "legacy:2025-11-25+silent-exit", "legacy"),
    Case("Dual-era/Legacy", "older legacy revision", f"dual:{LATEST_MODERN},2025-06-18",
         "legacy:2025-06-18,2024-11-05", "legacy"),
    Case("Legacy/Modern", "2025-11-25", "legacy:2025-11-25", f"modern:{LATEST_MODERN}", "fails"),
    Case("Legacy/Modern", "2024-11-05", "legacy:2024-11-05", f"modern:{LATEST_MODERN}", "fails"),
    Case("Legacy/Dual-era", "2025-11-25", "legacy:2025-11-25", DUAL, "legacy"),
    Case("Legacy/Dual-era", "older revision", "legacy:2025-06-18",
         f"dual:{LATEST_MODERN},2025-11-25,2025-06-18", "legacy"),
    Case("Legacy/Dual-era", "sticky-era server", "legacy:2025-11-25", f"{DUAL}+sticky-era",
         "legacy"),
    Case("Legacy/Legacy", "same revision", "legacy:2025-11-25", "legacy:2025-11-25", "legacy"),
    Case("Legacy/Legacy", "counter-offer", "legacy:2025-11-25,2025-06-18", "legacy:2025-06-18",
         "legacy"),
]


def test_era_table_covers_all_seven_rows() -> None:
    assert {c.row for c in ERA_TABLE} == set(ROWS)
    assert len(ROWS) == 7


@pytest.mark.parametrize("case", ERA_TABLE, ids=[c.id for c in ERA_TABLE])
def test_era_table(case: Case, vendor: str) -> None:
    record = simulate(case.client, case.server)
    client, server = record.client, record.server
    s = record.session
    if case.outcome == "fails":
        assert record.status == "failed", ROWS[case.row]
        assert (s.revision, s.era, record.steps) == (None, None, [])
        assert s.reason
        return
    assert record.status == "ok", (ROWS[case.row], s.reason, s.path)
    assert s.era is Era(case.outcome)
    assert s.revision in client.revisions and s.revision in server.revisions
    assert REGISTRY.get(s.revision).era is s.era
    assert record.steps and all(step.ok for step in record.steps), record.steps
    if case.outcome == "modern":  # "the client stays modern": it never says initialize
        assert sent(record, "initialize") == []


def test_modern_client_against_a_lenient_legacy_server_is_an_era_mismatch() -> None:
    """The row's third failure: the era-ambiguous tools/list is run under legacy rules."""
    record = simulate(f"modern:{LATEST_MODERN}", "legacy:2025-11-25+lenient")
    assert record.status == "failed"
    assert record.session.path[-1] == "served under legacy rules"
    # what the client saw: a result with no resultType or caching hints, then the verdict
    assert [f.code for f in record.session.findings] == [
        "missing-result-type", "missing-cache-hints", "era-mismatch"]


def test_legacy_client_gets_the_modern_servers_revisions_in_the_error() -> None:
    """versioning.mdx: a modern-only server SHOULD name its supported versions to initialize."""
    record = simulate("legacy:2025-11-25", f"modern:{LATEST_MODERN}")
    error = record.transcript.entries[1].message["error"]
    assert error["data"]["supported"] == [LATEST_MODERN]
    assert LATEST_MODERN in error["message"]
    assert record.session.path == ["initialize 2025-11-25", "error -32601"]


# -- the dual-era fallback --------------------------------------------------------------------

@pytest.mark.parametrize(("quirk", "code"), [("", -32601), ("+unknown-32601", -32601),
                                             ("+unknown-32602", -32602), ("+lenient", -32601)])
def test_dual_falls_back_on_a_non_modern_error(quirk: str, code: int) -> None:
    record = simulate(DUAL, f"legacy:2025-11-25{quirk}", "handshake")
    assert record.session.path == [f"discover {LATEST_MODERN}", f"error {code}",
                                   "initialize 2025-11-25", "accepted 2025-11-25"]
    assert record.mark == "era-fallback" and record.session.era is Era.LEGACY
    entries = record.transcript.entries
    assert entries[1].message["error"]["code"] == code
    # initialize leaves as soon as the error is in, not after a timeout
    assert entries[2].message["method"] == "initialize" and entries[2].t_ms == entries[1].t_ms


@pytest.mark.parametrize("timeout", [None, 1, 250, 4000, 9999])
def test_dual_falls_back_on_silence_exactly_at_the_probe_timeout(timeout: int | None) -> None:
    client = DUAL + (f"+probe-timeout={timeout}" if timeout is not None else "")
    wait = timeout if timeout is not None else 3000
    record = simulate(client, "legacy:2025-11-25+silent", "handshake")
    probe, init = sent(record, "server/discover")[0], sent(record, "initialize")[0]
    assert init.t_ms - probe.t_ms == wait
    assert record.transcript.notes[0].t_ms == wait
    assert record.transcript.notes[0].text == f"no answer to id 1 within {wait} ms"
    assert record.session.path == [f"discover {LATEST_MODERN}", f"timeout after {wait} ms",
                                   "initialize 2025-11-25", "accepted 2025-11-25"]
    assert record.status == "ok" and record.mark == "era-fallback"


def _modern_error_then_legacy(code: int) -> Callable[[dict[str, Any]], Event]:
    """A server that answers modern requests with ``code`` and would accept initialize."""
    data = {-32022: {"supported": ["2099-01-01"], "requested": LATEST_MODERN},
            -32021: {"requiredCapabilities": {"sampling": {}}}}.get(code)

    def answer(message: dict[str, Any]) -> Event:
        if message["method"] == "initialize":
            body = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {},
                    "serverInfo": {"name": "s", "version": "1"}}
            return Reply({"jsonrpc": "2.0", "id": message["id"], "result": body})
        return Reply(_wire.error(message["id"], code, "modern error", data))

    return answer


MODERN_CODES = sorted(
    REGISTRY.get(LATEST_MODERN).error(name).code
    for name in REGISTRY.get(LATEST_MODERN).names("modern_error_codes")
)


@pytest.mark.parametrize("code", MODERN_CODES)
@pytest.mark.parametrize("client", [DUAL, f"{DUAL}+restart", f"{DUAL}+fallback-32601",
                                    f"{DUAL}+probe-timeout=10"])
def test_a_recognised_modern_error_never_sends_a_client_to_initialize(client: str,
                                                                      code: int) -> None:
    link = ScriptedLink(_modern_error_then_legacy(code))
    session = SimClient(parse_peer(client, "client")).negotiate(link)
    methods = [e.message["method"] for e in link.transcript.entries if e.dir == "c2s"]
    assert "initialize" not in methods
    assert methods == ["server/discover"]
    assert session.status == "failed" and not session.fell_back
    assert session.path == [f"discover {LATEST_MODERN}", f"error {code}"]


def test_a_non_modern_error_from_the_same_script_does_fall_back() -> None:
    """The control for the test above: the script would have accepted initialize."""
    link = ScriptedLink(_modern_error_then_legacy(-32601))
    session = SimClient(parse_peer(DUAL, "client")).negotiate(link)
    assert session.status == "ok" and session.era is Era.LEGACY and session.fell_back


@pytest.mark.parametrize("server", [f"modern:{LATEST_MODERN}", DUAL])
def test_minus_32022_without_a_common_modern_revision_fails_without_initialize(
        server: str, vendor: str) -> None:
    """The server speaks 2026-07-28 and the client only the vendor draft: -32022, no fallback.

    Against a dual-era server the legacy era would have worked, but the spec says a
    recognised modern error means the server is modern: do not fall back.
    """
    record = simulate(f"dual:{vendor},2025-11-25", server)
    assert sent(record, "initialize") == []
    assert record.status == "failed"
    assert record.session.path == [f"discover {vendor}", "error -32022"]
    assert record.session.reason == f"no revision in common: the server supports {LATEST_MODERN}"


@pytest.mark.parametrize("client", ["dual:{v},{m},2025-11-25", "modern:{v},{m}",
                                    "modern:{v},{m}+discover"])
def test_minus_32022_retries_with_a_supported_revision(client: str, vendor: str) -> None:
    record = simulate(client.format(v=vendor, m=LATEST_MODERN), f"modern:{LATEST_MODERN}")
    assert sent(record, "initialize") == []
    assert record.status == "ok" and record.revision == LATEST_MODERN
    assert record.mark == "retry-32022"
    path = record.session.path
    assert path[1:3] == ["error -32022", f"retry {LATEST_MODERN}"]
    error = record.transcript.entries[1].message["error"]
    assert error["data"] == {"supported": [LATEST_MODERN], "requested": vendor}
    retried = record.transcript.entries[2].message
    assert retried["params"]["_meta"][_wire.VERSION_KEY] == LATEST_MODERN


# -- paths and marks -------------------------------------------------------------------------

#: (client, server, path, mark)
PATHS = [
    ("legacy:2025-11-25", "legacy:2025-11-25",
     ["initialize 2025-11-25", "accepted 2025-11-25"], "direct"),
    ("legacy:2025-11-25,2025-06-18", "legacy:2025-06-18",
     ["initialize 2025-11-25", "counter-offer 2025-06-18", "accepted 2025-06-18"], "downgraded"),
    ("legacy:2025-06-18", "legacy:2025-11-25",
     ["initialize 2025-06-18", "counter-offer 2025-11-25", "disconnect"], "failed"),
    # one offer, one counter-offer: a common revision (2024-11-05) is never reached
    ("legacy:2025-11-25,2024-11-05", "legacy:2025-06-18,2024-11-05",
     ["initialize 2025-11-25", "counter-offer 2025-06-18", "disconnect"], "failed"),
    (f"modern:{LATEST_MODERN}", f"modern:{LATEST_MODERN}",
     [f"tools/list {LATEST_MODERN}", f"accepted {LATEST_MODERN}"], "direct"),
    (f"modern:{LATEST_MODERN}+discover", DUAL,
     [f"discover {LATEST_MODERN}", f"accepted {LATEST_MODERN}"], "direct"),
    (f"modern:{LATEST_MODERN}", "legacy:2025-11-25",
     [f"tools/list {LATEST_MODERN}", "error -32601"], "failed"),
    (f"modern:{LATEST_MODERN}", "legacy:2025-11-25+silent",
     [f"tools/list {LATEST_MODERN}", "timeout after 10000 ms"], "failed"),
    (DUAL, "legacy:2025-11-25",
     [f"discover {LATEST_MODERN}", "error -32601", "initialize 2025-11-25",
      "accepted 2025-11-25"], "era-fallback"),
    (DUAL, "legacy:2025-11-25+silent-exit",
     [f"discover {LATEST_MODERN}", "timeout after 3000 ms", "initialize 2025-11-25",
      "server exited"], "failed"),
    (f"{DUAL}+restart", "legacy:2025-11-25+silent-exit",
     [f"discover {LATEST_MODERN}", "timeout after 3000 ms", "restart", "initialize 2025-11-25",
      "accepted 2025-11-25"], "era-fallback"),
    ("legacy:2025-11-25", f"modern:{LATEST_MODERN}",
     ["initialize 2025-11-25", "error -32601"], "failed"),
    # a modern server slower than the probe timeout: the fallback is refused, a second probe works
    (DUAL, f"modern:{LATEST_MODERN}+slow=5000",
     [f"discover {LATEST_MODERN}", "timeout after 3000 ms", "initialize 2025-11-25",
      "error -32601", "re-probe", f"discover {LATEST_MODERN}", f"accepted {LATEST_MODERN}"],
     "re-probe"),
]


@pytest.mark.parametrize(("client", "server", "path", "mark"), PATHS,
                         ids=[f"{c} x {s}" for c, s, _, _ in PATHS])
def test_path_and_mark(client: str, server: str, path: list[str], mark: str) -> None:
    record = simulate(client, server, "handshake")
    assert record.session.path == path
    assert record.mark == mark
    assert (record.status == "ok") == (mark != "failed")


def test_legacy_handshake_completes_with_initialized_before_any_request() -> None:
    record = simulate(DUAL, "legacy:2025-11-25")
    c2s = [e.message for e in record.transcript.entries if e.dir == "c2s"]
    methods = [m["method"] for m in c2s]
    assert methods[:4] == ["server/discover", "initialize", "notifications/initialized",
                           "tools/list"]
    # the era is cached: after the fallback no request carries modern _meta
    assert all(_wire.VERSION_KEY not in (m.get("params") or {}).get("_meta", {}) for m in c2s[1:])


def test_a_refused_counter_offer_sends_no_initialized() -> None:
    record = simulate("legacy:2025-06-18", "legacy:2025-11-25")
    assert sent(record, "notifications/initialized") == []
    assert record.session.reason == "server answered 2025-11-25, which this client does not support"


@pytest.mark.parametrize(("client", "server", "trips"), [
    ("legacy:2025-11-25", "legacy:2025-11-25", 1),
    (DUAL, f"modern:{LATEST_MODERN}", 1),
    (DUAL, "legacy:2025-11-25", 2),
    (DUAL, "legacy:2025-11-25+silent", 2),
    (f"{DUAL}+restart", "legacy:2025-11-25+silent-exit", 2),
])
def test_round_trips_count_negotiation_requests(client: str, server: str, trips: int) -> None:
    assert simulate(client, server, "handshake").session.round_trips == trips


def test_modern_requests_carry_version_and_capabilities_in_meta() -> None:
    record = simulate(f"modern:{LATEST_MODERN}", f"modern:{LATEST_MODERN}")
    requests = [e.message for e in record.transcript.entries
                if e.dir == "c2s" and "id" in e.message]
    assert len(requests) == 1 + len(record.steps)
    for message in requests:
        meta = message["params"]["_meta"]
        assert meta[_wire.VERSION_KEY] == LATEST_MODERN
        assert _wire.CAPS_KEY in meta


def test_time_to_first_useful_result() -> None:
    """Latency 5 ms each way: the first tools/list result after fallback comes at 3020 ms."""
    record = simulate(DUAL, "legacy:2025-11-25+silent")
    assert record.t_first_useful_ms == 3020
    assert simulate(DUAL, f"modern:{LATEST_MODERN}").t_first_useful_ms == 20


# -- capabilities ------------------------------------------------------------------------------

@pytest.mark.parametrize(("dotted", "declared"), [
    ("tools", True), ("resources", True), ("prompts", False),
    ("resources.subscribe", False), ("resources.listChanged", True), ("resources.subscribe.x", False),
])
def test_declares_needs_every_part_and_a_true_flag(dotted: str, declared: bool) -> None:
    caps = {"tools": {}, "resources": {"listChanged": True, "subscribe": False}}
    assert _wire.declares(caps, dotted) is declared


def test_a_method_gated_by_an_undeclared_sub_capability_is_not_found() -> None:
    """resources/subscribe needs ``resources.subscribe``; the server declares ``resources: {}`` only."""
    srv = SimServer(parse_peer("legacy:2025-11-25", "server"))
    profile = REGISTRY.get("2025-11-25")
    init = _wire.request(profile, 1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                "clientInfo": _wire.implementation("t")})
    (answer,) = srv.receive(init).replies
    assert answer["result"]["capabilities"]["resources"] == {}
    for msg_id, method in enumerate(("resources/subscribe", "resources/unsubscribe"), start=2):
        (reply,) = srv.receive(_wire.request(profile, msg_id, method, {"uri": "mem://hello"})).replies
        assert reply["error"]["code"] == -32601, method
    (listed,) = srv.receive(_wire.request(profile, 9, "resources/list")).replies
    assert "result" in listed

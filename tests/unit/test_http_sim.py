"""Streamable HTTP in the simulator: the sans-I/O sides, the in-memory link, the rule, the CLI.

What is pinned, with where the spec says it:

- the headers a client of each revision sends, and how it reads a JSON body, an
  SSE body (the 2025-11-25 priming event is no message), a 400 with a JSON-RPC
  error body (that error), a bodiless 404/405 (an error it can read), and its
  session id (kept and sent): 2025-03-26..2025-11-25 ``basic/transports.mdx``,
  2026-07-28 ``basic/transports/streamable-http.mdx``;
- the dual-era client's HTTP rule (2026-07-28 ``streamable-http.mdx`` §Backward
  Compatibility): it reads the body of the 4xx, and a timeout is an error there,
  not a sign of a legacy server (stdio differs: ``stdio.mdx`` §Backward
  Compatibility); the path records the rule;
- the spec's era table (2026-07-28 ``basic/versioning.mdx`` §Compatibility
  Matrix) holds over HTTP, each row with its HTTP words;
- ``serve --http`` and the in-memory HTTP link answer the same requests the same
  way (one endpoint); runs are deterministic.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from mcp_skew.cli import main
from mcp_skew.simulator import RunRecord, SimClient, parse_peer, run
from mcp_skew.simulator._transport import HTTP, STDIO, rule_for
from mcp_skew.simulator.http import HttpClient, HttpEndpoint, HttpMemoryLink, HttpRequest, HttpResponse
from mcp_skew.simulator.http._client import request_headers
from mcp_skew.simulator.http._endpoint import primes_streams
from mcp_skew.simulator.machine import Closed, Reply, Timeout
from mcp_skew.simulator.messages import _wire
from mcp_skew.transcript import parse_record
from mcp_skew.versions import REGISTRY, Era

LATEST = REGISTRY.of_era(Era.MODERN)[-1]  # 2026-07-28
VENDOR = "2026-12-vendor"  #: a second modern revision, to make -32022 happen (as on stdio)
WITH_VENDOR = REGISTRY.with_profile(REGISTRY.get(LATEST).evolve(revision=VENDOR, changes=()))
DUAL = f"dual:{LATEST},2025-11-25"
HTTP_RULE = "2026-07-28: basic/transports/streamable-http.mdx §Backward Compatibility"


def simulate(client: str, server: str, scenario: str = "default",
             transport: Literal["stdio", "http"] = "http") -> RunRecord:
    return run(parse_peer(client, "client", WITH_VENDOR), parse_peer(server, "server", WITH_VENDOR),
               scenario, transport=transport)


def exchanges(record: RunRecord) -> list[tuple[str, Any]]:
    """(dir, status or method) of every HTTP record of a run, in order."""
    out = []
    for item in record.transcript.records():
        http = item.get("http")
        if http is not None:
            out.append((item["dir"], http.get("status", http.get("method"))))
    return out


def status_of_answer(record: RunRecord, msg_id: int) -> int:
    """The HTTP status of the answer to request ``msg_id`` (a message, or a bodiless event)."""
    for item in record.transcript.records():
        if item["dir"] == "s2c" and item.get("message", {}).get("id") == msg_id:
            return int(item["http"]["status"])
    raise AssertionError(f"no answer to id {msg_id}")


# -- the client side: what it sends, per revision ------------------------------------------------

def _modern(method: str, rev: str = LATEST, **params: Any) -> dict[str, Any]:
    return _wire.request(REGISTRY.get(rev), 1, method, params)


@pytest.mark.parametrize(("message", "session", "legacy", "expected"), [
    # 2026-07-28 streamable-http.mdx §Request Metadata: version, method, name; no session
    (_modern("tools/list"), "s1", None,
     {"MCP-Protocol-Version": LATEST, "Mcp-Method": "tools/list"}),
    (_modern("tools/call", name="echo", arguments={}), None, None,
     {"MCP-Protocol-Version": LATEST, "Mcp-Method": "tools/call", "Mcp-Name": "echo"}),
    (_modern("resources/read", uri="mem://héllo"), None, None,
     {"MCP-Protocol-Version": LATEST, "Mcp-Method": "resources/read",
      "Mcp-Name": "=?base64?" + base64.b64encode("mem://héllo".encode()).decode() + "?="}),
    # initialize: nothing yet (2025-03-26 §Session Management: the server assigns the session)
    (_wire.request(REGISTRY.get("2025-11-25"), 1, "initialize", {"protocolVersion": "2025-11-25"}),
     None, None, {}),
    # after initialize: the session, and the negotiated version where it has the header
    # (2025-06-18 basic/transports.mdx §Protocol Version Header; 2025-03-26 has none)
    (_wire.request(REGISTRY.get("2025-06-18"), 2, "tools/list"), "s1", "2025-06-18",
     {"Mcp-Session-Id": "s1", "MCP-Protocol-Version": "2025-06-18"}),
    (_wire.request(REGISTRY.get("2025-03-26"), 2, "tools/list"), "s1", "2025-03-26",
     {"Mcp-Session-Id": "s1"}),
], ids=["modern-no-session", "modern-name", "modern-name-base64", "initialize", "2025-06-18",
        "2025-03-26"])
def test_the_headers_a_client_of_each_revision_sends(message: dict[str, Any], session: str | None,
                                                     legacy: str | None,
                                                     expected: dict[str, str]) -> None:
    headers = request_headers(message, session_id=session, legacy_revision=legacy)
    assert headers.pop("Content-Type") == "application/json"
    accept = headers.pop("Accept")  # 2025-03-26 on: both content types, on every POST
    assert "application/json" in accept and "text/event-stream" in accept
    assert headers == expected


# -- the client side: how it reads an answer -----------------------------------------------------

REQUEST = {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}
JSON = {"Content-Type": "application/json"}


def test_a_json_body_is_the_answer() -> None:
    answer = {"jsonrpc": "2.0", "id": 7, "result": {"tools": []}}
    reading = HttpClient().read(REQUEST, HttpResponse(200, json.dumps(answer).encode(), JSON))
    assert reading.answer == answer and not reading.synthesized
    assert [p.message for p in reading.parts] == [answer]


def test_an_sse_body_is_its_message_events_and_the_priming_event_is_no_message() -> None:
    """2025-11-25 basic/transports.mdx §Sending Messages to the Server: "an SSE event
    consisting of an event ID and an empty data field" primes the client."""
    note = {"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "working"}}
    answer = {"jsonrpc": "2.0", "id": 7, "result": {"tools": []}}
    body = (f"id: p0\ndata:\n\n: a comment\n\nevent: message\ndata: {json.dumps(note)}\n\n"
            f"id: 3\ndata: {json.dumps(answer)}\n\n").encode()
    reading = HttpClient().read(REQUEST, HttpResponse(200, body,
                                                      {"Content-Type": "text/event-stream"}))
    assert reading.primed == ("p0",)
    assert [p.message for p in reading.parts] == [note, answer]
    assert reading.parts[1].event_id == "3"
    assert reading.answer == answer


def test_a_400_with_a_jsonrpc_error_body_is_that_error() -> None:
    """2026-07-28 streamable-http.mdx §Backward Compatibility: inspect the body of a 400."""
    error = _wire.error(7, -32022, "Unsupported protocol version",
                    {"supported": [LATEST], "requested": "1999-01-01"})
    reading = HttpClient().read(REQUEST, HttpResponse(400, json.dumps(error).encode(), JSON))
    assert reading.answer == error and not reading.synthesized


@pytest.mark.parametrize(("status", "code"), [(400, -32600), (404, -32601), (405, -32601),
                                              (500, -32603)])
def test_an_error_status_without_a_body_is_an_error_the_client_can_read(status: int,
                                                                        code: int) -> None:
    reading = HttpClient().read(REQUEST, HttpResponse(status, b"", {}))
    assert reading.synthesized and reading.answer is not None
    assert reading.answer["id"] == 7 and reading.answer["error"]["code"] == code
    assert reading.answer["error"]["data"]["httpStatus"] == status
    assert reading.parts == ()  # nothing crossed: the transcript has no message for it


def test_a_session_id_is_kept_from_initialize_and_sent_after() -> None:
    client = HttpClient()
    init = _wire.request(REGISTRY.get("2025-11-25"), 1, "initialize",
                     {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": _wire.implementation("t")})
    assert "Mcp-Session-Id" not in client.headers(init)
    answer = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25"}}
    client.read(init, HttpResponse(200, json.dumps(answer).encode(),
                                   {**JSON, "Mcp-Session-Id": "abc"}))
    later = client.headers(_wire.request(REGISTRY.get("2025-11-25"), 2, "tools/list"))
    assert later["Mcp-Session-Id"] == "abc" and later["MCP-Protocol-Version"] == "2025-11-25"
    client.forget()
    assert "Mcp-Session-Id" not in client.headers(REQUEST)


def test_a_notification_gets_202_and_no_answer() -> None:
    reading = HttpClient().read({"jsonrpc": "2.0", "method": "notifications/initialized"},
                                HttpResponse(202, b"", {}))
    assert reading.answer is None and reading.parts == () and not reading.synthesized


# -- the server side ---------------------------------------------------------------------------

@pytest.mark.parametrize(("revision", "primes"), [
    ("2024-11-05", False), ("2025-03-26", False), ("2025-06-18", False),
    ("2025-11-25", True),  # 2025-11-25 basic/transports.mdx §Sending Messages (sse-polling)
    (LATEST, False),  # 2026-07-28 removes resumability (changelog, major change 9)
])
def test_the_priming_event_is_read_from_the_profile(revision: str, primes: bool) -> None:
    assert primes_streams(REGISTRY.get(revision)) is primes


def test_the_endpoint_answers_in_sse_where_asked_with_priming_from_2025_11_25() -> None:
    endpoint = HttpEndpoint(parse_peer("legacy:2025-11-25", "server"), sse=True)
    init = _wire.request(REGISTRY.get("2025-11-25"), 1, "initialize",
                     {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": _wire.implementation("t")})
    response = endpoint.handle(HttpRequest("POST", "/mcp", {}, json.dumps(init).encode()))
    assert response.content_type == "text/event-stream" and response.priming == "1"
    text = response.encoded().decode()
    assert text.startswith("id: 1\ndata:\n\n")
    reading = HttpClient().read(init, HttpResponse(200, response.encoded(),
                                                   {"Content-Type": "text/event-stream"}))
    assert reading.primed == ("1",) and reading.answer is not None
    assert reading.answer["result"]["protocolVersion"] == "2025-11-25"


def test_the_endpoint_is_deterministic_in_the_simulator_and_records_served_eras() -> None:
    endpoint = HttpEndpoint(parse_peer("legacy:2025-06-18", "server"))
    init = _wire.request(REGISTRY.get("2025-06-18"), 1, "initialize",
                     {"protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": _wire.implementation("t")})
    first = endpoint.handle(HttpRequest("POST", "/mcp", {}, json.dumps(init).encode()))
    second = endpoint.handle(HttpRequest("POST", "/mcp", {}, json.dumps(init).encode()))
    assert first.headers["Mcp-Session-Id"] == "mcp-skew-session-1"
    assert second.headers["Mcp-Session-Id"] == "mcp-skew-session-2"
    assert endpoint.served_eras == [Era.LEGACY, Era.LEGACY]


# -- the in-memory link ----------------------------------------------------------------------------

def test_every_record_of_an_http_run_is_a_transcript_record_with_its_exchange() -> None:
    record = simulate(DUAL, "legacy:2025-11-25")
    records = record.transcript.records()
    for item in records:
        parse_record(item)  # the versioned transcript format reads it
    c2s = [r for r in records if r["dir"] == "c2s"]
    s2c = [r for r in records if r["dir"] == "s2c"]
    assert all(r["http"]["method"] == "POST" and r["http"]["path"] == "/mcp" for r in c2s)
    assert all(isinstance(r["http"]["status"], int) for r in s2c)
    assert records[-2]["event"] == "http" and "DELETE /mcp" in records[-2]["text"]  # session ended


def test_a_held_request_times_out_at_the_clients_wait() -> None:
    link = HttpMemoryLink(HttpEndpoint(parse_peer("legacy:2025-11-25+silent", "server")))
    event = link.request(_modern("server/discover"), 3000)
    assert event == Timeout(3000) and link.now_ms() == 3000
    assert link.transcript.notes[-1].kind == "timeout"


def test_a_server_that_exits_closes_the_request_then_refuses_connections() -> None:
    link = HttpMemoryLink(HttpEndpoint(parse_peer("legacy:2025-11-25+silent-exit", "server")))
    assert isinstance(link.request(_modern("server/discover"), 3000), Timeout)
    init = _wire.request(REGISTRY.get("2025-11-25"), 2, "initialize",
                     {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": _wire.implementation("t")})
    assert isinstance(link.request(init, 10_000), Closed)
    assert [n.kind for n in link.transcript.notes][-1] == "exit"
    assert link.request(_wire.request(REGISTRY.get("2025-11-25"), 3, "tools/list"), 10_000) == \
        Closed("connection refused")
    assert link.transcript.notes[-1].kind == "write-failed"


def test_sse_and_json_answers_give_the_same_run() -> None:
    for server in ("legacy:2025-11-25", f"modern:{LATEST}", "legacy:2025-06-18"):
        sessions = []
        for sse in (False, True):
            link = HttpMemoryLink(HttpEndpoint(parse_peer(server, "server"), sse=sse))
            sim = SimClient(parse_peer(f"{DUAL},2025-06-18", "client"), transport=HTTP)
            session = sim.negotiate(link)
            sessions.append((session.status, session.revision, list(session.path)))
        assert sessions[0] == sessions[1], server


# -- the dual-era client's rule, as data -------------------------------------------------------

def test_the_rule_is_data_the_client_reads() -> None:
    assert rule_for("stdio") is STDIO and rule_for("http") is HTTP
    assert STDIO.legacy_signs == {"error", "timeout", "closed"}
    assert HTTP.legacy_signs == {"error"} and HTTP.cite == HTTP_RULE
    assert HTTP.falls_back(Reply(_wire.error(1, -32601, "x"))) and not HTTP.falls_back(Timeout(1))
    with pytest.raises(ValueError, match="unknown transport"):
        rule_for("carrier-pigeon")


def test_over_http_a_400_without_a_modern_error_falls_back_and_the_path_says_why() -> None:
    record = simulate(DUAL, "legacy:2025-11-25", "handshake")
    path = record.session.path
    assert path == ["discover 2026-07-28", "error -32601",
                    "http: no modern error in the answer, fall back", "initialize 2025-11-25",
                    "accepted 2025-11-25"]
    assert path[2].kind == "rule" and path[2].transport == "http"
    assert status_of_answer(record, 1) == 400 and record.mark == "era-fallback"


def test_over_http_a_timeout_is_an_error_not_a_legacy_server() -> None:
    record = simulate(DUAL, "legacy:2025-11-25+silent", "handshake")
    assert record.status == "failed"
    assert record.session.path == ["discover 2026-07-28", "timeout after 3000 ms",
                                   "http: a timeout is an error, not a legacy server"]
    assert HTTP_RULE in record.session.reason
    stdio = simulate(DUAL, "legacy:2025-11-25+silent", "handshake", transport="stdio")
    assert stdio.status == "ok" and stdio.mark == "era-fallback"  # stdio.mdx: it falls back
    assert all(step.kind != "rule" for step in stdio.session.path)  # stdio paths are unchanged


def test_over_http_a_modern_error_in_the_400_keeps_the_client_modern() -> None:
    record = simulate(f"dual:{VENDOR},{LATEST},2025-11-25", f"modern:{LATEST}", "handshake")
    assert (record.status, record.revision, record.mark) == ("ok", LATEST, "retry-32022")
    assert status_of_answer(record, 1) == 400  # -32022 in the body of a 400
    assert all(step.kind != "rule" for step in record.session.path)  # no fallback to judge


# -- the era table, over HTTP ------------------------------------------------------------------

#: 2026-07-28 basic/versioning.mdx §Compatibility Matrix, the HTTP words of each row.
ROWS: dict[str, str] = {
    "Modern/Modern": "Works. Version mismatches surface as UnsupportedProtocolVersionError and "
    "the client retries with a mutually supported version.",
    "Modern/Legacy": "Fails. The server may reject the request with an implementation-defined "
    "error, stay silent, or even process an era-ambiguous method under legacy semantics.",
    "Dual-era/Modern": "Works. On HTTP, the first modern request succeeds or returns a modern "
    "error. The client stays modern.",
    "Dual-era/Legacy": "Works. HTTP: the modern request returns a 4xx without a recognized modern "
    "error body, and the client falls back to initialize.",
    "Legacy/Modern": "Fails. HTTP: the request is missing the required headers and is rejected "
    "per server validation with 400 Bad Request.",
    "Legacy/Dual-era": "Works. The server answers initialize and serves the client according to "
    "the negotiated legacy revision.",
    "Legacy/Legacy": "Works according to the legacy revision.",
}
Outcome = Literal["modern", "legacy", "fails"]
LEGACY_QUIRKS = ("unknown-32601", "unknown-32602", "silent", "silent-exit", "lenient")


@dataclass(frozen=True)
class Case:
    row: str
    variant: str
    client: str
    server: str
    outcome: Outcome
    #: the HTTP status of the answer to the first request, where the row names one
    status: int | None = None

    @property
    def id(self) -> str:
        return f"{self.row}: {ROWS[self.row].split('.')[0]} ({self.variant})"


ERA_TABLE = [
    Case("Modern/Modern", "inline", f"modern:{LATEST}", f"modern:{LATEST}", "modern", 200),
    Case("Modern/Modern", "discover first", f"modern:{LATEST}+discover", f"modern:{LATEST}",
         "modern", 200),
    Case("Modern/Modern", "mismatch: -32022 in a 400, retry", f"modern:{VENDOR},{LATEST}",
         f"modern:{LATEST}", "modern", 400),
    *(Case("Modern/Legacy", f"{client}+{quirk}", f"modern:{LATEST}{extra}",
           f"legacy:2025-11-25+{quirk}", "fails")
      for quirk in LEGACY_QUIRKS
      for client, extra in (("inline", ""), ("discover first", "+discover"))),
    Case("Dual-era/Modern", "DiscoverResult", DUAL, f"modern:{LATEST}", "modern", 200),
    Case("Dual-era/Modern", "-32022 in a 400, retry", f"dual:{VENDOR},{LATEST},2025-11-25",
         f"modern:{LATEST}", "modern", 400),
    Case("Dual-era/Modern", "dual-era server", DUAL, f"dual:{LATEST},2025-11-25", "modern", 200),
    Case("Dual-era/Legacy", "-32601 in a 400", DUAL, "legacy:2025-11-25", "legacy", 400),
    Case("Dual-era/Legacy", "-32602 in a 400", DUAL, "legacy:2025-11-25+unknown-32602",
         "legacy", 400),
    Case("Dual-era/Legacy", "lenient: -32601 in a 400", DUAL, "legacy:2025-11-25+lenient",
         "legacy", 400),
    Case("Dual-era/Legacy", "older legacy revision", f"dual:{LATEST},2025-06-18",
         "legacy:2025-06-18,2024-11-05", "legacy", 400),
    # not a 4xx: a held request. Over HTTP a timeout is an error (streamable-http.mdx
    # §Backward Compatibility), so these fail where stdio falls back (the matrix test pins them)
    Case("Dual-era/Legacy", "silence: no 4xx, a timeout", DUAL, "legacy:2025-11-25+silent",
         "fails"),
    Case("Dual-era/Legacy", "+restart against silent-exit: a timeout", f"{DUAL}+restart",
         "legacy:2025-11-25+silent-exit", "fails"),
    Case("Legacy/Modern", "2025-11-25", "legacy:2025-11-25", f"modern:{LATEST}", "fails", 400),
    # an HTTP+SSE client fails at its opening GET (405): tests/unit/test_http_sse_legacy.py
    Case("Legacy/Modern", "2024-11-05, HTTP+SSE", "legacy:2024-11-05", f"modern:{LATEST}",
         "fails"),
    Case("Legacy/Dual-era", "2025-11-25", "legacy:2025-11-25", DUAL, "legacy", 200),
    Case("Legacy/Dual-era", "older revision", "legacy:2025-06-18",
         f"dual:{LATEST},2025-11-25,2025-06-18", "legacy", 200),
    Case("Legacy/Dual-era", "sticky-era server", "legacy:2025-11-25", f"{DUAL}+sticky-era",
         "legacy", 200),
    Case("Legacy/Legacy", "same revision", "legacy:2025-11-25", "legacy:2025-11-25", "legacy",
         200),
    Case("Legacy/Legacy", "counter-offer", "legacy:2025-11-25,2025-06-18", "legacy:2025-06-18",
         "legacy", 200),
]


def test_era_table_covers_all_seven_rows() -> None:
    assert {c.row for c in ERA_TABLE} == set(ROWS)


@pytest.mark.parametrize("case", ERA_TABLE, ids=[c.id for c in ERA_TABLE])
def test_era_table_over_http(case: Case) -> None:
    record = simulate(case.client, case.server)
    s = record.session
    if case.status is not None:
        assert status_of_answer(record, 1) == case.status, exchanges(record)
    if case.outcome == "fails":
        assert record.status == "failed", ROWS[case.row]
        assert (s.revision, s.era, record.steps) == (None, None, [])
        assert s.reason
        return
    assert record.status == "ok", (ROWS[case.row], s.reason, s.path)
    assert s.era is Era(case.outcome)
    assert s.revision in record.client.revisions and s.revision in record.server.revisions
    assert record.steps and all(step.ok for step in record.steps), record.steps
    if case.outcome == "modern":  # "the client stays modern": it never says initialize
        assert not any(e.dir == "c2s" and e.message.get("method") == "initialize"
                       for e in record.transcript.entries)
    if case.row == "Dual-era/Legacy":  # the 4xx's body was read, and the path says so
        assert "http: no modern error in the answer, fall back" in s.path


# -- the command line --------------------------------------------------------------------------

def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_http_trace_shows_the_exchanges_and_the_fallback(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--transport", "http", "--client", DUAL, "--server",
                         "legacy:2025-11-25", "--trace")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (f"{DUAL}  x  legacy:2025-11-25 over Streamable HTTP: ok, 2025-11-25 "
                        "(legacy, era-fallback)")
    assert " 0 ms  ->  POST /mcp  MCP-Protocol-Version: 2026-07-28  Mcp-Method: server/discover" \
        in out
    assert "10 ms  <-  HTTP 400 Bad Request  Content-Type: application/json" in out
    assert '"error": {"code": -32601' in out
    assert "<-  HTTP 200 OK  Content-Type: application/json  Mcp-Session-Id: mcp-skew-session-1" \
        in out
    assert "->  POST /mcp  Mcp-Session-Id: mcp-skew-session-1  MCP-Protocol-Version: 2025-11-25" \
        in out
    assert "..  HTTP 202 Accepted, no body" in out
    assert "..  DELETE /mcp (Mcp-Session-Id: mcp-skew-session-1) -> HTTP 200 OK" in out
    assert ("path: discover 2026-07-28 -> error -32601 -> http: no modern error in the answer, "
            "fall back -> initialize 2025-11-25 -> accepted 2025-11-25") in lines


def test_simulate_json_names_the_transport_only_over_http(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "--transport", "http", "--client", DUAL, "--server",
                    "legacy:2025-11-25", "--json")
    doc = json.loads(out)
    assert doc["transport"] == "http"
    assert all("http" in r for r in doc["transcript"] if r["dir"] in ("c2s", "s2c"))
    _, out, _ = cli(capsys, "--client", DUAL, "--server", "legacy:2025-11-25", "--json")
    doc = json.loads(out)
    assert "transport" not in doc and not any("http" in r for r in doc["transcript"])


def test_simulate_refuses_an_unknown_transport(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli(capsys, "--transport", "smoke", "--client", DUAL, "--server", "2025-11-25")
    assert exc.value.code == 2


def test_two_runs_give_the_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    for client, server in ((DUAL, "legacy:2025-11-25"), (DUAL, "legacy:2025-11-25+silent"),
                           ("2025-06-18", f"dual:{LATEST},2025-06-18")):
        outputs = [cli(capsys, "--transport", "http", "--client", client, "--server", server,
                       what)[1] for what in ("--json", "--json", "--trace", "--trace")]
        assert outputs[0] == outputs[1] and outputs[2] == outputs[3]

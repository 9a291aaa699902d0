"""Quirks seen over HTTP in real servers, at the endpoint (the runs are pinned in
test_simulator_quirks.py): each is a typed ServerPolicy/ClientPolicy field, and over stdio
none of them changes a byte."""

from __future__ import annotations

import json

import pytest

from mcp_skew.simulator import parse_peer, run
from mcp_skew.simulator.http import HttpEndpoint, HttpRequest
from mcp_skew.simulator.quirks import QUIRKS

M = "2026-07-28"
HTTP_ONLY = ("not-initialized-32000", "empty-400", "no-get", "post-first", "session-expiry")
DISCOVER = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
    "_meta": {"io.modelcontextprotocol/protocolVersion": M}}}).encode()
PING = b'{"jsonrpc": "2.0", "id": 2, "method": "ping"}'


def endpoint(spec: str) -> HttpEndpoint:
    return HttpEndpoint(parse_peer(spec, "server"))


def post(ep: HttpEndpoint, body: bytes) -> tuple[int, object]:
    answer = ep.handle(HttpRequest("POST", "/mcp", {}, body))
    return answer.status, answer.body


def test_the_http_quirks_are_http_only_and_typed() -> None:
    for name in HTTP_ONLY:
        assert QUIRKS[name].transports == ("http",)
        assert all(e.field.startswith("http_") for e in QUIRKS[name].effects)
    assert parse_peer("legacy:2025-11-25+no-get", "server").server_policy.http_no_get
    assert parse_peer("legacy:2024-11-05+post-first", "client").client_policy.http_post_first


def test_not_initialized_32000_at_the_endpoint() -> None:
    ep = endpoint("legacy:2025-11-25+not-initialized-32000")
    for body in (DISCOVER, PING):  # every session-less request, ping too (validateSession)
        assert post(ep, body) == (400, {"jsonrpc": "2.0", "id": None, "error": {
            "code": -32000, "message": "Bad Request: Server not initialized"}})


def test_empty_400_at_the_endpoint() -> None:
    ep = endpoint("legacy:2025-11-25+empty-400")
    answer = ep.handle(HttpRequest("POST", "/mcp", {}, DISCOVER))
    assert (answer.status, answer.body, answer.encoded()) == (400, None, b"")


def test_the_presession_quirks_leave_initialize_and_sessions_alone() -> None:
    for quirk in ("not-initialized-32000", "empty-400"):
        record = run(parse_peer("legacy:2025-11-25", "client"),
                     parse_peer(f"legacy:2025-11-25+{quirk}", "server"), "default",
                     transport="http")
        assert record.status == "ok" and all(s.ok for s in record.steps)


def test_a_dual_server_serves_modern_requests_whatever_its_presession_quirk() -> None:
    for quirk in ("not-initialized-32000", "empty-400"):
        status, body = post(endpoint(f"dual:{M},2025-11-25+{quirk}"), DISCOVER)
        assert status == 400 and isinstance(body, dict)  # _meta lacks capabilities: -32602
        assert body["error"]["code"] != -32000


@pytest.mark.parametrize("spec", ["legacy:2024-11-05+no-get", "legacy:2025-11-25,2024-11-05+no-get",
                                  f"dual:{M},2025-11-25,2024-11-05+no-get"])
def test_no_get_answers_get_405(spec: str) -> None:
    ep = endpoint(spec)
    assert ep.handle(HttpRequest("GET", "/mcp", {"accept": "text/event-stream"})).status == 405
    assert ep.streamable  # a 2024-11-05-only server then speaks it over Streamable HTTP


@pytest.mark.parametrize("quirk", ["not-initialized-32000", "empty-400", "no-get"])
def test_over_stdio_a_server_http_quirk_changes_nothing(quirk: str) -> None:
    for client in (f"dual:{M},2025-11-25", "legacy:2024-11-05", f"modern:{M}"):
        server = "legacy:2025-11-25,2024-11-05"
        a = run(parse_peer(client, "client"), parse_peer(server, "server")).to_dict()
        b = run(parse_peer(client, "client"), parse_peer(f"{server}+{quirk}", "server")).to_dict()
        b["server"] = a["server"]
        assert a == b


def test_over_stdio_post_first_changes_nothing() -> None:
    server = parse_peer("legacy:2024-11-05", "server")
    a = run(parse_peer("legacy:2024-11-05", "client"), server).to_dict()
    b = run(parse_peer("legacy:2024-11-05+post-first", "client"), server).to_dict()
    b["client"] = a["client"]
    assert a == b


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}).encode()


def test_session_expiry_forgets_the_session_after_n_requests() -> None:
    """The request after the Nth in a session gets 404 (2025-03-26 and later
    basic/transports.mdx §Session Management: the server MUST answer a request with a
    terminated session's id with 404); initialize starts a new one."""
    ep = endpoint("legacy:2025-11-25+session-expiry=2")
    answer = ep.handle(HttpRequest("POST", "/mcp", {}, INIT))
    sid = answer.headers["Mcp-Session-Id"]
    in_session = {"mcp-session-id": sid}
    for _ in range(2):
        assert ep.handle(HttpRequest("POST", "/mcp", in_session, PING)).status == 200
    lost = ep.handle(HttpRequest("POST", "/mcp", in_session, PING))
    assert lost.status == 404 and lost.body["error"]["code"] == -32600
    again = ep.handle(HttpRequest("POST", "/mcp", {}, INIT))
    assert again.status == 200 and again.headers["Mcp-Session-Id"] != sid

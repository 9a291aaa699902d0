"""Mcp-Param-{Name} headers (2026-07-28 basic/transports/streamable-http.mdx §Custom Headers
from Tool Parameters, SEP-2243): the simulated server's echo tool marks ``text`` with
``x-mcp-header`` where the profile has the header, clients mirror it on tools/call, and the
server answers a missing or different one with 400 and -32020 (§Server Behavior for Custom
Headers)."""

from __future__ import annotations

import json

from mcp_skew.simulator import parse_peer, run
from mcp_skew.simulator.http import HttpEndpoint, HttpRequest
from mcp_skew.simulator.http._client import HttpClient, request_headers
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY

M = "2026-07-28"


def call(text: object) -> dict[str, object]:
    return _wire.request(REGISTRY.get(M), 7, "tools/call", {"name": "echo", "arguments": {"text": text}})


def post(message: dict[str, object], headers: dict[str, str]) -> tuple[int, object]:
    ep = HttpEndpoint(parse_peer(f"modern:{M}", "server"))
    lower = {k.lower(): v for k, v in headers.items()}
    answer = ep.handle(HttpRequest("POST", "/mcp", lower, json.dumps(message).encode()))
    return answer.status, answer.body


def test_the_profile_has_the_header_from_2026_07_28_only() -> None:
    assert "Mcp-Param-{Name}" in REGISTRY.get(M).names("http_headers")
    assert "Mcp-Param-{Name}" not in REGISTRY.get("2025-11-25").names("http_headers")


def test_a_client_mirrors_the_marked_parameter_after_tools_list() -> None:
    client = HttpClient()
    listing = _wire.request(REGISTRY.get(M), 1, "tools/list")
    answer = run(parse_peer(f"modern:{M}", "client"), parse_peer(f"modern:{M}", "server"),
                 transport="http")
    tools = next(e.message for e in answer.transcript.entries
                 if e.dir == "s2c" and "tools" in (e.message.get("result") or {}))
    client.learn(listing, tools)
    assert client.tool_headers == {"echo": (("text", "Text"),)}
    assert client.headers(call("hi"))["Mcp-Param-Text"] == "hi"
    assert client.headers(call("Hello, 世界"))["Mcp-Param-Text"] == "=?base64?SGVsbG8sIOS4lueVjA==?="
    assert "Mcp-Param-Text" not in client.headers(call(None))  # null: omitted
    assert all(s.ok for s in answer.steps)
    sent = [e for e in answer.transcript.entries if e.dir == "c2s"
            and (e.message.get("params") or {}).get("name") == "echo"]
    assert sent and sent[0].http is not None and sent[0].http["headers"]["Mcp-Param-Text"] == "hi"


def test_the_server_checks_the_header() -> None:
    good = request_headers(call("hi"), tool_headers={"echo": (("text", "Text"),)})
    assert post(call("hi"), good)[0] == 200
    status, body = post(call("hi"), {**good, "Mcp-Param-Text": "ho"})
    assert status == 400 and isinstance(body, dict) and body["error"]["code"] == -32020
    missing = {k: v for k, v in good.items() if k != "Mcp-Param-Text"}
    status, body = post(call("hi"), missing)
    assert status == 400 and isinstance(body, dict) and body["error"]["code"] == -32020
    assert post(call(None), missing)[0] == 200  # no value: the header is not expected


def test_legacy_revisions_neither_declare_nor_send_it() -> None:
    record = run(parse_peer("legacy:2025-11-25", "client"),
                 parse_peer("legacy:2025-11-25", "server"), transport="http")
    assert "x-mcp-header" not in json.dumps(record.transcript.records())
    assert "Mcp-Param" not in json.dumps(record.transcript.records())

"""What the official conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12)
found in ``serve --http``, pinned on the sans-I/O endpoint that serve runs:

- ``Mcp-Name`` / ``Mcp-Param-*`` values in the Base64 sentinel form are decoded strictly: a
  character outside the alphabet is 400 and -32020 (RFC 4648 §3.3; 2026-07-28
  ``streamable-http.mdx`` §Value Encoding), not skipped;
- an ``initialize`` that carries modern ``_meta`` is a removed method in the modern era:
  404 and -32601, not a legacy handshake (2026-07-28 ``basic/versioning.mdx``: a request
  carrying modern ``_meta`` is served by this revision);
- a request whose header names 2026-07-28 and whose ``_meta`` lacks ``protocolVersion`` is
  400 and -32602 (2026-07-28 ``basic/index.mdx`` §_meta), not a legacy early request;
- the listen acknowledgement honours only what the server declares, and the stream the
  stateless server ends carries the closing ``SubscriptionsListenResult``.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_skew.simulator import parse_peer
from mcp_skew.simulator._server import PARAM_HEADERS
from mcp_skew.simulator.http import HttpEndpoint, HttpRequest, HttpResponse
from mcp_skew.simulator.http._client import request_headers
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY

MODERN = "2026-07-28"
DUAL = f"dual:{MODERN},2025-11-25"


def post(server: str, message: dict[str, Any], headers: dict[str, str] | None = None
         ) -> HttpResponse:
    endpoint = HttpEndpoint(parse_peer(server, "server"))
    sent = {k.lower(): v for k, v in (request_headers(message) if headers is None
                                      else headers).items()}
    return endpoint.handle(HttpRequest("POST", "/mcp", sent, json.dumps(message).encode()))


def call_echo(text: str = "hi") -> dict[str, Any]:
    return _wire.request(REGISTRY.get(MODERN), 1, "tools/call",
                     {"name": "echo", "arguments": {"text": text}})


def echo_headers(message: dict[str, Any]) -> dict[str, str]:
    """The headers of a client that read the echo tool's x-mcp-header (Mcp-Param-Text)."""
    return request_headers(message, tool_headers=PARAM_HEADERS)


def test_a_valid_base64_mcp_name_is_accepted() -> None:
    message = call_echo()
    headers = echo_headers(message)
    headers["Mcp-Name"] = "=?base64?ZWNobw==?="  # "echo"
    response = post(DUAL, message, headers)
    assert response.status == 200 and "result" in response.body


def test_invalid_base64_characters_are_rejected_with_32020() -> None:
    message = call_echo()
    headers = echo_headers(message)
    headers["Mcp-Name"] = "=?base64?ZW!No*bw==?="  # lenient decoding skips ! and * -> "echo"
    response = post(DUAL, message, headers)
    assert response.status == 400
    assert response.body["error"]["code"] == -32020
    assert "Base64" in response.body["error"]["message"]


def test_invalid_base64_in_a_param_header_is_rejected() -> None:
    message = call_echo("hi")
    headers = echo_headers(message)
    name = next(k for k in headers if k.lower().startswith("mcp-param-"))
    headers[name] = "=?base64?a$Gk=?="  # lenient: "hi"
    response = post(DUAL, message, headers)
    assert (response.status, response.body["error"]["code"]) == (400, -32020)


def test_initialize_with_modern_meta_is_a_removed_method() -> None:
    message = _wire.request(REGISTRY.get(MODERN), 1, "initialize",
                        {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": _wire.implementation("t")})
    assert _wire.VERSION_KEY in message["params"]["_meta"]
    response = post(DUAL, message)
    assert response.status == 404
    assert response.body["error"]["code"] == -32601
    assert "mcp-session-id" not in {k.lower() for k in response.headers if response.headers[k]}


def test_meta_without_protocol_version_under_a_modern_header_is_32602() -> None:
    message = _wire.request(REGISTRY.get(MODERN), 1, "tools/list")
    del message["params"]["_meta"][_wire.VERSION_KEY]
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}
    for server in (DUAL, f"modern:{MODERN}"):
        response = post(server, message, headers)
        assert (response.status, response.body["error"]["code"]) == (400, -32602), server


def test_a_legacy_request_without_the_header_is_still_legacy_traffic() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = post(DUAL, message, {"Accept": "application/json, text/event-stream"})
    assert response.body["error"]["code"] == -32601  # an early request to a legacy server


def listen(filter_: dict[str, Any]) -> HttpResponse:
    message = _wire.request(REGISTRY.get(MODERN), 7, "subscriptions/listen",
                        {"notifications": filter_})
    return post(DUAL, message)


def sse_messages(response: HttpResponse) -> list[dict[str, Any]]:
    text = response.encoded().decode()
    return [json.loads(line[len("data: "):]) for line in text.splitlines()
            if line.startswith("data: ")]


def test_listen_acknowledges_only_what_the_server_declares() -> None:
    response = listen({"toolsListChanged": True, "promptsListChanged": True,
                       "resourceSubscriptions": ["mem://hello"]})
    ack = sse_messages(response)[0]
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    # no prompts capability, and no resources.subscribe: neither is honoured
    assert ack["params"]["notifications"] == {"toolsListChanged": True}


def test_the_listen_stream_ends_with_its_closing_result() -> None:
    response = listen({"toolsListChanged": True})
    assert response.stream
    ack, closing = sse_messages(response)
    assert closing["id"] == 7
    assert closing["result"]["resultType"] == "complete"
    assert closing["result"]["_meta"][_wire.SUBSCRIPTION_KEY] == 7
    assert ack["params"]["_meta"][_wire.SUBSCRIPTION_KEY] == 7

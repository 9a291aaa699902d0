"""``serve --http`` of a protected server (``+auth=LAYOUT``): a client runs the whole flow
against it over real sockets, headless (the test authorization server approves at once)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from _serve_helpers import http_server, initialize

from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth._client import authorize, plan_for
from mcp_skew.versions import REGISTRY
from mcp_skew.wire import Deadline, send

pytestmark = pytest.mark.slow


def fetch(origin: str, ask: HttpRequest) -> HttpResponse:
    """``ask`` sent to ``origin`` by mcp-skew's one real HTTP client (no redirect followed:
    the client reads the 302's Location itself), its body read."""
    with Deadline(10) as deadline:
        answer, resp = send(HttpRequest(ask.method, origin + ask.path, ask.headers, ask.body),
                            deadline)
        with resp:
            return replace(answer, body=resp.read())


def post(url: str, message: dict[str, Any], token: str | None = None) -> HttpResponse:
    headers = {"Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    origin, _, path = url.partition("/mcp")
    return fetch(origin, HttpRequest("POST", "/mcp" + path, headers, json.dumps(message).encode()))


@pytest.mark.parametrize(("client_rev", "layout"), [
    ("2025-06-18", "prm"), ("2025-11-25", "prm-root"), ("2025-11-25", "oidc"),
    ("2026-07-28", "no-dcr"), ("2025-03-26", "origin")])
def test_a_client_authorizes_against_serve_headlessly(client_rev: str, layout: str) -> None:
    server_rev = "2025-03-26" if layout == "origin" else "2025-11-25"
    with http_server(f"legacy:{server_rev}+auth={layout}") as (url, server):
        server.endpoint.protect(url)
        origin = url.removesuffix("/mcp")
        challenge = post(url, initialize(1, server_rev))
        assert challenge.status == 401
        plan = plan_for(REGISTRY.get(client_rev), parse_peer(f"legacy:{server_rev}",
                                                             "client").client_policy)
        machine = authorize(plan, challenge, url)
        try:
            ask = next(machine)
            while True:
                ask = machine.send(fetch(origin, ask))
        except StopIteration as done:
            result = done.value
        assert result.token is not None, (result.reason, str(result.path))
        answer = post(url, initialize(1, server_rev), result.token)
        assert answer.status == 200, answer.body
        assert json.loads(answer.body)["result"]["protocolVersion"] == server_rev


def test_serve_without_a_layout_is_not_protected() -> None:
    with http_server("legacy:2025-11-25") as (url, server):
        server.endpoint.protect(url)
        assert server.endpoint.auth is None
        assert post(url, initialize(1, "2025-11-25")).status == 200


def test_a_token_for_another_audience_is_refused() -> None:
    with http_server("legacy:2025-11-25+auth=prm") as (url, server):
        server.endpoint.protect(url)
        origin = url.removesuffix("/mcp")
        form = (b"grant_type=client_credentials&client_id=mcp-skew-preregistered&"
                b"client_secret=mcp-skew-secret")
        got = fetch(origin, HttpRequest("POST", "/auth/token",
                                  {"Content-Type": "application/x-www-form-urlencoded"}, form))
        token = json.loads(got.body)["access_token"]  # no resource: no audience
        refused = post(url, initialize(1, "2025-11-25"), token)
        assert refused.status == 401
        assert 'error="invalid_token"' in refused.headers["www-authenticate"]


def test_serve_of_the_scoped_layout_answers_403_insufficient_scope_and_steps_up() -> None:
    """2025-11-25 basic/authorization.mdx §Runtime Insufficient Scope Errors, over sockets:
    a token of the 401's scope lists tools, gets 403 for a call, and a step-up token works."""
    from mcp_skew.simulator.http.auth._client import step_up

    with http_server("legacy:2025-11-25+auth=scoped") as (url, server):
        server.endpoint.protect(url)
        origin = url.removesuffix("/mcp")
        challenge = post(url, initialize(1, "2025-11-25"))
        assert 'scope="mcp:read"' in challenge.headers["www-authenticate"]
        plan = plan_for(REGISTRY.get("2026-07-28"), parse_peer("modern:2026-07-28",
                                                               "client").client_policy)

        def drive(machine: Any) -> Any:
            try:
                ask = next(machine)
                while True:
                    ask = machine.send(fetch(origin, ask))
            except StopIteration as done:
                return done.value

        first = drive(authorize(plan, challenge, url))
        assert first.token is not None and first.scope == "mcp:read", first.reason
        opened = post(url, initialize(1, "2025-11-25"), first.token)
        assert opened.status == 200
        session = opened.headers.get("mcp-session-id")

        def call(token: str) -> HttpResponse:
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                       "Accept": "application/json, text/event-stream",
                       "MCP-Protocol-Version": "2025-11-25",
                       **({"Mcp-Session-Id": session} if session else {})}
            body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": "hi"}}}
            return fetch(origin, HttpRequest("POST", "/mcp", headers, json.dumps(body).encode()))

        refused = call(first.token)
        assert refused.status == 403
        assert refused.headers["www-authenticate"].startswith(
            'Bearer error="insufficient_scope", scope="mcp:tools"')
        stepped = drive(step_up(plan, first, refused, url))
        assert stepped.token is not None and stepped.scope == "mcp:read mcp:tools"
        answered = call(stepped.token)
        assert answered.status == 200, answered.body
        assert b'"text": "hi"' in answered.body or b'"text":"hi"' in answered.body

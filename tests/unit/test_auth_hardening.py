"""Issue 33: the protected server and its test authorization server under hostile requests,
sans I/O (the endpoint and the authorization server decide without sockets; the socket side
is ``tests/slow/unit/test_serve_auth_hardening_slow.py``).

- one reading of the request target for the guard and the endpoint (``/mcp#x``, the
  absolute form): 2025-11-25 ``basic/authorization.mdx`` §Token Requirements, "authorization
  MUST be included in every HTTP request from client to server";
- tokens, codes and client ids unguessable and bound to their resource: §Token Handling,
  "MCP servers MUST validate that access tokens were issued specifically for them as the
  intended audience, according to RFC 8707 Section 2";
- redirect URIs: §Communication Security ("All redirect URIs MUST be either localhost or use
  HTTPS") and §Open Redirection ("Authorization servers MUST validate exact redirect URIs
  against pre-registered values");
- HTTP+SSE ``/messages`` needs the stream's token;
- bounded bodies, fields and tables;
- a global cap on what HTTP+SSE streams have waiting (``serve``'s endpoint, no socket).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _auth_attacks import (
    BAD_REDIRECT_URIS,
    BYPASS_TARGETS,
    FOREIGN_REDIRECTS,
    GOOD_REDIRECT_URIS,
    MALFORMED_TARGETS,
)

from mcp_skew.serve._http import HttpLimits, ServedEndpoint
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpRequest, HttpResponse, parse_target
from mcp_skew.simulator.http._urlform import form_decode, form_encode, split_url
from mcp_skew.simulator.http.auth._client import METADATA_DOCUMENT, REDIRECT_URI
from mcp_skew.simulator.http.auth._server import (
    AUTH_BODY_BYTES,
    FIELD_CHARS,
    MAX_CLIENTS,
    MAX_CODES,
    MAX_TOKENS,
    AuthServer,
    ProtectedEndpoint,
    pkce_challenge,
)
from mcp_skew.versions import LAYOUTS

ORIGIN = "http://mcp.example"
RESOURCE = ORIGIN + "/mcp"
JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"


def _initialize(rev: str = "2025-11-25") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": rev, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "0"}}}


def _call(modern: bool) -> tuple[dict[str, Any], dict[str, str]]:
    params: dict[str, Any] = {"name": "echo", "arguments": {"text": "hi"}}
    headers = dict(JSON)
    if modern:
        params["_meta"] = {V: "2026-07-28", C: {}}
        headers |= {"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call",
                    "mcp-name": "echo", "mcp-param-text": "hi"}
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}, headers


def _post(endpoint: Any, target: str, message: Any, headers: dict[str, str] | None = None,
          ) -> HttpResponse:
    response: HttpResponse = endpoint.handle(
        HttpRequest("POST", target, headers or JSON, json.dumps(message).encode()))
    return response


def _client_credentials(auth: AuthServer, resource: str | None = RESOURCE) -> str:
    form = {"grant_type": "client_credentials", "client_id": "mcp-skew-preregistered",
            "client_secret": "mcp-skew-secret", **({"resource": resource} if resource else {})}
    path = auth.metadata()["token_endpoint"].removeprefix(auth.origin)
    got = auth.handle(HttpRequest("POST", path, {}, form_encode(form).encode()))
    assert got is not None and got.status == 200, got
    return str(got.body["access_token"])


# -- 1. one reading of the request target -------------------------------------------------

SERVERS = ("legacy:2025-11-25", "modern:2026-07-28", "dual:2026-07-28,2025-11-25")


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("server", SERVERS)
def test_no_request_target_reaches_a_protected_endpoint_without_a_token(
        server: str, layout: str) -> None:
    """Before: ``/mcp#x`` and ``http://host/mcp`` were served 200 without a token (the guard
    split the path one way, the endpoint another)."""
    endpoint = ProtectedEndpoint(parse_peer(f"{server}+auth={layout}", "server"))
    modern = server.startswith("modern")
    for target in (*BYPASS_TARGETS, *MALFORMED_TARGETS):
        call, headers = _call(modern)
        for message, sent in ((_initialize(), JSON), (call, headers)):
            got = _post(endpoint, target, message, sent)
            assert got.status in (400, 401, 404), (target, message["method"], got.status)
            if parse_target(target) is None:
                assert got.status == 400, target


@pytest.mark.parametrize("target", BYPASS_TARGETS)
def test_serve_s_endpoint_guards_every_target_it_would_serve(target: str) -> None:
    endpoint = ServedEndpoint(parse_peer("dual:2026-07-28,2025-11-25+auth=prm", "server"),
                             say=lambda text: None)
    endpoint.protect("http://127.0.0.1:8000/mcp", b"k")
    assert _post(endpoint, target, _initialize()).status in (400, 401, 404)


def test_the_request_target_is_read_once_the_same_way() -> None:
    assert parse_target("/mcp?a=1") is not None
    absolute = parse_target("HTTP://Mcp.Example:80/mcp/?session_id=x")
    assert absolute is not None and absolute.origin == "http://mcp.example:80"
    assert (absolute.route, absolute.param("session_id")) == ("/mcp", "x")
    for bad in MALFORMED_TARGETS:
        assert parse_target(bad) is None, bad


def test_a_token_still_gets_in_by_a_well_formed_target() -> None:
    endpoint = ProtectedEndpoint(parse_peer("legacy:2025-11-25+auth=prm", "server"))
    token = _client_credentials(endpoint.auth)
    sent = {**JSON, "authorization": f"Bearer {token}"}
    for target in ("/mcp", "/mcp/", "http://mcp.example/mcp"):
        assert _post(endpoint, target, _initialize(), sent).status == 200, target


# -- 2. unguessable tokens bound to their resource --------------------------------------------

def test_a_token_of_one_server_is_refused_by_another() -> None:
    """Before: both servers counted, and ``token-1`` of one was ``token-1`` of the other."""
    one = AuthServer(ORIGIN, LAYOUTS["prm"], secret=b"one")
    other = AuthServer(ORIGIN, LAYOUTS["prm"], secret=b"other")
    _client_credentials(other)
    token = _client_credentials(one)
    assert one.refuses({"authorization": f"Bearer {token}"}) is None
    refused = other.refuses({"authorization": f"Bearer {token}"})
    assert refused is not None and refused.status == 401


def test_a_guessed_token_gets_nothing() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    issued = [_client_credentials(auth) for _ in range(5)]
    for guess in (*(f"token-{n}" for n in range(20)), "token-", issued[0][:-1] + "A",
                  issued[0] + "x"):
        if guess in issued:
            continue
        refused = auth.refuses({"authorization": f"Bearer {guess}"})
        assert refused is not None and refused.status == 401, guess


def test_a_token_for_another_resource_is_refused_even_with_the_same_key() -> None:
    """RFC 8707 §2: the token is bound to the resource it was asked for."""
    here = AuthServer(ORIGIN, LAYOUTS["compat"])
    there = AuthServer("http://other.example", LAYOUTS["compat"])
    token = _client_credentials(there, "http://other.example/mcp")
    assert here.refuses({"authorization": f"Bearer {token}"}) is not None
    no_audience = _client_credentials(here, None)
    assert here.refuses({"authorization": f"Bearer {no_audience}"}) is not None


def test_codes_and_client_ids_are_not_counters() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    client = _register(auth, [REDIRECT_URI])
    assert client.startswith("client-") and len(client) > 20
    code = _code(auth, client, REDIRECT_URI)
    assert code.startswith("code-") and len(code) > 20
    assert _register(AuthServer(ORIGIN, LAYOUTS["prm"], secret=b"x"), [REDIRECT_URI]) != client


def test_the_simulator_stays_deterministic() -> None:
    from mcp_skew.simulator import run

    def once() -> str:
        record = run(parse_peer("legacy:2025-11-25", "client"),
                     parse_peer("legacy:2025-11-25+auth=prm", "server"), "auth",
                     transport="http")
        return json.dumps(record.to_dict(), sort_keys=True)

    assert once() == once()


# -- 3. redirect URIs -------------------------------------------------------------------------

def _register(auth: AuthServer, uris: list[Any]) -> str:
    got = auth.handle(HttpRequest("POST", "/auth/register", {},
                                  json.dumps({"redirect_uris": uris}).encode()))
    assert got is not None and got.status == 201, (uris, got)
    return str(got.body["client_id"])


def _authorize(auth: AuthServer, client_id: str, redirect: str) -> HttpResponse:
    query = form_encode({"response_type": "code", "client_id": client_id,
                         "redirect_uri": redirect, "code_challenge": pkce_challenge("v"),
                         "code_challenge_method": "S256", "state": "s", "resource": RESOURCE})
    got = auth.handle(HttpRequest("GET", f"/auth/authorize?{query}", {}))
    assert got is not None
    return got


def _code(auth: AuthServer, client_id: str, redirect: str) -> str:
    got = _authorize(auth, client_id, redirect)
    assert got.status == 302, got
    return form_decode(split_url(got.headers["Location"])[2])["code"]


@pytest.mark.parametrize("uri", BAD_REDIRECT_URIS)
def test_a_registration_with_a_bad_redirect_uri_is_refused(uri: Any) -> None:
    """Before: ``javascript:``, ``file:`` and ``data:`` URIs were registered (201)."""
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    for uris in ([uri], [REDIRECT_URI, uri]):
        got = auth.handle(HttpRequest("POST", "/auth/register", {},
                                      json.dumps({"redirect_uris": uris}).encode()))
        assert got is not None and got.status == 400, (uris, got)
        assert got.body["error"] == "invalid_redirect_uri"
    assert not auth.clients


@pytest.mark.parametrize("uri", GOOD_REDIRECT_URIS)
def test_https_and_loopback_redirect_uris_are_registered(uri: str) -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    client = _register(auth, [uri])
    got = _authorize(auth, client, uri)
    assert got.status == 302 and got.headers["Location"].startswith(uri)


def test_only_a_registered_redirect_uri_gets_the_code() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    client = _register(auth, [REDIRECT_URI, "https://app.example/cb"])
    assert _authorize(auth, client, "https://app.example/cb").status == 302
    for other in ("https://app.example/cb/", "https://app.example/cb?x=1",
                  "http://127.0.0.1:33419/callback", "https://evil.example/cb"):
        got = _authorize(auth, client, other)
        assert got.status == 400 and "Location" not in got.headers, other


@pytest.mark.parametrize("redirect", FOREIGN_REDIRECTS)
def test_a_client_id_metadata_document_cannot_send_the_code_elsewhere(redirect: str) -> None:
    """Before: any ``https://`` client id sent the code wherever its redirect_uri said."""
    auth = AuthServer(ORIGIN, LAYOUTS["no-dcr"])
    got = _authorize(auth, "https://attacker.example/client.json", redirect)
    assert got.status == 400 and "Location" not in got.headers


def test_a_client_id_metadata_document_on_the_loopback_or_its_own_origin_works() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["no-dcr"])
    assert _authorize(auth, METADATA_DOCUMENT, REDIRECT_URI).status == 302
    assert _authorize(auth, "https://app.example/c.json", "https://app.example/cb").status == 302
    for client in ("https://app.example", "https://app.example/", "http://app.example/c.json"):
        assert _authorize(auth, client, REDIRECT_URI).status == 400, client


def test_a_redirect_uri_with_a_query_keeps_it() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    client = _register(auth, ["https://app.example/cb?tenant=1"])
    got = _authorize(auth, client, "https://app.example/cb?tenant=1")
    assert got.headers["Location"].startswith("https://app.example/cb?tenant=1&")


# -- 4. HTTP+SSE /messages needs the stream's token ------------------------------------------

def _sse_server(spec: str = "legacy:2025-06-18,2024-11-05+auth=prm") -> ProtectedEndpoint:
    endpoint = ProtectedEndpoint(parse_peer(spec, "server"))
    assert endpoint.http_sse
    return endpoint


def _open_stream(endpoint: Any, token: str) -> str:
    opened = endpoint.handle(HttpRequest("GET", "/mcp", {"authorization": f"Bearer {token}"}))
    assert opened.status == 200 and opened.events, opened
    return str(dict(opened.events)["endpoint"])


@pytest.mark.parametrize("spec", ["legacy:2025-06-18,2024-11-05+auth=prm",
                                  "legacy:2025-03-26,2024-11-05+auth=origin"])
def test_a_post_to_a_stream_needs_the_stream_s_token(spec: str) -> None:
    """Before: POST /messages was served 202 with no token at all."""
    endpoint = _sse_server(spec)
    token, other = _client_credentials(endpoint.auth), _client_credentials(endpoint.auth)
    where = _open_stream(endpoint, token)
    assert endpoint.handle(HttpRequest("GET", "/mcp", {})).status == 401
    assert _post(endpoint, where, _initialize("2024-11-05")).status == 401
    assert _post(endpoint, where, _initialize("2024-11-05"),
                 {**JSON, "authorization": "Bearer token-1"}).status == 401
    assert _post(endpoint, where, _initialize("2024-11-05"),
                 {**JSON, "authorization": f"Bearer {other}"}).status == 403
    mine = _post(endpoint, where, _initialize("2024-11-05"),
                 {**JSON, "authorization": f"Bearer {token}"})
    assert mine.status == 202
    assert endpoint.take_events(where.partition("session_id=")[2])


# -- 5. bounded bodies, fields, tables ------------------------------------------------------

@pytest.mark.parametrize("path", ["/auth/token", "/auth/register"])
def test_an_authorization_body_over_the_cap_is_413_unparsed(path: str) -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["prm"])
    body = b"x=%41&" * (AUTH_BODY_BYTES // 6 + 1)
    got = auth.handle(HttpRequest("POST", path, {}, body))
    assert got is not None and got.status == 413


def test_a_field_over_its_cap_is_refused_and_not_kept() -> None:
    auth = AuthServer(ORIGIN, LAYOUTS["scoped"])
    long = "https://app.example/" + "a" * FIELD_CHARS
    got = auth.handle(HttpRequest("POST", "/auth/register", {},
                                  json.dumps({"redirect_uris": [long]}).encode()))
    assert got is not None and got.status == 400 and not auth.clients
    scope = " ".join(f"s{n}" for n in range(FIELD_CHARS // 3))
    form = {"grant_type": "client_credentials", "client_id": "mcp-skew-preregistered",
            "client_secret": "mcp-skew-secret", "resource": RESOURCE, "scope": scope}
    got = auth.handle(HttpRequest("POST", "/auth/token", {}, form_encode(form).encode()))
    assert got is not None and got.status == 400 and not auth.tokens and not auth.granted
    client = _register(auth, [REDIRECT_URI])
    assert _authorize(auth, client, REDIRECT_URI + "?" + "s" * FIELD_CHARS).status == 400
    query = form_encode({"response_type": "code", "client_id": client,
                         "redirect_uri": REDIRECT_URI, "code_challenge": "c",
                         "code_challenge_method": "S256", "state": "s" * (FIELD_CHARS + 1)})
    got = auth.handle(HttpRequest("GET", f"/auth/authorize?{query}", {}))
    assert got is not None and got.status == 400 and not auth.codes


def test_the_tables_keep_at_most_their_caps_the_newest_kept() -> None:
    defaults = AuthServer(ORIGIN, LAYOUTS["scoped"])
    assert (defaults.max_clients, defaults.max_codes, defaults.max_tokens) == (
        MAX_CLIENTS, MAX_CODES, MAX_TOKENS)  # the caps docs/auth.md names
    auth = AuthServer(ORIGIN, LAYOUTS["scoped"], max_clients=20, max_codes=30, max_tokens=40)
    clients = [_register(auth, [REDIRECT_URI]) for _ in range(25)]
    assert len(auth.clients) == 20 and clients[-1] in auth.clients
    assert clients[0] not in auth.clients
    assert _authorize(auth, clients[0], REDIRECT_URI).status == 400  # dropped: unknown
    codes = [_code(auth, clients[-1], REDIRECT_URI) for _ in range(35)]
    assert len(auth.codes) == 30 and codes[-1] in auth.codes and codes[0] not in auth.codes
    tokens = [_client_credentials(auth) for _ in range(45)]
    assert len(auth.tokens) == 40 and len(auth.granted) <= 40
    assert auth.refuses({"authorization": f"Bearer {tokens[-1]}"}) is None
    assert auth.refuses({"authorization": f"Bearer {tokens[0]}"}) is not None


# -- 6. a global cap on what HTTP+SSE streams have waiting --------------------------------

def test_the_streams_together_keep_at_most_the_global_cap() -> None:
    """Before: the cap was per stream only (16 MiB x 256 streams)."""
    limits = HttpLimits(stream_queue_bytes=4000, streams_total_bytes=6000)
    endpoint = ServedEndpoint(parse_peer("legacy:2024-11-05", "server"), say=lambda text: None,
                             limits=limits)
    streams = []
    for _ in range(4):
        opened = endpoint.handle(HttpRequest("GET", "/mcp", {}))
        streams.append(str(dict(opened.events)["endpoint"]))
    for where in streams:
        assert _post(endpoint, where, _initialize("2024-11-05")).status == 202
        _post(endpoint, where, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "x" * 900}}}
    for _ in range(3):
        for where in streams:
            _post(endpoint, where, call)
        waiting = sum(box.size for box in endpoint.queues.values() if not box.overflowed)
        assert waiting <= limits.streams_total_bytes
    closed = [s for s in streams if s.partition("session_id=")[2] not in endpoint.streams]
    assert closed and len(closed) < len(streams)
    box = endpoint.queues[closed[0].partition("session_id=")[2]]
    assert box.overflowed and box.why.startswith("the streams had over 6000 bytes waiting")
    assert _post(endpoint, closed[0], call).status == 404

"""Properties of a protected server and its test authorization server, sans I/O (issue 33):
whatever the request target, nothing the endpoint would serve is served without a token; a
registration keeps only redirect URIs that are https or loopback http; a code goes only to
a redirect URI the client registered. The inputs: ``_fuzz_inputs.request_target`` and
``redirect_uri`` (the attacks of ``tests/_auth_attacks.py`` among them)."""

from __future__ import annotations

import json
from typing import Any

from _fuzz import examples
from _fuzz_inputs import redirect_uri, request_target
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpRequest, is_loopback, parse_target
from mcp_skew.simulator.http._endpoint import mcp_route
from mcp_skew.simulator.http._urlform import form_encode
from mcp_skew.simulator.http.auth._server import AuthServer, ProtectedEndpoint, pkce_challenge
from mcp_skew.versions import LAYOUTS

INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}}}).encode()
SERVERS = ["legacy:2025-11-25", "dual:2026-07-28,2025-11-25", "modern:2026-07-28",
           "legacy:2025-06-18,2024-11-05"]


@settings(max_examples=examples(150), deadline=None)
@given(target=request_target(), method=st.sampled_from(["POST", "GET", "DELETE"]),
       server=st.sampled_from(SERVERS), layout=st.sampled_from(sorted(LAYOUTS)))
def test_no_target_is_served_without_a_token(target: str, method: str, server: str,
                                             layout: str) -> None:
    endpoint = ProtectedEndpoint(parse_peer(f"{server}+auth={layout}", "server"))
    got = endpoint.handle(HttpRequest(method, target, {"content-type": "application/json"},
                                      INIT))
    parsed = parse_target(target)
    if parsed is None:
        assert got.status == 400
    elif mcp_route(parsed) is not None:
        assert got.status in (400, 401), (target, got.status)
    assert not endpoint.sessions and not endpoint.streams and not endpoint.served_eras


def _loopback_or_https(uri: str) -> bool:
    scheme, _, rest = uri.partition("://")
    host = rest.split("/", 1)[0].split("?", 1)[0]
    host = host[1:].partition("]")[0] if host.startswith("[") else host.rpartition(":")[0] \
        if host.count(":") == 1 else host
    return scheme.lower() == "https" or (scheme.lower() == "http" and is_loopback(host))


@settings(max_examples=examples(150), deadline=None)
@given(uris=st.lists(redirect_uri(), min_size=1, max_size=3), asked=redirect_uri())
def test_only_good_registered_redirect_uris_get_a_code(uris: list[Any], asked: Any) -> None:
    auth = AuthServer("http://mcp.example", LAYOUTS["compat"])
    got = auth.handle(HttpRequest("POST", "/auth/register", {},
                                  json.dumps({"redirect_uris": uris}).encode()))
    assert got is not None and got.status in (201, 400)
    for kept in auth.clients.values():
        assert all(isinstance(u, str) and _loopback_or_https(u) and "#" not in u
                   for u in kept), kept
    client = next(iter(auth.clients), "https://attacker.example/client.json")
    if not isinstance(asked, str):
        return
    query = form_encode({"response_type": "code", "client_id": client, "redirect_uri": asked,
                         "code_challenge": pkce_challenge("v"), "code_challenge_method": "S256"})
    answer = auth.handle(HttpRequest("GET", f"/auth/authorize?{query}", {}))
    assert answer is not None
    if answer.status == 302:
        registered = auth.clients.get(client)
        if registered is not None:
            assert asked in registered
        else:  # a client id metadata document: the loopback or its own origin only
            assert _loopback_or_https(asked)
            assert asked.lower().startswith(("http://", "https://attacker.example/",
                                             "https://attacker.example?"))
        assert answer.headers["Location"].startswith(asked)
    else:
        assert answer.status == 400 and "Location" not in answer.headers

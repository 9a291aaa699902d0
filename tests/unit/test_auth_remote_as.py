"""An authorization server on another origin than the MCP server (its protected resource
metadata names a different host or port), over the simulated HTTP: the probe's discovery
of each revision follows it there, without the user's headers, and a simulated client gets
its token there. (2025-06-18 ``basic/authorization.mdx`` §Roles: "the authorization server
may be hosted with the resource server or a separate entity"; the real-socket twin is
``tests/slow/unit/test_auth_remote_as_slow.py``.)"""

from __future__ import annotations

from _remote_as import RemoteAs

from mcp_skew.probe._auth import discover
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator._transport import rule_for
from mcp_skew.simulator.http._link import HttpMemoryLink
from mcp_skew.simulator.http.auth._link import protect
from mcp_skew.versions import REGISTRY


def test_the_probe_follows_an_authorization_server_on_another_port() -> None:
    # another port of a host whose name the MCP origin is a prefix of: the user's headers
    # must not follow the discovery there
    site = RemoteAs("http://mcp.example", "http://mcp.example:8443")
    check = discover(site.url, {"X-Api-Key": "secret", "Authorization": "Bearer t"},
                     REGISTRY, fetch=site.fetch)
    assert check is not None and check.status == 401
    found = {e["revision"]: (e["found"], e["issuer"]) for e in check.revisions}
    for rev in ("2025-06-18", "2025-11-25", "2026-07-28"):
        assert found[rev] == (True, "http://mcp.example:8443/auth"), (rev, check.revisions)
    assert found["2025-03-26"][0] is False  # it looks at the MCP origin only
    at_as = [(path, sent) for origin, path, sent in site.seen if origin == site.as_origin]
    assert {p for p, _ in at_as} == {"/.well-known/oauth-authorization-server/auth"}
    assert all("x-api-key" not in sent and "authorization" not in sent for _, sent in at_as)
    at_mcp = [sent for origin, _, sent in site.seen if origin == site.mcp_origin]
    assert all(sent.get("x-api-key") == "secret" for sent in at_mcp)
    assert not any("authorization" in sent for sent in at_mcp)  # never the token
    assert not [f for f in check.findings if f.code == "auth-metadata-inconsistent"]


def test_the_probe_follows_an_authorization_server_on_another_host() -> None:
    site = RemoteAs("http://mcp.example", "https://login.example.net", layout="oidc")
    check = discover(site.url, None, REGISTRY, fetch=site.fetch)
    assert check is not None
    found = {e["revision"]: e for e in check.revisions}
    assert found["2025-11-25"]["found"] and found["2025-06-18"]["found"] is False
    assert "https://login.example.net/auth/.well-known/openid-configuration 200" in \
        found["2025-11-25"]["path"]


def test_a_simulated_client_gets_its_token_on_the_other_origin() -> None:
    client = parse_peer("legacy:2025-11-25", "client")
    endpoint, agent = protect(client, parse_peer("legacy:2025-11-25+auth=prm", "server"))
    endpoint.auth.as_origin = "http://auth.example:9000"
    session = SimClient(client, transport=rule_for("http")).negotiate(
        HttpMemoryLink(endpoint, auth=agent))
    assert session.status == "ok", session.reason
    step = next(s for s in session.path if s.kind == "auth")
    assert "AS metadata http://auth.example:9000/.well-known/oauth-authorization-server/auth " \
        "200 -> register 201 -> authorize 302 -> token 200 -> retry 200" in step, step
    assert agent.results[0].issuer == "http://auth.example:9000/auth"

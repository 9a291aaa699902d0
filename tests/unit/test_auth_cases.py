"""Authorization across revisions (scenario auth): the real failures, case by case.

Each case is a client and a protected server whose published layout is named by the
server quirk ``auth=LAYOUT``; the test asserts the run's outcome and the auth path the
client's revision rules produce, and cites the spec rule and the public report it comes
from (docs/auth.md has the same table with traces).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _auth_cases import ALL_REVS, CASES, Case, auth_step, simulate
from _strategies import peers
from hypothesis import given, settings

from mcp_skew.errors import UsageError
from mcp_skew.peers import resolve_peer
from mcp_skew.simulator import SimClient, parse_peer, run
from mcp_skew.simulator._transport import rule_for
from mcp_skew.simulator.http._endpoint import HttpEndpoint
from mcp_skew.simulator.http._link import HttpMemoryLink
from mcp_skew.simulator.http._urlform import form_decode, form_encode, split_url
from mcp_skew.simulator.http._words import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth._client import AuthPlan, plan_for
from mcp_skew.simulator.http.auth._server import AuthServer, pkce_challenge
from mcp_skew.versions import REGISTRY
from mcp_skew.versions._auth import LAYOUTS, plain_layout, rule_values
from mcp_skew.versions._plugins import load_profile_file


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_real_failure_comes_out_with_its_path(case: Case) -> None:
    record = simulate(case.client, case.server)
    assert (record.status == "ok") is case.works, (record.session.reason, record.session.path)
    step = auth_step(record)
    assert step.startswith("auth: " if case.works else "auth failed: "), step
    at = 0
    for fragment in case.path:
        found = step.find(fragment, at)
        assert found >= 0, (fragment, step)
        at = found + len(fragment)
    assert record.auth and record.auth[0]["path"] in step
    if not case.works:
        assert "authorization failed" in record.session.reason or "HTTP 401" in record.session.reason, \
            record.session.reason


def test_the_brief_path_reads_as_the_issue_writes_it() -> None:
    """``401 -> PRM .../mcp 404 -> PRM ... 200 -> AS metadata 200 -> register -> token ->
    retry 200`` (2025-11-25 §Protected Resource Metadata Discovery Requirements)."""
    step = auth_step(simulate("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm-root"))
    assert step == ("auth: 401 -> PRM /.well-known/oauth-protected-resource/mcp 404 -> "
                    "PRM /.well-known/oauth-protected-resource 200 -> AS metadata "
                    "/.well-known/oauth-authorization-server/auth 200 -> register 201 -> "
                    "authorize 302 -> token 200 -> retry 200")


def test_every_discovery_request_is_in_the_transcript() -> None:
    record = simulate("legacy:2025-11-25", "legacy:2025-11-25+auth=oidc")
    asked = [dict(n.fields)["http"]["path"] for n in record.transcript.notes
             if n.kind == "http" and "method" in dict(n.fields).get("http", {})
             and dict(n.fields)["http"]["path"] != "/mcp"]
    hops = [h["target"] for h in record.auth[0]["hops"] if h["target"]]
    assert asked == hops
    posts = [e for e in record.transcript.entries if e.dir == "c2s"]
    first, retry = posts[0].http or {}, posts[1].http or {}
    assert "Authorization" not in first["headers"]
    token = retry["headers"]["Authorization"].removeprefix("Bearer ")
    assert token.startswith("token-") and len(token) == len("token-") + 32  # an HMAC, not a count
    again = simulate("legacy:2025-11-25", "legacy:2025-11-25+auth=oidc")
    assert [e.http for e in again.transcript.entries if e.dir == "c2s"][1] == retry  # same run


def test_a_401_to_the_probe_is_not_legacy_evidence() -> None:
    """2026-07-28 streamable-http.mdx §Backward Compatibility; typescript-sdk PR 2564."""
    record = simulate(f"{ALL_REVS}+dcr-only", "legacy:2025-11-25+auth=no-dcr")
    assert record.status == "failed"
    assert "http: HTTP 401 is an authorization failure, not a legacy server" in \
        record.session.path
    assert not any(s.startswith("initialize") for s in record.session.path)


class _Refusing(HttpEndpoint):
    """A server whose every POST is answered with one status and a non-JSON-RPC body."""

    def __init__(self, status: int) -> None:
        super().__init__(parse_peer("legacy:2025-11-25", "server"))
        self.status = status

    def handle(self, request: HttpRequest) -> HttpResponse:
        return HttpResponse(self.status, {"error": "refused"})


@pytest.mark.parametrize(("status", "said"), [
    (401, "HTTP 401 is an authorization failure"), (403, "HTTP 403 is an authorization failure"),
    (500, "HTTP 500 is a server error"), (503, "HTTP 503 is a server error"),
    (409, "HTTP 409 is an error"), (400, "no modern error in the answer, fall back"),
    (404, "no modern error in the answer, fall back"),
    (405, "no modern error in the answer, fall back")])
def test_only_400_404_405_are_era_evidence(status: int, said: str) -> None:
    """2026-07-28 streamable-http.mdx §Backward Compatibility; typescript-sdk PR 2564."""
    link = HttpMemoryLink(_Refusing(status))
    session = SimClient(parse_peer(ALL_REVS, "client"), transport=rule_for("http")).negotiate(link)
    rules = [s for s in session.path if s.kind == "rule"]
    assert len(rules) == 1 and said in rules[0], session.path
    fell_back = any(s.startswith("initialize") for s in session.path)
    assert fell_back is (status in (400, 404, 405))
    quirky = SimClient(parse_peer(f"{ALL_REVS}+auth-fallback", "client"),
                       transport=rule_for("http")).negotiate(HttpMemoryLink(_Refusing(status)))
    assert any(s.startswith("initialize") for s in quirky.path)  # the beta falls back on all


def test_auth_fallback_reads_the_401_as_legacy_the_ts_beta_way() -> None:
    """typescript-sdk issue 2561: the 2.0 betas fell back to initialize on a 401."""
    record = simulate(f"{ALL_REVS}+dcr-only+auth-fallback", "legacy:2025-11-25+auth=no-dcr")
    assert "http: HTTP 401 read as a legacy server (quirk auth-fallback), fall back" in \
        record.session.path
    assert any(s.startswith("initialize") for s in record.session.path)


def test_a_plain_server_publishes_what_its_revision_requires() -> None:
    assert plain_layout(REGISTRY.get("2024-11-05")) == frozenset()
    assert plain_layout(REGISTRY.get("2025-03-26")) == LAYOUTS["origin"]
    assert plain_layout(REGISTRY.get("2025-06-18")) == LAYOUTS["prm"] | {"audience"}
    newest = plain_layout(REGISTRY.get("2026-07-28"))
    assert {"prm-header", "prm-path", "as-rfc8414", "as-oidc", "cimd", "iss"} <= newest


def test_every_revision_after_2024_has_cited_auth_rules() -> None:
    for profile in REGISTRY:
        rows = profile.tables["auth"]
        assert not isinstance(rows, frozenset)
        if profile.revision == "2024-11-05":
            assert not rows
            continue
        assert rows
        for name, rule in rows.items():
            assert rule.cite.source.startswith("basic/authorization"), name  # type: ignore[union-attr]
            assert rule.rule, name  # type: ignore[union-attr]


def test_a_draft_that_changes_a_discovery_rule_changes_the_wire(tmp_path: Path) -> None:
    """A draft extending 2025-06-18 whose clients try the root well-known after the header."""
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({
        "revision": "2025-06-18-draft", "extends": "2025-06-18",
        "changes": [{"id": "draft-prm-root", "summary": "clients also try the root",
                     "impact": "behaviour",
                     "cite": {"revision": "2025-06-18-draft", "source": "https://example.com"},
                     "replace": {"auth": {"client.prm": {
                         "role": "client", "level": "MUST", "values": ["header", "root"],
                         "rule": "clients MUST try the root", "cite": {
                             "revision": "2025-06-18-draft", "source": "https://example.com"}}}},
                     }]}), encoding="utf-8")
    registry = REGISTRY.with_profile(load_profile_file(draft))
    server = "legacy:2025-11-25,2025-06-18+auth=prm-root"
    old = simulate("legacy:2025-06-18", server, registry)
    new = simulate("legacy:2025-06-18-draft,2025-06-18", server, registry)
    assert auth_step(old).startswith("auth failed: ")
    assert auth_step(new).startswith("auth: "), new.session.path  # the token; then it negotiates
    assert "PRM /.well-known/oauth-protected-resource 200" in auth_step(new)
    assert "/.well-known/oauth-protected-resource/mcp" not in auth_step(new)


def test_a_profile_file_cannot_name_an_unknown_auth_rule(tmp_path: Path) -> None:
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({
        "revision": "x", "extends": "2025-06-18",
        "changes": [{"id": "x", "summary": "x", "impact": "behaviour",
                     "cite": {"revision": "x", "source": "https://example.com"},
                     "add": {"auth": {"client.bogus": {
                         "role": "client", "level": "MUST", "values": [], "rule": "r",
                         "cite": {"revision": "x", "source": "https://example.com"}}}}}]}),
        encoding="utf-8")
    with pytest.raises(ValueError, match="not an authorization rule"):
        load_profile_file(draft)


def test_scenario_auth_does_not_apply_over_stdio() -> None:
    """The commands refuse it (tests/unit/test_auth_cli.py); the library says so and plays
    the scenario against an unprotected server."""
    record = run(parse_peer("legacy:2025-06-18", "client"),
                 parse_peer("legacy:2025-06-18", "server"), "auth")
    assert record.status == "ok" and not record.auth
    assert any("does not apply over stdio" in n.text for n in record.transcript.notes)
    assert not any(s.kind == "auth" for s in record.session.path)


def test_an_unknown_layout_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown layout 'nope'; known: origin"):
        resolve_peer("legacy:2025-06-18+auth=nope", "server", REGISTRY)


def test_the_same_run_gives_the_same_transcript() -> None:
    a = simulate(ALL_REVS, "legacy:2025-11-25+auth=oidc").to_dict()
    b = simulate(ALL_REVS, "legacy:2025-11-25+auth=oidc").to_dict()
    assert a == b and a["auth"]


def test_plans_read_the_rules_and_the_quirks() -> None:
    plain = plan_for(REGISTRY.get("2025-11-25"), parse_peer("legacy:2025-11-25",
                                                            "client").client_policy)
    assert plain.prm == ("header", "path", "root")
    assert plain.as_metadata == ("rfc8414", "oidc-inserted", "oidc-appended")
    quirky = plan_for(REGISTRY.get("2025-11-25"), parse_peer(
        "legacy:2025-11-25+rfc8414-only+dcr-only+auth-origin-fallback", "client").client_policy)
    assert isinstance(quirky, AuthPlan)
    assert quirky.as_metadata == ("rfc8414",) and quirky.registration == ("dynamic",)
    assert quirky.as_issuer == ("prm", "mcp-origin")
    assert rule_values(REGISTRY.get("2025-03-26"), "client.default-endpoints") == (
        "/authorize", "/token", "/register")


@settings(max_examples=60, deadline=None)
@given(peers("client"), peers("server"))
def test_any_pair_authorizes_or_fails_cleanly_and_deterministically(client: Any,
                                                                     server: Any) -> None:
    """Totality over drawn peers and layouts: no exception, one auth step at most (two where
    the server moves to another authorization server), the same bytes twice."""
    first = run(client, server, "auth", transport="http").to_dict()
    again = run(client, server, "auth", transport="http").to_dict()
    assert json.dumps(first) == json.dumps(again)
    moves = any(name == "as-moves" for name, _ in server.quirks)
    assert sum(1 for step in first["path"] if step.startswith("auth")) <= (2 if moves else 1)


# -- the authorization server alone --------------------------------------------------------

def _server() -> AuthServer:
    return AuthServer("http://mcp.example", LAYOUTS["prm"], audience=True)


def _get(server: AuthServer, target: str) -> Any:
    answer = server.handle(HttpRequest("GET", target, {}))
    assert answer is not None
    return answer


def test_the_authorization_server_checks_pkce_and_resource() -> None:
    server = _server()
    reg = server.handle(HttpRequest("POST", "/auth/register", {},
                                    json.dumps({"redirect_uris": ["https://x/cb"]}).encode()))
    assert reg is not None and reg.status == 201
    client_id = reg.body["client_id"]
    query = form_encode({"response_type": "code", "client_id": client_id,
                         "redirect_uri": "https://x/cb", "code_challenge": pkce_challenge("v"),
                         "code_challenge_method": "S256", "state": "s",
                         "resource": "http://other.example/mcp"})
    refused = _get(server, f"/auth/authorize?{query}")
    assert form_decode(split_url(refused.headers["Location"])[2])["error"] == "invalid_target"
    ok = _get(server, "/auth/authorize?" + query.replace(
        form_encode({"resource": "http://other.example/mcp"}),
        form_encode({"resource": "http://mcp.example/mcp"})))
    code = form_decode(split_url(ok.headers["Location"])[2])["code"]
    bad = server.handle(HttpRequest("POST", "/auth/token", {}, form_encode({
        "grant_type": "authorization_code", "code": code, "client_id": client_id,
        "code_verifier": "not-v"}).encode()))
    assert bad is not None and bad.body["error"] == "invalid_grant"


def test_client_credentials_get_a_token_for_the_resource() -> None:
    server = _server()
    got = server.handle(HttpRequest("POST", "/auth/token", {}, form_encode({
        "grant_type": "client_credentials", "client_id": "mcp-skew-preregistered",
        "client_secret": "mcp-skew-secret", "resource": "http://mcp.example/mcp"}).encode()))
    assert got is not None and got.status == 200
    token = got.body["access_token"]
    assert server.refuses({"authorization": f"Bearer {token}"}) is None
    assert server.refuses({}) is not None
    record = simulate("legacy:2025-11-25+client-credentials", "legacy:2025-11-25")
    assert record.status == "ok" and "register" not in auth_step(record)


def test_the_401_names_the_metadata_where_the_layout_says() -> None:
    header = AuthServer("http://h", LAYOUTS["prm"]).challenge().headers["WWW-Authenticate"]
    assert header == ('Bearer resource_metadata='
                      '"http://h/.well-known/oauth-protected-resource/mcp"')
    assert AuthServer("http://h", LAYOUTS["prm-root"]).challenge().headers[
        "WWW-Authenticate"] == "Bearer"


def test_form_encoding_round_trips() -> None:
    fields = {"a b": "c&d=e", "é": "http://x/y?z=1", "empty": ""}
    assert form_decode(form_encode(fields)) == fields
    assert split_url("HTTP://Host:8/p/q?x=1#f") == ("http://host:8", "/p/q", "x=1")
    assert split_url("/only/path?q") == ("", "/only/path", "q")

"""2026-07-28 registration rules (scenario auth), read from the profiles.

``basic/authorization/client-registration.mdx`` (2026-07-28) §Authorization Server
Binding: client credentials are "keyed by the authorization server's issuer identifier";
when the authorization server changes, clients "MUST NOT reuse client credentials from a
different authorization server and MUST re-register" (``client.credentials``).
§Application Type and Redirect URI Constraints: "MCP clients MUST specify an appropriate
application_type during Dynamic Client Registration" (``client.application-type``); an
OpenID Connect server reads an omitted one as ``web`` and "may enforce additional
constraints on redirect URIs" (server quirk ``dcr-app-type``).
"""

from __future__ import annotations

import json
from pathlib import Path

from _auth_cases import drive, simulate

from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth._client import authorize, plan_for
from mcp_skew.simulator.http.auth._server import AuthServer
from mcp_skew.versions import LAYOUTS, REGISTRY, rule_values
from mcp_skew.versions._plugins import load_profile_file

MOVES = "+auth=prm+as-moves"


def _auth_steps(record: object) -> list[str]:
    return [s for s in record.session.path if s.kind == "auth"]  # type: ignore[attr-defined]


def test_the_rules_are_2026_07_28_rows() -> None:
    for rev in ("2025-03-26", "2025-06-18", "2025-11-25"):
        assert rule_values(REGISTRY.get(rev), "client.credentials") == ()
        assert rule_values(REGISTRY.get(rev), "client.application-type") == ()
    newest = REGISTRY.get("2026-07-28")
    assert rule_values(newest, "client.credentials") == ("per-issuer",)
    assert rule_values(newest, "client.application-type") == ("native",)


# -- credentials per authorization server ------------------------------------------------

def test_a_2026_client_sent_to_another_authorization_server_registers_again() -> None:
    record = simulate("modern:2026-07-28", "modern:2026-07-28" + MOVES)
    assert record.status == "ok", record.reason
    first, again = _auth_steps(record)
    assert "/.well-known/oauth-authorization-server/auth 200 -> register 201" in first
    assert "/.well-known/oauth-authorization-server/auth2 200 -> register 201" in again
    assert "client id kept" not in again and again.endswith("retry 200")


def test_an_older_client_presents_the_first_servers_client_id_and_fails() -> None:
    """No binding rule before 2026-07-28: the simulated client keys its client id by the MCP
    server, and the new authorization server does not know it."""
    record = simulate("legacy:2025-11-25+dcr-only", "legacy:2025-11-25" + MOVES)
    assert record.status == "failed" and record.failed_step == "call a tool"
    again = _auth_steps(record)[-1]
    assert again.startswith("auth failed: ")
    assert "auth2 200 -> client id kept for this MCP server -> authorize 400" in again
    assert "invalid_client" in record.reason


def test_a_draft_that_binds_2025_11_credentials_changes_the_outcome(tmp_path: Path) -> None:
    draft = tmp_path / "draft.json"
    cite = {"revision": "2025-11-25-draft", "source": "https://example.com"}
    draft.write_text(json.dumps({
        "revision": "2025-11-25-draft", "extends": "2025-11-25",
        "changes": [{"id": "draft-bind", "summary": "credentials per issuer",
                     "impact": "behaviour", "cite": cite,
                     "add": {"auth": {"client.credentials": {
                         "role": "client", "level": "MUST", "values": ["per-issuer"],
                         "rule": "keyed by the issuer", "cite": cite}}}}]}), encoding="utf-8")
    registry = REGISTRY.with_profile(load_profile_file(draft))
    record = simulate("legacy:2025-11-25-draft,2025-11-25+dcr-only", "legacy:2025-11-25" + MOVES,
                      registry)
    assert record.status == "ok", record.reason
    assert "auth2 200 -> register 201" in _auth_steps(record)[-1]


def test_a_second_authorization_at_the_same_issuer_reuses_the_client_id() -> None:
    """Sans I/O: the kept client id is used again where the key matches."""
    plan = plan_for(REGISTRY.get("2026-07-28"), parse_peer("modern:2026-07-28",
                                                           "client").client_policy)
    server = AuthServer("http://mcp.example", LAYOUTS["prm"])
    kept: dict[str, str] = {}
    first, _ = _drive(plan, server, kept)
    second, asked = _drive(plan, server, kept)
    assert kept == {"http://mcp.example/auth": first.client_id}
    assert second.client_id == first.client_id and second.token
    assert "client id kept for this issuer" in str(second.path)
    assert not any(f.path == "/auth/register" for f in asked)


# -- application_type --------------------------------------------------------------------

def _drive(plan: object, server: AuthServer,
           kept: dict[str, str] | None = None) -> tuple[object, list[HttpRequest]]:
    machine = authorize(plan, _challenge(server), "http://mcp.example/mcp",  # type: ignore[arg-type]
                        credentials=kept)
    return drive(machine, server)


def _challenge(server: AuthServer) -> HttpResponse:
    answer = server.challenge()
    return HttpResponse(401, answer.encoded(), {k.lower(): v for k, v in answer.headers.items()})


def test_a_2026_registration_says_native_and_an_older_one_says_nothing() -> None:
    for client, expected in (("modern:2026-07-28", "native"), ("legacy:2025-11-25", None)):
        spec = parse_peer(f"{client}+dcr-only", "client")
        plan = plan_for(spec.profile(spec.revisions[0]), spec.client_policy)
        _, asked = _drive(plan, AuthServer("http://mcp.example", LAYOUTS["prm"]))
        body = json.loads(next(f for f in asked if f.path == "/auth/register").body)
        assert body.get("application_type") == expected, client


def test_an_oidc_server_refuses_a_registration_without_application_type() -> None:
    refused = simulate("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm+dcr-app-type")
    assert refused.status == "failed"
    assert "register 400 -> no token" in _auth_steps(refused)[0]
    assert "the registration was refused: HTTP 400 (a web client (application_type omitted, " \
        "so web) may not register a loopback redirect URI)" in refused.reason
    accepted = simulate("modern:2026-07-28", "modern:2026-07-28+auth=prm+dcr-app-type")
    assert accepted.status == "ok", accepted.reason
    assert "register 201" in _auth_steps(accepted)[0]

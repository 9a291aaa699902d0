"""Scope selection and step-up authorization (scenario auth), read from the profiles.

2025-11-25 ``basic/authorization.mdx`` §Scope Selection Strategy: the first authorization
asks for the 401's ``scope``, else all of the protected resource metadata's
``scopes_supported``, else no ``scope``. §Step-Up Authorization Flow: on ``403
insufficient_scope`` a client re-authorizes with the challenge's scopes and retries, "no
more than a few times"; 2026-07-28 ``basic/authorization/index.mdx`` §Step-Up
Authorization Flow: with "the union of the client's previously requested scope set and the
scopes from the current challenge". The layout ``scoped`` challenges per operation, naming
only the missing scope (which 2026-07-28 §Runtime Insufficient Scope Errors allows).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from _auth_cases import drive, simulate

from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http._urlform import form_decode
from mcp_skew.simulator.http.auth._client import (
    STEP_UP_LIMIT,
    AuthResult,
    authorize,
    plan_for,
)
from mcp_skew.simulator.http.auth._server import AuthServer
from mcp_skew.versions import LAYOUTS, REGISTRY, rule_values
from mcp_skew.versions._plugins import load_profile_file

SCOPED = "dual:2026-07-28,2025-11-25,2025-06-18+auth=scoped"
MCP_URL = "http://mcp.example/mcp"


def _steps(record: object, head: str) -> list[str]:
    return [s for s in record.session.path if s.startswith(head)]  # type: ignore[attr-defined]


# -- scope selection, sans I/O ----------------------------------------------------------

def _drive(revision: str, server: AuthServer, challenge: HttpResponse,
           ) -> tuple[AuthResult, list[HttpRequest]]:
    """``authorize`` against ``server``'s URLs; the result and every request it made."""
    plan = plan_for(REGISTRY.get(revision), parse_peer(f"legacy:{revision}",
                                                       "client").client_policy)
    machine = authorize(plan, challenge, MCP_URL)
    return drive(machine, server)


def _scope_asked(asked: list[HttpRequest]) -> str | None:
    authorization = next(f for f in asked if f.path.startswith("/auth/authorize"))
    return form_decode(authorization.path.partition("?")[2]).get("scope")


def _challenge(value: str) -> HttpResponse:
    return HttpResponse(401, headers={"www-authenticate": value})


PRM_HEADER = 'Bearer resource_metadata="http://mcp.example/.well-known/oauth-protected-resource/mcp"'


@pytest.mark.parametrize(("layout", "header", "scope"), [
    # 1. the 401's scope comes first, whatever scopes_supported says
    ("scoped", PRM_HEADER + ', scope="files:read"', "files:read"),
    # 2. no scope in the 401: all of scopes_supported
    ("scoped", PRM_HEADER, "mcp:read"),
    # 3. neither: no scope parameter at all
    ("prm", PRM_HEADER, None),
])
def test_scope_selection_follows_the_spec_order(layout: str, header: str,
                                                scope: str | None) -> None:
    """2025-11-25 basic/authorization.mdx §Scope Selection Strategy."""
    result, asked = _drive("2025-11-25", AuthServer("http://mcp.example", LAYOUTS[layout]),
                           _challenge(header))
    assert result.token is not None, result.reason
    assert _scope_asked(asked) == scope
    token = next(f for f in asked if f.path == "/auth/token")
    assert form_decode(token.body.decode()).get("scope") is None  # scope goes on the request


def test_a_revision_without_the_rule_asks_for_no_scope() -> None:
    """2025-06-18 has no scope selection rule: the 401's scope is not read."""
    assert rule_values(REGISTRY.get("2025-06-18"), "client.scope") == ()
    result, asked = _drive("2025-06-18", AuthServer("http://mcp.example", LAYOUTS["scoped"]),
                           _challenge(PRM_HEADER + ', scope="files:read"'))
    assert result.token is not None and _scope_asked(asked) is None


# -- step-up, over the simulated link ----------------------------------------------------

def test_a_2026_client_steps_up_with_the_union_and_the_call_works() -> None:
    record = simulate("modern:2026-07-28", SCOPED)
    assert record.status == "ok", record.reason
    ups = _steps(record, "step-up")
    assert ups == ["step-up: 403 insufficient_scope (scope mcp:tools) -> step-up scope "
                   "mcp:read mcp:tools -> authorize 302 -> token 200 -> retry 200"]
    entries = [e for e in record.auth if e.get("step_up")]
    assert len(entries) == 1 and entries[0]["authorized"]
    # the step-up reuses the client id: one registration in the whole run
    assert sum("POST /auth/register" in n.text for n in record.transcript.notes) == 1


def test_a_2025_11_client_asks_for_the_challenge_only_and_gives_up_within_the_bound() -> None:
    """2025-11-25 §Step-Up Authorization Flow: scopes from the challenge; retry "no more than
    a few times". Against a per-operation challenge it loses mcp:read each time: bounded."""
    record = simulate("legacy:2025-11-25", SCOPED)
    assert record.status == "failed" and record.failed_step == "call a tool"
    ups = _steps(record, "step-up failed: 403 insufficient_scope")
    assert len(ups) == STEP_UP_LIMIT, record.session.path
    assert "step-up scope mcp:tools" in ups[0] and "step-up scope mcp:read " in ups[1]
    assert "no step-up left for tools/call" in record.reason
    posts = [e for e in record.transcript.entries
             if e.dir == "c2s" and e.message.get("method") == "tools/call"]
    assert len(posts) == 1 + STEP_UP_LIMIT  # the call, then one retry per step-up


def test_an_older_client_fails_with_the_403_said_plainly() -> None:
    record = simulate("legacy:2025-06-18", SCOPED)
    assert record.status == "failed" and record.failed_step == "call a tool"
    assert not _steps(record, "step-up")
    assert "HTTP 403 insufficient_scope (scope mcp:tools): this client (2025-06-18 rules) " \
        "does not step up" in record.reason


def test_the_dual_era_client_steps_up_at_the_revision_it_negotiated_rules() -> None:
    """The plan is the client's newest revision's: a dual-era 2026-07-28 client unions."""
    record = simulate("dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26", SCOPED)
    assert record.status == "ok", record.reason
    assert _steps(record, "step-up: ")


def test_a_draft_that_makes_2025_11_clients_union_changes_the_outcome(tmp_path: Path) -> None:
    """The step-up rule is profile data: a draft replacing ``client.step-up`` changes what a
    client asks for, with no code naming a revision."""
    draft = tmp_path / "draft.json"
    cite = {"revision": "2025-11-25-draft", "source": "https://example.com"}
    draft.write_text(json.dumps({
        "revision": "2025-11-25-draft", "extends": "2025-11-25",
        "changes": [{"id": "draft-union", "summary": "step-up asks for the union",
                     "impact": "behaviour", "cite": cite,
                     "replace": {"auth": {"client.step-up": {
                         "role": "client", "level": "SHOULD", "values": ["union"],
                         "rule": "clients SHOULD ask for the union", "cite": cite}}}}]}),
        encoding="utf-8")
    registry = REGISTRY.with_profile(load_profile_file(draft))
    server = "legacy:2025-11-25+auth=scoped"
    assert simulate("legacy:2025-11-25", server, registry).status == "failed"
    record = simulate("legacy:2025-11-25-draft,2025-11-25", server, registry)
    assert record.status == "ok", record.reason
    assert "step-up scope mcp:read mcp:tools" in _steps(record, "step-up: ")[0]


def test_the_scoped_server_answers_403_with_the_missing_scope() -> None:
    """RFC 6750 §3.1; 2025-11-25 §Runtime Insufficient Scope Errors."""
    server = AuthServer("http://mcp.example", LAYOUTS["scoped"])
    issued = server._issue(server.resource, "mcp:read")
    token = issued.body["access_token"]
    auth = {"authorization": f"Bearer {token}"}
    assert server.refuses(auth, "tools/list") is None
    refused = server.refuses(auth, "tools/call")
    assert refused is not None and refused.status == 403
    header = refused.headers["WWW-Authenticate"]
    assert header.startswith('Bearer error="insufficient_scope", scope="mcp:tools"')
    assert "resource_metadata=" in header
    assert server.challenge().headers["WWW-Authenticate"].endswith('scope="mcp:read"')
    assert server.prm_document()["scopes_supported"] == ["mcp:read"]


def test_the_step_up_run_is_deterministic() -> None:
    first: Callable[[], object] = lambda: simulate("legacy:2025-11-25", SCOPED).to_dict()  # noqa: E731
    assert json.dumps(first()) == json.dumps(first())


def test_a_challenge_that_adds_no_scope_gets_no_step_up() -> None:
    """A union client already holding the challenge's scopes asks for nothing (no loop)."""
    from mcp_skew.simulator.http.auth._client import AuthPath, step_up

    plan = plan_for(REGISTRY.get("2026-07-28"), parse_peer("modern:2026-07-28",
                                                           "client").client_policy)
    held = AuthResult(AuthPath(), token="t", scope="mcp:read mcp:tools", client_id="c",
                      endpoints={"authorization": "/a", "token": "/t"})
    machine = step_up(plan, held, HttpResponse(403, headers={"www-authenticate": 'Bearer error='
                                                             '"insufficient_scope", '
                                                             'scope="mcp:tools"'}),
                      MCP_URL)
    with pytest.raises(StopIteration) as done:
        next(machine)
    result = done.value.value
    assert result.token is None and "no scope beyond what this client asked for" in result.reason

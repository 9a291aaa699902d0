"""The named real clients carry their authorization behaviour in their catalogue model: the
Python ``mcp`` 1.x client, the TypeScript SDK 1.x client and the Inspector 2.12 CLI (``tests/interop/
test_auth_realpeer.py`` checks the real packages against these same names), so that
``simulate --scenario auth --client py-mcp@1.30`` predicts what they do."""

from __future__ import annotations

import pytest
from _auth_cases import auth_step

from mcp_skew.peers import resolve_peer
from mcp_skew.simulator import parse_peer, run
from mcp_skew.simulator.http.auth._client import plan_for
from mcp_skew.versions import REGISTRY

NAMED = ("py-mcp@1.30", "ts-sdk@1.32", "inspector@2.12")
#: layout -> (completes, a fragment of the auth path): docs/auth.md's real-client table
MEASURED = {
    "prm": (True, "register 201"), "prm-root": (True, "PRM /.well-known/oauth-protected-resource 200"),
    "oidc": (True, "/auth/.well-known/openid-configuration 200"), "compat": (True, "retry 200"),
    "no-dcr": (False, "no token"), "origin": (False, "retry 401"),
    "defaults": (False, "default endpoints /authorize /token /register"),
}


@pytest.mark.parametrize("name", NAMED)
@pytest.mark.parametrize("layout", sorted(MEASURED))
def test_a_named_client_authorizes_as_the_real_one_was_measured(name: str, layout: str) -> None:
    client = resolve_peer(name, "client", REGISTRY)
    record = run(client, parse_peer(f"legacy:2025-11-25+auth={layout}", "server"), "auth",
                 transport="http")
    works, fragment = MEASURED[layout]
    assert (record.status == "ok") is works, (name, layout, record.reason)
    assert fragment in auth_step(record), auth_step(record)


@pytest.mark.parametrize("name", NAMED)
def test_the_named_models_plan_has_the_real_clients_quirks(name: str) -> None:
    client = resolve_peer(name, "client", REGISTRY)
    plan = plan_for(client.profile(client.revisions[0]), client.client_policy)
    assert plan.registration == ("dynamic",)
    assert plan.as_issuer == ("prm", "mcp-origin")
    assert plan.defaults == ("/authorize", "/token", "/register")
    assert plan.resource_needs_prm


@pytest.mark.parametrize(("name", "works"), [("py-mcp@1.30", False), ("ts-sdk@1.32", False),
                                             ("inspector@2.12", True)])
def test_only_the_inspector_registers_as_a_native_client(name: str, works: bool) -> None:
    """Measured against serve's dcr-app-type: the Inspector sends application_type native,
    the two SDK 1.x clients send none and are refused."""
    record = run(resolve_peer(name, "client", REGISTRY),
                 parse_peer("legacy:2025-11-25+auth=prm+dcr-app-type", "server"), "auth",
                 transport="http")
    assert (record.status == "ok") is works, record.reason

"""What a client model asks an authorization server for, read from the model itself: its
discovery machine (:func:`mcp_skew.simulator.authorize`) driven against the simulated
authorization server of a protected server, for the real-client authorization checks."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

from mcp_skew.simulator import PeerSpec, RunRecord
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth import auth_server_for, authorize, plan_for

_ORIGIN = "http://127.0.0.1:1"


def _lower(headers: Mapping[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def first_scope(client: PeerSpec, server: PeerSpec) -> str:
    """The ``scope`` of the model's first authorization request ('' when it asks none, or
    never gets as far as asking)."""
    auth = auth_server_for(server, _ORIGIN)
    assert auth is not None, "not a protected server"
    plan = plan_for(client.profile(client.revisions[0]), client.client_policy)
    machine = authorize(plan, HttpResponse(401, headers=_lower(auth.challenge().headers)),
                        _ORIGIN + "/mcp")
    try:
        fetch = next(machine)
        while "/authorize?" not in fetch.path:
            answer = auth.handle(HttpRequest(fetch.method, fetch.path, _lower(fetch.headers),
                                             fetch.body))
            # None: not an authorization URL (the MCP server's 404)
            fetch = machine.send(HttpResponse(404) if answer is None else HttpResponse(
                answer.status, answer.encoded(), _lower(answer.headers)))
    except StopIteration:
        return ""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(fetch.path).query)
    return " ".join(query.get("scope", []))


def lists(predicted: RunRecord) -> bool:
    """Whether the model lists tools: the drivers list tools only, so a server whose scopes
    a call would need (``scoped``) is judged on the listing."""
    return bool(predicted.status == "ok" or predicted.failed_step == "call a tool")


def reauthorizations(predicted: RunRecord) -> list[str]:
    """The scope of each authorization the model makes after a 403 insufficient_scope, read
    from its path (``step-up scope X`` or ``authorize again, scope X``)."""
    scopes = []
    for step in predicted.session.path:
        for hop in str(step).split(" -> "):
            for head in ("step-up scope ", "authorize again, scope "):
                if hop.startswith(head):
                    scopes.append(hop.removeprefix(head))
    return scopes

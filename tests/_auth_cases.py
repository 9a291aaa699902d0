"""The authorization cases (scenario auth), shared by ``tests/unit/test_auth_cases.py``
(one test each) and ``tests/unit/test_auth_doc.py`` (the table of ``docs/auth.md``)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth import AuthServer
from mcp_skew.versions import REGISTRY

__all__ = ["ALL_REVS", "CASES", "Case", "auth_step", "drive", "simulate"]

ALL_REVS = "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26"


def simulate(client: str, server: str, registry: Any = REGISTRY) -> RunRecord:
    return run(parse_peer(client, "client", registry), parse_peer(server, "server", registry),
               "auth", transport="http")


def auth_step(record: RunRecord) -> str:
    steps = [s for s in record.session.path if s.kind == "auth"]
    assert len(steps) == 1, record.session.path
    return str(steps[0])


@dataclass(frozen=True)
class Case:
    name: str
    client: str
    server: str
    works: bool
    #: fragments the auth path holds, in order
    path: tuple[str, ...]
    cite: str  #: the spec rule
    report: str  #: where the failure was seen


CASES = (
    Case("2025-03-26 client, authorization server elsewhere: metadata 404, defaults 404",
         "legacy:2025-03-26", "legacy:2025-06-18,2025-03-26", False,
         ("401 (resource_metadata)", "AS metadata /.well-known/oauth-authorization-server 404",
          "default endpoints /authorize /token /register", "register 404"),
         "2025-03-26 basic/authorization.mdx §Authorization Base URL, §Fallbacks",
         "mcp-remote issue 192; Supabase's MCP server"),
    Case("2025-03-26 client, server of its own revision: metadata at the origin",
         "legacy:2025-03-26", "legacy:2025-03-26", True,
         ("AS metadata /.well-known/oauth-authorization-server 200", "register 201",
          "authorize 302", "token 200", "retry 200"),
         "2025-03-26 basic/authorization.mdx §Server Metadata Discovery", "the spec's flow"),
    Case("2025-06-18 client, no protected resource metadata (origin metadata only): strict",
         "legacy:2025-06-18", "legacy:2025-06-18+auth=origin", False,
         ("401", "no authorization server"),
         "2025-06-18 basic/authorization.mdx §Authorization Server Location",
         "Cloudflare and Atlassian servers; workers-oauth-provider issue 137"),
    Case("2025-06-18 client that falls back to the origin (the TypeScript SDK): lenient",
         "legacy:2025-06-18+auth-origin-fallback", "legacy:2025-06-18+auth=origin", True,
         ("AS metadata /.well-known/oauth-authorization-server 200", "retry 200"),
         "(a departure from 2025-06-18 §Authorization Server Location)",
         "the TypeScript SDK client; workers-oauth-provider issue 137"),
    Case("root-only protected resource metadata, 2025-06-18 client (header only)",
         "legacy:2025-06-18", "legacy:2025-11-25,2025-06-18+auth=prm-root", False,
         ("401", "no authorization server"),
         "2025-06-18 basic/authorization.mdx §Authorization Server Location",
         "typescript-sdk issue 2783"),
    Case("root-only protected resource metadata, 2025-11-25 client: path 404, root 200",
         "legacy:2025-11-25", "legacy:2025-11-25+auth=prm-root", True,
         ("PRM /.well-known/oauth-protected-resource/mcp 404",
          "PRM /.well-known/oauth-protected-resource 200", "retry 200"),
         "2025-11-25 basic/authorization.mdx §Protected Resource Metadata Discovery "
         "Requirements", "typescript-sdk issue 2783"),
    Case("OpenID-only authorization server, client that reads RFC 8414 only",
         "legacy:2025-11-25+rfc8414-only", "legacy:2025-11-25+auth=oidc", False,
         ("AS metadata /.well-known/oauth-authorization-server/auth 404",
          "no authorization server metadata"),
         "2025-11-25 basic/authorization.mdx §Authorization Server Metadata Discovery",
         "typescript-sdk issue 616"),
    Case("OpenID-only authorization server, 2025-11-25 client: tries all three in order",
         "legacy:2025-11-25", "legacy:2025-11-25+auth=oidc", True,
         ("/.well-known/oauth-authorization-server/auth 404",
          "/.well-known/openid-configuration/auth 404",
          "/auth/.well-known/openid-configuration 200", "retry 200"),
         "2025-11-25 basic/authorization.mdx §Authorization Server Metadata Discovery",
         "typescript-sdk issue 616"),
    Case("no dynamic registration, client that registers only dynamically",
         "legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=no-dcr", False,
         ("AS metadata /.well-known/oauth-authorization-server/auth 200", "no token"),
         "2025-11-25 basic/authorization.mdx §Client Registration Approaches",
         "mcp-remote and most 2025 clients against pre-registration-only servers"),
    Case("no dynamic registration, 2025-11-25 client: a client ID metadata document",
         "legacy:2025-11-25", "legacy:2025-11-25+auth=no-dcr", True,
         ("client id metadata document", "authorize 302", "retry 200"),
         "2025-11-25 basic/authorization.mdx §Client ID Metadata Documents", "the spec's flow"),
    Case("audience: a 2025-03-26 client sends no resource, the server checks the audience",
         "legacy:2025-03-26", "legacy:2025-06-18,2025-03-26+auth=compat", False,
         ("AS metadata /.well-known/oauth-authorization-server 200", "token 200",
          "retry 401"),
         "2025-06-18 basic/authorization.mdx §Token Handling, §Resource Parameter "
         "Implementation", "the official example server's metadata shim for old clients"),
    Case("a wrong iss against a 2026-07-28 client",
         "modern:2026-07-28", "modern:2026-07-28+wrong-iss", False,
         ("authorize 302", "no token"),
         "2026-07-28 basic/authorization/index.mdx §Authorization Response Validation",
         "RFC 9207 §2.4 (mix-up)"),
    Case("a missing iss (advertised) against a 2026-07-28 client",
         "modern:2026-07-28", "modern:2026-07-28+no-iss", False,
         ("authorize 302", "no token"),
         "2026-07-28 basic/authorization/index.mdx §Authorization Response Validation",
         "RFC 9207 §2.4"),
    Case("a wrong iss against a 2025-11-25 client, which does not check it",
         "legacy:2025-11-25", "dual:2026-07-28,2025-11-25+wrong-iss", True,
         ("authorize 302", "token 200", "retry 200"),
         "2025-11-25 basic/authorization.mdx (no iss rule)", "RFC 9207 §2.4"),
)


def drive(machine: Generator[HttpRequest, HttpResponse, Any], server: AuthServer,
          ) -> tuple[Any, list[HttpRequest]]:
    """Answer each request of an ``authorize`` machine with ``server``'s own answer; the
    machine's result and every request it made."""
    asked: list[HttpRequest] = []
    try:
        fetch = next(machine)
        while True:
            asked.append(fetch)
            got = server.handle(HttpRequest(fetch.method, fetch.path, {}, fetch.body))
            assert got is not None, fetch.path
            fetch = machine.send(HttpResponse(got.status, got.encoded(),
                                              {k.lower(): v for k, v in got.headers.items()}))
    except StopIteration as done:
        return done.value, asked

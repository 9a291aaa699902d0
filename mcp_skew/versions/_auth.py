"""Authorization across revisions, as data: what a protected server publishes and how a
client of each revision discovers its authorization server.

Theory of operation
-------------------
The profiles' ``auth`` table holds :class:`AuthRule` rows, one per rule of a revision's
``basic/authorization`` page. A row names its role (``server.*`` or ``client.*``), how
strongly the spec binds it, an ordered tuple of values the simulator reads, the spec's
words and where they are. Every revision's rows come in as changes (:func:`changes`), so
``docs/generated/profiles`` shows them and a draft profile file can ``replace`` one (a
draft that changes ``client.prm`` changes the URLs a simulated client asks for).

The values, by row (the simulator in ``mcp_skew.simulator.http.auth._client`` and
``mcp_skew.simulator.http.auth._server`` read nothing else):

- ``client.prm``: where a client looks for protected resource metadata (RFC 9728), in
  order: ``header`` (the ``resource_metadata`` parameter of ``WWW-Authenticate``),
  ``path`` (``/.well-known/oauth-protected-resource/<mcp path>``), ``root``
  (``/.well-known/oauth-protected-resource``); empty: the revision has none.
- ``client.as-issuer``: where the issuer comes from: ``prm`` (its
  ``authorization_servers``) or ``mcp-origin`` (the MCP URL without its path,
  2025-03-26's authorization base URL).
- ``client.as-metadata``: the well-known URLs tried for the issuer, in order:
  ``rfc8414`` (``/.well-known/oauth-authorization-server`` inserted before the issuer's
  path), ``oidc-inserted``, ``oidc-appended`` (OpenID Connect Discovery).
- ``client.default-endpoints``: the endpoints used when no metadata answers.
- ``client.resource``: ``resource`` (RFC 8707) sent on authorization and token requests.
- ``client.registration``: how a client obtains a client id, in its order of preference:
  ``pre-registered``, ``metadata-document``, ``dynamic``.
- ``client.pkce``: ``S256``, and ``verify-metadata`` (refuse an authorization server whose
  metadata lacks ``code_challenge_methods_supported``).
- ``client.iss``: ``validate`` (RFC 9207 ``iss`` in the authorization response).
- ``client.issuer-match``: ``validate`` (the metadata's ``issuer`` equals the issuer).
- ``client.scope``: where the scope of the first authorization comes from, in order:
  ``challenge`` (the ``scope`` of the 401's ``WWW-Authenticate``), ``scopes-supported``
  (all of the protected resource metadata's ``scopes_supported``); none: no ``scope``.
- ``client.step-up``: how a client answers ``403`` with ``error="insufficient_scope"``:
  ``challenge`` (re-authorize with the challenge's scopes), ``union`` (with the union of
  the scopes it asked for before and the challenge's); empty: it does not step up, the
  403 is the request's error.
- ``client.credentials``: what a client keys the client id it obtained by: ``per-issuer``
  (the authorization server's issuer: a client sent to another authorization server
  registers again); empty: the revision says nothing, and the simulated client keys it by
  the MCP server (so it presents the old client id to a new authorization server).
- ``client.application-type``: the ``application_type`` a dynamic registration carries
  (``native``: the simulated client's redirect URI is on the loopback); empty: none.
- ``server.*``: what a plain protected server of the revision publishes (the layout
  :func:`plain_layout` derives); ``server.audience``: it accepts only tokens issued for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from ._profile import Change, Cite, Impact, Obligation, Profile

__all__ = ["AUTH_RULES", "LAYOUTS", "AuthRule", "changes", "plain_layout", "rule_values"]

AuthRole = Literal["server", "client"]


@dataclass(frozen=True, slots=True)
class AuthRule:
    """One authorization rule of a revision: who, how strongly, the values, the words."""

    role: AuthRole
    level: Obligation
    values: tuple[str, ...]
    rule: str  #: the spec's words, with their RFC 2119 keyword
    cite: Cite


#: Every row name the simulator reads; a profile file may add no other.
AUTH_RULES: Final = (
    "client.prm", "client.as-issuer", "client.as-metadata", "client.default-endpoints",
    "client.resource", "client.registration", "client.pkce", "client.iss",
    "client.issuer-match", "client.scope", "client.step-up", "client.credentials",
    "client.application-type",
    "server.prm", "server.as-location", "server.as-metadata", "server.registration",
    "server.audience", "server.iss",
)

#: What each simulated server layout (server quirk ``auth=LAYOUT``) publishes:
#: ``prm-header`` (``resource_metadata`` in ``WWW-Authenticate``), ``prm-path``,
#: ``prm-root`` (protected resource metadata at that well-known URL), ``as-origin``
#: (the authorization server at the MCP origin, its RFC 8414 metadata at the root),
#: ``as-rfc8414``, ``as-oidc`` (an authorization server of its own, issuer ``/auth``, with
#: that metadata), ``defaults`` (no metadata; ``/authorize``, ``/token``, ``/register`` at
#: the origin), ``dcr`` (a registration endpoint), ``cimd`` (client ID metadata documents),
#: ``iss`` (RFC 9207 ``iss`` in the authorization response), ``scopes`` (the MCP server wants
#: scopes: ``mcp:read`` for every request, ``mcp:tools`` as well for ``tools/call``; its 401
#: and its metadata name ``mcp:read``; a token short of a request's scopes gets ``403
#: insufficient_scope`` naming the missing ones only, which 2026-07-28 allows: "servers are
#: not required to include the client's previously granted scopes", ``basic/authorization/
#: index.mdx`` §Runtime Insufficient Scope Errors).
LAYOUTS: Final[Mapping[str, frozenset[str]]] = {
    "origin": frozenset({"as-origin", "dcr"}),
    "defaults": frozenset({"defaults", "dcr"}),
    "prm": frozenset({"prm-header", "prm-path", "as-rfc8414", "dcr"}),
    "prm-root": frozenset({"prm-root", "as-rfc8414", "dcr"}),
    "oidc": frozenset({"prm-header", "prm-path", "as-oidc", "dcr"}),
    "no-dcr": frozenset({"prm-header", "prm-path", "as-rfc8414", "cimd"}),
    "compat": frozenset({"prm-header", "prm-path", "prm-root", "as-rfc8414", "as-origin",
                         "dcr", "cimd", "iss"}),
    "scoped": frozenset({"prm-header", "prm-path", "as-rfc8414", "dcr", "scopes"}),
}


def rule_values(profile: Profile, name: str) -> tuple[str, ...]:
    """The values of ``name`` in ``profile``'s ``auth`` table (empty where it has none)."""
    rows = profile.tables.get("auth")
    row = rows.get(name) if isinstance(rows, Mapping) else None
    return row.values if isinstance(row, AuthRule) else ()


def plain_layout(profile: Profile) -> frozenset[str]:
    """What a protected server of ``profile``'s revision publishes, from its ``server.*``
    rows (empty: the revision has no authorization)."""
    published: set[str] = {f"prm-{where}" for where in rule_values(profile, "server.prm")}
    separate = "separate" in rule_values(profile, "server.as-location")
    if "origin" in rule_values(profile, "server.as-location"):
        published.add("as-origin")
    for kind in rule_values(profile, "server.as-metadata") if separate else ():
        published.add(f"as-{kind}")
    registration = {"dynamic": "dcr", "metadata-document": "cimd"}
    published |= {registration[r] for r in rule_values(profile, "server.registration")}
    published |= set(rule_values(profile, "server.iss"))
    published |= set(rule_values(profile, "server.audience"))
    return frozenset(published)


# -- the rules, per revision ---------------------------------------------------------------

_R03, _R06, _R11, _R26 = "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"
_A03 = _A06 = _A11 = "basic/authorization.mdx"
_A26 = "basic/authorization/index.mdx"
_D26 = "basic/authorization/authorization-server-discovery.mdx"
_C26 = "basic/authorization/client-registration.mdx"
MUST, SHOULD = Obligation.MUST, Obligation.SHOULD


def _c(role: AuthRole, level: Obligation, values: tuple[str, ...], rule: str,
       cite: Cite) -> AuthRule:
    return AuthRule(role, level, values, rule, cite)


_ROWS_2025_03_26: Final = {
    "client.prm": _c("client", Obligation.NONE, (), "no protected resource metadata in this "
                     "revision", Cite(_R03, _A03, "Server Metadata Discovery")),
    "client.as-issuer": _c("client", MUST, ("mcp-origin",), "The authorization base URL MUST "
                           "be determined from the MCP server URL by discarding any existing "
                           "path component", Cite(_R03, _A03, "Authorization Base URL")),
    "client.as-metadata": _c("client", MUST, ("rfc8414",), "MCP clients MUST follow the OAuth "
                             "2.0 Authorization Server Metadata protocol defined in RFC8414",
                             Cite(_R03, _A03, "Server Metadata Discovery")),
    "client.default-endpoints": _c("client", MUST, ("/authorize", "/token", "/register"),
                                   "For servers that do not implement OAuth 2.0 Authorization "
                                   "Server Metadata, clients MUST use the following default "
                                   "endpoint paths", Cite(_R03, _A03, "Fallbacks for Servers "
                                                          "without Metadata Discovery")),
    "client.registration": _c("client", SHOULD, ("pre-registered", "dynamic"), "MCP clients "
                              "and servers SHOULD support the OAuth 2.0 Dynamic Client "
                              "Registration Protocol", Cite(_R03, _A03, "Dynamic Client "
                                                            "Registration")),
    "client.pkce": _c("client", MUST, ("S256",), "PKCE is REQUIRED for all clients (OAuth 2.1)",
                      Cite(_R03, _A03, "Authorization Flow Steps")),
    "server.as-location": _c("server", MUST, ("origin",), "The metadata endpoint MUST be at "
                             "<authorization base URL>/.well-known/oauth-authorization-server",
                             Cite(_R03, _A03, "Authorization Base URL")),
    "server.as-metadata": _c("server", SHOULD, ("rfc8414",), "MCP servers SHOULD ... implement "
                             "OAuth 2.0 Authorization Server Metadata (RFC8414); servers that "
                             "do not MUST follow the default URI schema",
                             Cite(_R03, _A03, "Overview")),
    "server.registration": _c("server", SHOULD, ("dynamic",), "MCP clients and servers SHOULD "
                              "support the OAuth 2.0 Dynamic Client Registration Protocol",
                              Cite(_R03, _A03, "Dynamic Client Registration")),
}

_ROWS_2025_06_18: Final = {
    "client.prm": _c("client", MUST, ("header",), "MCP clients MUST use OAuth 2.0 Protected "
                     "Resource Metadata for authorization server discovery ... MUST be able to "
                     "parse WWW-Authenticate headers", Cite(_R06, _A06, "Authorization Server "
                                                            "Location")),
    "client.as-issuer": _c("client", MUST, ("prm",), "The Protected Resource Metadata document "
                           "... MUST include the authorization_servers field",
                           Cite(_R06, _A06, "Authorization Server Location")),
    "client.as-metadata": _c("client", MUST, ("rfc8414",), "MCP clients MUST follow the OAuth "
                             "2.0 Authorization Server Metadata RFC8414 specification",
                             Cite(_R06, _A06, "Server Metadata Discovery")),
    "client.default-endpoints": _c("client", Obligation.NONE, (), "no default endpoints: the "
                                   "authorization server is found through its metadata",
                                   Cite(_R06, _A06, "Authorization Server Discovery")),
    "client.resource": _c("client", MUST, ("resource",), "MCP clients MUST send this parameter "
                          "regardless of whether authorization servers support it",
                          Cite(_R06, _A06, "Resource Parameter Implementation")),
    "server.prm": _c("server", MUST, ("header", "path"), "MCP servers MUST use the HTTP header "
                     "WWW-Authenticate when returning a 401 Unauthorized to indicate the "
                     "location of the resource server metadata URL",
                     Cite(_R06, _A06, "Authorization Server Location")),
    "server.audience": _c("server", MUST, ("audience",), "MCP servers MUST validate that "
                          "access tokens were issued specifically for them as the intended "
                          "audience", Cite(_R06, _A06, "Token Handling")),
    "server.as-location": _c("server", MUST, ("separate",), "The MCP server acts as an OAuth "
                             "2.1 resource server; the authorization server may be hosted with "
                             "it or be a separate entity", Cite(_R06, _A06, "Roles")),
    "server.as-metadata": _c("server", MUST, ("rfc8414",), "Authorization servers MUST provide "
                             "OAuth 2.0 Authorization Server Metadata (RFC8414)",
                             Cite(_R06, _A06, "Overview")),
}

_NEW_2025_06_18: Final = ("client.resource", "server.prm", "server.audience")

_ROWS_2025_11_25: Final = {
    "client.prm": _c("client", MUST, ("header", "path", "root"), "MCP clients MUST support "
                     "both discovery mechanisms and use the resource metadata URL from the "
                     "parsed WWW-Authenticate headers when present; otherwise, they MUST fall "
                     "back to constructing and requesting the well-known URIs in the order "
                     "listed above", Cite(_R11, _A11, "Protected Resource Metadata Discovery "
                                          "Requirements")),
    "client.as-metadata": _c("client", MUST, ("rfc8414", "oidc-inserted", "oidc-appended"),
                             "MCP clients MUST attempt multiple well-known endpoints ... in "
                             "the following priority order", Cite(_R11, _A11, "Authorization "
                                                                 "Server Metadata Discovery")),
    "client.registration": _c("client", SHOULD, ("pre-registered", "metadata-document",
                                                 "dynamic"),
                              "Clients supporting all options SHOULD follow the following "
                              "priority order", Cite(_R11, _A11, "Client Registration "
                                                     "Approaches")),
    "client.scope": _c("client", SHOULD, ("challenge", "scopes-supported"), "During the "
                       "initial authorization handshake, MCP clients SHOULD follow this "
                       "priority order for scope selection: Use scope parameter from the "
                       "initial WWW-Authenticate header ... If scope is not available, use all "
                       "scopes defined in scopes_supported ... omitting the scope parameter if "
                       "scopes_supported is undefined", Cite(_R11, _A11, "Scope Selection "
                                                             "Strategy")),
    "client.step-up": _c("client", SHOULD, ("challenge",), "Clients acting on behalf of a "
                         "user SHOULD attempt the step-up authorization flow: Determine "
                         "required scopes as outlined in Scope Selection Strategy ... Retry the "
                         "original request with the new authorization no more than a few "
                         "times", Cite(_R11, _A11, "Step-Up Authorization Flow")),
    "client.pkce": _c("client", MUST, ("S256", "verify-metadata"), "If "
                      "code_challenge_methods_supported is absent ... MCP clients MUST refuse "
                      "to proceed", Cite(_R11, _A11, "Authorization Code Protection")),
    "server.as-metadata": _c("server", MUST, ("rfc8414", "oidc"), "MCP authorization servers "
                             "MUST provide at least one of the following discovery mechanisms",
                             Cite(_R11, _A11, "Overview")),
    "server.registration": _c("server", SHOULD, ("metadata-document", "dynamic"),
                              "Authorization servers and MCP clients SHOULD support OAuth "
                              "Client ID Metadata Documents", Cite(_R11, _A11, "Overview")),
}

_NEW_2025_11_25: Final = ("client.scope", "client.step-up")

_ROWS_2026_07_28: Final = {
    "client.iss": _c("client", MUST, ("validate",), "On receiving the authorization response, "
                     "MCP clients MUST apply the validation in RFC9207 Section 2.4 before "
                     "transmitting the authorization code", Cite(_R26, _A26, "Authorization "
                                                                 "Response Validation")),
    "client.issuer-match": _c("client", MUST, ("validate",), "the issuer value in the document "
                              "MUST be identical to the issuer identifier used to construct "
                              "the well-known URL", Cite(_R26, _D26, "Authorization Server "
                                                         "Metadata Discovery")),
    "client.credentials": _c("client", MUST, ("per-issuer",), "Clients that use "
                             "pre-registered credentials, or persist client credentials "
                             "obtained via Dynamic Client Registration, MUST associate those "
                             "credentials with the specific authorization server that issued "
                             "them, keyed by the authorization server's issuer identifier ... "
                             "MUST NOT reuse client credentials from a different authorization "
                             "server and MUST re-register", Cite(_R26, _C26, "Authorization "
                                                                 "Server Binding")),
    "client.application-type": _c("client", MUST, ("native",), "MCP clients MUST specify an "
                                  "appropriate application_type during Dynamic Client "
                                  "Registration ... Native applications (desktop applications, "
                                  "mobile apps, CLI tools, and locally-hosted web applications "
                                  "accessed via localhost) SHOULD use application_type: native",
                                  Cite(_R26, _C26, "Application Type and Redirect URI "
                                       "Constraints")),
    "server.iss": _c("server", SHOULD, ("iss",), "MCP authorization servers SHOULD include the "
                     "iss parameter in authorization responses", Cite(_R26, _A26,
                                                                      "Authorization Response "
                                                                      "Validation")),
}

#: 2026-07-28 replaces: dynamic registration is deprecated (still the last resort); a
#: step-up asks for the union of the scopes asked for before and the challenge's.
_REPLACED_2026_07_28: Final = {
    "client.step-up": _c("client", SHOULD, ("union",), "Determine required scopes by "
                         "computing the union of the client's previously requested scope set "
                         "and the scopes from the current challenge ... Retry the original "
                         "request with the new authorization no more than a few times",
                         Cite(_R26, _A26, "Step-Up Authorization Flow")),
    "client.registration": _c("client", SHOULD, ("pre-registered", "metadata-document",
                                                 "dynamic"),
                              "Clients supporting all options SHOULD use the following priority "
                              "order; Dynamic Client Registration is deprecated, and MCP "
                              "clients MUST specify an appropriate application_type",
                              Cite(_R26, _C26, "Dynamic Client Registration")),
}


def changes(revision: str) -> tuple[Change, ...]:
    """The authorization changes a built-in revision makes to the ``auth`` table."""
    if revision == _R03:
        return (Change(
            id="auth-oauth21", summary="Authorization (OAuth 2.1) for HTTP: authorization "
            "server metadata (RFC 8414) at the MCP origin, else /authorize, /token, /register "
            "there; dynamic client registration SHOULD", cite=Cite(_R03, _A03),
            impact=Impact.ADDITIVE, add={"auth": _ROWS_2025_03_26}, transport="http"),)
    if revision == _R06:
        return (Change(
            id="auth-protected-resource-metadata", summary="Clients find the authorization "
            "server through protected resource metadata (RFC 9728), named by "
            "WWW-Authenticate resource_metadata; no default endpoints; resource (RFC 8707) "
            "on every authorization and token request", cite=Cite(_R06, _A06,
                                                                 "Authorization Server "
                                                                 "Discovery"),
            impact=Impact.BREAKING, transport="http",
            add={"auth": {k: v for k, v in _ROWS_2025_06_18.items()
                          if k in _NEW_2025_06_18}},
            replace={"auth": {k: v for k, v in _ROWS_2025_06_18.items()
                              if k not in _NEW_2025_06_18}},
            steps=("Servers: serve protected resource metadata and name it in the "
                   "WWW-Authenticate of every 401; keep authorization server metadata at the "
                   "origin for 2025-03-26 clients.",
                   "Clients: read resource_metadata from the 401, then the authorization "
                   "server's metadata; send resource."),
        ),)
    if revision == _R11:
        return (Change(
            id="auth-discovery-fallbacks", summary="Protected resource metadata also at the "
            "path-inserted or root well-known URL (clients try the header, then both); "
            "authorization servers offer RFC 8414 or OpenID Connect discovery (clients try "
            "both, in order); client ID metadata documents; PKCE support verified; scope "
            "selection (the 401's scope, else scopes_supported) and step-up on 403 "
            "insufficient_scope",
            cite=Cite(_R11, _A11, "Authorization Server Discovery"),
            impact=Impact.BEHAVIOUR, transport="http",
            add={"auth": {k: v for k, v in _ROWS_2025_11_25.items() if k in _NEW_2025_11_25}},
            replace={"auth": {k: v for k, v in _ROWS_2025_11_25.items()
                              if k not in _NEW_2025_11_25}},
            steps=("Servers: serve protected resource metadata at "
                   "/.well-known/oauth-protected-resource/<path> (or the root) as well as in "
                   "WWW-Authenticate; the authorization server may offer RFC 8414 or OpenID "
                   "Connect discovery.",
                   "Clients: try resource_metadata, then "
                   "/.well-known/oauth-protected-resource/<path>, then the root; then "
                   "oauth-authorization-server and openid-configuration; ask for the 401's "
                   "scope, else scopes_supported; on 403 insufficient_scope, re-authorize "
                   "with the challenge's scope and retry, a bounded number of times.",),
        ),)
    if revision == _R26:
        return (Change(
            id="auth-iss-validation", summary="The authorization response's iss (RFC 9207) is "
            "validated; the metadata issuer must match; dynamic registration deprecated, "
            "with application_type; client credentials kept per authorization server; a "
            "step-up asks for the union of the scopes asked for before and the challenge's",
            cite=Cite(_R26, _A26, "Authorization Response Validation"),
            impact=Impact.BEHAVIOUR, transport="http", add={"auth": _ROWS_2026_07_28},
            replace={"auth": _REPLACED_2026_07_28},
            steps=("Authorization servers: send iss in the authorization response and "
                   "advertise authorization_response_iss_parameter_supported.",
                   "Clients: reject a response whose iss differs from the issuer (or is "
                   "missing where the metadata says it is sent); on a step-up, ask for the "
                   "union of the scopes asked for before and the challenge's; key client "
                   "credentials by the authorization server's issuer and register again with "
                   "a new one; send application_type in a dynamic registration."),
        ),)
    return ()

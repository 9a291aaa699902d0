"""A protected MCP server and its authorization server, sans I/O, over the simulated HTTP.

Theory of operation
-------------------
:class:`AuthServer` answers the authorization URLs of one origin; what it publishes is a
*layout*, a set of tokens (:data:`mcp_skew.versions._auth.LAYOUTS`): the server quirk
``auth=LAYOUT`` names one, else the server's newest revision decides
(:func:`~mcp_skew.versions._auth.plain_layout`: a 2025-06-18 server publishes protected
resource metadata and names it in ``WWW-Authenticate``, as its ``server.*`` rules say).

- Protected resource metadata (RFC 9728) at ``/.well-known/oauth-protected-resource/mcp``
  (``prm-path``) and/or the root (``prm-root``); a 401 names it in
  ``WWW-Authenticate: Bearer resource_metadata="..."`` where the layout has ``prm-header``.
- The authorization server is at the MCP origin (``as-origin``: RFC 8414 metadata at
  ``/.well-known/oauth-authorization-server``; ``defaults``: no metadata, the 2025-03-26
  default endpoints) or has an issuer of its own, ``<origin>/auth``, whose metadata is at
  the RFC 8414 path-inserted URL (``as-rfc8414``) or the OpenID Connect path-appended one
  (``as-oidc``, ``/auth/.well-known/openid-configuration``).
- ``/authorize`` approves at once (the test authorization server: no user), with PKCE
  S256, and redirects with ``code``, ``state`` and, with ``iss`` in the layout, ``iss``
  (RFC 9207; server quirks ``no-iss`` and ``wrong-iss`` break it). ``/token`` takes the
  authorization code (its verifier checked) or client credentials; a ``resource`` other
  than the MCP server's URL is ``invalid_target`` (RFC 8707). ``/register`` is dynamic
  client registration (RFC 7591), only with ``dcr``; ``cimd`` accepts an HTTPS URL as a
  client id (client ID metadata documents).
- With ``scopes`` in the layout the MCP endpoint wants scopes (:data:`SCOPES_NEEDED`): its
  401 names ``scope="mcp:read"``, its protected resource metadata ``scopes_supported``;
  the authorization server grants what is asked for (``mcp:read`` when nothing is); a
  token short of a request's scopes gets ``403`` with ``WWW-Authenticate: Bearer
  error="insufficient_scope", scope="<the missing ones>"`` (2025-11-25
  ``basic/authorization.mdx`` §Runtime Insufficient Scope Errors).
- Server quirk ``dcr-app-type``: dynamic registration applies OpenID Connect Dynamic Client
  Registration's ``application_type`` (omitted: ``web``), refusing a web client a loopback
  redirect URI (2026-07-28 ``basic/authorization/client-registration.mdx`` §Application
  Type and Redirect URI Constraints: such servers "may enforce additional constraints").
  Server quirk ``strict-scopes``: an authorization request naming a scope the server does
  not publish (with ``scopes``: ``mcp:read``, ``mcp:tools``; else none) is redirected with
  ``error=invalid_scope`` (RFC 6749 §4.1.2.1). Server quirk ``as-moves``: once a
  ``tools/list`` was served, the MCP server moves to another authorization server
  (issuer ``/auth2``, which knows none of ``/auth``'s clients and tokens): the next
  request's token is refused, 401.
- The MCP endpoint wants ``Authorization: Bearer <token>``; a server whose revision binds
  it to audience validation (``server.audience``, 2025-06-18 ``basic/authorization.mdx``
  §Token Handling) refuses a token issued for another resource, or for none.

Tokens, authorization codes and client ids are unguessable and bound to what they are for:
each is an HMAC-SHA256, under the server's ``secret``, of its kind, a counter and what it is
bound to (a token's resource, a code's client and resource), so that one issued by another
server, or made up, is unknown here. ``serve`` passes ``os.urandom`` bytes; the simulator a
fixed :data:`SIMULATED_SECRET`, so that its runs stay deterministic. A token is accepted only
where it is in this server's table and, on a server that checks audiences, was issued for
this server's resource (RFC 8707 §2; 2025-06-18 and 2025-11-25 ``basic/authorization.mdx``
§Token Handling: "MCP servers MUST validate that access tokens were issued specifically for
them as the intended audience").

Redirect URIs (2025-11-25 ``basic/authorization.mdx`` §Communication Security: "All redirect
URIs MUST be either localhost or use HTTPS"; §Open Redirection: "Authorization servers MUST
validate exact redirect URIs against pre-registered values"): a registration is refused
(400 ``invalid_redirect_uri``) unless each of its ``redirect_uris`` is ``https`` or ``http``
on the loopback, without a fragment (RFC 6749 §3.1.2); an authorization request is
answered with a redirect only to a URI its client registered, exactly; else 400, no
redirect (OAuth 2.1 §4.1.2.1). The test authorization server fetches no client ID metadata
document (it does no I/O): for a client id that is one (``https`` with a path), it takes the
document to list redirect URIs on the loopback or on the client id's own origin, and no
other, so that no client id can send a code to a third party.

Bounded (an unauthenticated client can reach all of it): a form or JSON body of the token
and registration endpoints over :data:`AUTH_BODY_BYTES` is 413 before it is parsed; a stored
field over its cap (:data:`FIELD_CHARS`, :data:`MAX_REDIRECT_URIS`) is refused; and each
table keeps at most its cap (:data:`MAX_CLIENTS`, :data:`MAX_CODES`, :data:`MAX_TOKENS`), the
oldest entry dropped to make room (dropped: a client registers again, a token or a code is
refused as unknown).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ....versions import LAYOUTS, plain_layout
from ..._peers import PeerSpec
from .._endpoint import HttpEndpoint, mcp_route
from .._urlform import form_decode, form_encode
from .._words import HttpRequest, HttpResponse, RequestTarget
from ._limits import (
    AUTH_BODY_BYTES,
    FIELD_CHARS,
    MAX_CLIENTS,
    MAX_CODES,
    MAX_REDIRECT_URIS,
    MAX_TOKENS,
    bounded,
    origin_of,
    redirect_ok,
    too_long,
)

__all__ = [
    "AS_PATH",
    "AUTH_BODY_BYTES",
    "BASIC_SCOPE",
    "FIELD_CHARS",
    "MAX_CLIENTS",
    "MAX_CODES",
    "MAX_REDIRECT_URIS",
    "MAX_TOKENS",
    "PRE_REGISTERED",
    "PRM_WELL_KNOWN",
    "SIMULATED_SECRET",
    "AuthServer",
    "ProtectedEndpoint",
    "auth_server_for",
    "guard",
    "layout_of",
    "pkce_challenge",
]

#: The issuer path of an authorization server of its own (not at the MCP origin).
AS_PATH: Final = "/auth"
PRM_WELL_KNOWN: Final = "/.well-known/oauth-protected-resource"
AS_WELL_KNOWN: Final = "/.well-known/oauth-authorization-server"
OIDC_WELL_KNOWN: Final = "/.well-known/openid-configuration"
#: A confidential client every simulated authorization server knows (client credentials).
PRE_REGISTERED: Final = ("mcp-skew-preregistered", "mcp-skew-secret")
#: With ``scopes`` in the layout: what every MCP request needs, and what some methods need
#: as well; the scopes a token gets when none are asked for.
BASIC_SCOPE: Final = "mcp:read"
SCOPES_NEEDED: Final[Mapping[str, frozenset[str]]] = {
    "tools/call": frozenset({BASIC_SCOPE, "mcp:tools"})}
#: The key of the simulator's authorization servers (``serve`` passes random bytes instead).
SIMULATED_SECRET: Final = b"mcp-skew simulated authorization server"



def pkce_challenge(verifier: str) -> str:
    """The S256 code challenge of ``verifier`` (RFC 7636 §4.2)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def layout_of(spec: PeerSpec) -> frozenset[str]:
    """What a protected server of ``spec`` publishes: its ``auth=LAYOUT`` quirk, else what
    its newest revision requires (empty: a revision without authorization)."""
    named = spec.server_policy.auth_layout
    if named is not None:
        return LAYOUTS[named]
    return plain_layout(spec.profile(spec.revisions[0]))


def _json(status: int, body: Any, headers: Mapping[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status, body, dict(headers or {}))


def _oauth_error(status: int, code: str, description: str) -> HttpResponse:
    return _json(status, {"error": code, "error_description": description})


@dataclass(slots=True)
class _Grant:
    client_id: str
    challenge: str
    redirect_uri: str
    resource: str | None
    scope: str | None = None


@dataclass(slots=True)
class AuthServer:
    """The authorization URLs of one origin: metadata, and a test authorization server."""

    origin: str  #: ``scheme://host[:port]`` of the MCP server
    layout: frozenset[str]
    audience: bool = True  #: the MCP server checks a token's audience (2025-06-18 on)
    iss_mode: str = "send"  #: ``send``; ``missing`` (quirk no-iss); ``wrong`` (quirk wrong-iss)
    mcp_path: str = "/mcp"
    #: client id -> the redirect URIs it registered
    clients: dict[str, tuple[str, ...]] = field(default_factory=dict)
    codes: dict[str, _Grant] = field(default_factory=dict)
    tokens: dict[str, str | None] = field(default_factory=dict)  #: token -> audience
    granted: dict[str, frozenset[str]] = field(default_factory=dict)  #: token -> scopes
    #: dynamic registration applies OpenID's application_type rule (quirk dcr-app-type)
    app_type: bool = False
    #: the MCP server moves to another authorization server once a tools/list was served
    #: (quirk as-moves): issuer ``/auth2``, which knows no client and no token of ``/auth``
    moves: bool = False
    #: a scope it does not publish is refused, ``invalid_scope`` (quirk strict-scopes)
    strict_scopes: bool = False
    as_path: str = AS_PATH  #: the issuer's path, where the authorization server is separate
    #: the authorization server's origin where it is not the MCP server's (None: the same):
    #: the MCP origin then serves only the protected resource metadata, and :meth:`handle`
    #: answers the authorization server's URLs when asked for by absolute URL on it (or
    #: relative, with ``at_as``: a real listener of its own)
    as_origin: str | None = None
    #: the key of every token, code and client id it makes (see the module)
    secret: bytes = SIMULATED_SECRET
    #: the tables' caps (past one, its oldest entry is dropped)
    max_clients: int = MAX_CLIENTS
    max_codes: int = MAX_CODES
    max_tokens: int = MAX_TOKENS
    _move_next: bool = False
    _issued: int = 0

    # -- where things are ----------------------------------------------------------------
    @property
    def separate(self) -> bool:
        """Whether the authorization server has an issuer of its own (``/auth``)."""
        return bool(self.layout & {"as-rfc8414", "as-oidc"})

    @property
    def issuer(self) -> str:
        return (self.as_origin or self.origin) + self.as_path if self.separate else self.origin

    @property
    def resource(self) -> str:
        return self.origin + self.mcp_path

    def _endpoint(self, name: str) -> str:
        return (self.as_path if self.separate else "") + "/" + name

    def prm_url(self) -> str:
        where = self.mcp_path if "prm-path" in self.layout else ""
        return self.origin + PRM_WELL_KNOWN + where

    def _next(self, prefix: str, bound: str | None = None) -> str:
        """A new value of kind ``prefix``: the HMAC of the kind, a counter and what it is
        bound to (``bound``), under :attr:`secret`; unguessable without the secret."""
        self._issued += 1
        text = f"{prefix}\n{self._issued}\n{bound or ''}".encode()
        mac = hmac.new(self.secret, text, hashlib.sha256).digest()[:24]
        return f"{prefix}-" + base64.urlsafe_b64encode(mac).decode("ascii")

    # -- the MCP endpoint's side -------------------------------------------------------
    def challenge(self, error: str | None = None) -> HttpResponse:
        """The 401 of a request without a valid token (RFC 6750 §3; RFC 9728 §5.1); with
        ``scopes``, the ``scope`` it needs (2026-07-28 ``basic/authorization/index.mdx``
        §Scope Selection Strategy: servers SHOULD include it)."""
        params = []
        if "prm-header" in self.layout:
            params.append(f'resource_metadata="{self.prm_url()}"')
        if "scopes" in self.layout:
            params.append(f'scope="{BASIC_SCOPE}"')
        if error:
            params.append(f'error="{error}"')
        value = "Bearer" + (" " + ", ".join(params) if params else "")
        return _json(401, {"error": error or "unauthorized",
                           "error_description": "authorization required"},
                     {"WWW-Authenticate": value})

    def insufficient(self, missing: frozenset[str]) -> HttpResponse:
        """The 403 of a token short of scopes (RFC 6750 §3.1; 2025-11-25
        ``basic/authorization.mdx`` §Runtime Insufficient Scope Errors)."""
        scope = " ".join(sorted(missing))
        params = ['error="insufficient_scope"', f'scope="{scope}"']
        if "prm-header" in self.layout:
            params.append(f'resource_metadata="{self.prm_url()}"')
        return _json(403, {"error": "insufficient_scope",
                           "error_description": f"this request needs scope {scope}"},
                     {"WWW-Authenticate": "Bearer " + ", ".join(params)})

    def refuses(self, headers: Mapping[str, str],
                method: str | None = None) -> HttpResponse | None:
        """None when the request carries a token this server accepts for ``method``, else
        the 401 (or, with ``scopes``, the 403 of a token short of the method's scopes)."""
        if self._move_next:
            self._move()
        value = headers.get("authorization", "")
        scheme, _, token = value.partition(" ")
        if scheme.lower() != "bearer" or not token:
            return self.challenge()
        audience = self.tokens.get(token, "")
        if audience == "" or (self.audience and audience != self.resource):
            return self.challenge("invalid_token")  # unknown, or issued for another resource
        if "scopes" in self.layout:
            needed = SCOPES_NEEDED.get(method or "", frozenset({BASIC_SCOPE}))
            missing = needed - self.granted.get(token, frozenset())
            if missing:
                return self.insufficient(missing)
        self._move_next = self.moves and self.as_path == AS_PATH and method == "tools/list"
        return None

    def _move(self) -> None:
        """To another authorization server: its own issuer, no client, no token (its
        protected resource metadata names it from now on)."""
        self._move_next = False
        self.as_path = AS_PATH + "2"
        self.clients.clear()
        self.codes.clear()
        self.tokens.clear()
        self.granted.clear()

    # -- the authorization URLs ------------------------------------------------------------
    def handle(self, request: HttpRequest, *, at_as: bool = False,
               target: RequestTarget | None = None) -> HttpResponse | None:
        """The answer to an authorization URL, or None when ``request`` is not for one (or
        for another origin). ``at_as``: the request came to the authorization server's own
        origin (:attr:`as_origin`)."""
        target = target or request.target  # the guard's reading, else the one reading
        if target is None:
            return None
        sides = ("as",) if at_as else ("mcp",) if self.as_origin else ("mcp", "as")
        if target.origin is not None:  # the absolute form: served where it names this origin
            if self.as_origin is not None and target.origin == self.as_origin.lower():
                sides = ("as",)
            elif target.origin != self.origin.lower():
                return None
        route = self._routes(sides).get((request.method, target.path))
        if route is None:
            return None
        if request.method == "POST" and len(request.body) > AUTH_BODY_BYTES:
            return _oauth_error(413, "invalid_request", f"body over {AUTH_BODY_BYTES} bytes")
        return route(request, target.query)

    def _routes(self, sides: tuple[str, ...] = ("mcp", "as"),
                ) -> dict[tuple[str, str], Callable[[HttpRequest, str], HttpResponse]]:
        routes: dict[tuple[str, str], Callable[[HttpRequest, str], HttpResponse]] = {}
        prm = lambda r, q: _json(200, self.prm_document())  # noqa: E731
        if "prm-path" in self.layout and "mcp" in sides:
            routes["GET", PRM_WELL_KNOWN + self.mcp_path] = prm
        if "prm-root" in self.layout and "mcp" in sides:
            routes["GET", PRM_WELL_KNOWN] = prm
        if "as" not in sides:
            return routes
        meta = lambda r, q: _json(200, self.metadata())  # noqa: E731
        if "as-origin" in self.layout:
            routes["GET", AS_WELL_KNOWN] = meta
        if "as-rfc8414" in self.layout:
            routes["GET", AS_WELL_KNOWN + self.as_path] = meta
        if "as-oidc" in self.layout:
            routes["GET", self.as_path + OIDC_WELL_KNOWN] = meta
        if self.layout & {"as-origin", "as-rfc8414", "as-oidc", "defaults"}:
            routes["GET", self._endpoint("authorize")] = self._authorize
            routes["POST", self._endpoint("token")] = self._token
            if "dcr" in self.layout:
                routes["POST", self._endpoint("register")] = self._register
        return routes

    def prm_document(self) -> dict[str, Any]:
        """Protected resource metadata (RFC 9728 §2)."""
        doc: dict[str, Any] = {"resource": self.resource,
                               "authorization_servers": [self.issuer],
                               "bearer_methods_supported": ["header"]}
        if "scopes" in self.layout:
            doc["scopes_supported"] = [BASIC_SCOPE]
        return doc

    def metadata(self) -> dict[str, Any]:
        """Authorization server metadata (RFC 8414 §2); with ``as-oidc``, also the fields OpenID
        Connect Discovery 1.0 §3 makes REQUIRED (clients that validate it refuse it without)."""
        base = self.as_origin or self.origin
        doc: dict[str, Any] = {
            "issuer": self.issuer,
            "authorization_endpoint": base + self._endpoint("authorize"),
            "token_endpoint": base + self._endpoint("token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        }
        if "dcr" in self.layout:
            doc["registration_endpoint"] = base + self._endpoint("register")
        if "cimd" in self.layout:
            doc["client_id_metadata_document_supported"] = True
        if "iss" in self.layout:
            doc["authorization_response_iss_parameter_supported"] = True
        if "as-oidc" in self.layout:  # OpenID Provider Metadata's REQUIRED fields (§3)
            doc |= {"jwks_uri": base + self._endpoint("jwks"),
                    "subject_types_supported": ["public"],
                    "id_token_signing_alg_values_supported": ["RS256"]}
        return doc

    def _client_error(self, client_id: str, redirect_uri: str) -> HttpResponse | None:
        """None when ``client_id`` is known and ``redirect_uri`` is one of its redirect URIs,
        exactly; else the 400 (never a redirect: OAuth 2.1 §4.1.2.1, the redirect URI is not
        trusted). A client id that is a client ID metadata document (``cimd``: ``https``
        with a path) is not fetched; its document is taken to list redirect URIs on the
        loopback or on its own origin only (see the module)."""
        if client_id in self.clients:
            if redirect_uri in self.clients[client_id]:
                return None
            return _oauth_error(400, "invalid_request", "redirect_uri is not one the client "
                                "registered")
        document, path, _ = origin_of(client_id)
        if "cimd" not in self.layout or document is None or not client_id.startswith(
                "https://") or path in ("", "/") or "#" in client_id:
            return _oauth_error(400, "invalid_client", "unknown client")
        target, _, _ = origin_of(redirect_uri)
        if not redirect_ok(redirect_uri) or target is None or not (
                target == document or target.startswith("http://")):  # http: loopback only
            return _oauth_error(400, "invalid_request", "redirect_uri is not on the loopback "
                                "or the client id's origin")
        return None

    def _authorize(self, request: HttpRequest, query: str) -> HttpResponse:
        """The authorization endpoint, approving at once (OAuth 2.1 §4.1.1, RFC 7636)."""
        q = form_decode(query)
        client_id, redirect = q.get("client_id", ""), q.get("redirect_uri", "")
        if too_long(*q.values()):
            return _oauth_error(400, "invalid_request", f"a value over {FIELD_CHARS} characters")
        refused = self._client_error(client_id, redirect)
        if refused is not None:
            return refused
        if q.get("response_type") != "code" or q.get("code_challenge_method") != "S256" \
                or not q.get("code_challenge"):
            return _oauth_error(400, "invalid_request", "response_type code and PKCE S256 "
                                "are required")
        answer: dict[str, str] = {"state": q.get("state", "")}
        resource = q.get("resource")
        if resource is not None and resource != self.resource:
            answer["error"] = "invalid_target"
        elif self._unknown_scopes(q.get("scope")):
            answer["error"] = "invalid_scope"
        else:
            code = self._next("code", f"{client_id}\n{resource or ''}")
            bounded(self.codes, self.max_codes)
            self.codes[code] = _Grant(client_id, q["code_challenge"], redirect, resource,
                                      q.get("scope"))
            answer["code"] = code
        if "iss" in self.layout and self.iss_mode != "missing":
            answer["iss"] = self.issuer if self.iss_mode == "send" else "https://other.example"
        joint = "&" if "?" in redirect else "?"  # a query of the URI is kept (RFC 6749 §3.1.2)
        return HttpResponse(302, None, {"Location": f"{redirect}{joint}{form_encode(answer)}"})

    def _unknown_scopes(self, scope: str | None) -> bool:
        """Whether ``scope`` names one this server does not publish, where it refuses those
        (quirk strict-scopes; RFC 6749 §4.1.2.1 ``invalid_scope``)."""
        if not self.strict_scopes or not scope:
            return False
        known = {BASIC_SCOPE, *(s for needed in SCOPES_NEEDED.values() for s in needed)} \
            if "scopes" in self.layout else set()
        return not set(scope.split()) <= known

    def _token(self, request: HttpRequest, query: str) -> HttpResponse:
        """The token endpoint: an authorization code with its verifier, or client
        credentials; ``resource`` must name the MCP server (RFC 8707 §2)."""
        form = form_decode(request.body.decode("utf-8", "replace"))
        if too_long(*form.values()):
            return _oauth_error(400, "invalid_request", f"a value over {FIELD_CHARS} characters")
        resource = form.get("resource")
        if resource is not None and resource != self.resource:
            return _oauth_error(400, "invalid_target", f"unknown resource {resource!r}")
        grant = form.get("grant_type")
        if grant == "client_credentials":
            if (form.get("client_id"), form.get("client_secret")) != PRE_REGISTERED:
                return _oauth_error(401, "invalid_client", "unknown client credentials")
            return self._issue(resource, form.get("scope"))
        if grant != "authorization_code":
            return _oauth_error(400, "unsupported_grant_type", f"grant_type {grant!r}")
        code = self.codes.pop(form.get("code", ""), None)
        if code is None or code.client_id != form.get("client_id"):
            return _oauth_error(400, "invalid_grant", "unknown or used code")
        if pkce_challenge(form.get("code_verifier", "")) != code.challenge:
            return _oauth_error(400, "invalid_grant", "PKCE verification failed")
        return self._issue(resource if resource is not None else code.resource, code.scope)

    def _issue(self, audience: str | None, scope: str | None = None) -> HttpResponse:
        token = self._next("token", audience)
        bounded(self.tokens, self.max_tokens)
        for gone in [t for t in self.granted if t not in self.tokens]:
            del self.granted[gone]
        self.tokens[token] = audience
        doc: dict[str, Any] = {"access_token": token, "token_type": "Bearer",
                               "expires_in": 3600}
        if "scopes" in self.layout:
            granted = frozenset((scope or BASIC_SCOPE).split())
            self.granted[token] = granted
            doc["scope"] = " ".join(sorted(granted))
        return _json(200, doc, {"Cache-Control": "no-store"})

    def _register(self, request: HttpRequest, query: str) -> HttpResponse:
        """Dynamic client registration (RFC 7591 §3)."""
        try:
            asked = json.loads(request.body or b"{}")
        except ValueError:
            asked = None
        uris = asked.get("redirect_uris") if isinstance(asked, dict) else None
        if not isinstance(uris, list) or not uris or not all(isinstance(u, str) for u in uris):
            return _oauth_error(400, "invalid_redirect_uri", "redirect_uris is required")
        if len(uris) > MAX_REDIRECT_URIS:
            return _oauth_error(400, "invalid_redirect_uri",
                                f"more than {MAX_REDIRECT_URIS} redirect_uris")
        bad = next((u for u in uris if not redirect_ok(u)), None)
        if bad is not None:  # 2025-11-25 basic/authorization.mdx §Communication Security
            return _oauth_error(400, "invalid_redirect_uri", "a redirect URI must be https, or "
                                "http on the loopback, without a fragment: "
                                f"{bad[:200]!r}")
        kind = asked.get("application_type", "web") if isinstance(asked, dict) else "web"
        if not isinstance(kind, str) or len(kind) > 64:
            return _oauth_error(400, "invalid_client_metadata", "application_type: a string")
        if self.app_type and kind == "web" and _loopback(uris[0]):
            return _oauth_error(400, "invalid_redirect_uri", "a web client (application_type "
                                f"{'omitted, so web' if 'application_type' not in asked else 'web'})"
                                " may not register a loopback redirect URI")
        client_id = self._next("client", "\n".join(uris))
        bounded(self.clients, self.max_clients)
        self.clients[client_id] = tuple(uris)
        return _json(201, {"client_id": client_id, "redirect_uris": uris,
                           "token_endpoint_auth_method": "none"})


def _loopback(uri: str) -> bool:
    """Whether ``uri`` is an ``http`` URL on the loopback (a native client's redirect)."""
    host = uri.partition("://")[2].split("/", 1)[0].rsplit(":", 1)[0]
    return uri.startswith("http://") and host in ("127.0.0.1", "localhost", "[::1]")


def guard(auth: AuthServer, request: HttpRequest,
          target: RequestTarget | None = None) -> HttpResponse | None:
    """What ``auth`` answers ``request`` with: an authorization URL's answer, or the 401 of
    a request to the MCP endpoint (or to an HTTP+SSE stream's ``/messages``) without a valid
    token; None: the endpoint serves it. The target is read as the endpoint reads it
    (:attr:`HttpRequest.target`, :func:`mcp_route`): one the endpoint would serve is never
    let through unread, and one it cannot read is 400 here too."""
    target = target or request.target  # the endpoint's reading when it passes it
    if target is None:
        return HttpResponse(400, {"error": "invalid_request",
                                  "error_description": "malformed request target"})
    answered = auth.handle(request, target=target)
    if answered is not None:
        return answered
    if mcp_route(target) is not None:
        return auth.refuses(request.headers, _method_of(request))
    return None


def _method_of(request: HttpRequest) -> str | None:
    """The JSON-RPC method a POST carries (None: none, or not JSON)."""
    try:
        message = json.loads(request.body or b"null")
    except ValueError:
        return None
    method = message.get("method") if isinstance(message, dict) else None
    return method if isinstance(method, str) else None


def auth_server_for(spec: PeerSpec, origin: str,
                    secret: bytes = SIMULATED_SECRET) -> AuthServer | None:
    """The authorization URLs of a protected server of ``spec`` at ``origin`` (None: its
    revision has no authorization, so nothing is protected); ``secret`` keys its tokens,
    codes and client ids (``serve``: random bytes)."""
    layout = layout_of(spec)
    if not layout:
        return None
    newest = plain_layout(spec.profile(spec.revisions[0]))
    policy = spec.server_policy
    return AuthServer(origin, layout, audience="audience" in newest, iss_mode=policy.auth_iss,
                      app_type=policy.auth_app_type, moves=policy.auth_moves,
                      strict_scopes=policy.auth_strict_scopes, secret=secret)


class ProtectedEndpoint(HttpEndpoint):
    """A simulated MCP server behind authorization: the authorization URLs first, then the
    MCP endpoint, which wants a valid bearer token."""

    def __init__(self, spec: PeerSpec, *, origin: str = "http://mcp.example",
                 **options: Any) -> None:
        super().__init__(spec, **options)
        self.auth = auth_server_for(spec, origin) or AuthServer(origin, frozenset())
        self.protected = bool(self.auth.layout)
        self.binds_streams = self.protected

    def guard(self, request: HttpRequest, target: RequestTarget) -> HttpResponse | None:
        return guard(self.auth, request, target) if self.protected else None

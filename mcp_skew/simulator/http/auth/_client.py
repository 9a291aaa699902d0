"""A client's authorization, sans I/O: discovery by its revision's rules, registration,
the authorization code with PKCE (or client credentials), and the typed auth path.

Theory of operation
-------------------
:func:`plan_for` reads a client's newest revision's ``auth`` rows (``client.*``,
:mod:`mcp_skew.versions._auth`) and its quirks into an :class:`AuthPlan`; nothing here
asks which revision it is. :func:`authorize` is a generator: it yields each
HTTP request (:class:`~.._words.HttpRequest`, to the MCP origin) and takes its response
(:class:`~.._words.HttpResponse`), and returns an :class:`AuthResult`: a bearer token or
the reason there is none, and every hop of the way (:class:`AuthPath`, which reads ``401 -> PRM
/.well-known/oauth-protected-resource/mcp 404 -> PRM /.well-known/oauth-protected-resource
200 -> AS metadata /.well-known/oauth-authorization-server/auth 200 -> register 201 ->
authorize 302 -> token 200``; the link adds ``retry 200``).

The order of the discovery is the plan's:

1. protected resource metadata (RFC 9728) from each source of ``client.prm`` in turn
   (``header``: the ``resource_metadata`` of the 401's ``WWW-Authenticate``; ``path``,
   ``root``: the well-known URLs), the first 200 wins;
2. the issuer from each source of ``client.as-issuer`` (the metadata's
   ``authorization_servers``, or the MCP origin);
3. authorization server metadata at each URL of ``client.as-metadata`` for that issuer;
   its ``issuer`` must match where ``client.issuer-match`` says so; PKCE support verified
   where ``client.pkce`` has ``verify-metadata``; without metadata, the
   ``client.default-endpoints`` if the revision has them;
4. a client id by the first usable way of ``client.registration``;
5. the authorization request (``resource`` where ``client.resource`` has it), approved at
   once by the test authorization server; ``iss`` checked where ``client.iss`` says so
   (RFC 9207 §2.4, 2026-07-28's table);
6. the token request.

The scope of the authorization (``scope`` on the authorization and client-credentials
requests) is the first of ``client.scope``'s sources that has one: the 401's ``scope``,
then the metadata's ``scopes_supported``; none: no ``scope`` (2025-11-25
``basic/authorization.mdx`` §Scope Selection Strategy), or the plan's fallback (quirk
``openid-scope``). :func:`step_up` answers a ``403``
with ``error="insufficient_scope"`` (§Step-Up Authorization Flow) where ``client.step-up``
says how: a new authorization request and token with the challenge's scopes, or their
union with the scopes asked for before; the client id and endpoints of the first
authorization are kept. The link bounds how often (:data:`STEP_UP_LIMIT`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ....versions import Profile, rule_values
from ...quirks._policy import ClientPolicy
from .._urlform import form_decode, form_encode, split_url
from .._words import HttpRequest, HttpResponse
from ._server import (
    AS_WELL_KNOWN,
    OIDC_WELL_KNOWN,
    PRE_REGISTERED,
    PRM_WELL_KNOWN,
    pkce_challenge,
)

__all__ = [
    "REDIRECT_URI",
    "AuthHop",
    "AuthPath",
    "AuthPlan",
    "AuthResult",
    "authorize",
    "challenge_param",
    "plan_for",
    "resource_metadata_of",
    "step_up",
]

REDIRECT_URI: Final = "http://127.0.0.1:33418/callback"
#: The client id of a client ID metadata document (an HTTPS URL with a path).
METADATA_DOCUMENT: Final = "https://client.mcp-skew.example/client-metadata.json"
#: The 2025-03-26 default endpoints (``basic/authorization.mdx`` §Fallbacks for Servers
#: without Metadata Discovery), for a later client that keeps them (quirk default-endpoints).
_DEFAULT_ENDPOINTS: Final = ("/authorize", "/token", "/register")
VERIFIER: Final = "mcp-skew-pkce-verifier-0123456789-abcdefghijklmnopqrstuvwxyz"
#: How many step-ups a client makes for one request before it gives up (the spec: "no
#: more than a few times", 2025-11-25 ``basic/authorization.mdx`` §Step-Up Authorization
#: Flow; "SHOULD implement retry limits").
STEP_UP_LIMIT: Final = 2
#: What a client with quirk openid-scope asks for when it finds no scope (mcp-remote's
#: default, OpenID Connect's basic scopes).
OPENID_SCOPE: Final = "openid email profile"


@dataclass(frozen=True, slots=True)
class AuthHop:
    """One step of the auth path: ``PRM /.well-known/oauth-protected-resource 404``."""

    kind: str  #: ``challenge``, ``prm``, ``as-metadata``, ``defaults``, ``register``,
    #: ``authorize``, ``token``, ``retry``, ``fail``
    text: str
    status: int | None = None
    target: str | None = None


@dataclass(slots=True)
class AuthPath:
    """Every hop of one authorization, in order; reads as ``401 -> PRM ... 200 -> ...``."""

    hops: list[AuthHop] = field(default_factory=list)

    def add(self, kind: str, text: str, status: int | None = None,
            target: str | None = None, problem: str | None = None) -> None:
        shown = f"{text} {status}" if status is not None else text
        if problem:
            shown += f" ({problem})"
        self.hops.append(AuthHop(kind, shown, status, target))

    def __str__(self) -> str:
        return " -> ".join(h.text for h in self.hops)

    def to_dict(self) -> list[dict[str, Any]]:
        return [{"kind": h.kind, "text": h.text, "status": h.status, "target": h.target}
                for h in self.hops]


@dataclass(frozen=True, slots=True)
class AuthPlan:
    """How one client authorizes: its revision's ``client.*`` rows, with its quirks."""

    revision: str
    prm: tuple[str, ...]
    as_issuer: tuple[str, ...]
    as_metadata: tuple[str, ...]
    defaults: tuple[str, ...]
    resource: bool
    registration: tuple[str, ...]
    pkce_verify: bool
    iss: bool
    issuer_match: bool
    client_credentials: bool = False
    resource_needs_prm: bool = False  #: ``resource`` only once PRM was found (a quirk)
    scope_from: tuple[str, ...] = ()  #: ``client.scope``: where the first scope comes from
    #: ``client.step-up``: empty, ``challenge`` or ``union``; ``same`` (quirk
    #: reauthorize-same-scope): the first scope again, once per method
    step_up: tuple[str, ...] = ()
    #: ``client.credentials``: a registered client id is kept per issuer (else per MCP server)
    credentials_by_issuer: bool = False
    #: ``client.application-type``: what a dynamic registration says it is (None: nothing)
    application_type: str | None = None
    #: the scope asked for when ``client.scope`` finds none (None: no ``scope``, as the spec
    #: says; quirk openid-scope: ``openid email profile``)
    scope_fallback: str | None = None


def plan_for(profile: Profile, policy: ClientPolicy) -> AuthPlan:
    """The plan of a client whose newest revision is ``profile``."""
    issuer = rule_values(profile, "client.as-issuer")
    if policy.auth_origin_fallback and "mcp-origin" not in issuer:
        issuer = (*issuer, "mcp-origin")
    metadata = rule_values(profile, "client.as-metadata")
    if policy.auth_rfc8414_only:
        metadata = tuple(m for m in metadata if m == "rfc8414")
    registration = rule_values(profile, "client.registration")
    if policy.auth_dcr_only:
        registration = tuple(r for r in registration if r == "dynamic")
    defaults = rule_values(profile, "client.default-endpoints")
    if policy.auth_default_endpoints and not defaults:
        defaults = _DEFAULT_ENDPOINTS
    return AuthPlan(
        revision=profile.revision,
        prm=rule_values(profile, "client.prm"),
        as_issuer=issuer,
        as_metadata=metadata,
        defaults=defaults,
        resource="resource" in rule_values(profile, "client.resource"),
        registration=registration,
        pkce_verify="verify-metadata" in rule_values(profile, "client.pkce"),
        iss="validate" in rule_values(profile, "client.iss"),
        issuer_match="validate" in rule_values(profile, "client.issuer-match"),
        client_credentials=policy.auth_client_credentials,
        resource_needs_prm=policy.auth_resource_needs_prm,
        scope_from=rule_values(profile, "client.scope"),
        step_up=("same",) if policy.auth_reauthorize_same
        else rule_values(profile, "client.step-up"),
        credentials_by_issuer="per-issuer" in rule_values(profile, "client.credentials"),
        application_type=next(iter(rule_values(profile, "client.application-type")),
                              "native" if policy.auth_native else None),
        scope_fallback=OPENID_SCOPE if policy.auth_openid_scope else None,
    )


@dataclass(slots=True)
class AuthResult:
    """A token, or why there is none; and the way there."""

    path: AuthPath
    token: str | None = None
    reason: str = ""
    #: what the discovery found: the protected resource metadata, the issuer and its metadata
    prm: dict[str, Any] | None = None
    issuer: str | None = None
    metadata: dict[str, Any] | None = None
    #: what a step-up reuses: the scope asked for, the client id, the endpoints
    scope: str | None = None
    client_id: str | None = None
    endpoints: dict[str, str | None] | None = None


def challenge_param(headers: Mapping[str, str], name: str) -> str | None:
    """The quoted parameter ``name`` of a ``WWW-Authenticate`` header (RFC 6750 §3)."""
    found = re.search(rf'(?:^|[\s,]){re.escape(name)}\s*=\s*"([^"]*)"',
                      headers.get("www-authenticate", ""))
    return found.group(1) if found else None


def resource_metadata_of(headers: Mapping[str, str]) -> str | None:
    """The ``resource_metadata`` URL of a ``WWW-Authenticate`` header (RFC 9728 §5.1)."""
    return challenge_param(headers, "resource_metadata")


def _first_scope(plan: AuthPlan, challenge: HttpResponse, prm: dict[str, Any] | None) -> str | None:
    """The scope of the first authorization, by ``client.scope``'s order."""
    for source in plan.scope_from:
        if source == "challenge" and challenge_param(challenge.headers, "scope"):
            return challenge_param(challenge.headers, "scope")
        supported = prm.get("scopes_supported") if isinstance(prm, dict) else None
        if source == "scopes-supported" and isinstance(supported, list) and supported:
            return " ".join(str(s) for s in supported)
    return plan.scope_fallback


def _local(url: str, origin: str) -> str | None:
    """What to ask for ``url``: its path and query when it is on ``origin``, the URL itself
    on another HTTP(S) origin (a simulated server answers that 404: it serves one origin),
    None for anything else."""
    where, path, query = split_url(url)
    if where != origin:
        return url if where.startswith(("http://", "https://")) else None
    return (path or "/") + (f"?{query}" if query else "")


def _issuer_urls(issuer: str, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    """(kind, URL) of each metadata URL to try for ``issuer`` (2025-11-25
    ``basic/authorization.mdx`` §Authorization Server Metadata Discovery)."""
    origin, path, _ = split_url(issuer)
    path = path.rstrip("/")
    made = {"rfc8414": origin + AS_WELL_KNOWN + path,
            "oidc-inserted": origin + OIDC_WELL_KNOWN + path,
            "oidc-appended": origin + path + OIDC_WELL_KNOWN}
    urls: list[tuple[str, str]] = []
    for kind in kinds:
        url = made.get(kind)
        if url and url not in (u for _, u in urls):
            urls.append((kind, url))
    return urls


Machine = Generator[HttpRequest, HttpResponse, AuthResult]


#: Client ids a client has registered, by what it keys them (:attr:`AuthPlan.credentials_by_issuer`).
Credentials = dict[str, str]


def authorize(plan: AuthPlan, challenge: HttpResponse, mcp_url: str, *,
              discover_only: bool = False, credentials: Credentials | None = None) -> Machine:
    """The authorization after ``challenge`` (the 401), as a driven machine. With
    ``discover_only`` it stops once the authorization server's metadata is found (nothing
    registered, nothing asked for: what ``probe --url`` does without credentials).
    ``credentials`` holds the client ids the client registered before (it gains the one this
    authorization registers): one kept under this authorization's key is used again."""
    origin, mcp_path, _ = split_url(mcp_url)
    mcp_path = mcp_path or "/"
    path = AuthPath()
    path.add("challenge", str(challenge.status)
             + (" (resource_metadata)" if resource_metadata_of(challenge.headers) else ""))
    result = AuthResult(path)
    prm = yield from _protected_resource(plan, challenge, origin, mcp_path, path)
    result.prm = prm
    issuers: list[str] = []
    for source in plan.as_issuer:
        if source == "prm" and isinstance(prm, dict):
            named = prm.get("authorization_servers")
            if isinstance(named, list) and named and isinstance(named[0], str):
                issuers.append(named[0])
        elif source == "mcp-origin":
            issuers.append(origin)
    if not issuers:
        path.add("fail", "no authorization server")
        result.reason = ("no protected resource metadata found, so no authorization server "
                         f"(this client, {plan.revision}, looks at: {', '.join(plan.prm)})")
        return result
    metadata, issuer = yield from _as_metadata(plan, issuers, origin, path)
    result.issuer = issuer
    result.metadata = metadata if isinstance(metadata, dict) else None
    if isinstance(metadata, str):
        path.add("fail", "metadata refused")
        result.reason = metadata
        return result
    endpoints = _endpoints(plan, metadata, origin, path)
    if endpoints is None:
        path.add("fail", "no authorization server metadata")
        result.reason = (f"no authorization server metadata for {issuers[-1]}"
                         + ("" if plan.defaults else
                            f"; {plan.revision} has no default endpoints to fall back on"))
        return result
    if discover_only:
        return result
    resource = origin + mcp_path.rstrip("/")
    if plan.resource_needs_prm and prm is None:
        plan = replace(plan, resource=False)  # no metadata: this client sends no resource
    result.scope, result.endpoints = _first_scope(plan, challenge, prm), endpoints
    kept = _kept_client(plan, credentials, issuer=issuer, resource=resource, path=path)
    result.client_id = kept
    token_or_reason = yield from _token(plan, metadata, endpoints, issuer=issuer,
                                        resource=resource, path=path, result=result)
    if credentials is not None and result.client_id and result.client_id != kept \
            and not result.client_id.startswith("https://"):  # metadata documents are portable
        credentials[issuer if plan.credentials_by_issuer else resource] = result.client_id
    return _settled(result, token_or_reason, path)


def _settled(result: AuthResult, token_or_reason: str, path: AuthPath) -> AuthResult:
    """``result`` with the token ``_token`` got (``token:…``), or its reason for failing."""
    if token_or_reason.startswith("token:"):
        result.token = token_or_reason.removeprefix("token:")
    else:
        path.add("fail", "no token")
        result.reason = token_or_reason
    return result


def _kept_client(plan: AuthPlan, credentials: Credentials | None, *, issuer: str,
                 resource: str, path: AuthPath) -> str | None:
    """A client id registered before, under this plan's key (2026-07-28
    ``client-registration.mdx`` §Authorization Server Binding: keyed by the issuer)."""
    key = issuer if plan.credentials_by_issuer else resource
    kept = (credentials or {}).get(key)
    if kept is not None:
        path.add("register", "client id kept for "
                 + ("this issuer" if plan.credentials_by_issuer else "this MCP server"))
    return kept


def step_up(plan: AuthPlan, previous: AuthResult, challenge: HttpResponse, mcp_url: str) -> Machine:
    """A new token after ``challenge``, a ``403`` with ``error="insufficient_scope"``, as a
    driven machine: the scopes by ``client.step-up`` (the challenge's, or their union with
    the scopes asked for before: 2026-07-28 ``basic/authorization/index.mdx`` §Step-Up
    Authorization Flow), the client id and endpoints of ``previous``."""
    origin, mcp_path, _ = split_url(mcp_url)
    asked = challenge_param(challenge.headers, "scope") or ""
    path = AuthPath()
    path.add("challenge", f"{challenge.status} insufficient_scope"
             + (f" (scope {asked})" if asked else ""))
    result = replace(previous, path=path, token=None, reason="")
    before = set((previous.scope or "").split())
    if "same" in plan.step_up and previous.endpoints is not None:  # quirk reauthorize-same-scope
        path.add("step-up", f"authorize again, scope {previous.scope or 'none'}")
    else:
        wanted = set(asked.split()) | (before if "union" in plan.step_up else set())
        if not wanted or wanted == before or previous.endpoints is None:
            path.add("fail", "no new scope")
            result.reason = (f"the 403 asks for no scope beyond what this client asked for "
                             f"({previous.scope or 'none'})")
            return result
        result.scope = " ".join(sorted(wanted))
        path.add("step-up", f"step-up scope {result.scope}")
    if plan.resource_needs_prm and previous.prm is None:
        plan = replace(plan, resource=False)
    token_or_reason = yield from _token(plan, previous.metadata, previous.endpoints,
                                        issuer=previous.issuer or origin,
                                        resource=origin + (mcp_path or "/").rstrip("/"),
                                        path=path, result=result)
    return _settled(result, token_or_reason, path)


def _protected_resource(plan: AuthPlan, challenge: HttpResponse, origin: str, mcp_path: str,
                        path: AuthPath) -> Generator[HttpRequest, HttpResponse, dict[str, Any] | None]:
    tried: list[str] = []
    for source in plan.prm:
        if source == "header":
            named = resource_metadata_of(challenge.headers)
            target = _local(named, origin) if named else None
        elif source == "path":
            target = PRM_WELL_KNOWN + mcp_path.rstrip("/")
        elif source == "root":
            target = PRM_WELL_KNOWN
        else:
            continue  # a value this simulator does not know (a draft's): no request
        if target is None or target in tried:
            continue
        tried.append(target)
        got = yield HttpRequest("GET", target, {"Accept": "application/json"})
        path.add("prm", f"PRM {target}", got.status, target, got.problem())
        doc = got.json()
        if got.status == 200 and isinstance(doc, dict):
            return doc
    return None


def _as_metadata(plan: AuthPlan, issuers: list[str], origin: str, path: AuthPath,
                 ) -> Generator[HttpRequest, HttpResponse, tuple[dict[str, Any] | str | None, str]]:
    """The first metadata document that answers, for the first issuer that has one; or a
    reason to stop (a string); or None and the last issuer."""
    for issuer in issuers:
        for _, url in _issuer_urls(issuer, plan.as_metadata):
            target = _local(url, origin)
            if target is None:
                continue
            got = yield HttpRequest("GET", target, {"Accept": "application/json"})
            path.add("as-metadata", f"AS metadata {target}", got.status, target, got.problem())
            doc = got.json()
            if got.status != 200 or not isinstance(doc, dict):
                continue
            if plan.issuer_match and doc.get("issuer") != issuer:
                return (f"the metadata at {url} names issuer {doc.get('issuer')!r}, not "
                        f"{issuer!r}: a {plan.revision} client MUST NOT use it"), issuer
            methods = doc.get("code_challenge_methods_supported")
            if plan.pkce_verify and not (isinstance(methods, list) and "S256" in methods):
                return ("the authorization server's metadata has no "
                        "code_challenge_methods_supported with S256: a "
                        f"{plan.revision} client MUST refuse to proceed"), issuer
            return doc, issuer
    return None, issuers[-1]


def _endpoints(plan: AuthPlan, metadata: dict[str, Any] | None, origin: str,
               path: AuthPath) -> dict[str, str | None] | None:
    if metadata is not None:
        return {name: _local(str(metadata.get(f"{name}_endpoint") or ""), origin)
                for name in ("authorization", "token", "registration")}
    if not plan.defaults:
        return None
    path.add("defaults", "default endpoints " + " ".join(plan.defaults))
    named = dict(zip(("authorization", "token", "registration"), plan.defaults, strict=False))
    return {name: named.get(name) for name in ("authorization", "token", "registration")}


def _client_id(plan: AuthPlan, metadata: dict[str, Any] | None,
               endpoints: dict[str, str | None], path: AuthPath, refused: list[str],
               ) -> Generator[HttpRequest, HttpResponse, str | None]:
    """A client id by the first usable way of the plan's registration order; a refused
    registration's error goes in ``refused``."""
    for way in plan.registration:
        if way == "metadata-document" and isinstance(metadata, dict) \
                and metadata.get("client_id_metadata_document_supported") is True:
            path.add("register", "client id metadata document")
            return METADATA_DOCUMENT
        if way == "dynamic" and endpoints.get("registration"):
            target = str(endpoints["registration"])
            body = {"client_name": "mcp-skew", "redirect_uris": [REDIRECT_URI],
                    "grant_types": ["authorization_code"], "token_endpoint_auth_method": "none"}
            if plan.application_type:
                body["application_type"] = plan.application_type
            got = yield HttpRequest("POST", target, {"Content-Type": "application/json"},
                              json.dumps(body).encode())
            path.add("register", "register", got.status, target)
            doc = got.json()
            if got.status in (200, 201) and isinstance(doc, dict) \
                    and isinstance(doc.get("client_id"), str):
                return str(doc["client_id"])
            said = doc.get("error_description") or doc.get("error") \
                if isinstance(doc, dict) else None
            refused.append(f"the registration was refused: HTTP {got.status}"
                           + (f" ({said})" if said else ""))
            return None
    return None


def _token(plan: AuthPlan, metadata: dict[str, Any] | None, endpoints: dict[str, str | None],
           *, issuer: str, resource: str, path: AuthPath,
           result: AuthResult) -> Generator[HttpRequest, HttpResponse, str]:
    """``token:<token>``, or the reason there is none; ``result`` keeps the client id, and
    gives the scope to ask for."""
    scope = {"scope": result.scope} if result.scope else {}
    if plan.client_credentials:
        form = {"grant_type": "client_credentials", "client_id": PRE_REGISTERED[0],
                "client_secret": PRE_REGISTERED[1], **scope}
        return (yield from _exchange(plan, form, endpoints, resource, path))
    client_id = result.client_id
    why: list[str] = []
    if client_id is None:
        client_id = result.client_id = yield from _client_id(plan, metadata, endpoints, path,
                                                             why)
    if client_id is None and why:
        return why[0]
    if client_id is None:
        ways = ", ".join(plan.registration) or "none"
        return (f"no client id: this client registers by {ways}, and the authorization server "
                "offers none of them")
    target = endpoints.get("authorization")
    if not target:
        return "no authorization endpoint"
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT_URI,
             "code_challenge": pkce_challenge(VERIFIER), "code_challenge_method": "S256",
             "state": "mcp-skew-state", **scope}
    if plan.resource:
        query["resource"] = resource
    sep = "&" if "?" in target else "?"
    got = yield HttpRequest("GET", f"{target}{sep}{form_encode(query)}")
    path.add("authorize", "authorize", got.status, target)
    answer = form_decode(split_url(got.headers.get("location", ""))[2])
    if got.status != 302 or "code" not in answer:
        body = got.json()
        said = answer.get("error") or (body.get("error") if isinstance(body, dict) else None)
        return f"the authorization request failed: {said or got.status}"
    refused = _iss_refused(plan, metadata, answer, issuer)
    if refused:
        return refused
    form = {"grant_type": "authorization_code", "code": answer["code"],
            "code_verifier": VERIFIER, "redirect_uri": REDIRECT_URI, "client_id": client_id}
    return (yield from _exchange(plan, form, endpoints, resource, path))


def _iss_refused(plan: AuthPlan, metadata: dict[str, Any] | None, answer: dict[str, str],
                 issuer: str) -> str | None:
    """RFC 9207 §2.4 as 2026-07-28's table reads it, where the plan validates ``iss``."""
    if not plan.iss:
        return None
    advertised = isinstance(metadata, dict) and \
        metadata.get("authorization_response_iss_parameter_supported") is True
    got = answer.get("iss")
    if got is None:
        return ("the authorization response has no iss, though the metadata says it is sent: "
                f"a {plan.revision} client rejects it") if advertised else None
    if got != issuer:
        return (f"the authorization response's iss {got!r} is not the issuer {issuer!r}: a "
                f"{plan.revision} client rejects it")
    return None


def _exchange(plan: AuthPlan, form: dict[str, str], endpoints: dict[str, str | None],
              resource: str, path: AuthPath) -> Generator[HttpRequest, HttpResponse, str]:
    target = endpoints.get("token")
    if not target:
        return "no token endpoint"
    if plan.resource:
        form = {**form, "resource": resource}
    got = yield HttpRequest("POST", target, {"Content-Type": "application/x-www-form-urlencoded"},
                      form_encode(form).encode())
    path.add("token", "token", got.status, target)
    doc = got.json()
    if got.status == 200 and isinstance(doc, dict) and isinstance(doc.get("access_token"), str):
        return "token:" + str(doc["access_token"])
    error = doc.get("error") if isinstance(doc, dict) else None
    return f"the token request failed: {error or got.status}"

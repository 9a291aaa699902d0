"""``probe --url`` of a protected server: authorization required, and what each client
revision's discovery finds there, without credentials.

When a client's first request got 401 or 403 (:func:`needs_auth`), :func:`discover` asks
the server once more without a token for its challenge, then runs the discovery of every
revision that has authorization rules (:func:`mcp_skew.simulator.http.auth._client.authorize`
with ``discover_only``: GET requests only, nothing registered, no authorization asked for)
over real HTTP. The result is one entry per revision (its path, whether it found the
authorization server's metadata, why not) and findings with what to change
(``auth-required``, ``auth-undiscoverable``, ``auth-metadata-inconsistent``).

Bounds (a hostile server or authorization server ends the discovery, never the probe): each
request takes at most ``--timeout`` in all (:class:`mcp_skew.wire.Deadline`: a byte dripped
every few seconds does not hold it), the whole discovery at most :data:`ROUNDS` times
that (the revisions ask the same URLs: each is asked once), each answer's body at most
:data:`BODY_CAP` bytes (more is not read, and the hop says so). A URL that is not a valid
http(s) URL (a port that is no port, an unclosed IPv6 literal, another scheme) is not
asked; its hop in the path says why.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .._input import AddressError, parse_url
from ..simulator.findings import Finding
from ..simulator.http import HttpRequest, HttpResponse
from ..simulator.http.auth import AS_WELL_KNOWN, AuthResult, authorize, plan_for
from ..simulator.quirks import ClientPolicy
from ..versions import Registry, rule_values
from ..wire import Deadline, read_capped, send

__all__ = ["AuthCheck", "discover", "needs_auth", "refused_status"]

#: How long one discovery request may take in all, unless the probe's --timeout says.
TIMEOUT_S: Final = 10.0
#: The whole discovery (every revision's requests) takes at most this many times that.
ROUNDS: Final = 4
#: The most bytes of an answer read.
BODY_CAP: Final = 1 << 20


@dataclass(slots=True)
class AuthCheck:
    """What the probe found of a protected server's authorization."""

    status: int  #: the challenge's status (401 or 403)
    www_authenticate: str | None
    revisions: list[dict[str, Any]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"required": True, "status": self.status,
                "www_authenticate": self.www_authenticate, "revisions": self.revisions}

    def lines(self) -> list[str]:
        """The card's section, one line per client revision."""
        out = [f"authorization required: HTTP {self.status}; WWW-Authenticate: "
               f"{self.www_authenticate or '(none)'}"]
        for entry in self.revisions:
            verdict = "finds the authorization server" if entry["found"] else \
                f"cannot: {entry['reason']}"
            out.append(f"  {entry['revision']} clients: {verdict}")
            out.append(f"    {entry['path']}")
        return out


def refused_status(records: Iterable[Mapping[str, Any]]) -> int | None:
    """401 or 403 when a transcript's answer had that status, else None."""
    for record in records:
        http = record.get("http")
        status = http.get("status") if isinstance(http, dict) else None
        if status in (401, 403):
            return int(status)
    return None


def needs_auth(transcripts: Iterable[Iterable[Mapping[str, Any]]]) -> bool:
    """Whether any client's transcript shows a 401 or 403 answer."""
    return any(refused_status(records) is not None for records in transcripts)


#: How a discovery request is made: the absolute URL, the request, the headers to add.
Fetcher = Callable[[str, HttpRequest, Mapping[str, str]], HttpResponse]


def _fetch(url: str, ask: HttpRequest, headers: Mapping[str, str], *,
           timeout_s: float = TIMEOUT_S) -> HttpResponse:
    """One request over real HTTP (:func:`mcp_skew.wire.send`), all of it (connect,
    headers, body) within ``timeout_s``; no redirect followed; the body read up to
    :data:`BODY_CAP`. Status 0 and ``error`` when there is no answer (the URL is not valid,
    the connection failed, the time is up)."""
    try:
        parse_url(url, ("http", "https"))
    except AddressError as exc:
        return HttpResponse(0, error=f"not asked: not a valid http(s) URL: {exc}")
    with Deadline(timeout_s) as deadline:
        try:
            answer, resp = send(HttpRequest(ask.method, url, {**headers, **ask.headers},
                                            ask.body), deadline)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            return HttpResponse(0, error=_cut(deadline)
                                or f"no answer: {getattr(exc, 'reason', None) or exc}"[:300])
        with resp:
            return _read(answer, resp, deadline)


def _read(answer: HttpResponse, resp: Any, deadline: Deadline) -> HttpResponse:
    """``answer`` with its body, read up to :data:`BODY_CAP` within ``deadline``, or why not."""
    try:
        body, more = read_capped(resp, BODY_CAP)
    except (OSError, ValueError, http.client.HTTPException) as exc:
        return replace(answer, error=_cut(deadline) or f"the body was cut: {exc}")
    if deadline.expired:  # cut at the deadline: what came is not the whole answer
        return replace(answer, error=_cut(deadline) or "")
    if more:
        return replace(answer, error=f"a body over {BODY_CAP} bytes, not read")
    return replace(answer, body=body)


def _cut(deadline: Deadline) -> str | None:
    if not deadline.passed:
        return None
    return f"cut at {round(deadline.seconds, 1):g} s (--timeout): no whole answer by then"


def _bounded(fetch: Fetcher | None, timeout_s: float) -> Fetcher:
    """``fetch`` (else :func:`_fetch` with ``timeout_s``), each request asked once (the
    revisions ask the same URLs), and none after :data:`ROUNDS` times ``timeout_s``."""
    give_up = time.monotonic() + ROUNDS * timeout_s
    asked: dict[tuple[Any, ...], HttpResponse] = {}

    def bounded(url: str, ask: HttpRequest, headers: Mapping[str, str]) -> HttpResponse:
        key = (ask.method, url, ask.body, tuple(sorted({**headers, **ask.headers}.items())))
        if key in asked:
            return asked[key]
        left = give_up - time.monotonic()
        if left <= 0:
            return HttpResponse(0, error=f"not asked: the discovery's {ROUNDS * timeout_s:g} "
                                f"s ({ROUNDS} x --timeout) are spent")
        got = fetch(url, ask, headers) if fetch is not None else \
            _fetch(url, ask, headers, timeout_s=min(timeout_s, left))
        asked[key] = got
        return got
    return bounded


def _origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


def _challenge(url: str, headers: Mapping[str, str], fetch: Fetcher) -> HttpResponse:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "mcp-skew-probe", "version": "0"}}}).encode()
    ask = HttpRequest("POST", "", {"Content-Type": "application/json",
                                   "Accept": "application/json, text/event-stream"}, body)
    return fetch(url, ask, headers)


def _run(revision: str, challenge: HttpResponse, url: str, headers: Mapping[str, str],
         registry: Registry, *, fetch: Fetcher) -> AuthResult:
    plan = plan_for(registry.get(revision), ClientPolicy())
    machine = authorize(plan, challenge, url, discover_only=True)
    origin = _origin(url)
    try:
        ask = next(machine)
        while True:
            where = ask.path if ask.path.startswith(("http://", "https://")) else \
                origin + ask.path  # an authorization server on another origin: as named
            ask = machine.send(fetch(where, ask, headers if _origin(where) == origin else {}))
    except StopIteration as done:
        result: AuthResult = done.value
    return result


def _revisions(registry: Registry) -> list[str]:
    """The revisions whose clients discover something, oldest first."""
    return [p.revision for p in registry
            if rule_values(p, "client.as-issuer")]


def discover(url: str, headers: Mapping[str, str] | None,
             registry: Registry, *, fetch: Fetcher | None = None,
             timeout_s: float = TIMEOUT_S) -> AuthCheck | None:
    """The authorization of the server at ``url`` as each revision's clients find it; None
    when a request without credentials is not refused (nothing to discover). ``fetch``
    makes each request (over real HTTP unless a caller gives another way: a test's
    simulated servers); the user's headers go to the server's origin only, never to an
    authorization server on another one. Each request over real HTTP takes at most
    ``timeout_s`` in all, the whole discovery at most :data:`ROUNDS` times that."""
    sent = {k: v for k, v in (headers or {}).items() if k.lower() != "authorization"}
    fetch = _bounded(fetch, timeout_s)
    challenge = _challenge(url, sent, fetch)
    if challenge.status not in (401, 403):
        return None
    check = AuthCheck(challenge.status, challenge.headers.get("www-authenticate"))
    check.findings.append(Finding(
        "auth-required", "info",
        f"the server answers a request without credentials with HTTP {challenge.status}: "
        "authorization required (not evidence of a legacy server); probe with --token to "
        "check the protocol behind it", None,
        "2025-06-18: basic/authorization.mdx §Token Handling"))
    for revision in _revisions(registry):
        result = _run(revision, challenge, url, sent, registry, fetch=fetch)
        found = result.metadata is not None and not result.reason
        if not found and not result.reason:
            result.reason = ("no authorization server metadata; the default endpoints are not "
                             "tried without credentials")
        check.revisions.append({"revision": revision, "path": str(result.path), "found": found,
                                "reason": result.reason, "issuer": result.issuer})
        if not found:
            check.findings.append(_undiscoverable(revision, result, url, registry))
        check.findings += _inconsistent(revision, result, url)
    check.findings = _unique(check.findings)
    return check


def _undiscoverable(revision: str, result: AuthResult, url: str, registry: Registry) -> Finding:
    origin = _origin(url)
    if result.prm is None and rule_values(registry.get(revision), "client.prm"):
        change = (f"serve protected resource metadata at {origin}/.well-known/"
                  "oauth-protected-resource" + url[len(origin):].rstrip("/")
                  + " and name it in WWW-Authenticate: Bearer resource_metadata=\"...\"")
    elif result.issuer == origin and result.metadata is None:
        change = (f"also serve its authorization server's metadata at {origin}"
                  f"{AS_WELL_KNOWN} (the 2025-03-26 authorization base URL)")
    else:
        change = "publish the metadata these clients look for (docs/auth.md)"
    message = (f"{revision} clients cannot find your authorization server ({result.reason}): "
               f"{change}")
    cite = f"{revision}: basic/authorization.mdx"
    if revision == "2025-03-26":  # a SHOULD there: metadata, else the default endpoints
        return Finding("auth-undiscoverable", "warning", message, None, cite)
    return Finding("auth-undiscoverable", "error", message, None, cite)


def _inconsistent(revision: str, result: AuthResult, url: str) -> list[Finding]:
    found: list[Finding] = []
    resource = result.prm.get("resource") if isinstance(result.prm, dict) else None
    if resource is not None and str(resource).rstrip("/") != url.rstrip("/"):
        found.append(Finding("auth-metadata-inconsistent", "error",
                             f"the protected resource metadata names resource {resource!r}, "
                             f"not the server's URL {url!r}: clients send the URL as "
                             "resource (RFC 8707) and get tokens for it", None,
                             "2025-06-18: basic/authorization.mdx §Canonical Server URI"))
    meta = result.metadata
    if isinstance(meta, dict) and result.issuer and meta.get("issuer") != result.issuer:
        found.append(Finding("auth-metadata-inconsistent", "error",
                             f"the authorization server metadata names issuer "
                             f"{meta.get('issuer')!r}, not {result.issuer!r}: 2026-07-28 "
                             "clients MUST NOT use it", None,
                             "2026-07-28: basic/authorization/authorization-server-discovery"
                             ".mdx §Authorization Server Metadata Discovery"))
    return found


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str]] = set()
    out = []
    for f in findings:
        if (f.code, f.message) not in seen:
            seen.add((f.code, f.message))
            out.append(f)
    return out

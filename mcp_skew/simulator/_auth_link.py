"""The client's authorization on the in-memory HTTP link: a 401 starts it, every request of
the discovery goes in the transcript, and the request that got the 401 is sent again.

:class:`AuthAgent` drives :func:`~._auth_client.authorize` against the simulated server's
endpoint (the same ``handle`` the MCP POSTs reach), on the link's clock: each request
reaches the server ``latency_ms`` after it is sent and its answer comes back
``latency_ms`` later. The link (:mod:`._httplink`) asks :meth:`AuthAgent.wants` of
each answer to a request; on a 401 it calls :meth:`AuthAgent.run`, sends the request
again with the token, and hands the retry's status to :meth:`AuthAgent.settle`, which
closes the auth path (``... -> token 200 -> retry 200``) and gives the path step the
client's path records. A client authorizes once per run: a second 401 goes to the client
as the error it is (an authorization failure, never a sign of a legacy server).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._auth_client import AuthPath, AuthPlan, AuthResult, Fetch, Fetched, authorize, plan_for
from ._auth_server import ProtectedEndpoint
from ._http import HttpRequest, HttpResponse
from ._link import Transcript
from ._path import Step
from ._peers import PeerSpec

__all__ = ["NOT_OVER_STDIO", "AuthAgent", "auth_step", "protect"]

#: Why scenario auth does not run over stdio.
NOT_OVER_STDIO = ("scenario auth does not apply over stdio: authorization is for HTTP "
                  "transports (implementations using stdio SHOULD NOT follow it, "
                  "basic/authorization.mdx §Protocol Requirements); use --transport http")


def protect(client: PeerSpec, server: PeerSpec) -> tuple[ProtectedEndpoint, AuthAgent]:
    """A protected endpoint for ``server`` and the authorization of ``client`` against it,
    by the rules of the client's newest revision."""
    endpoint = ProtectedEndpoint(server)
    plan = plan_for(client.profile(client.revisions[0]), client.client_policy)
    return endpoint, AuthAgent(plan, endpoint.auth.resource)

#: Answer headers a transcript keeps from the authorization's requests.
_KEPT: frozenset[str] = frozenset({"www-authenticate", "location"})


def auth_step(path: AuthPath, ok: bool) -> Step:
    """``auth: 401 -> PRM ... 200 -> ... -> retry 200`` (or ``auth failed: ...``)."""
    return Step(f"auth: {path}" if ok else f"auth failed: {path}", "auth")


@dataclass(slots=True)
class AuthAgent:
    """One client's authorization, over one link."""

    plan: AuthPlan
    mcp_url: str
    results: list[AuthResult] = field(default_factory=list)
    _pending: AuthResult | None = None

    def wants(self, status: int) -> bool:
        """Whether this answer starts the authorization: the first 401."""
        return status == 401 and not self.results

    def run(self, challenge: HttpResponse, handle: Callable[[HttpRequest], HttpResponse],
            clock: int, latency_ms: int, transcript: Transcript) -> tuple[AuthResult, int]:
        """Authorize after ``challenge``; the result and the clock when it is done."""
        lower = {k.lower(): v for k, v in challenge.headers.items()}
        machine = authorize(self.plan, Fetched(challenge.status, lower), self.mcp_url)
        transcript.note(clock, f"HTTP 401: authorization required; the client "
                        f"({self.plan.revision} rules) discovers its authorization server",
                        "auth")
        try:
            fetch = next(machine)
            while True:
                answer = handle(_request(fetch))
                clock += 2 * latency_ms
                _record(transcript, clock, fetch, answer)
                fetch = machine.send(_fetched(answer))
        except StopIteration as done:
            result: AuthResult = done.value
        self.results.append(result)
        if result.token is None:
            transcript.note(clock, f"authorization failed: {result.reason}", "auth")
        else:
            self._pending = result
        return result, clock

    def settle(self, status: int) -> Step | None:
        """The retry's status closes the pending auth path; its step (None: nothing pending)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        pending.path.add("retry", "retry", status)
        refused = status in (401, 403)  # any other answer is the MCP server's, not auth's
        if refused:
            pending.reason = f"the retry with the token got HTTP {status}"
        return auth_step(pending.path, not refused)

    def failed_step(self) -> Step | None:
        """The step of an authorization that found no token (the last one), if any."""
        last = self.results[-1] if self.results else None
        return auth_step(last.path, False) if last and last.token is None else None

    def to_list(self) -> list[dict[str, Any]]:
        """The runs' authorizations as JSON: the path, its hops, the outcome."""
        return [{"revision_rules": self.plan.revision, "path": str(r.path),
                 "hops": r.path.to_dict(), "authorized": r.token is not None and not r.reason,
                 "reason": r.reason} for r in self.results]


def _request(fetch: Fetch) -> HttpRequest:
    headers = {k.lower(): v for k, v in fetch.headers.items()}
    return HttpRequest(fetch.method, fetch.target, headers, fetch.body)


def _fetched(answer: HttpResponse) -> Fetched:
    headers: Mapping[str, str] = {k.lower(): v for k, v in answer.headers.items()}
    return Fetched(answer.status, headers, answer.encoded())


def _record(transcript: Transcript, clock: int, fetch: Fetch, answer: HttpResponse) -> None:
    kept = {k: v for k, v in answer.headers.items() if k.lower() in _KEPT}
    target = fetch.target.split("?", 1)[0]
    transcript.note(clock, f"{fetch.method} {target} -> HTTP {answer.status}", "http",
                    http={"method": fetch.method, "path": target, "status": answer.status,
                          **({"headers": kept} if kept else {})})

"""The client's authorization on the in-memory HTTP link: a 401 starts it, every request of
the discovery goes in the transcript, and the request that got the 401 is sent again.

:class:`AuthAgent` drives :func:`~._client.authorize` against the simulated server's
endpoint (the same ``handle`` the MCP POSTs reach), on the link's clock: each request
reaches the server ``latency_ms`` after it is sent and its answer comes back
``latency_ms`` later. The link (:mod:`.._link`) asks :meth:`AuthAgent.wants` of
each answer to a request; on a 401 it calls :meth:`AuthAgent.run`, sends the request
again with the token, and hands the retry's status to :meth:`AuthAgent.settle`, which
closes the auth path (``... -> token 200 -> retry 200``) and gives the path step the
client's path records. A client authorizes once per run, and once more when a token that
worked is refused (401: the server moved to another authorization server, say): a further
401 goes to the client as the error it is (an authorization failure, never a sign of a
legacy server). The client ids it registered are kept across the two
(:data:`~._client.Credentials`), keyed as its revision says (``client.credentials``).

A ``403`` with ``error="insufficient_scope"`` to a client that holds a token starts a
step-up where the client's revision has one (``client.step-up``,
:func:`~._client.step_up`): a new token with more scope, and the request again; at
most :data:`~._client.STEP_UP_LIMIT` times for one method, and not at all when the
challenge adds nothing to the scopes it asked for last, so a server that keeps asking
cannot make it loop. Its path step reads
``step-up: 403 insufficient_scope (scope mcp:tools) -> step-up scope mcp:read mcp:tools ->
authorize 302 -> token 200 -> retry 200``. A client without the rule gets the 403 as the
request's error, and the error says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..._link import Transcript
from ..._path import PathStep
from ..._peers import PeerSpec
from .._words import HttpRequest, HttpResponse
from ._client import (
    STEP_UP_LIMIT,
    AuthPath,
    AuthPlan,
    AuthResult,
    authorize,
    challenge_param,
    plan_for,
    step_up,
)
from ._server import ProtectedEndpoint

__all__ = ["AuthAgent", "auth_step", "protect"]


def protect(client: PeerSpec, server: PeerSpec) -> tuple[ProtectedEndpoint, AuthAgent]:
    """A protected endpoint for ``server`` and the authorization of ``client`` against it,
    by the rules of the client's newest revision."""
    endpoint = ProtectedEndpoint(server)
    plan = plan_for(client.profile(client.revisions[0]), client.client_policy)
    return endpoint, AuthAgent(plan, endpoint.auth.resource)

#: Answer headers a transcript keeps from the authorization's requests.
_KEPT: frozenset[str] = frozenset({"www-authenticate", "location"})


def auth_step(path: AuthPath, ok: bool, *, stepped_up: bool = False) -> PathStep:
    """``auth: 401 -> PRM ... 200 -> ... -> retry 200`` (or ``auth failed: ...``); a step-up's
    is ``step-up: ...`` (or ``step-up failed: ...``)."""
    head = "step-up" if stepped_up else "auth"
    return PathStep(f"{head}: {path}" if ok else f"{head} failed: {path}", "auth")


def _lower(headers: Mapping[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def _insufficient_scope(status: int, headers: Mapping[str, str]) -> bool:
    return status == 403 and challenge_param(_lower(headers), "error") == "insufficient_scope"


@dataclass(slots=True)
class AuthAgent:
    """One client's authorization, over one link."""

    plan: AuthPlan
    mcp_url: str
    results: list[AuthResult] = field(default_factory=list)
    _pending: AuthResult | None = None
    _pending_step_up: bool = False
    #: step-ups made, per method
    step_ups: dict[str, int] = field(default_factory=dict)
    #: the client ids registered, by the key of the client's revision
    credentials: dict[str, str] = field(default_factory=dict)
    _worked: bool = False  #: a token was accepted (a later 401 may authorize once more)
    _rounds: int = 0  #: authorizations begun on a 401

    def _held(self) -> AuthResult | None:
        """The last authorization that got a token."""
        return next((r for r in reversed(self.results) if r.token is not None), None)

    def wants(self, status: int, headers: Mapping[str, str] | None = None,
              method: str | None = None) -> bool:
        """Whether this answer starts an authorization: the first 401; or a step-up: a 403
        insufficient_scope, where the client's revision steps up, it holds a token, and it
        has not stepped up :data:`STEP_UP_LIMIT` times for this method."""
        if status == 401:
            return self._rounds == 0 or (self._worked and self._rounds == 1)
        return (_insufficient_scope(status, headers or {}) and bool(self.plan.step_up)
                and self._held() is not None
                and self.step_ups.get(method or "", 0) < self._limit)

    @property
    def _limit(self) -> int:
        """Step-ups for one method: :data:`STEP_UP_LIMIT`, or one where the client only
        authorizes again (quirk reauthorize-same-scope)."""
        return 1 if "same" in self.plan.step_up else STEP_UP_LIMIT

    def refusal(self, status: int, headers: Mapping[str, str], method: str | None) -> str:
        """Why a 403 insufficient_scope stays the request's error (empty: not one)."""
        if not _insufficient_scope(status, headers):
            return ""
        scope = challenge_param(_lower(headers), "scope") or "(none named)"
        if not self.plan.step_up:
            return (f"HTTP 403 insufficient_scope (scope {scope}): this client "
                    f"({self.plan.revision} rules) does not step up")
        return (f"HTTP 403 insufficient_scope (scope {scope}): no step-up left for "
                f"{method or 'this request'} (at most {self._limit}"
                + (", each for more scope)" if self._limit == STEP_UP_LIMIT else ")"))

    def run(self, challenge: HttpResponse, handle: Callable[[HttpRequest], HttpResponse],
            clock: int, latency_ms: int, transcript: Transcript, *,
            method: str | None = None) -> tuple[AuthResult, int]:
        """Authorize after ``challenge`` (or step up after a 403); the result and the clock
        when it is done."""
        lower = _lower(challenge.headers)
        held = self._held()
        stepping = challenge.status == 403 and held is not None
        if stepping and held is not None:
            self.step_ups[method or ""] = self.step_ups.get(method or "", 0) + 1
            machine = step_up(self.plan, held, HttpResponse(challenge.status, headers=lower),
                              self.mcp_url)
            transcript.note(clock, f"HTTP 403 insufficient_scope: the client "
                            f"({self.plan.revision} rules) steps up "
                            f"({'+'.join(self.plan.step_up)})", "auth")
        else:
            machine = authorize(self.plan, HttpResponse(challenge.status, headers=lower), self.mcp_url,
                                credentials=self.credentials)
            again = "its token refused, " if self._rounds else ""
            self._rounds += 1
            transcript.note(clock, f"HTTP 401: authorization required; {again}the client "
                            f"({self.plan.revision} rules) discovers its authorization server",
                            "auth")
        self._pending_step_up = stepping
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
        if result.token is None:  # after a connection (again, a step-up): the request's error
            later = {"refused": challenge.status} if stepping or self._rounds > 1 else {}
            transcript.note(clock, f"authorization failed: {result.reason}", "auth", **later)
        else:
            self._pending = result
        return result, clock

    def settle(self, status: int) -> PathStep | None:
        """The retry's status closes the pending auth path; its step (None: nothing pending)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        pending.path.add("retry", "retry", status)
        refused = status in (401, 403)  # any other answer is the MCP server's, not auth's
        if refused:
            pending.reason = f"the retry with the token got HTTP {status}"
        self._worked = self._worked or not refused
        return auth_step(pending.path, not refused, stepped_up=self._pending_step_up)

    def failed_step(self) -> PathStep | None:
        """The step of an authorization that found no token (the last one), if any."""
        last = self.results[-1] if self.results else None
        return auth_step(last.path, False, stepped_up=self._pending_step_up) \
            if last and last.token is None else None

    def to_list(self) -> list[dict[str, Any]]:
        """The runs' authorizations as JSON: the path, its hops, the outcome (a step-up's
        entry says so)."""
        return [{"revision_rules": self.plan.revision, "path": str(r.path),
                 "hops": r.path.to_dict(), "authorized": r.token is not None and not r.reason,
                 "reason": r.reason,
                 **({"step_up": True} if r.path.hops[0].text.startswith("403") else {})}
                for r in self.results]


def _request(fetch: HttpRequest) -> HttpRequest:
    """The flow's request as the server reads it: lower-case header names."""
    headers = {k.lower(): v for k, v in fetch.headers.items()}
    return HttpRequest(fetch.method, fetch.path, headers, fetch.body)


def _fetched(answer: HttpResponse) -> HttpResponse:
    """The server's answer as the flow receives it: lower-case header names, the body's bytes."""
    return HttpResponse(answer.status, answer.encoded(),
                        {k.lower(): v for k, v in answer.headers.items()})


def _record(transcript: Transcript, clock: int, fetch: HttpRequest, answer: HttpResponse) -> None:
    kept = {k: v for k, v in answer.headers.items() if k.lower() in _KEPT}
    target = fetch.path.split("?", 1)[0]
    transcript.note(clock, f"{fetch.method} {target} -> HTTP {answer.status}", "http",
                    http={"method": fetch.method, "path": target, "status": answer.status,
                          **({"headers": kept} if kept else {})})

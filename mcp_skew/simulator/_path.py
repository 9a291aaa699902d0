"""Path steps: the negotiation as the client lived it, typed and readable.

A :class:`PathStep` is one step of a run's path (``discover 2026-07-28``, ``error
-32601``, ``timeout after 3000 ms``, ``initialize 2025-11-25``, ``accepted
2025-11-25``). It *is* the text a person reads (a ``str``, so a path prints,
compares and serialises as it always has), and it carries what the text says as
fields: ``kind``, and where the kind has them ``revision``, ``method``, ``code``
and ``ms``. Code that reasons about a path reads the fields, never the text.

Build steps with the constructors below, one per kind; each writes the text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final, Literal, ParamSpec

__all__ = [
    "PathStep",
    "StepKind",
    "accepted",
    "answered",
    "choose",
    "counter_offer",
    "disconnect",
    "era_stale",
    "error",
    "exited",
    "incomplete",
    "legacy_advert",
    "no_answer",
    "re_probe",
    "request",
    "restart",
    "result",
    "retry",
    "rule",
    "served_legacy",
    "session_lost",
    "session_refused",
    "session_renewed",
    "sse_fallback",
    "sse_opened",
    "sse_refused",
    "timeout",
]

StepKind = Literal[
    "request",  # a request that opens or probes: ``initialize R``, ``discover R``, ``tools/list R``
    "result",  # the answer was a result
    "error",  # the answer was an error: ``error -32601``
    "timeout",  # no answer in time: ``timeout after 3000 ms``
    "exited",  # the server process ended: ``server exited``
    "counter-offer",  # initialize answered with another revision
    "disconnect",  # the client refused the counter-offer
    "retry",  # a -32022 named a revision to retry with
    "choose",  # server/discover offered a revision the client prefers
    "restart",  # the client replaced the server process
    "re-probe",  # the fallback failed after a timed-out probe; probe again
    "era-stale",  # a request failed under the cached era decision: the client probes again
    "accepted",  # the revision the pair will speak
    "answered",  # (the prober) what an initialize with a bogus revision got
    "served-legacy",  # the server ran a modern request under legacy rules
    "no-answer",  # (a recorded log) the log ends with the request unanswered
    "rule",  # (over HTTP) the transport's rule read the probe's answer: fall back, or not
    "auth",  # (over HTTP) the client's authorization: discovery, token, retry (the auth path)
    "transport",  # (over HTTP) the HTTP+SSE transport of 2024-11-05: tried, opened, refused
    "session",  # (over HTTP) the server forgot the session (404); the client started a new one
    "note",  # anything else, as text
]


class PathStep(str):
    """One path step: its text, and the fields the text states."""

    kind: StepKind
    revision: str | None
    method: str | None
    code: int | None
    ms: int | None
    transport: str | None  #: a ``rule`` step's transport (``http``)

    def __new__(cls, text: str, kind: StepKind = "note", *, revision: str | None = None,
                method: str | None = None, code: int | None = None, ms: int | None = None,
                transport: str | None = None) -> PathStep:
        step = super().__new__(cls, text)
        step.kind, step.revision, step.method, step.code, step.ms = kind, revision, method, code, ms
        step.transport = transport
        return step

    def __reduce__(self) -> tuple[object, ...]:
        fields = {"revision": self.revision, "method": self.method, "code": self.code, "ms": self.ms,
                  "transport": self.transport}
        return (_rebuild, (str(self), self.kind, fields))


def _rebuild(text: str, kind: StepKind, fields: dict[str, Any]) -> PathStep:
    return PathStep(text, kind, **fields)


P = ParamSpec("P")
#: Steps a constructor keeps for reuse before it starts again.
_SHARED_LIMIT: Final = 4096


def _shared(build: Callable[P, PathStep]) -> Callable[P, PathStep]:
    """``build``, giving the same :class:`PathStep` for the same arguments.

    A step never changes once built, and a matrix sweep builds the same few
    thousands of times: sharing them saves the time and most of a path's memory.
    Arguments are keyed with their types (``error(1)`` is not ``error(True)``); an
    unhashable one (a value from the wire) gets a step of its own.
    """
    cache: dict[tuple[object, ...], PathStep] = {}

    @functools.wraps(build)
    def shared(*args: P.args, **kwargs: P.kwargs) -> PathStep:
        # the arguments, then their types; spelt out for one or two (every step but one
        # takes at most two: a request's method and revision), which costs a third
        if len(args) == 2:
            first, second = args
            key: tuple[object, ...] = (first, second, type(first), type(second))
        elif len(args) == 1:
            key = (args[0], type(args[0]))
        else:
            key = (*args, *map(type, args))
        try:
            found = None if kwargs else cache.get(key)
        except TypeError:
            return build(*args, **kwargs)
        if found is None:
            found = build(*args, **kwargs)
            if not kwargs:
                if len(cache) >= _SHARED_LIMIT:
                    cache.clear()
                cache[key] = found
        return found

    return shared


def _revision(value: object) -> str | None:
    """A revision as the wire gave it: a string, else None (the text still shows it)."""
    return value if isinstance(value, str) else None


@_shared
def request(method: str, revision: object) -> PathStep:
    """``initialize R``, ``discover R`` (for ``server/discover``) or ``METHOD R``."""
    short = "discover" if method == "server/discover" else method
    return PathStep(f"{short} {revision}", "request", method=method, revision=_revision(revision))


@_shared
def result() -> PathStep:
    return PathStep("result", "result")


@_shared
def error(code: object) -> PathStep:
    """``error CODE``; ``code`` is the wire's (an int, or whatever a server sent)."""
    number = code if isinstance(code, int) and not isinstance(code, bool) else None
    return PathStep(f"error {code}", "error", code=number)


@_shared
def timeout(ms: int) -> PathStep:
    return PathStep(f"timeout after {ms} ms", "timeout", ms=ms)


@_shared
def exited() -> PathStep:
    return PathStep("server exited", "exited")


@_shared
def counter_offer(revision: object) -> PathStep:
    return PathStep(f"counter-offer {revision}", "counter-offer", revision=_revision(revision))


@_shared
def disconnect() -> PathStep:
    return PathStep("disconnect", "disconnect")


@_shared
def retry(revision: str) -> PathStep:
    return PathStep(f"retry {revision}", "retry", revision=revision)


@_shared
def choose(revision: str) -> PathStep:
    return PathStep(f"choose {revision}", "choose", revision=revision)


@_shared
def legacy_advert() -> PathStep:
    """A DiscoverResult that names no modern revision the client has, read as a legacy
    advertisement: fall back to ``initialize``."""
    return PathStep("no modern revision offered: fall back", "note")


def incomplete(missing: list[str], *, fall_back: bool = True) -> PathStep:
    """A DiscoverResult the client refused for lacking fields the schema requires (client
    quirk ``strict-discover``): read as a failed probe, so a dual-era client falls back."""
    text = f"incomplete result (no {', '.join(missing)})"
    return PathStep(text + (": fall back" if fall_back else ""), "note")


@_shared
def restart() -> PathStep:
    return PathStep("restart", "restart")


@_shared
def re_probe() -> PathStep:
    return PathStep("re-probe", "re-probe")


@_shared
def era_stale(era: str, method: str) -> PathStep:
    """``cached era modern failed on tools/list``: the server changed under the client."""
    return PathStep(f"cached era {era} failed on {method}", "era-stale", method=method)


def result_shape(method: str, fields: list[str]) -> PathStep:
    """``tools/call: result shape outputs``: the result carried its output only in fields the
    client's revision does not define (SEP-3279's ``outputs`` to a client that reads
    ``content``)."""
    return PathStep(f"{method}: result shape {', '.join(fields)}", "note", method=method)


@_shared
def accepted(revision: str) -> PathStep:
    return PathStep(f"accepted {revision}", "accepted", revision=revision)


def answered(revision: object) -> PathStep:
    return PathStep(f"answered {revision}", "answered", revision=_revision(revision))


@_shared
def served_legacy() -> PathStep:
    return PathStep("served under legacy rules", "served-legacy")


def no_answer() -> PathStep:
    return PathStep("no answer", "no-answer")


#: What a transport's rule says of a probe outcome it does not read as "legacy".
_NOT_LEGACY = {"timeout": "a timeout is an error, not a legacy server",
               "closed": "a dropped connection is an error, not a legacy server"}


#: What the rule says of an HTTP error status that is not era evidence (``{}``: the status).
_NOT_LEGACY_STATUS = {"auth": "HTTP {} is an authorization failure, not a legacy server",
                      "server-error": "HTTP {} is a server error, not a legacy server",
                      "http-error": "HTTP {} is an error, not a legacy server"}


def rule(transport: str, outcome: str, status: int | None = None, *,
         quirk: str | None = None, modern_code: int | None = None) -> PathStep:
    """``http: no modern error in the answer, fall back`` (``outcome`` ``error``), or why the
    transport's rule does not fall back: ``http: a timeout is an error, not a legacy server``,
    ``http: HTTP 401 is an authorization failure, not a legacy server``. With ``quirk``, a
    client that falls back all the same: ``http: HTTP 401 read as a legacy server (quirk
    auth-fallback), fall back``; a recognised modern error (``modern_code``) read so:
    ``http: error -32022 read as a legacy server (quirk fallback-denylist), fall back``."""
    if quirk is not None and modern_code is not None:
        said = f"error {modern_code} read as a legacy server (quirk {quirk}), fall back"
    elif quirk is not None:
        said = f"HTTP {status} read as a legacy server (quirk {quirk}), fall back"
    elif outcome in _NOT_LEGACY_STATUS:
        said = _NOT_LEGACY_STATUS[outcome].format(status)
    else:
        said = "no modern error in the answer, fall back" if outcome == "error" else \
            _NOT_LEGACY.get(outcome, f"{outcome}: no fallback")
    return PathStep(f"{transport}: {said}", "rule", code=status, transport=transport)


@_shared
def sse_fallback(status: int) -> PathStep:
    """``http: HTTP 405 to initialize, try HTTP+SSE``: the initialize POST got 400/404/405
    without a modern error, so the client GETs the URL for an HTTP+SSE stream (2025-11-25
    ``basic/transports.mdx`` §Backwards Compatibility)."""
    return PathStep(f"http: HTTP {status} to initialize, try HTTP+SSE", "transport", code=status,
                transport="http")


@_shared
def sse_opened(post_path: str) -> PathStep:
    """``http+sse: endpoint /messages``: the GET opened an SSE stream whose first event named
    the POST endpoint (its query, a session id, left out); the client uses HTTP+SSE from here."""
    return PathStep(f"http+sse: endpoint {post_path.split('?', 1)[0]}", "transport",
                transport="http+sse")


@_shared
def sse_refused(status: int) -> PathStep:
    """``http+sse: GET got HTTP 405, no SSE stream``: no HTTP+SSE server at the URL."""
    return PathStep(f"http+sse: GET got HTTP {status}, no SSE stream", "transport", code=status,
                transport="http+sse")


@_shared
def session_lost(method: str, status: int = 404) -> PathStep:
    """``http: HTTP 404 to tools/list in the session, start a new session``: the server no
    longer knows the session (2025-03-26 and later ``basic/transports.mdx`` §Session
    Management: the client MUST send a new initialize without a session id)."""
    return PathStep(f"http: HTTP {status} to {method} in the session, start a new session",
                "session", method=method, code=status, transport="http")


@_shared
def session_renewed(revision: object) -> PathStep:
    """``http: new session, initialize 2025-11-25 accepted``: the new session is open, and
    the request that found the old one gone is sent again in it."""
    return PathStep(f"http: new session, initialize {revision} accepted", "session",
                revision=_revision(revision), method="initialize", transport="http")


@_shared
def session_refused(code: object) -> PathStep:
    """``http: new session refused, error -32600``: the new ``initialize`` failed."""
    return PathStep(f"http: new session refused, error {code}", "session",
                code=code if isinstance(code, int) else None, transport="http")

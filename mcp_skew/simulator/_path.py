"""Path steps: the negotiation as the client lived it, typed and readable.

A :class:`Step` is one step of a run's path (``discover 2026-07-28``, ``error
-32601``, ``timeout after 3000 ms``, ``initialize 2025-11-25``, ``accepted
2025-11-25``). It *is* the text a person reads (a ``str``, so a path prints,
compares and serialises as it always has), and it carries what the text says as
fields: ``kind``, and where the kind has them ``revision``, ``method``, ``code``
and ``ms``. Code that reasons about a path reads the fields, never the text.

Build steps with the constructors below, one per kind; each writes the text.
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = [
    "Step",
    "StepKind",
    "accepted",
    "answered",
    "choose",
    "counter_offer",
    "disconnect",
    "error",
    "exited",
    "no_answer",
    "re_probe",
    "request",
    "restart",
    "result",
    "retry",
    "served_legacy",
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
    "accepted",  # the revision the pair will speak
    "answered",  # (the prober) what an initialize with a bogus revision got
    "served-legacy",  # the server ran a modern request under legacy rules
    "no-answer",  # (a recorded log) the log ends with the request unanswered
    "note",  # anything else, as text
]


class Step(str):
    """One path step: its text, and the fields the text states."""

    kind: StepKind
    revision: str | None
    method: str | None
    code: int | None
    ms: int | None

    def __new__(cls, text: str, kind: StepKind = "note", *, revision: str | None = None,
                method: str | None = None, code: int | None = None, ms: int | None = None) -> Step:
        step = super().__new__(cls, text)
        step.kind, step.revision, step.method, step.code, step.ms = kind, revision, method, code, ms
        return step

    def __reduce__(self) -> tuple[object, ...]:
        fields = {"revision": self.revision, "method": self.method, "code": self.code, "ms": self.ms}
        return (_rebuild, (str(self), self.kind, fields))


def _rebuild(text: str, kind: StepKind, fields: dict[str, Any]) -> Step:
    return Step(text, kind, **fields)


def _revision(value: object) -> str | None:
    """A revision as the wire gave it: a string, else None (the text still shows it)."""
    return value if isinstance(value, str) else None


def request(method: str, revision: object) -> Step:
    """``initialize R``, ``discover R`` (for ``server/discover``) or ``METHOD R``."""
    short = "discover" if method == "server/discover" else method
    return Step(f"{short} {revision}", "request", method=method, revision=_revision(revision))


def result() -> Step:
    return Step("result", "result")


def error(code: object) -> Step:
    """``error CODE``; ``code`` is the wire's (an int, or whatever a server sent)."""
    number = code if isinstance(code, int) and not isinstance(code, bool) else None
    return Step(f"error {code}", "error", code=number)


def timeout(ms: int) -> Step:
    return Step(f"timeout after {ms} ms", "timeout", ms=ms)


def exited() -> Step:
    return Step("server exited", "exited")


def counter_offer(revision: object) -> Step:
    return Step(f"counter-offer {revision}", "counter-offer", revision=_revision(revision))


def disconnect() -> Step:
    return Step("disconnect", "disconnect")


def retry(revision: str) -> Step:
    return Step(f"retry {revision}", "retry", revision=revision)


def choose(revision: str) -> Step:
    return Step(f"choose {revision}", "choose", revision=revision)


def restart() -> Step:
    return Step("restart", "restart")


def re_probe() -> Step:
    return Step("re-probe", "re-probe")


def accepted(revision: str) -> Step:
    return Step(f"accepted {revision}", "accepted", revision=revision)


def answered(revision: object) -> Step:
    return Step(f"answered {revision}", "answered", revision=_revision(revision))


def served_legacy() -> Step:
    return Step("served under legacy rules", "served-legacy")


def no_answer() -> Step:
    return Step("no answer", "no-answer")

"""Scenarios: what a client does once it can talk, step by step.

A step sends one request under the negotiated revision and says what a server
of that revision should answer: a result, a tool error (``isError``), or a
protocol error. The expected error codes come from the profile (an unknown
resource is -32002 before 2026-07-28 and -32602 from it; a 2026-07-28 client
accepts both: ``server/resources.mdx`` §Error Handling).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..versions import Profile
from ._client import Session, SimClient, check_result
from ._events import Reply, Timeout
from ._findings import Finding
from ._link import Link, LinkObserver
from ._machine import Machine, Observer, Steps, drive
from ._memo import by_identity2

__all__ = ["SCENARIOS", "Played", "Scenario", "Step", "StepResult", "play", "playing"]

Expect = Literal["result", "tool-error", "error"]


@dataclass(frozen=True, slots=True)
class Step:
    """One request and the answer a server of the negotiated revision should give."""

    name: str
    method: str
    params: dict[str, Any]
    expect: Expect
    #: the acceptable error codes, from the negotiated profile (for ``expect="error"``)
    codes: Callable[[Profile], frozenset[int]] = lambda p: frozenset()


@dataclass(frozen=True, slots=True)
class StepResult:
    name: str
    ok: bool
    expected: str
    got: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "expected": self.expected, "got": self.got}


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    summary: str
    steps: tuple[Step, ...]


def _not_found_codes(p: Profile) -> frozenset[int]:
    codes = {p.error(p.settings["resource_not_found"]).code}
    if "ResourceNotFound" in p.errors:  # clients SHOULD still accept the legacy code
        codes.add(p.error("ResourceNotFound").code)
    return frozenset(codes)


LIST_TOOLS = Step("list tools", "tools/list", {}, "result")
LIST_RESOURCES = Step("list resources", "resources/list", {}, "result")
DEFAULT_STEPS = (
    LIST_TOOLS,
    Step("call a tool", "tools/call", {"name": "echo", "arguments": {"text": "hi"}}, "result"),
    Step("tool error (isError)", "tools/call", {"name": "fail", "arguments": {}}, "tool-error"),
    Step("unknown tool", "tools/call", {"name": "no-such-tool", "arguments": {}}, "error",
         lambda p: frozenset({p.error("InvalidParams").code})),
    Step("missing resource", "resources/read", {"uri": "mem://missing"}, "error",
         _not_found_codes),
    Step("undeclared capability (prompts)", "prompts/list", {}, "error",
         lambda p: frozenset({p.error("MethodNotFound").code})),
)

SCENARIOS: Final[dict[str, Scenario]] = {
    s.name: s
    for s in (
        Scenario("default", "list tools, call one, a tool error, an unknown tool, a missing "
                 "resource, an undeclared capability", DEFAULT_STEPS),
        Scenario("handshake", "negotiate only", ()),
        Scenario("lists", "list tools and resources (safe against real servers)",
                 (LIST_TOOLS, LIST_RESOURCES)),
    )
}


@by_identity2
def _codes(step: Step, profile: Profile) -> frozenset[int]:
    """``step.codes(profile)``, once per step and profile (a sweep asks for each many times)."""
    return step.codes(profile)


def _judge(step: Step, profile: Profile, reply: Reply) -> tuple[bool, str]:
    if reply.error is not None:
        code = reply.code
        return step.expect == "error" and code in _codes(step, profile), f"error {code}"
    result = reply.result or {}
    is_error = result.get("isError") is True
    got = "tool error (isError)" if is_error else "result"
    if step.expect == "tool-error":
        return is_error, got
    return step.expect == "result" and not is_error, got


@by_identity2
def _expected(step: Step, profile: Profile) -> str:
    if step.expect == "error":
        return "error " + " or ".join(str(c) for c in sorted(_codes(step, profile)))
    return "tool error (isError)" if step.expect == "tool-error" else "result"


#: What playing a scenario gives: the steps' results, findings, and when the first
#: useful result came (simulated ms), if one did.
Played = tuple[list[StepResult], list[Finding], int | None]


def playing(scenario: Scenario, client: SimClient, session: Session,
            observer: Observer) -> Machine[Played]:
    """The steps of ``scenario`` as a driven machine (see :mod:`._machine`)."""
    return Machine(_play(scenario, client, session, observer))


def play(scenario: Scenario, client: SimClient, link: Link, session: Session) -> Played:
    """Drive :func:`playing` over a blocking link."""
    return drive(playing(scenario, client, session, LinkObserver(link)), link)


def _play(scenario: Scenario, client: SimClient, session: Session, obs: Observer) -> Steps[Played]:
    results: list[StepResult] = []
    findings: list[Finding] = []
    first_useful: int | None = None
    profile = session.profile
    for step in scenario.steps:
        index = obs.position()
        event = yield client.call(session, step.method, step.params)
        if event is not None:  # what the transport did on the way (a new HTTP session)
            session.path += event.via
        expected = _expected(step, profile)
        if not isinstance(event, Reply):
            got = "timeout" if isinstance(event, Timeout) else "server exited"
            results.append(_result_of(step.name, False, expected, got))
            continue
        ok, got = _judge(step, profile, event)
        result = event.result
        if result is not None:
            found = check_result(profile, step.method, result, index + 1)
            findings += found
            if found and client.policy.strict_results:  # the client refuses the result
                ok, got = False, f"invalid result ({found[0].message})"
                if client.policy.raw_retry:  # asked once more, raw; refused all the same
                    yield client.call(session, step.method, step.params)
        if ok and first_useful is None and step.expect == "result":
            first_useful = obs.now_ms()
        results.append(_result_of(step.name, ok, expected, got))
    return results, findings, first_useful


@functools.lru_cache(maxsize=4096)
def _result_of(name: str, ok: bool, expected: str, got: str) -> StepResult:
    """A step's result. It is frozen, and a sweep makes the same few thousands of times:
    equal ones are shared."""
    return StepResult(name, ok, expected, got)

"""Scenarios: what a client does once it can talk, step by step, on a simulated clock.

A step sends one request under the negotiated revision and says what a server
of that revision should answer: a result, a tool error (``isError``), or a
protocol error. The expected error codes come from the profile (an unknown
resource is -32002 before 2026-07-28 and -32602 from it; a 2026-07-28 client
accepts both: ``server/resources.mdx`` §Error Handling).

Time. A step may name the simulated time it happens at (``at_ms``, on the run's
clock, which starts at 0 when the client starts): the clock runs to it first
(nothing sleeps). Beside requests, a scenario may open a ``subscriptions/listen``
stream (:class:`Listen`) and say that something changes on the server at a time
(:class:`ServerEvent`: it emits a notification on the streams that asked for it);
the run schedules those on its link.

Caches. A scenario that ``keeps_cache`` plays a long-lived client: it has a
:class:`~._cache.ClientCache` (results by their ``ttlMs``/``cacheScope``, era
decisions per server), serves fresh results from it without a request, drops
what a notification invalidates, and, when a request fails under its cached era
decision (the server changed under it: an upgrade, a downgrade), a dual-era
client probes again and repeats the request (2026-07-28 ``basic/versioning.mdx``:
clients SHOULD cache the era determination for the server-process lifetime or
origin, "re-probing if the cached assumption later fails").

Per-request versions. In every scenario, a modern request answered with -32022
is retried once with the client's newest revision in ``data.supported``
(2026-07-28 ``basic/versioning.mdx``: the client "SHOULD select a mutually
supported version from the ``supported`` list and retry the request"; schema
``UnsupportedProtocolVersionError``), whichever request of the session it is: a
server behind a pool may change under the client.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .._memo import by_identity2
from ..versions import Profile
from . import _negotiation as negotiation
from . import _path as path_steps
from ._asking import follow_up, needs_follow_up
from ._cache_reads import absorb, from_cache
from ._client import Session, SimClient
from ._extensions import UI as UI_ID
from ._feature_calls import feature_expect
from ._link import Link, LinkObserver
from ._outputs import (
    OUTPUT_FIELDS,
    note_tools,
    readable,
    refused_before,
    refused_result,
    unreadable,
)
from ._result_checks import check_result, checked_fields
from .findings._finding import Finding
from .machine._events import Reply, Timeout
from .machine._machine import Machine, Observer, Open, Remark, Send, Steps, Wait, drive
from .messages import _wire

__all__ = ["SCENARIOS", "Listen", "Played", "Scenario", "ServerEvent", "Step", "StepResult",
           "play", "playing"]

Expect = Literal["result", "tool-error", "error"]


@dataclass(eq=False, frozen=True, slots=True)
class Step:
    """One request and the answer a server of the negotiated revision should give."""

    name: str
    method: str
    params: dict[str, Any]
    expect: Expect
    #: the acceptable error codes, from the negotiated profile (for ``expect="error"``)
    codes: Callable[[Profile], frozenset[int]] = lambda p: frozenset()
    #: when it happens: simulated ms on the run's clock; None: right after the step before
    at_ms: int | None = None
    #: era-gated: where the negotiated revision lacks the method (the modern era removed
    #: ``ping`` and ``logging/setLevel``), the answer should be -32601 Method not found
    gated: bool = False
    #: MCP Apps: read the resource the listed tools' ``_meta.ui.resourceUri`` names, as a
    #: host that advertises the extension does (:func:`_open_app`)
    app: bool = False
    #: a named feature the call needs (the ``features`` scenario): what to expect is read
    #: from how the negotiated revision carries it (:func:`._feature_calls.feature_expect`)
    needs: str | None = None

    def expects(self, profile: Profile) -> Expect:
        """What a server of ``profile`` should answer: ``expect``, or an error where the
        step is era-gated and the revision lacks the method; for a step that needs a
        feature, what the revision and the client's capabilities make of it."""
        if self.gated and self.method not in profile.methods:
            return "error"
        if self.needs is not None:
            return feature_expect(profile, self.needs)
        return self.expect

    def codes_in(self, profile: Profile) -> frozenset[int]:
        if self.gated and self.method not in profile.methods:
            return frozenset({profile.error("MethodNotFound").code})
        if self.needs is not None and "MissingRequiredClientCapability" in profile.errors:
            return frozenset({profile.error("MissingRequiredClientCapability").code})
        return self.codes(profile)


@dataclass(eq=False, frozen=True, slots=True)
class Listen:
    """Open a ``subscriptions/listen`` stream that opts in to every notification that
    invalidates a cached result of ``methods`` (the profile's ``cache_invalidations`` rows
    name the filter keys); skipped where the negotiated revision has no such method."""

    name: str
    methods: tuple[str, ...]
    at_ms: int | None = None


@dataclass(eq=False, frozen=True, slots=True)
class ServerEvent:
    """At ``at_ms`` something changes on the server: it emits ``emit`` (with ``params``) on
    the listen streams that asked for it. Scheduled on the link by the run."""

    name: str
    at_ms: int
    emit: str
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class StepResult:
    """One step's outcome: whether it went as the revision expects, what was expected and
    what came."""

    name: str
    ok: bool
    expected: str
    got: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "expected": self.expected, "got": self.got}


@dataclass(eq=False, frozen=True, slots=True)
class Scenario:
    """A named run after the handshake: its steps, in order (requests, listens, server
    events)."""

    name: str
    summary: str
    steps: tuple[Step | Listen | ServerEvent, ...]
    #: a long-lived client: results and era decisions are cached (see the module docstring)
    keeps_cache: bool = False
    #: the server is protected: the client authorizes first (over HTTP only; ``http.auth._link``)
    protected: bool = False
    #: the client answers the server's requests (elicitation, sampling, roots) as a user
    #: would (:func:`._feature_calls.response_to`); else it leaves them unanswered
    answers: bool = False

    @property
    def requests(self) -> tuple[Step, ...]:
        """The steps that send a request, in order: each gives one :class:`StepResult`."""
        return tuple(s for s in self.steps if isinstance(s, Step))

    @property
    def server_events(self) -> tuple[ServerEvent, ...]:
        return tuple(s for s in self.steps if isinstance(s, ServerEvent))


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

CALL_ECHO = Step("call a tool", "tools/call", {"name": "echo", "arguments": {"text": "hi"}},
                 "result")
#: ``cache``: against a server whose ttlMs is 60 s, the lists at 0 and 30 s are one request
#: (or none, where negotiation already listed the tools) and the list at 90 s is another.
CACHE_STEPS = (
    Step("list tools (t=0)", "tools/list", {}, "result", at_ms=0),
    Step("list tools (t=30 s)", "tools/list", {}, "result", at_ms=30_000),
    Step("list tools (t=90 s)", "tools/list", {}, "result", at_ms=90_000),
    CALL_ECHO,
)
#: ``listen``: a fresh list is dropped when the server says its tools changed.
LISTEN_STEPS = (
    Listen("listen for list changes", ("tools/list",), at_ms=0),
    Step("list tools (t=1 s)", "tools/list", {}, "result", at_ms=1_000),
    ServerEvent("the server's tools change (t=10 s)", 10_000, "notifications/tools/list_changed"),
    Step("list tools (t=20 s)", "tools/list", {}, "result", at_ms=20_000),
    Step("list tools (t=30 s)", "tools/list", {}, "result", at_ms=30_000),
)
#: ``long``: a long-lived client that lists and calls once a minute for five minutes (with
#: ``simulate --server-change``, the server can change under it).
LONG_STEPS = tuple(
    step
    for minute in range(5)
    for step in (
        Step(f"list tools (t={minute} min)", "tools/list", {}, "result", at_ms=minute * 60_000),
        Step(f"call a tool (t={minute} min)", "tools/call",
             {"name": "echo", "arguments": {"text": "hi"}}, "result"),
    )
)

#: ``era-gated``: a method the legacy era has and 2026-07-28 removed, sent once connected:
#: ``ping`` (gone from the 2026-07-28 schema's ClientRequest), so a modern server answers
#: -32601 (``logging/setLevel``, which needs a server that declares ``logging``, is the client
#: quirk ``legacy-set-level`` with the server quirk ``logging``).
ERA_GATED_STEPS = (
    Step("ping", "ping", {}, "result", gated=True),
    LIST_TOOLS,
)

#: ``apps``: a host of MCP Apps lists the tools and opens the app a tool points at
#: (ext-apps 2026-01-26 ``apps.mdx`` §Resource Discovery: "Host MUST use resources/read to
#: fetch the referenced resource URI").
APPS_STEPS = (
    LIST_TOOLS,
    Step("open the app (resources/read ui://)", "resources/read", {}, "result", app=True),
)

#: ``features``: calls that need the client's input, carried as the negotiated revision
#: carries it (``versions._features``; the tools: :mod:`._feature_calls`): elicitation and
#: sampling as server requests on a legacy revision, as an ``input_required`` round and a
#: retry with ``requestState`` on 2026-07-28 (``basic/patterns/mrtr.mdx``); URL-mode
#: elicitation, which the client does not declare, as -32021 on 2026-07-28 (``basic/
#: index.mdx`` §_meta) and a tool error before it.
FEATURE_STEPS = (
    Step("elicitation (form)", "tools/call", {"name": "ask-name", "arguments": {}}, "result",
         needs="elicitation"),
    Step("sampling", "tools/call", {"name": "ask-model", "arguments": {}}, "result",
         needs="sampling"),
    Step("elicitation (URL mode, not declared)", "tools/call",
         {"name": "open-url", "arguments": {}}, "result", needs="url-elicitation"),
)

SCENARIOS: Final[dict[str, Scenario]] = {
    s.name: s
    for s in (
        Scenario("default", "list tools, call one, a tool error, an unknown tool, a missing "
                 "resource, an undeclared capability", DEFAULT_STEPS),
        Scenario("handshake", "negotiate only", ()),
        Scenario("lists", "list tools and resources (safe against real servers)",
                 (LIST_TOOLS, LIST_RESOURCES)),
        Scenario("cache", "a caching client: list tools at t = 0, 30 s and 90 s, then call a "
                 "tool (ttlMs decides which lists go on the wire)", CACHE_STEPS,
                 keeps_cache=True),
        Scenario("listen", "a caching client listens for list changes: a list, the server's "
                 "tools change at 10 s (notifications/tools/list_changed), lists at 20 and "
                 "30 s", LISTEN_STEPS, keeps_cache=True),
        Scenario("era-gated", "after connecting, a method only the legacy era has (ping), "
                 "then list tools: a modern server answers it -32601", ERA_GATED_STEPS),
        Scenario("long", "a caching client lists tools and calls one every minute for five "
                 "minutes (use --server-change to change the server under it)", LONG_STEPS,
                 keeps_cache=True),
        Scenario("apps", "MCP Apps (io.modelcontextprotocol/ui, peers with +ext=ui): list "
                 "the tools, then read the ui:// resource a tool's _meta.ui.resourceUri names",
                 APPS_STEPS),
        Scenario("auth", "a protected server (Streamable HTTP only): the client discovers its "
                 "authorization server by its revision's rules, gets a token, lists tools "
                 "and calls one (server quirk auth=LAYOUT: what the server publishes)",
                 (LIST_TOOLS, CALL_ECHO), protected=True),
        Scenario("features", "calls that need the user's input: elicitation and sampling as "
                 "server requests (legacy) or an input_required round then a retry with "
                 "requestState (2026-07-28), and URL elicitation the client did not declare "
                 "(-32021 on 2026-07-28)", FEATURE_STEPS, answers=True),
    )
}


#: The results a :class:`StepPlan` keeps by outcome (a simulated server gives a step a few).
PLAN_RESULTS: Final = 64


class StepPlan:
    """A request step under one negotiated profile: what is fixed about it, worked out once
    per step and profile (a sweep plays the same few steps under the same few profiles
    thousands of times), so that a step reads a few attributes and what the reply says.

    ``expect``: what a server of the profile should answer (:meth:`Step.expects`),
    ``expected`` that as the step's text, ``codes`` the acceptable error codes
    (:meth:`Step.codes_in`); the step's results by what came (:meth:`result`).

    A plan is a memo's value (:func:`_plans`) that keeps a table of the step's results,
    filled as outcomes come: each entry is a pure function of its key, and the table stops
    growing at :data:`PLAN_RESULTS` entries (a real server chooses its error codes and its
    results' shapes), past which a result is made by :func:`_result_of` alone."""

    __slots__ = ("_errors", "_results", "calls_tool", "checked", "codes", "expect", "expected",
                 "lists_tools", "name", "reads", "retry_code", "sealer", "step")

    def __init__(self, step: Step, profile: Profile) -> None:
        self.step, self.name = step, step.name
        self.expect = expect = step.expects(profile)
        self.codes: frozenset[int] = frozenset()
        if expect != "error":  # the codes matter only where an error is expected
            self.expected = "tool error (isError)" if expect == "tool-error" else "result"
        else:
            self.codes = codes = step.codes_in(profile)
            self.expected = "error " + " or ".join(str(c) for c in sorted(codes))
        #: a tools/call result's shape is asked (:func:`unreadable`); a tools/list's tools kept
        self.calls_tool, self.lists_tools = step.method == "tools/call", step.method == "tools/list"
        #: the output fields a tools/call result may carry that the profile defines
        self.reads = profile.names("call_tool_result_fields")
        #: the result fields :func:`check_result` asks for (a result with them has no finding
        #: but a tools/list result, whose tools it reads)
        self.checked = checked_fields(profile, step.method)
        #: the code of a refusal the request is retried after (a modern -32022: ``_asking``)
        self.retry_code = negotiation.unsupported_code(profile)
        #: what makes the step's request (its params are the step's own, but an app's)
        self.sealer = None if step.app else _wire.sealer(profile, step.method, step.params)
        self._results: dict[tuple[bool, str], StepResult] = {}
        self._errors: dict[Any, StepResult] = {}

    def result(self, ok: bool, got: str) -> StepResult:
        """The step's result: made once per plan and outcome (:func:`_result_of` shares equal
        ones across plans)."""
        found = self._results.get((ok, got))
        if found is None:
            found = _result_of(self.name, ok, self.expected, got)
            if len(self._results) < PLAN_RESULTS:
                self._results[ok, got] = found
        return found

    def error_result(self, code: Any) -> StepResult:
        """:meth:`result` of an error answer with ``code`` and no result (:func:`_judge`)."""
        found = self._errors.get(code)
        if found is None:
            found = self.result(self.expect == "error" and code in self.codes, f"error {code}")
            if len(self._errors) < PLAN_RESULTS:
                self._errors[code] = found
        return found


def _judge(plan: StepPlan, profile: Profile, reply: Reply) -> tuple[bool, str]:
    """Whether ``reply`` is what ``plan`` expects, and what came, in the step's words."""
    error = reply.error
    if error is not None:
        code = reply.code
        return plan.expect == "error" and code in plan.codes, f"error {code}"
    result = reply.result or {}
    if plan.calls_tool and not readable(result, plan.reads):  # the result-shape boundary
        return False, unreadable(plan.step.method, profile, result) or ""
    is_error = result.get("isError") is True
    got = "tool error (isError)" if is_error else "result"
    if plan.expect == "tool-error":
        return is_error, got
    return plan.expect == "result" and not is_error, got


@by_identity2
def _plans(scenario: Scenario, profile: Profile) -> dict[int, StepPlan]:
    """The :class:`StepPlan` of each of the scenario's request steps under ``profile``, by
    the step's place in the scenario: once per scenario and profile."""
    return {i: StepPlan(step, profile) for i, step in enumerate(scenario.steps)
            if isinstance(step, Step)}


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
    listed: dict[str, dict[str, Any]] = {}  #: the tools the last tools/list gave, by name
    # what the client does is fixed for the run: read once, not at every step (``direct``: a
    # step's request is sent as its plan's sealer makes it, no extension to advertise in it)
    cache, caches_results, policy, direct = (client.cache, client.caches_results, client.policy,
                                             not client.spec.extensions)
    # looked up at the first request; it changes only where a step's answer is followed up
    # (a retry, a re-probe)
    profile: Profile | None = None
    plans: dict[int, StepPlan] = {}
    for i, step in enumerate(scenario.steps):
        if (type(step) is not Step or step.at_ms is not None or cache is not None) \
                and (yield from _between(client, session, step, obs)):
            continue  # a server event or a listen: no request of the scenario's own
        assert isinstance(step, Step)
        if session.status != "ok":  # a re-probe found no way to talk: the rest cannot run
            results.append(_result_of(step.name, False, step.expect, "no session"))
            continue
        if profile is None:
            profile = session.profile
            plans = _plans(scenario, profile)
        plan = plans[i]
        # (a cache, an app to open, or a validator that may refuse a listed tool)
        if (caches_results or step.app or policy.output_dialects is not None) and (
                done := (yield from _unsent(client, session, plan, profile, listed=listed,
                                            obs=obs))):
            if done.ok and first_useful is None and step.expect == "result":
                first_useful = obs.now_ms()  # (a fresh result from the cache)
            results.append(done)
            continue  # served from the cache, or refused before sending: nothing sent
        index, params = obs.position(), {"uri": client.listed_app} if step.app else step.params
        event = yield (Send(sealer(client.next_id()), client.request_timeout_ms)
                       if direct and (sealer := plan.sealer) is not None
                       else client.call(session, step.method, params, constant=not step.app,
                                        profile=profile, sealer=plan.sealer))
        assert event is not None
        if event.via:
            session.path += event.via  # what the transport did on the way (a new HTTP session)
        if needs_follow_up(client, session, event, plan.retry_code):  # a retry, a re-probe
            event = yield from follow_up(client, session, step, obs, params=params,
                                         profile=profile, event=event)
            if session.status == "ok" and session.profile is not profile:  # it changed
                profile = session.profile
                plans = _plans(scenario, profile)
                plan = plans[i]
        if type(event) is not Reply and not isinstance(event, Reply):
            results.append(plan.result(False, "timeout" if isinstance(event, Timeout)
                                       else "server exited"))
            continue
        result = event.result
        if result is None and event.error is not None and type(code := event.code) is int:
            ok = (said := plan.error_result(code)).ok  # an error answer: judged by the plan
        else:
            ok, got, found, refused = _read(plan, profile, event, listed, client,
                                            path=session.path, index=index + 1)
            findings += found
            if refused and policy.raw_retry:  # asked once more, raw; refused all the same
                yield client.call(session, step.method, step.params)
            elif result is not None and not refused and (cache is not None
                                                         or client.spec.extensions):
                yield from client.keep(obs.now_ms(), profile, step.method, step.params, result)
            said = plan.result(ok, got)
        if ok and first_useful is None and step.expect == "result":  # the first useful result
            first_useful = obs.now_ms()
        results.append(said)
    return results, findings, first_useful


def _judge_cached(plan: StepPlan, profile: Profile, cached: Reply,
                  listed: dict[str, dict[str, Any]]) -> tuple[bool, str]:
    """:func:`_judge` of a result served from the cache; a ``tools/list`` result's tools are
    kept for the calls after it, as from the wire."""
    note_tools(listed, plan.step.method, cached.result)
    return _judge(plan, profile, cached)


def _between(client: SimClient, session: Session, step: Step | Listen | ServerEvent,
             obs: Observer) -> Steps[bool]:
    """What happens before a step where it names a time or the client keeps a cache: the
    clock runs to the step's time, the notifications that arrived are read. True where the
    step is done then: a server event (the run schedules it on the link) or a listen."""
    if type(step) is not Step and isinstance(step, ServerEvent):
        return True
    if step.at_ms is not None and step.at_ms > obs.now_ms():
        yield Wait(step.at_ms)
    if client.cache is not None:  # only a client with a cache reads notifications
        yield from absorb(client, session, obs)
    if type(step) is not Step and isinstance(step, Listen):
        yield from _listen(client, session, step)
        return True
    return False


def _unsent(client: SimClient, session: Session, plan: StepPlan, profile: Profile, *,
            listed: dict[str, dict[str, Any]], obs: Observer) -> Steps[StepResult | None]:
    """The step's result where the client sends nothing for it, or None: a fresh result from
    its cache; the app it cannot read (scenario ``apps``, which keeps no cache), or a tool
    its validator refuses (``_outputs``)."""
    step = plan.step
    if client.caches_results \
            and (cached := (yield from from_cache(client, session, step, obs))) is not None:
        ok, got = _judge_cached(plan, profile, cached, listed)
        return plan.result(ok, got + " (cached)")
    refused = (_app_unread(client) if step.app else None) \
        or refused_before(client.policy, _tool(listed, step))
    return None if refused is None else plan.result(False, refused)


def _tool(listed: dict[str, dict[str, Any]], step: Step) -> dict[str, Any] | None:
    """The listed tool a ``tools/call`` step calls, as the last list gave it."""
    return listed.get(str(step.params.get("name"))) if step.method == "tools/call" else None


def _read(plan: StepPlan, profile: Profile, reply: Reply, listed: dict[str, dict[str, Any]],
          client: SimClient, *, path: list[path_steps.PathStep],
          index: int) -> tuple[bool, str, Sequence[Finding], bool]:
    """:func:`_judge`, then what the client's own reading of a tool call refuses
    (``_outputs``); a ``tools/list`` result's tools are kept for the calls after it, and a
    result in a shape the client's revision does not define puts the result-shape boundary
    in the path, once (the boundary, not each call across it). Then the result's findings
    (:func:`check_result`, ``index``: the reply's place in the transcript), and whether the
    client refuses the result for them (quirks ``strict-results``, ``strict-tools``)."""
    ok, got = _judge(plan, profile, reply)
    step, result = plan.step, reply.result
    # a result in another shape failed :func:`_judge` (which asked :func:`unreadable` unless
    # the answer had an error too): an answer that passed is asked no more
    if result is not None and (not ok or reply.error is not None) and plan.calls_tool \
            and not readable(result, plan.reads):
        shape = path_steps.result_shape(step.method, [f for f in OUTPUT_FIELDS if f in result])
        if shape not in path:
            path.append(shape)
    policy = client.policy
    failed = refused_result(policy, _tool(listed, step), result) \
        if result is not None and policy.needs_structured_content else None
    # (note_tools keeps only a tools/list result's tools; only those two checks read them)
    if plan.lists_tools and (policy.needs_structured_content or policy.output_dialects is not None):
        note_tools(listed, step.method, result)
    if failed is not None:
        ok, got = False, failed
    if result is None or (result.keys() >= plan.checked and not plan.lists_tools):
        return ok, got, (), False
    found = check_result(profile, step.method, result, index)
    if found and (policy.strict_results or (policy.strict_tools and any(
            f.code == "tool-schema-not-object" for f in found))):  # the client refuses it
        return False, f"invalid result ({found[0].message})", found, True
    return ok, got, found, False


def _app_unread(client: SimClient) -> str | None:
    """Why the client reads no app (scenario ``apps``), or None: it reads the one the last
    ``tools/list`` pointed at (:attr:`SimClient.listed_app`)."""
    if UI_ID not in client.spec.extensions or client.policy.ext_unadvertised:
        return "no app: the client does not advertise io.modelcontextprotocol/ui"
    if client.listed_app is None:
        return "no listed tool points at an app (no _meta.ui.resourceUri)"
    if client.policy.no_ui_read:
        return f"not read: the client never reads {client.listed_app} (quirk no-ui-read)"
    return None


def _listen(client: SimClient, session: Session, step: Listen) -> Steps[None]:
    """Open a ``subscriptions/listen`` stream opting in to what invalidates ``step.methods``."""
    if session.status != "ok" or "subscriptions/listen" not in session.profile.methods:
        yield Remark(f"no subscriptions/listen in {session.revision}: nothing to listen on",
                     "note")
        return
    from ._cache import listen_filter  # noqa: PLC0415 - the caches' table, on a first listen

    wanted = listen_filter(session.profile, step.methods)
    yield Open(client.call(session, "subscriptions/listen", {"notifications": wanted}).message)


@functools.lru_cache(maxsize=4096)
def _result_of(name: str, ok: bool, expected: str, got: str) -> StepResult:
    """A step's result. It is frozen, and a sweep makes the same few thousands of times:
    equal ones are shared."""
    return StepResult(name, ok, expected, got)

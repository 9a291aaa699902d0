"""One client's run against the server: negotiate, play the steps, classify the outcome.

The client negotiates exactly as it would against a simulated server. Then it
plays the list scenario where the server declared what it lists, the chosen
tool (``--tool``) and the error probes (``--error-probes``); the checking steps
(invalid tool input, an unknown tool, a missing resource) never make a run
"degraded". The prober's run is :func:`mcp_skew.probe._clients.run_prober`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..simulator import (
    LIST_RESOURCES,
    LIST_TOOLS,
    PeerSpec,
    RunRecord,
    Scenario,
    Session,
    SimClient,
    Step,
    StepResult,
    play,
    rule_for,
)
from ..simulator.findings import Finding
from ..simulator.machine import Reply, Timeout
from ..transcript import Transcript
from ..versions import Era
from ._auth import refused_status
from ._calls import CALL_STEP, call_findings, choose, dialect_findings, not_called, warm
from ._clients import MISSING_URI, PROBER, REINIT_CONTROL, UNKNOWN_METHOD, run_prober
from ._exchanges import exchanges
from ._findings import tool_input_finding
from ._links import ProbeLink
from ._target import ProbeOptions, Target
from ._verdict import judge

__all__ = ["DIAGNOSTIC_STEPS", "MISSING_TOOL", "MODEL_STEPS", "classify", "run_client", "run_prober_record",
           "server_placeholder"]

#: The tool name the error probes call; no server has it.
MISSING_TOOL: Final = "mcp-skew-probe-no-such-tool"
#: Requests a fast probe adds once a calibrating client is done, for the model: an unknown
#: method on a legacy session (how the server answers what it does not know; after silence,
#: a ``ping``: does it exit on the next message?), ``initialize`` after a modern session (is
#: the era of a process fixed?). Never the client's verdict.
MODEL_STEPS: Final = ("unknown method", "initialize after modern", "after unknown method",
                      "discover after modern", "initialize again")
#: Steps that check the server rather than serve the client: they never make a run "degraded"
#: (``ping`` is not one: a client that pings and gets no empty result fails it, a MUST).
DIAGNOSTIC_STEPS: Final = frozenset({"tool input error", "unknown tool", "missing resource",
                                     CALL_STEP, *MODEL_STEPS})
_WRONG: Final = {"string": 12345, "integer": "not-a-number", "number": "not-a-number",
                 "boolean": "not-a-boolean", "array": "not-an-array", "object": "not-an-object"}


def server_placeholder(target: Target) -> PeerSpec:
    return PeerSpec(kind="legacy", revisions=(), label=target.describe())


def _scenario_name(opts: ProbeOptions) -> str:
    parts = ["lists"] + (["tool"] if opts.tool else []) + (["errors"] if opts.error_probes else [])
    return "+".join(parts)


def _declared(session: Session, key: str) -> bool:
    caps = session.server_capabilities
    return key in caps if caps else key == "tools"


def _dialects(link: ProbeLink, session: Session, opts: ProbeOptions) -> list[Finding]:
    """The listed tools' outputSchema dialects a named client refuses (``_calls``)."""
    lists = [ex for ex in exchanges(link.transcript, session.registry)
             if ex.method == "tools/list" and ex.result is not None]
    if not lists:
        return []
    return dialect_findings(_tools(link, session), session.profile, lists[-1].answer_index,
                            opts.named_clients)


def _tools(link: ProbeLink, session: Session) -> list[dict[str, Any]]:
    for ex in reversed(exchanges(link.transcript, session.registry)):
        if ex.method == "tools/list" and ex.result is not None:
            tools = ex.result.get("tools")
            return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    return []


def _invalid_arguments(tool: dict[str, Any], args: Mapping[str, Any]) -> dict[str, Any] | None:
    """The chosen arguments with one required (or declared) property of the wrong type."""
    raw_schema = tool.get("inputSchema")
    schema: dict[str, Any] = raw_schema if isinstance(raw_schema, dict) else {}
    raw_props = schema.get("properties")
    props: dict[str, Any] = raw_props if isinstance(raw_props, dict) else {}
    names = [n for n in (schema.get("required") or list(props)) if isinstance(n, str)]
    for name in names:
        prop = props.get(name)
        kind = prop.get("type") if isinstance(prop, dict) else None
        if isinstance(kind, str) and kind in _WRONG:
            return {**args, name: _WRONG[kind]}
    return None


def _tool_steps(session: Session, link: ProbeLink, opts: ProbeOptions
                ) -> tuple[list[Step], list[StepResult]]:
    assert opts.tool is not None
    tool = next((t for t in _tools(link, session) if t.get("name") == opts.tool), None)
    if tool is None:
        return [], [StepResult(f"call {opts.tool}", False, "the tool in tools/list",
                               "not listed")]
    steps = [Step(f"call {opts.tool}", "tools/call",
                  {"name": opts.tool, "arguments": dict(opts.tool_args)}, "result")]
    bad = _invalid_arguments(tool, opts.tool_args)
    if bad is not None:
        profile = session.profile
        as_tool_error = str(profile.settings["tool_input_errors"]).startswith("tool execution")
        steps.append(Step("tool input error", "tools/call", {"name": opts.tool, "arguments": bad},
                          "tool-error" if as_tool_error else "error",
                          lambda p: frozenset({p.error("InvalidParams").code})))
    return steps, []


def _read_call(record: RunRecord, link: ProbeLink, session: Session, opts: ProbeOptions, *,
               tool: dict[str, Any], arguments: Mapping[str, Any]) -> None:
    """The findings of the first call of ``tool``, as a client of the session reads it."""
    calls = [ex for ex in exchanges(link.transcript, session.registry)
             if ex.method == "tools/call" and ex.params.get("name") == tool.get("name")]
    if calls:
        record.findings += call_findings(calls[0], tool, arguments, session.profile,
                                         opts.named_clients)


def _call(sim: SimClient, link: ProbeLink, session: Session, record: RunRecord,
          opts: ProbeOptions) -> bool:
    """The call step (:mod:`._calls`): one tool called with arguments from its schema, read
    as the revision reads it; a checking step, never the run's verdict. False when the call
    went unanswered (the process is busy or gone: no more questions for it)."""
    choice = choose(_tools(link, session))
    step = choice.step()
    if step is None or choice.tool is None or choice.arguments is None:
        record.steps.append(not_called(choice.why))
        return True
    before = len(record.steps)
    _play(sim, link, session, record, [step])
    answered = True
    for n in range(before, len(record.steps)):
        s = record.steps[n]
        answered = s.got not in ("timeout", "server exited")
        record.steps[n] = StepResult(s.name, answered, f"an answer to {choice.tool['name']}",
                                     s.got)
    _read_call(record, link, session, opts, tool=choice.tool, arguments=choice.arguments)
    return answered


def _error_steps(resources: bool) -> list[Step]:
    def not_found(p: Any) -> frozenset[int]:
        codes = {p.error(p.settings["resource_not_found"]).code}
        if "ResourceNotFound" in p.errors:
            codes.add(p.error("ResourceNotFound").code)
        return frozenset(codes)

    return [
        Step("unknown tool", "tools/call", {"name": MISSING_TOOL, "arguments": {}}, "error",
             lambda p: frozenset({p.error("InvalidParams").code})),
        *([Step("missing resource", "resources/read", {"uri": MISSING_URI}, "error", not_found)]
          if resources else []),  # a server without resources has no not-found code to check
    ]


def _ping(link: ProbeLink, session: Session, record: RunRecord, timeout_ms: int) -> None:
    """``ping`` once the session is up, where the revision has it; a finding when the server
    does not answer it with an empty result (a MUST). Diagnostic: never the run's verdict."""
    if "ping" not in session.profile.methods:
        return
    event = link.request({"jsonrpc": "2.0", "id": "mcp-skew-ping", "method": "ping"},
                         timeout_ms)
    answer = event.message if isinstance(event, Reply) else None
    ok = answer is not None and answer.get("result") == {}
    got = ("no answer" if answer is None else f"error {(answer.get('error') or {}).get('code')}"
           if "error" in answer else "result" if ok else "a result that is not empty")
    record.steps.append(StepResult("ping", ok, "result", got))
    if ok:
        return
    index = len(link.transcript.entries) - 1 if answer is not None else None
    record.findings.append(Finding(
        "ping-unanswered", "error", f"ping got {got}: the receiver MUST respond promptly "
        "with an empty result", index,
        f"{session.revision}: basic/utilities/ping.mdx §Behavior Requirements"))


def _model_steps(link: ProbeLink, session: Session, record: RunRecord, timeout_ms: int
                 ) -> None:
    """The fast probe's extra requests (:data:`MODEL_STEPS`), read by the inference."""
    if session.era is Era.LEGACY:
        name = MODEL_STEPS[0]
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": "mcp-skew-unknown",
                                   "method": UNKNOWN_METHOD, "params": {}}
    elif session.era is Era.MODERN:
        name = MODEL_STEPS[1]
        registry = session.registry
        newest = registry.ordered(registry.of_era(Era.LEGACY))[0]
        message = {"jsonrpc": "2.0", "id": "mcp-skew-initialize", "method": "initialize",
                   "params": {"protocolVersion": newest, "capabilities": {},
                              "clientInfo": {"name": "mcp-skew-probe", "version": "0.1.0"}}}
    else:
        return
    event = link.request(message, timeout_ms)
    got = "an answer" if isinstance(event, Reply) else "no answer"
    record.steps.append(StepResult(name, True, "any answer", got))
    if name == MODEL_STEPS[0] and isinstance(event, Timeout):
        # silence: does the process then exit on the next message (the quirk silent-exit)?
        after = link.request({"jsonrpc": "2.0", "id": "mcp-skew-after-unknown",
                              "method": "ping"}, timeout_ms)
        record.steps.append(StepResult(MODEL_STEPS[2], True, "any answer",
                                       "an answer" if isinstance(after, Reply) else "no answer"))


def _reinitialize(link: ProbeLink, record: RunRecord, revisions: Sequence[str],
                  timeout_ms: int) -> None:
    """The oldest legacy client's extra ``initialize`` requests (:func:`._fast.reinitialize`):
    each revision's in turn, the last one the control; read by the inference, never the
    client's verdict (a timeout or an exit here leaves the link's counts, which classify
    the run, as the client left them)."""
    counts = (link.timeouts, link.closed_seen, link.deadline_hit)
    try:
        _ask_again(link, record, revisions, timeout_ms)
    finally:
        link.timeouts, link.closed_seen, link.deadline_hit = counts


def _ask_again(link: ProbeLink, record: RunRecord, revisions: Sequence[str],
               timeout_ms: int) -> None:
    for n, rev in enumerate(revisions):
        last = n == len(revisions) - 1
        message = {"jsonrpc": "2.0", "id": REINIT_CONTROL if last else f"mcp-skew-reinit-{rev}",
                   "method": "initialize",
                   "params": {"protocolVersion": rev, "capabilities": {},
                              "clientInfo": {"name": "mcp-skew-probe", "version": "0.1.0"}}}
        event = link.request(message, timeout_ms)
        got = "an answer" if isinstance(event, Reply) else "no answer"
        record.steps.append(StepResult(MODEL_STEPS[4], True, "any answer", got))
        if not isinstance(event, Reply):
            return


def _play(sim: SimClient, link: ProbeLink, session: Session, record: RunRecord,
          steps: list[Step]) -> None:
    if not steps:
        return
    results, found, first = play(Scenario("probe", "", tuple(steps)), sim, link, session)
    record.steps += results
    record.findings += found
    if record.t_first_useful_ms is None:
        record.t_first_useful_ms = first


def _tool_finding(record: RunRecord, link: ProbeLink) -> None:
    step = next((s for s in record.steps if s.name == "tool input error"), None)
    if step is None or record.revision is None:
        return
    calls = [ex for ex in exchanges(link.transcript, record.session.registry)
             if ex.method == "tools/call"]
    index = calls[-1].answer_index if calls else None
    finding = tool_input_finding(record.session.profile, step.got, index)
    if finding is not None:
        record.findings.append(finding)


def _unknown_tool_finding(record: RunRecord, link: ProbeLink) -> None:
    step = next((s for s in record.steps if s.name == "unknown tool"), None)
    if step is None or record.revision is None or step.got.startswith("error") \
            or step.got in ("timeout", "server exited"):
        return  # an error is right; no answer is the culprit's finding
    calls = [ex for ex in exchanges(link.transcript, record.session.registry)
             if ex.method == "tools/call" and ex.params.get("name") == MISSING_TOOL]
    index = calls[-1].answer_index if calls else None
    record.findings.append(Finding(
        "unexpected-answer", "warning",
        f"a call of an unknown tool got {step.got}, not the protocol error -32602 the spec "
        "gives for unknown tools", index, f"{record.revision}: server/tools.mdx §Error Handling"))


def run_client(spec: PeerSpec, link: ProbeLink, target: Target, opts: ProbeOptions, *,
               ping: bool = True, model_steps: bool = False,
               reinit: Sequence[str] = ()) -> RunRecord:
    # over a URL a dual-era client reads its probe by the HTTP rule (a timeout is an error
    # there, not a legacy server), and its path records the rule, as in the simulator
    sim = SimClient(spec, request_timeout_ms=opts.timeout_ms,
                    transport=rule_for("http" if target.transport == "http" else "stdio"))
    if not spec.has("probe-timeout"):
        sim.probe_timeout_ms = opts.probe_timeout_ms
    if not opts.tool:
        warm()  # the call step's generator, imported while the server starts
    session = sim.negotiate(link)
    record = RunRecord(spec, server_placeholder(target), _scenario_name(opts), session,
                       link.transcript)
    if session.status != "ok":
        if reinit and not link.closed_seen:
            _reinitialize(link, record, reinit, opts.timeout_ms)
        return record
    lists = [s for s, key in ((LIST_TOOLS, "tools"), (LIST_RESOURCES, "resources"))
             if _declared(session, key)]
    _play(sim, link, session, record, lists)
    if judge(record) is not None:
        return record  # a strict modern client stops at a legacy-shaped result
    if opts.tool:
        steps, missing = _tool_steps(session, link, opts)
        record.steps += missing
        _play(sim, link, session, record, steps)
        _tool_finding(record, link)
        tool = next((t for t in _tools(link, session) if t.get("name") == opts.tool), None)
        if tool is not None:
            _read_call(record, link, session, opts, tool=tool, arguments=opts.tool_args)
    if _declared(session, "tools"):
        record.findings += _dialects(link, session, opts)
    if ping:
        _ping(link, session, record, opts.timeout_ms)
    if model_steps:
        _model_steps(link, session, record, opts.timeout_ms)
    if not opts.tool and _declared(session, "tools") and not link.closed_seen \
            and not _call(sim, link, session, record, opts):
        reinit = ()  # the call went unanswered: the process cannot answer the model's questions
    if reinit and not link.closed_seen:
        _reinitialize(link, record, reinit, opts.timeout_ms)
    if opts.error_probes:
        _play(sim, link, session, record, _error_steps(_declared(session, "resources")))
        _unknown_tool_finding(record, link)
    best = spec.profile().names("features")
    record.features_lost = sorted(best - session.profile.names("features"))
    return record


def run_prober_record(link: ProbeLink, target: Target, opts: ProbeOptions) -> RunRecord:
    session = run_prober(link, opts.timeout_ms)
    if session.status == "ok" and not any(ex.fate == "answered"
                                          for ex in exchanges(link.transcript, opts.registry)):
        session.fail("the server answered none of the prober's requests")
    return RunRecord(PROBER, server_placeholder(target), "prober", session, link.transcript)


def _junk(transcript: Transcript) -> bool:
    said = [e.message for e in transcript.entries if e.dir == "s2c"]
    return any(isinstance(m, str) for m in said) and not any(isinstance(m, dict | list)
                                                             for m in said)


def classify(record: RunRecord, link: ProbeLink) -> str:
    if link.flooded:
        return "flood"
    if _junk(link.transcript):
        return "junk"
    if record.session.status == "ok":
        # the verdict every format reads (``RunRecord.status``): a step that needed a result
        # and did not get one (a list, a call, ``ping``) makes it "connects, then fails"
        return "ok" if record.status == "ok" else "degraded"
    if link.deadline_hit:
        return "deadline"
    if link.closed_seen:
        return "exited"
    if link.timeouts:
        return "timeout"
    if refused_status(link.transcript.records()) is not None:
        return "needs-auth"  # a 401 or 403: authorization, not an era (``_auth``)
    return "incompatible"

"""From the real runs to the model: evidence, findings, the inferred peer, the predictions.

:func:`analyse` reads every real run's transcript (evidence, then each run's
findings, then the inferred peer), and asks the simulator what each real client
does against that peer (:func:`predict`: the check that the model behaves like
the server). :func:`model` is the same inference without touching the runs (the
fast probe's decision), :func:`agrees` whether every real run agrees with it, and
:func:`predicted_run` a client that was not run for real, as the simulator plays
it against the peer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..simulator import PeerSpec, RunRecord, SimServer, run, with_quirks
from ..simulator.findings import Finding
from ..versions import Registry
from ._compare import UNMODELLED_STEPS, disagreement, shapes
from ._exchanges import exchanges
from ._fast import fill_range
from ._findings import culprit_finding, discover_findings, findings_for, server_findings
from ._peer import Evidence, InferredPeer, RunView, gather, infer
from ._peer import reinit_trusted as _trusted_views
from ._schemas import SchemaCheck, find_schemas
from ._steps import DIAGNOSTIC_STEPS
from ._target import ProbeOptions, Target
from ._verdict import era_findings, judge

if TYPE_CHECKING:
    from ._runner import ClientRun

__all__ = ["agrees", "analyse", "departing_kinds", "evidence", "model", "predict",
           "predicted_run", "reinit_trusted"]


def _views(runs: list[ClientRun], registry: Registry) -> list[RunView]:
    return [RunView(r.name, r.prober, r.record.transcript, exchanges(r.record.transcript, registry))
            for r in runs]


def evidence(runs: list[ClientRun], opts: ProbeOptions, *, assume_range: bool = False
             ) -> Evidence:
    ev = gather(_views(runs, opts.registry), opts.registry)
    if assume_range:
        fill_range(ev, opts.registry)
    return ev


def model(runs: list[ClientRun], target: Target, opts: ProbeOptions, *,
          assume_range: bool = False) -> InferredPeer:
    """The inferred peer of these runs; the runs are left as they are."""
    return infer(evidence(runs, opts, assume_range=assume_range), label=target.label())


def _prediction(r: ClientRun, spec: PeerSpec, opts: ProbeOptions, target: Target
                ) -> tuple[RunRecord, Finding | None]:
    http = target.transport == "http"
    client = r.record.client
    if http and client.kind != "modern" and not client.has("post-first"):
        # the probe's HTTP link POSTs a 2024-11-05 initialize first (wire.http)
        client = with_quirks(client, ["post-first"], "client", client.name)
    sim = run(client, spec, "lists", request_timeout_ms=opts.timeout_ms,
              transport="http" if http else "stdio")
    judge(sim)  # the same judgement as the real run's
    # a crash in a checking step the prediction does not play is the culprit's finding
    crashed = r.culprit is not None and r.culprit.step is not None
    return sim, disagreement(sim, r.record, spec.notation, compare_status=not crashed)


def _judged(r: ClientRun) -> bool:
    return r.real and not r.prober and bool(r.record.client.revisions)


def agrees(runs: list[ClientRun], peer: InferredPeer, opts: ProbeOptions,
           target: Target) -> bool:
    """A peer was inferred, and the simulator agrees with every real client's run."""
    spec = peer.spec
    return spec is not None and all(_prediction(r, spec, opts, target)[1] is None
                                    for r in runs if _judged(r)) \
        and _discover_agrees(runs, spec, opts.registry)


def departing_kinds(runs: list[ClientRun], peer: InferredPeer, opts: ProbeOptions,
                    target: Target) -> set[str]:
    """The kinds of client (legacy, modern, dual) whose real runs the inferred peer does not
    predict (every kind when no peer was inferred): the model is no evidence for the clients
    of those kinds that did not run. A ``server/discover`` the peer would answer otherwise
    than the server did departs for the dual-era kind, which opens with it."""
    judged = [r for r in runs if _judged(r)]
    spec = peer.spec
    if spec is None:
        return {"legacy", "modern", "dual"}
    out: set[str] = {r.record.client.kind for r in judged
           if _prediction(r, spec, opts, target)[1] is not None}
    if not _discover_agrees(runs, spec, opts.registry):
        out.add("dual")
    return out


def reinit_trusted(runs: list[ClientRun], opts: ProbeOptions) -> bool:
    """The oldest client's extra initializes read as first exchanges (``_peer``)."""
    return _trusted_views(_views(runs, opts.registry))


def _kind(message: dict[str, Any] | None) -> str:
    if message is None:
        return "no answer"
    return "result" if "result" in message else f"error {(message.get('error') or {}).get('code')}"


def _discover_agrees(runs: list[ClientRun], spec: PeerSpec, registry: Registry) -> bool:
    """Every ``server/discover`` a real run sent (the fast probe's dual-era client opens its
    process with one) got what the inferred peer answers to it: else the dual-era rows,
    which open with it, cannot be predicted from this peer."""
    for r in runs:
        if not _judged(r):
            continue
        for ex in exchanges(r.record.transcript, registry):
            if ex.method != "server/discover" or ex.synthesized:
                continue
            replies = SimServer(spec).receive(dict(ex.request)).replies
            want = _kind(replies[0] if replies else None)
            if _kind(ex.answer if ex.fate == "answered" else None) != want:
                return False
    return True


def _predicted(sim: RunRecord, agree: bool | None) -> dict[str, Any]:
    return {"status": sim.status, "revision": sim.revision, "mark": sim.mark,
            "path": list(sim.session.path), "answers": shapes(sim), "agrees": agree}


def predict(runs: list[ClientRun], peer: InferredPeer, opts: ProbeOptions,
            target: Target) -> None:
    """What the simulator says each real client does against the inferred peer, over the
    probe's transport (a URL: Streamable HTTP)."""
    if peer.spec is None:
        return
    for r in runs:
        if not _judged(r):
            continue
        sim, differs = _prediction(r, peer.spec, opts, target)
        r.predicted = _predicted(sim, differs is None)
        if differs is not None:
            r.record.findings.append(differs)


def _observed_steps(sim: RunRecord, real: list[ClientRun]) -> list[int]:
    """Carry over to a predicted run the steps the simulator does not model (``ping``,
    :data:`UNMODELLED_STEPS`) as the real runs on a session of the same era observed them
    (the same revision first); the indexes of the runs they came from."""
    session = sim.session
    if session.status != "ok" or session.era is None:
        return []
    used: list[int] = []
    for name in sorted(UNMODELLED_STEPS):
        if name not in session.profile.methods:
            continue
        seen = [(r, s) for r in real for s in r.record.steps
                if s.name == name and r.record.session.era is session.era]
        seen.sort(key=lambda pair: pair[0].record.revision != session.revision)
        if seen:
            run_, step = seen[0]
            sim.steps.append(replace(step))
            used.append(run_.index)
    return used


def predicted_run(index: int, spec: PeerSpec, peer: PeerSpec, opts: ProbeOptions,
                  make: type[ClientRun], *, real: list[ClientRun] | None = None) -> ClientRun:
    """A client not run for real: the simulator's run of it against the inferred peer, with
    what the real runs observed of the steps the simulator does not model; ``derived_from``
    names the real runs it rests on."""
    sim = run(spec, peer, "lists", request_timeout_ms=opts.timeout_ms, transport="stdio")
    judge(sim)
    observed = [r for r in real or [] if r.real and not r.prober]
    carried = _observed_steps(sim, observed)
    useful = [s for s in sim.steps if s.name not in DIAGNOSTIC_STEPS]
    outcome = ("ok" if all(s.ok for s in useful) else "degraded") if sim.session.status == "ok" \
        else "incompatible"
    made = make(index, sim, False, outcome, predicted=_predicted(sim, None), real=False)
    made.derived_from = sorted({r.index for r in observed} | set(carried))
    return made


def analyse(runs: list[ClientRun], target: Target, opts: ProbeOptions, *,
            assume_range: bool = False) -> tuple[InferredPeer, str, list[Finding]]:
    """Findings on each real run, the inferred peer, the predictions, the server findings."""
    views = _views(runs, opts.registry)
    ev = gather(views, opts.registry)
    if assume_range:
        fill_range(ev, opts.registry)
    schema_dir, schema_note = find_schemas(opts.schemas)
    checker = SchemaCheck(schema_dir) if schema_dir else None
    for r, view in zip(runs, views, strict=True):
        r.record.findings += findings_for(view, ev, checker)
        blamed = culprit_finding(r.culprit, ev)
        if blamed is not None:
            r.record.findings.append(blamed)
        if r.shaped is not None:
            era_findings(r.record, r.shaped, bool(ev.modern))
    peer = infer(ev, label=target.label())
    predict(runs, peer, opts, target)
    server = server_findings([r.culprit for r in runs if r.culprit], len(runs), ev,
                             peer.spec.kind if peer.spec else None)
    server += discover_findings([(r.index, v) for r, v in zip(runs, views, strict=True)], ev)
    return peer, schema_note, server

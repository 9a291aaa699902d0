"""The probe: every built-in client against one real server, a fresh process (or connection) each.

Theory of operation
-------------------
:func:`probe` runs each client of the set (and the bogus-revision prober) in a
worker thread, at most ``jobs`` at a time. A worker opens a link (a new server
process on stdio, a new connection on HTTP), lets the simulated client
negotiate exactly as it would against a simulated server, plays the scenario
where the server declared what it lists, closes the link, and classifies the
outcome. When every worker is done, the transcripts are read back together:
evidence, then findings per run, then the inferred peer, then, for each client,
what the simulator predicts against that peer (so the model can be checked
against the real thing). Every wait is bounded by the link; nothing in here
waits on its own.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..simulator import Finding, PeerSpec, RunRecord, Session, Transcript, parse_peer, run
from ..simulator._path import Step
from ..simulator._peers import with_quirks
from ..versions import REGISTRY, Era
from ..wire import JsonlRecorder, TransportError
from ._clients import PROBER, builtin_clients
from ._compare import disagreement, shapes
from ._exchanges import Exchange, exchanges
from ._findings import culprit_finding, findings_for, server_findings
from ._links import ProbeLink
from ._peer import InferredPeer, RunView, gather, infer
from ._schemas import SchemaCheck, find_schemas
from ._steps import classify, run_client, run_prober_record, server_placeholder
from ._target import ProbeOptions, Target
from ._verdict import Culprit, culprit, era_findings, judge, settle, shaped_result

__all__ = ["ClientRun", "ProbeOptions", "ProbeReport", "Target", "probe"]

Progress = Callable[[str], None]


@dataclass(slots=True)
class ClientRun:
    """One client's run against the real server."""

    index: int
    record: RunRecord
    prober: bool
    outcome: str = "ok"
    elapsed_ms: int = 0
    stderr: str = ""
    exits: list[str] = field(default_factory=list)
    recorded: str | None = None
    predicted: dict[str, Any] | None = None
    first_message_ms: int | None = None  #: when the server first said anything
    culprit: Culprit | None = None  #: the request in flight when the server exited or went quiet
    shaped: Exchange | None = None  #: the legacy-shaped modern result that failed this client

    @property
    def name(self) -> str:
        return self.record.client.name

    def to_dict(self, *, transcript: bool = True) -> dict[str, Any]:
        out = self.record.to_dict(transcript=transcript)
        out.update({"outcome": self.outcome, "elapsed_ms": self.elapsed_ms,
                    "prober": self.prober, "first_message_ms": self.first_message_ms,
                    "stderr": self.stderr[-4000:], "exits": self.exits,
                    "predicted": self.predicted, "recorded": self.recorded,
                    "culprit": self._culprit_dict()})
        return out

    def _culprit_dict(self) -> dict[str, Any] | None:
        c = self.culprit
        if c is None:
            return None
        return {"method": c.exchange.method, "id": c.exchange.request.get("id"),
                "index": c.exchange.index, "step": c.step, "how": c.how,
                "silent_before": c.silent_before, "sentence": c.sentence()}


@dataclass(slots=True)
class ProbeReport:
    """Every client's run, the inferred peer, and what it all took."""

    target: Target
    runs: list[ClientRun]
    peer: InferredPeer
    elapsed_ms: int
    jobs: int
    schemas: str
    startup: dict[str, Any] = field(default_factory=dict)
    #: what the whole probe shows about the server (never part of a client's verdict)
    server_findings: list[Finding] = field(default_factory=list)
    required: tuple[str, ...] = ()  #: the ``--require`` revisions

    def clients_of(self, revision: str) -> list[ClientRun]:
        """The client of one revision: the quirk-free single-revision client (``legacy:R``,
        ``modern:R``), whatever else ran (:func:`required_clients` adds it when missing)."""
        return [r for r in self.runs if not r.prober and not r.record.client.quirks
                and r.record.client.revisions == (revision,)]

    def works(self, revision: str) -> bool:
        runs = self.clients_of(revision)
        return bool(runs) and all(r.record.status == "ok" and r.record.revision == revision
                                  for r in runs)

    def failures(self, required: tuple[str, ...]) -> list[str]:
        """One line per required revision whose client did not get it working."""
        lines = []
        for rev in required:
            runs = self.clients_of(rev)
            if not runs:
                lines.append(f"{rev}: no client of this revision in the client set")
            for r in runs:
                if r.record.status != "ok" or r.record.revision != rev:
                    got = r.record.session.reason or f"negotiated {r.record.revision}"
                    lines.append(f"{rev}: {r.name} {r.outcome}: {got}")
        return lines

    def assert_works(self, *revisions: str) -> None:
        """Raise AssertionError, with a short report, when a client of a revision fails."""
        failures = self.failures(revisions)
        if not failures:
            return
        lines = [f"clients that cannot work with {self.target.describe()}:",
                 *(f"  {line}" for line in failures), "", f"server: {self.peer.sentence}"]
        lines += [f"  #{r.index} {r.name}: {r.outcome} {r.record.revision or '-'}: "
                  + " -> ".join(r.record.session.path) for r in self.runs]
        recorded = next((r.recorded for r in self.runs if r.recorded), None)
        if recorded:
            lines.append(f"transcripts: {Path(recorded).parent}")
        raise AssertionError("\n".join(lines))

    def findings(self) -> list[tuple[ClientRun, Finding]]:
        return [(r, f) for r in self.runs
                for f in (*r.record.session.findings, *r.record.findings)]

    def to_dict(self, *, transcript: bool = True) -> dict[str, Any]:
        codes: dict[str, int] = {}
        for f in [f for _, f in self.findings()] + self.server_findings:
            codes[f.code] = codes.get(f.code, 0) + 1
        clients = [r for r in self.runs if not r.prober]
        agree = [r for r in clients if r.predicted is not None and r.predicted["agrees"]]
        return {
            "target": self.target.describe(), "transport": self.target.transport,
            "elapsed_ms": self.elapsed_ms, "jobs": self.jobs, "schemas": self.schemas,
            "startup": self.startup,
            "peer": self.peer.to_dict(),
            "summary": {"clients": len(clients),
                        "ok": sum(r.record.status == "ok" for r in clients),
                        "findings": dict(sorted(codes.items())),
                        "simulation_agrees": f"{len(agree)}/{len(clients)}"},
            "required": {rev: {"ok": not self.failures((rev,)),
                               "clients": [r.name for r in self.clients_of(rev)],
                               "failures": self.failures((rev,))} for rev in self.required},
            "server_findings": [f.to_dict() for f in self.server_findings],
            "clients": [r.to_dict(transcript=transcript) for r in self.runs],
        }


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", name)[:60]


def _recorder(opts: ProbeOptions, index: int, name: str) -> JsonlRecorder | None:
    if opts.record_dir is None:
        return None
    stem = f"{index:02d}-{_slug(name)}"
    path = opts.record_dir / f"{stem}.jsonl"
    try:
        return JsonlRecorder(path, opts.record_dir / f"{stem}.stderr.log")
    except OSError as exc:  # a directory or a FIFO nobody reads where a transcript goes
        why = "a FIFO with no reader" if exc.errno == errno.ENXIO else exc.strerror or str(exc)
        raise UsageError(f"--record {exc.filename or path}: {why}") from None


def _failed_run(index: int, spec: PeerSpec, target: Target, reason: str) -> ClientRun:
    session = Session()
    session.path.append(Step("could not start", "exited"))
    record = RunRecord(spec, server_placeholder(target), "none", session.fail(reason),
                       Transcript())
    return ClientRun(index, record, spec is PROBER, "spawn-failed")


def _run_one(index: int, spec: PeerSpec, target: Target, opts: ProbeOptions, *,
             allowance_ms: int = 0, opened: Callable[[ProbeLink], None] | None = None
             ) -> ClientRun:
    prober = spec is PROBER
    started = time.monotonic()
    recorder = _recorder(opts, index, spec.name)
    try:
        link = target.open(deadline_ms=opts.client_timeout_ms, recorder=recorder,
                           limits=opts.limits, close_grace_ms=opts.close_grace_ms)
    except TransportError as exc:
        if recorder is not None:
            recorder.close()
        return _failed_run(index, spec, target, str(exc))
    link.startup_allowance_ms = allowance_ms
    if opened is not None:
        opened(link)
    blamed: Culprit | None = None
    shaped: Exchange | None = None
    try:
        record = (run_prober_record(link, target, opts) if prober
                  else run_client(spec, link, target, opts))
        if not prober:  # the verdict, from this client's own transcript alone (run_client
            shaped = shaped_result(record)  # judged a legacy-shaped result: see _verdict)
            blamed = None if shaped else settle(record)
        else:  # the prober has no verdict to give, but its server may have died too
            blamed = culprit(record)
    except Exception as exc:  # a bug must not lose the other runs or the transcript
        session = Session().fail(f"mcp-skew error: {exc!r}")
        record = RunRecord(spec, server_placeholder(target), "none", session, link.transcript)
    finally:
        link.close()
        if recorder is not None:
            recorder.close()
    outcome = "incompatible" if shaped is not None else classify(record, link)
    run_ = ClientRun(index, record, prober, outcome,
                     int((time.monotonic() - started) * 1000), link.stderr_tail,
                     list(link.exits), str(recorder.path) if recorder else None,
                     first_message_ms=link.first_message_ms, culprit=blamed,
                     shaped=shaped)
    if link.flooded:
        record.findings.append(Finding("output-flood", "error", f"the server flooded its "
                                       f"output: {link.flooded}", None,
                                       "basic/transports.mdx §stdio (every revision)"))
    return run_


# -- the whole probe ------------------------------------------------------------------------
def _predict(runs: list[ClientRun], peer: InferredPeer, opts: ProbeOptions,
             target: Target) -> None:
    """What the simulator says each client does against the inferred peer, over the probe's
    transport (a URL: Streamable HTTP)."""
    if peer.spec is None:
        return
    http = target.transport == "http"
    for r in runs:
        if r.prober or not r.record.client.revisions:
            continue
        client = r.record.client
        if http and client.kind != "modern" and not client.has("post-first"):
            # the probe's HTTP link POSTs a 2024-11-05 initialize first (wire.http)
            client = with_quirks(client, ["post-first"], "client", client.name)
        sim = run(client, peer.spec, "lists", request_timeout_ms=opts.timeout_ms,
                  transport="http" if http else "stdio")
        judge(sim)  # the same judgement as the real run's
        # a crash in a checking step the prediction does not play is the culprit's finding
        crashed = r.culprit is not None and r.culprit.step is not None
        differs = disagreement(sim, r.record, peer.spec.notation, compare_status=not crashed)
        r.predicted = {"status": sim.status, "revision": sim.revision, "mark": sim.mark,
                       "path": list(sim.session.path), "answers": shapes(sim),
                       "agrees": differs is None}
        if differs is not None:
            r.record.findings.append(differs)


def _analyse(runs: list[ClientRun], target: Target, opts: ProbeOptions
             ) -> tuple[InferredPeer, str, list[Finding]]:
    views = [RunView(r.name, r.prober, r.record.transcript, exchanges(r.record.transcript))
             for r in runs]
    evidence = gather(views)
    schema_dir, schema_note = find_schemas(opts.schemas)
    checker = SchemaCheck(schema_dir) if schema_dir else None
    for r, view in zip(runs, views, strict=True):
        r.record.findings += findings_for(view, evidence, checker)
        blamed = culprit_finding(r.culprit, evidence)
        if blamed is not None:
            r.record.findings.append(blamed)
        if r.shaped is not None:
            era_findings(r.record, r.shaped, bool(evidence.modern))
    peer = infer(evidence, label=target.label())
    _predict(runs, peer, opts, target)
    server = server_findings([r.culprit for r in runs if r.culprit], len(runs), evidence,
                             peer.spec.kind if peer.spec else None)
    return peer, schema_note, server


def _calibrator(specs: list[PeerSpec]) -> int:
    """The run that measures a cold start: the newest plain legacy client, else the first."""
    newest = REGISTRY.ordered(REGISTRY.of_era(Era.LEGACY))[0]
    return next((i for i, s in enumerate(specs)
                 if s.kind == "legacy" and s.revisions == (newest,) and not s.quirks), 0)


def _cold_start(links: queue.Queue[ProbeLink], run: Future[ClientRun]) -> int | None:
    """When the calibrating client's server first said something (ms after it started).

    The other clients start as soon as that is known, not when the calibrating
    client has finished.
    """
    link: ProbeLink | None = None
    while not run.done():
        if link is None:
            with contextlib.suppress(queue.Empty):
                link = links.get(timeout=0.01)
        elif link.first_message_ms is not None:
            return link.first_message_ms
        else:
            time.sleep(0.005)
    return run.result().first_message_ms


def _allowance(cold_ms: int | None, jobs: int) -> int:
    """Extra wait for a first answer while ``jobs`` servers start at once on this machine."""
    if not cold_ms:
        return 0
    return int(cold_ms * max(1.0, jobs / (os.cpu_count() or 1)))


def required_clients(specs: list[PeerSpec], required: tuple[str, ...],
                     registry: Any = REGISTRY) -> list[PeerSpec]:
    """``specs`` plus, for each required revision without its client, ``legacy:R`` or
    ``modern:R`` (by the revision's era), so ``--require`` judges the same client whatever
    ``--client`` chose."""
    out = list(specs)
    for rev in required:
        if not any(s.revisions == (rev,) and not s.quirks and s is not PROBER for s in out):
            out.append(parse_peer(f"{registry.get(rev).era.value}:{rev}", "client", registry))
    return out


def probe(target: Target, opts: ProbeOptions | None = None,
          progress: Progress | None = None) -> ProbeReport:
    """Run every client against ``target``; the report card as data.

    On stdio one client starts alone and measures the server's cold start;
    once its server has answered, the others run ``jobs`` at a time (the prober,
    the longest, first), each request sent before its server
    said anything getting that cold start (scaled by the machine's load) as a
    startup allowance, so what a client sees depends on the server, not on how
    many servers this probe starts at once.
    """
    opts = opts or ProbeOptions()
    specs = required_clients(list(opts.clients or builtin_clients(opts.registry)), opts.required,
                             opts.registry) + ([PROBER] if opts.prober else [])
    numbered = list(enumerate(specs, 1))
    lock = threading.Lock()
    say = progress or (lambda _text: None)
    say(f"probing {target.describe()} over {target.transport} with {len(specs)} clients, "
        f"{opts.jobs} at a time")
    started = time.monotonic()
    runs: list[ClientRun] = []

    def finished(done: ClientRun) -> None:
        with lock:
            runs.append(done)
            rev = done.record.revision or ""
            say(f"[{len(runs)}/{len(specs)}] {done.name}: {done.outcome} {rev} "
                f"({done.elapsed_ms} ms)")

    startup: dict[str, Any] = {}
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = []
        allowance = 0
        if target.transport == "stdio" and len(numbered) > 1:
            index, first = numbered.pop(_calibrator(specs))
            links: queue.Queue[ProbeLink] = queue.Queue()
            futures.append(pool.submit(_run_one, index, first, target, opts, opened=links.put))
            cold = _cold_start(links, futures[0])
            allowance = _allowance(cold, opts.jobs)
            startup = {"calibrated_with": first.name, "cold_start_ms": cold,
                       "allowance_ms": allowance}
            say(f"cold start {cold} ms; startup allowance {allowance} ms" if cold is not None
                else f"cold start unknown ({first.name}'s server said nothing); "
                "no startup allowance")
        numbered.sort(key=lambda item: item[1] is not PROBER)  # the longest run first
        futures += [pool.submit(_run_one, i, spec, target, opts, allowance_ms=allowance)
                    for i, spec in numbered]
        for future in as_completed(futures):
            finished(future.result())
    runs.sort(key=lambda r: r.index)
    peer, schema_note, server = _analyse(runs, target, opts)
    elapsed = int((time.monotonic() - started) * 1000)
    say(f"done in {elapsed} ms: {peer.sentence}")
    return ProbeReport(target, runs, peer, elapsed, opts.jobs, schema_note, startup, server,
                       opts.required)

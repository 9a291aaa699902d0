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
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from .._stopping import end_everything, first_done
from ..simulator import PathStep, PeerSpec, RunRecord, Session, parse_peer, with_quirks
from ..simulator.findings import Finding
from ..transcript import Transcript
from ..versions import Registry
from ..wire import TransportError
from ._auth import AuthCheck, discover, needs_auth
from ._bridge import with_bridge
from ._clients import PROBER, builtin_clients
from ._exchanges import Exchange
from ._extensions import ExtensionsReport, with_extensions
from ._fast import first_clients, reinitialize, unknown_legacy
from ._links import ProbeLink
from ._model import analyse, departing_kinds, evidence, model, predicted_run, reinit_trusted
from ._peer import InferredPeer
from ._recording import recorder as _recorder
from ._replay import replay, replayed_run
from ._startup import (
    RunOne,
    at_risk,
    calibrate,
    calibrators,
    slow_for,
    started_late,
    startup_line,
)
from ._steps import classify, run_client, run_prober_record, server_placeholder
from ._target import ProbeOptions, Target
from ._verdict import Culprit, culprit, settle, shaped_result

__all__ = ["ClientRun", "ProbeOptions", "ProbeReport", "Target", "probe"]

Progress = Callable[[str], None]


#: the outcome of a client the default probe neither ran nor could predict
NOT_CHECKED: Final = "not-checked"


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
    real: bool = True  #: run against the server; False: predicted, or not checked
    #: a predicted run: the real runs (by index) whose observations it rests on
    derived_from: list[int] = field(default_factory=list)
    #: a row not run: its requests answered from an observed process (``_replay``), not
    #: predicted from the inferred peer
    replayed: bool = False

    @property
    def name(self) -> str:
        return self.record.client.name

    @property
    def mark(self) -> str:
        """What every format adds to a row that was not run: ``(predicted)``, ``(not
        checked)``; '' for a real run."""
        if self.real:
            return ""
        return " (not checked)" if self.outcome == NOT_CHECKED else " (predicted)"

    def to_dict(self, *, transcript: bool = True) -> dict[str, Any]:
        out = self.record.to_dict(transcript=transcript)
        out.update({"outcome": self.outcome, "elapsed_ms": self.elapsed_ms,
                    "prober": self.prober, "first_message_ms": self.first_message_ms,
                    "stderr": self.stderr[-4000:], "exits": self.exits,
                    "predicted": self.predicted, "recorded": self.recorded, "real": self.real,
                    "culprit": self._culprit_dict()})
        if not self.real:  # nothing was sent: no transcript nor finding is the server's
            out["derived_from"] = list(self.derived_from)
            out["replayed"] = self.replayed
            out["checked"] = self.outcome != NOT_CHECKED
            out["findings"] = []
            if transcript:
                out["transcript"] = []
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
    #: a protected server: its challenge and each revision's discovery (``_auth``), else None
    auth: AuthCheck | None = None
    starts: int = 0  #: server processes the probe started (on stdio), tries included
    #: ``thorough`` (every client run for real), ``fast`` (the model's clients run, the
    #: others predicted), ``fast, replayed`` (a real run departed from the model: the clients
    #: of its kind replayed from observed processes, or not checked)
    mode: str = "thorough"
    #: a bridge in front of the server: the one the probe started (``--via``) or the signs
    #: of one (:func:`._bridge.bridge_summary`), else None
    bridge: dict[str, Any] | None = None
    #: the extensions the server offers and the named clients that advertise them (None:
    #: it offers none)
    extensions: ExtensionsReport | None = None

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
                    got = r.record.reason or f"negotiated {r.record.revision}"
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
        """Each finding of a real run (a predicted run's would be the simulator's, not the
        server's: nothing was sent)."""
        return [(r, f) for r in self.runs if r.real
                for f in (*r.record.session.findings, *r.record.findings)]

    def to_dict(self, *, transcript: bool = True) -> dict[str, Any]:
        codes: dict[str, int] = {}
        for f in [f for _, f in self.findings()] + self.server_findings:
            codes[f.code] = codes.get(f.code, 0) + 1
        clients = [r for r in self.runs if not r.prober]
        real = [r for r in clients if r.real]
        agree = [r for r in real if r.predicted is not None and r.predicted["agrees"]]
        return {
            "target": self.target.describe(), "transport": self.target.transport,
            "elapsed_ms": self.elapsed_ms, "jobs": self.jobs, "schemas": self.schemas,
            "startup": self.startup, "starts": self.starts, "mode": self.mode,
            "peer": self.peer.to_dict(),
            "summary": {"clients": len(clients),
                        "ok": sum(r.record.status == "ok" for r in clients),
                        "findings": dict(sorted(codes.items())),
                        "real": len(real),
                        "predicted": sum(not r.real and r.outcome != NOT_CHECKED
                                         for r in clients),
                        "not_checked": sum(r.outcome == NOT_CHECKED for r in clients),
                        "replayed": sum(r.replayed for r in clients),
                        "simulation_agrees": f"{len(agree)}/{len(real)}"},
            "required": {rev: {"ok": not self.failures((rev,)),
                               "clients": [r.name for r in self.clients_of(rev)],
                               "failures": self.failures((rev,))} for rev in self.required},
            "server_findings": [f.to_dict() for f in self.server_findings],
            "clients": [r.to_dict(transcript=transcript) for r in self.runs],
            **({"auth": self.auth.to_dict()} if self.auth is not None else {}),
            **({"bridge": self.bridge} if self.bridge is not None else {}),
            **({"extensions": self.extensions.to_dict()} if self.extensions is not None
               else {}),
        }


def _failed_run(index: int, spec: PeerSpec, target: Target, reason: str) -> ClientRun:
    session = Session()
    session.path.append(PathStep("could not start", "exited"))
    record = RunRecord(spec, server_placeholder(target), "none", session.fail(reason),
                       Transcript())
    return ClientRun(index, record, spec is PROBER, "spawn-failed")


def _run_one(index: int, spec: PeerSpec, target: Target, opts: ProbeOptions, *,
             allowance_ms: int = 0, opened: Callable[[ProbeLink], None] | None = None,
             ping: bool = True, model_steps: bool = False,
             reinit: Sequence[str] = ()) -> ClientRun:
    prober = spec is PROBER
    started = time.monotonic()
    recorder = _recorder(opts, index, spec.name)
    try:
        # a cold start does not eat into the conversation's own bound
        link = target.open(deadline_ms=opts.client_timeout_ms + allowance_ms, recorder=recorder,
                           limits=opts.limits, close_grace_ms=opts.close_grace_ms,
                           registry=opts.registry, timeout_ms=opts.timeout_ms)
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
                  else run_client(spec, link, target, opts, ping=ping,
                                  model_steps=model_steps, reinit=reinit))
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
def required_clients(specs: list[PeerSpec], required: tuple[str, ...],
                     registry: Registry) -> list[PeerSpec]:
    """``specs`` plus, for each required revision without its client, ``legacy:R`` or
    ``modern:R`` (by the revision's era), so ``--require`` judges the same client whatever
    ``--client`` chose."""
    out = list(specs)
    for rev in required:
        if not any(s.revisions == (rev,) and not s.quirks and s is not PROBER for s in out):
            out.append(parse_peer(f"{registry.get(rev).era.value}:{rev}", "client", registry))
    return out


#: the peer sentence of a server that never answered anything: nothing to infer from
NEVER_ANSWERED = "never answered anything: nothing to infer (its stderr says why)"


def _answered(run: ClientRun) -> bool:
    """Did the server say anything at all in this run?"""
    return any(e.dir == "s2c" for e in run.record.transcript.entries)


def _starts(run: ClientRun) -> int:
    """Server processes this run started (its first and each restart)."""
    return sum(n.kind == "start" for n in run.record.transcript.notes)


def _watch(opts: ProbeOptions, specs: list[PeerSpec]) -> list[PeerSpec]:
    """The clients whose discovery wait the cold start is compared with: the named ones the
    caller gave, and the dual-era clients of this probe (with the probe's own wait)."""
    dual = next((s for s in specs if s.kind == "dual" and not s.has("probe-timeout")), None)
    own = [] if dual is None else [replace(with_quirks(
        dual, [f"probe-timeout={opts.probe_timeout_ms}"], "client", dual.name),
        label=_OWN_DUAL)]
    return [*opts.named_clients, *own]


#: the name the probe's own dual-era clients have in ``startup["slow_for"]``
_OWN_DUAL = "this probe's dual-era clients (--probe-timeout)"


def _gave_up_on_discovery(runs: list[ClientRun]) -> bool:
    """A dual-era row of this card shows its ``server/discover`` timing out."""
    for r in runs:
        path = list(r.record.session.path)
        if r.record.client.kind == "dual" and any(
                step.kind == "request" and step.method == "server/discover"
                and nxt.kind == "timeout" for step, nxt in pairwise(path)):
            return True
    return False


def _slow_for_rows(slow: list[dict[str, Any]], runs: list[ClientRun]) -> list[dict[str, Any]]:
    """The cold-start note follows the rows: this probe's dual-era clients (each given the
    startup allowance on its first request) are named only when a row shows one giving up on
    ``server/discover``; the named clients, not run here, keep their own waits' verdict."""
    return [s for s in slow if s["client"] != _OWN_DUAL or _gave_up_on_discovery(runs)]


class _Runs:
    """The runs of one probe as they finish, the server starts they took, the progress."""

    def __init__(self, total: int, say: Progress) -> None:
        self.runs: list[ClientRun] = []
        #: rows made from the real runs without a run of their own (replayed, not checked)
        self.made: list[ClientRun] = []
        self.starts = 0
        self.total = total
        self.say = say
        self._lock = threading.Lock()

    def finished(self, done: ClientRun, *, keep: bool = True) -> None:
        with self._lock:
            self.starts += _starts(done)
            if not keep:
                return
            self.runs.append(done)
            rev = done.record.revision or ""
            self.say(f"[{len(self.runs)}/{self.total}] {done.name}: {done.outcome} {rev} "
                     f"({done.elapsed_ms} ms)")


@contextlib.contextmanager
def _ending_servers_when_stopped() -> Iterator[None]:
    """A stop (Ctrl-C, SIGTERM, SIGHUP) ends every server at once, before the pool waits for
    its threads: each client's link then sees its server exit instead of waiting out its
    startup bound (a hanging server would hold the stop for minutes)."""
    try:
        yield
    except KeyboardInterrupt:
        end_everything(refuse=True)
        raise


def _calibrate(numbered: list[tuple[int, PeerSpec]], one: RunOne, opts: ProbeOptions,
               specs: list[PeerSpec], runs: _Runs) -> tuple[list[tuple[int, PeerSpec]],
                                                            dict[str, Any], int]:
    """The calibrating runs (:mod:`._startup`); the clients left to run, the startup facts,
    the allowance for the others (no client is left when the server did not start)."""
    picked = calibrators([s for _, s in numbered], opts.registry)
    chosen = [numbered[i] for i in picked]
    rest = [item for n, item in enumerate(numbered) if n not in picked]
    with ThreadPoolExecutor(max_workers=len(chosen)) as pool, _ending_servers_when_stopped():
        cal = calibrate(pool, chosen, one, bound_ms=opts.startup_timeout_ms, jobs=opts.jobs)
    runs.starts += cal.starts - sum(_starts(r) for r in cal.runs)  # the tries not kept
    for r in cal.runs:
        runs.finished(r)
    startup = cal.to_dict(opts.startup_timeout_ms)
    startup["slow_for"] = slow_for(cal.cold_ms, _watch(opts, specs))
    runs.say(startup_line(startup))
    return ([] if cal.failed else rest), startup, cal.allowance_ms


def _run_rest(numbered: list[tuple[int, PeerSpec]], one: RunOne, opts: ProbeOptions,
              allowance: int, runs: _Runs) -> list[str]:
    """The other clients, ``jobs`` at a time; a run whose server was still starting is run
    once more with the whole startup bound. The clients run again."""
    retried: list[str] = []
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool, _ending_servers_when_stopped():
        numbered = sorted(numbered, key=lambda item: item[1] is not PROBER)  # longest first
        pending = {pool.submit(one, i, spec, allowance, None): (i, spec) for i, spec in numbered}
        while pending:
            done = first_done(pending)
            for future in done:
                i, spec = pending.pop(future)
                result = future.result()
                if allowance and spec.name not in retried and started_late(result, opts.registry):
                    retried.append(spec.name)
                    runs.finished(result, keep=False)
                    runs.say(f"{spec.name}: its server was still starting; running it again")
                    pending[pool.submit(one, i, spec, opts.startup_timeout_ms, None)] = (i, spec)
                else:
                    runs.finished(result)
    return retried


def _fast_rest(rest: list[tuple[int, PeerSpec]], more: list[tuple[int, PeerSpec]],
               one: RunOne, *, opts: ProbeOptions, allowance: int, runs: _Runs,
               target: Target, required: int = 0) -> tuple[str, list[tuple[int, PeerSpec]],
                                                           list[str]]:
    """The fast probe after calibration (:mod:`._fast`): the model's other clients for real,
    then the legacy clients it cannot decide, within the budget; the mode, the clients left
    to predict from the inferred peer (those of a kind whose real run departs from it are
    replayed or not checked instead: ``runs.made``), the clients retried."""
    retried = _run_rest(rest, one, opts, allowance, runs)
    specs = [spec for _, spec in more]
    ran = {r.index for r in runs.runs}
    ev = evidence(runs.runs, opts)
    undecided = [more[i][0] for i in unknown_legacy(specs, ev, opts.registry, set())
                 if more[i][0] not in ran]
    # within the budget of server starts; the legacy clients left undecided are not
    # predicted (their initialize was never observed): "not checked", and why
    room = max(0, FAST_STARTS + required - len(runs.runs))  # --require's clients are extra
    chosen, skipped = undecided[:room], undecided[room:]
    retried += _run_rest([m for m in more if m[0] in chosen], one, opts, allowance, runs)
    left = [m for m in more if m[0] not in undecided and m[0] not in ran]
    peer = model(runs.runs, target, opts, assume_range=True)
    for i, spec in more:
        if i in skipped:
            runs.runs.append(_unchecked(i, spec, target, FAST_STARTS))
    guess = [m for m in left if m[1] is not PROBER]
    departs = departing_kinds(runs.runs, peer, opts, target)
    if not departs:
        return "fast", guess, retried
    # a real run departs from the inferred peer: the budget is spent, and the model is not
    # evidence for the clients that open as that run's client does; each is replayed against
    # the observed processes (:mod:`._replay`), else it is not checked, and why
    runs.say(f"a real run departs from the inferred peer ({', '.join(sorted(departs))} "
             "clients): the others of its kind are replayed from what was observed")
    views_ok = reinit_trusted(runs.runs, opts)
    kept = []
    for i, spec in guess:
        if spec.kind not in departs:
            kept.append((i, spec))
            continue
        found = replay(spec, runs.runs, opts, reinit_ok=views_ok)
        runs.made.append(replayed_run(i, spec, found, real=runs.runs, target=target,
                                      make=ClientRun)
                         if found is not None else _departed(i, spec, target, departs))
    return "fast, replayed", kept, retried


#: The default probe's budget of server starts on stdio (the model's clients, then the legacy
#: clients it cannot decide; each ``--require``-d client is one more); a real run that
#: departs from the model starts no more servers (:mod:`._replay`).
FAST_STARTS: Final = 4


def _unchecked(index: int, spec: PeerSpec, target: Target, budget: int) -> ClientRun:
    """A client the default probe neither ran nor can predict: its first exchange (an
    ``initialize`` of a revision between what the server accepted and what it refused) was
    never observed."""
    session = Session()
    rev = spec.revisions[0] if spec.revisions else "?"
    session.path.append(PathStep("not run", "note"))
    session.fail(f"not checked: initialize {rev} was never sent (the default probe's "
                 f"{budget} server starts went to the model's clients); --thorough runs it")
    record = RunRecord(spec, server_placeholder(target), "none", session, Transcript())
    return ClientRun(index, record, False, NOT_CHECKED, real=False)


def _departed(index: int, spec: PeerSpec, target: Target, departs: set[str]) -> ClientRun:
    """A client of a kind whose real run departs from the inferred peer, whose conversation
    no observed process covers: not checked (the budget of server starts is spent)."""
    session = Session()
    session.path.append(PathStep("not run", "note"))
    session.fail(f"not checked: a real run of a {'/'.join(sorted(departs))} client departs "
                 "from the inferred peer, so the model is no evidence for this client, and "
                 f"no observed process was asked what it asks (the default probe's "
                 f"{FAST_STARTS} server starts are spent); --thorough runs it")
    record = RunRecord(spec, server_placeholder(target), "none", session, Transcript())
    return ClientRun(index, record, False, NOT_CHECKED, real=False)


def probe(target: Target, opts: ProbeOptions | None = None,
          progress: Progress | None = None) -> ProbeReport:
    """Run the clients against ``target``; the report card as data.

    On stdio the calibrating clients start alone and measure the server's cold
    start (:mod:`._startup`); once a server has answered, the others run
    ``jobs`` at a time (the prober, the longest, first), each request sent
    before its server said anything getting the startup allowance, so what a
    client sees depends on the server, not on how many servers this probe
    starts at once; a run whose server was still starting is run again once.
    When the server does not start at all, no other client runs. With the
    default client set on stdio (and not ``thorough``), only the clients the
    model needs run for real, and the others are predicted (:mod:`._fast`).
    """
    opts = opts or ProbeOptions()
    specs = required_clients(list(opts.clients or builtin_clients(opts.registry)), opts.required,
                             opts.registry) + ([PROBER] if opts.prober else [])
    numbered = list(enumerate(specs, 1))
    # a predicted client plays the lists; --tool and --error-probes steps are real runs' own
    fast = not (opts.thorough or opts.clients is not None or target.transport != "stdio"
                or opts.tool or opts.error_probes)
    first = first_clients(specs, opts.registry, opts.required) if fast else None
    more: list[tuple[int, PeerSpec]] = []
    if first is not None:
        more = [item for n, item in enumerate(numbered) if n not in first]
        numbered = [numbered[n] for n in first]
    say = progress or (lambda _text: None)
    say(f"probing {target.describe()} over {target.transport} with {len(specs)} clients, "
        f"{opts.jobs} at a time" + (", the model's clients for real, the others predicted"
                                    if first is not None else ""))
    started = time.monotonic()
    runs = _Runs(len(numbered), say)
    # every client that negotiates a session with ping pings once its lists are read (in
    # both modes: its verdict is the same); the fast probe's real clients also ask the
    # model's questions (an unknown method, initialize after modern) once their session is up

    # the oldest legacy client's process is also asked the middle legacy revisions'
    # initialize, with a control (``_fast.reinitialize``): their clients have no start of
    # their own in the budget
    oldest = first[3] + 1 if first is not None else None
    again = reinitialize(opts.registry)

    def one(index: int, spec: PeerSpec, allowance_ms: int,
            opened: Callable[[ProbeLink], None] | None) -> ClientRun:
        return _run_one(index, spec, target, opts, allowance_ms=allowance_ms, opened=opened,
                        model_steps=first is not None,
                        reinit=again if index == oldest else ())

    startup: dict[str, Any] = {}
    allowance = 0
    if target.transport == "stdio":
        numbered, startup, allowance = _calibrate(numbered, one, opts, specs, runs)
    mode, guess = "thorough", list[tuple[int, PeerSpec]]()
    if first is not None and not startup.get("failed"):
        runs.total = len(specs)
        extra = len(first or []) - len(first_clients(specs, opts.registry) or [])
        mode, guess, retried = _fast_rest(numbered, more, one, opts=opts, allowance=allowance,
                                          runs=runs, target=target, required=extra)
    else:
        retried = _run_rest(numbered, one, opts, allowance, runs)
    if startup:
        startup["retried"] = retried
    done = sorted(runs.runs, key=lambda r: r.index)
    peer, schema_note, server = analyse(done, target, opts, assume_range=mode != "thorough")
    if peer.spec is None and not any(_answered(r) for r in done):
        # a server that never ran (or never said a word) is not a peer that departs from all
        peer = InferredPeer(None, NEVER_ANSWERED, peer.evidence)
    if peer.spec is not None:
        done = sorted(done + [predicted_run(i, spec, peer.spec, opts, ClientRun, real=done)
                              for i, spec in guess], key=lambda r: r.index)
    done = sorted(done + runs.made, key=lambda r: r.index)
    if startup.get("slow_for"):
        startup["slow_for"] = _slow_for_rows(startup["slow_for"], done)
    if startup.get("cold_start_ms") is not None:  # its spread, and the named clients it races
        firsts = sorted(r.first_message_ms for r in done if r.first_message_ms is not None)
        startup["spread_ms"] = [firsts[0], firsts[-1]] if firsts else None
        startup["at_risk"] = at_risk(startup["cold_start_ms"], firsts, opts.named_clients)
    auth = None
    if target.url and needs_auth(r.record.transcript.records() for r in done):
        say("authorization required: discovering as each revision's clients do")
        auth = discover(target.url, target.headers, opts.registry,
                        timeout_s=opts.timeout_ms / 1000)
        server += auth.findings if auth is not None else []
    elapsed = int((time.monotonic() - started) * 1000)
    say(f"done in {elapsed} ms: " + (f"the server did not start: {startup['failed']}"
                                     if startup.get("failed") else peer.sentence))
    return with_bridge(with_extensions(
        ProbeReport(target, done, peer, elapsed, opts.jobs, schema_note, startup, server,
                    opts.required, auth, starts=runs.starts, mode=mode), opts.named_clients,
        lambda n, spec: _run_one(n, spec, target, opts, allowance_ms=allowance,
                                 ping=False).record), opts.via)

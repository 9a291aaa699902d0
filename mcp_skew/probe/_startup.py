"""The server's cold start, measured: how long its first answer takes, robust to load.

Theory of operation
-------------------
A request sent before a server has said anything races the server's start, not
its protocol: on a busy machine a server that takes 4 s to import answers a
5 s request after the timeout, and a probe that reads that timeout as silence
infers a wrong peer (``+silent``) or calls a working server ``start-failed``.

So the probe first starts the *calibrating* clients alone (the newest plain
legacy client and the plain modern one: whatever era the server speaks, one of
their first requests is one it knows), each with a startup bound of its own
(:attr:`ProbeOptions.startup_timeout_ms`, far above any cold start). The first
answer in either process is the cold start; the other calibrator's wait is then
cut to the *startup allowance* every later process gets (the cold start scaled
by the machine's load, doubled, plus two seconds), so a server silent to one
era costs that allowance, not the whole bound. When no calibrating process
said anything and none exited, the start timed out: it is tried once more
before the probe calls it a failure. When every one exited before a word, or
the command could not be started, the server did not start
(:attr:`Calibration.failed`) and no other client is run.

A later run whose first request in a process timed out and was then answered
late (or whose process said nothing at all, without exiting) was still
starting: :func:`started_late` finds it and the runner runs that client once
more with the whole startup bound, so one late answer never becomes evidence.

:func:`slow_for` says which clients' discovery waits the cold start exceeds
(named clients carry their ``probe-timeout`` and ``connect-timeout``); :func:`at_risk`
compares the cold start and its spread over every start of the probe with the first
wait of each named client of every kind (docs/time.md): the ones a start this slow, or
twice the slowest seen (what a busier machine adds), makes give up.
"""

from __future__ import annotations

import contextlib
import os
import queue
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._stopping import gather
from ..simulator import PeerSpec
from ..versions import Era, Registry
from ._exchanges import exchanges
from ._links import ProbeLink

if TYPE_CHECKING:
    from ._runner import ClientRun

__all__ = ["Calibration", "RunOne", "allowance", "at_risk", "calibrate", "calibrators", "first_wait",
           "slow_for", "started_late", "startup_line"]

#: ``run_one(index, spec, allowance_ms, opened)``: one client's run (the runner's).
RunOne = Callable[[int, PeerSpec, int, Callable[[ProbeLink], None] | None], "ClientRun"]


@dataclass(slots=True)
class Calibration:
    """What the calibrating runs showed about the server's start."""

    runs: list[ClientRun] = field(default_factory=list)  #: the kept calibrating runs
    cold_ms: int | None = None  #: the first answer's time after its process started
    allowance_ms: int = 0  #: extra wait for every later process's first answer
    starts: int = 0  #: server processes the calibration started
    attempts: int = 0  #: calibration rounds (2 when the first timed out)
    failed: str | None = None  #: why the server did not start, when it did not
    names: list[str] = field(default_factory=list)

    def to_dict(self, startup_ms: int) -> dict[str, Any]:
        return {"calibrated_with": ", ".join(self.names), "cold_start_ms": self.cold_ms,
                "allowance_ms": self.allowance_ms, "startup_timeout_ms": startup_ms,
                "attempts": self.attempts, "failed": self.failed}


def calibrators(specs: Sequence[PeerSpec], registry: Registry) -> list[int]:
    """Indexes (in ``specs``) of the calibrating clients: the newest plain legacy client and
    the newest plain modern one, those present; else the first client."""
    out: list[int] = []
    for era in (Era.LEGACY, Era.MODERN):
        revs = registry.ordered(registry.of_era(era))
        kind = era.value
        found = next((i for i, s in enumerate(specs) if s.kind == kind and not s.quirks
                      and s.revisions and s.revisions[0] == revs[0] and len(s.revisions) == 1),
                     None)
        if found is None:
            found = next((i for i, s in enumerate(specs) if s.kind == kind and not s.quirks),
                         None)
        if found is not None:
            out.append(found)
    return out or [0]


def allowance(cold_ms: int | None, jobs: int, bound_ms: int) -> int:
    """The extra wait for a later process's first answer: the cold start, scaled by how many
    servers start at once per core, doubled, plus two seconds (at most the startup bound)."""
    if cold_ms is None:
        return 0
    scaled = cold_ms * max(1.0, jobs / (os.cpu_count() or 1))
    return int(min(bound_ms, 2 * scaled + 2_000))


def _heard(links: list[ProbeLink]) -> int | None:
    times = [link.first_message_ms for link in links if link.first_message_ms is not None]
    return min(times) if times else None


def _round(pool: ThreadPoolExecutor, chosen: list[tuple[int, PeerSpec]], run_one: RunOne,
           bound_ms: int, later: Callable[[int | None], int]) -> tuple[list[ClientRun], int | None]:
    """One calibration round: the chosen clients at once, each with the whole startup bound
    until one of their servers answers; then the others' waits are cut to ``later(cold)``."""
    opened: queue.Queue[ProbeLink] = queue.Queue()
    futures: list[Future[ClientRun]] = [pool.submit(run_one, i, spec, bound_ms, opened.put)
                                        for i, spec in chosen]
    links: list[ProbeLink] = []
    cold: int | None = None
    while not all(f.done() for f in futures):
        with contextlib.suppress(queue.Empty):
            links.append(opened.get(timeout=0.01))
        cold = _heard(links)
        if cold is not None:
            break
    if cold is not None:
        cut = later(cold)
        for link in links:
            link.startup_allowance_ms = min(link.startup_allowance_ms, cut)
        with contextlib.suppress(queue.Empty):  # a link opened just now
            while True:
                link = opened.get_nowait()
                link.startup_allowance_ms = min(link.startup_allowance_ms, cut)
    runs = gather(futures)
    if cold is None:
        cold = _heard_runs(runs)
    return runs, cold


def _heard_runs(runs: Iterable[ClientRun]) -> int | None:
    times = [r.first_message_ms for r in runs if r.first_message_ms is not None]
    return min(times) if times else None


def _timed_out(runs: list[ClientRun]) -> bool:
    """No calibrating server said anything, and at least one was still running when its
    client gave up waiting (its exit, if any, was the probe ending it): still starting?"""
    return all(r.first_message_ms is None for r in runs) and any(
        r.outcome in ("timeout", "deadline") for r in runs)


def _why_not(runs: list[ClientRun], bound_ms: int, attempts: int) -> str:
    spawn = next((r for r in runs if r.outcome == "spawn-failed"), None)
    if spawn is not None:
        return spawn.record.session.reason or "the command could not be started"
    if _timed_out(runs):
        return (f"no answer within {bound_ms / 1000:g} s of starting, "
                f"{'in both tries' if attempts > 1 else 'once'}")
    exits = [e for r in runs for e in r.exits]
    return "it exited before answering anything" + (f" ({exits[0]})" if exits else "")


def calibrate(pool: ThreadPoolExecutor, chosen: list[tuple[int, PeerSpec]], run_one: RunOne,
              *, bound_ms: int, jobs: int) -> Calibration:
    """Run the calibrating clients (a start that timed out is tried once more); the cold
    start, the allowance later processes get, and whether the server started at all."""
    cal = Calibration(names=[spec.name for _, spec in chosen])
    runs: list[ClientRun] = []
    for attempt in (1, 2):
        cal.attempts = attempt
        runs, cold = _round(pool, chosen, run_one, bound_ms,
                            lambda c: allowance(c, jobs, bound_ms))
        cal.starts += sum(n.kind == "start" for r in runs for n in r.record.transcript.notes)
        if cold is not None or not _timed_out(runs):
            break
    cal.runs = runs
    cal.cold_ms = _heard_runs(runs)
    cal.allowance_ms = allowance(cal.cold_ms, jobs, bound_ms)
    if cal.cold_ms is None:
        cal.failed = _why_not(runs, bound_ms, cal.attempts)
    return cal


def started_late(run: ClientRun, registry: Registry) -> bool:
    """A process of this run was still starting when its first request timed out: that
    request was answered late, or the process said nothing at all and did not exit."""
    groups: dict[int, list[Any]] = {}
    for ex in exchanges(run.record.transcript, registry):
        groups.setdefault(ex.generation, []).append(ex)
    for group in groups.values():
        first = group[0]
        if not first.timed_out:
            continue
        if first.fate == "answered":
            return True
        if all(ex.fate in ("timeout", "unanswered") for ex in group):
            return True
    return False


def _discovery_wait(spec: PeerSpec) -> int | None:
    """How long a client waits for its first (discovery) answer before it gives up on it
    (a dual-era client then falls back to legacy): its probe timeout, cut by a connect
    timeout; None for a client that sends no discovery request."""
    if spec.kind != "dual":
        return None
    policy = spec.client_policy
    waits = [policy.probe_timeout_ms] + ([policy.connect_timeout_ms]
                                         if policy.connect_timeout_ms else [])
    return min(waits)


def slow_for(cold_ms: int | None, clients: Iterable[PeerSpec]) -> list[dict[str, Any]]:
    """The clients whose discovery wait is shorter than the cold start, with that wait: on a
    cold start such a client gives up on ``server/discover`` (and falls back, or fails)."""
    if cold_ms is None:
        return []
    out = []
    for spec in clients:
        wait = _discovery_wait(spec)
        if wait is not None and wait < cold_ms:
            out.append({"client": spec.name, "probe_timeout_ms": wait})
    return out


#: A wait within this factor of the slowest start seen is at risk (a busier machine).
_AT_RISK = 2


def first_wait(spec: PeerSpec) -> tuple[str, int] | None:
    """What a client waits for the server's first answer, and how long (ms), as its model
    states it: a dual-era client's ``server/discover`` probe (quirk ``probe-timeout``), else
    its first request (``initialize``, or a modern one: quirk ``request-timeout``), each cut
    by a connect timeout (quirk ``connect-timeout``). None where the model states no wait
    (the simulator's defaults are not a real client's)."""
    policy = spec.client_policy
    bound = policy.connect_timeout_ms if spec.has("connect-timeout") else None
    if spec.kind == "dual":
        what = "server/discover wait"
        wait = policy.probe_timeout_ms if spec.has("probe-timeout") else None
    else:
        what = "initialize wait" if spec.kind == "legacy" else "first request wait"
        wait = policy.request_timeout_ms if spec.has("request-timeout") else None
    if bound is not None and (wait is None or bound < wait):
        return "connect timeout", bound
    return None if wait is None else (what, wait)


def at_risk(cold_ms: int | None, samples: Iterable[int | None],
            clients: Iterable[PeerSpec]) -> list[dict[str, Any]]:
    """The clients whose first wait the cold start races: ``gives up`` where the measured
    cold start is longer, ``at risk`` where the slowest start seen, doubled, is; with the
    numbers."""
    if cold_ms is None:
        return []
    slowest = max([cold_ms, *(ms for ms in samples if ms is not None)])
    out = []
    for spec in clients:
        stated = first_wait(spec)
        if stated is None:
            continue
        what, wait = stated
        if wait < cold_ms:
            risk = "gives up"
        elif wait < _AT_RISK * slowest:
            risk = "at risk"
        else:
            continue
        out.append({"client": spec.name, "wait": what, "wait_ms": wait, "risk": risk})
    return out


def startup_line(startup: dict[str, Any]) -> str:
    """The probe's line on its server's start: the cold start and the allowance it gives."""
    cold, names = startup.get("cold_start_ms"), startup.get("calibrated_with", "")
    if startup.get("failed"):
        return f"the server did not start: {startup['failed']}"
    if cold is None:
        return f"cold start unknown ({names}'s server said nothing); no startup allowance"
    line = f"cold start {cold} ms; startup allowance {startup['allowance_ms']} ms"
    if startup.get("attempts", 1) > 1:
        line += " (the first start timed out and was tried again)"
    return line

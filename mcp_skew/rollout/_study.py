"""A rollout study: the population, the fleet, the change, the baseline, the verdict, the plan.

:func:`study` runs one rollout (:class:`~._timeline.Rollout`) and,
for the verdict, the same population against the fleet left as it was (the
baseline): a client spec that fails in the rollout but not in the baseline
*loses service* because of the change; one that fails in both was broken
already. "Can I drop it?" is the same question with a target that lists fewer
revisions than the fleet: :attr:`Study.dropped` names them.

:func:`plan` compares two orders of a migration: the servers to the target
first and then the clients to theirs, or the clients first; it recommends the
order without failures, or says that none exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .._numbers import parse_int
from .._verdicts import failure_kind
from ..errors import UsageError
from ..peers import resolve_peer
from ..simulator import PeerSpec
from ..simulator.bridges import BridgeSpec
from ..versions import Registry
from ._fleet import Balancer, Schedule, client_batches, rollback, rolling
from ._outcomes import Outcomes
from ._timeline import Breakage, Group, Minute, Rollout, Totals

__all__ = ["FORMAT", "FORMAT_VERSION", "LIMITS", "Plan", "Setup", "Study", "parse_counted",
           "plan", "study"]

#: ``--format json`` prints one document of this format.
FORMAT: Final = "mcp-skew-rollout"
#: Bump when a key changes meaning or goes away (adding keys keeps the version).
FORMAT_VERSION: Final = 1
#: Bounds on what a person may ask for (each checked with one clear line).
LIMITS: Final = {"count": 100_000, "clients": 100_000, "instances": 1_000,
                 "requests": 20_000_000, "duration_ms": 7 * 24 * 3_600_000, "rate": 6_000}
_MINUTE_MS: Final = 60_000


def parse_counted(text: str, role: str, registry: Registry, *, option: str) -> tuple[PeerSpec, int]:
    """``SPEC*N`` (or ``SPEC``, one) as a peer and a count; a wrong one raises UsageError."""
    spec, star, count_text = text.rpartition("*")
    if not star:
        spec, count_text = text, "1"
    count_text = count_text.strip()
    try:  # ASCII digits only: "²".isdigit() is true, but int("²") raises
        count = parse_int(count_text, 1, LIMITS["count"])
    except ValueError:
        raise UsageError(f"{option} {text!r}: the count after '*' must be a whole number from 1 "
                         f"to {LIMITS['count']:,}, not {count_text!r}") from None
    try:
        peer = resolve_peer(spec, "client" if role == "client" else "server", registry)
    except UsageError as exc:
        raise UsageError(f"{option} {text!r}: {exc}") from None
    return peer, count


@dataclass(frozen=True, slots=True)
class Setup:
    """What a rollout is asked to do (checked: see :meth:`check`)."""

    groups: tuple[Group, ...]
    fleet: tuple[PeerSpec, ...]
    to: PeerSpec | None
    duration_ms: int
    rate: int
    start_ms: int
    every_ms: int
    rollback_at_ms: int | None = None
    balancer: Balancer = "sticky"
    seed: int = 0
    keep: int = 0
    via: BridgeSpec | None = None  #: a bridge in front of every instance (``--via``)

    def check(self) -> None:
        clients = sum(g.count for g in self.groups)
        if clients > LIMITS["clients"]:
            raise UsageError(f"--clients: {clients:,} clients in all; at most "
                             f"{LIMITS['clients']:,}")
        if len(self.fleet) > LIMITS["instances"]:
            raise UsageError(f"--fleet: {len(self.fleet):,} instances; at most "
                             f"{LIMITS['instances']:,}")
        requests = clients * (self.duration_ms * self.rate // _MINUTE_MS)
        if requests == 0:
            raise UsageError("--duration and --rate give no request: each client sends "
                             "duration x rate / 1 minute requests; raise one of them")
        if requests > LIMITS["requests"]:
            raise UsageError(f"{requests:,} requests (clients x duration x rate); at most "
                             f"{LIMITS['requests']:,}")
        if self.keep > clients:
            raise UsageError(f"--keep-transcripts {self.keep}: there are only {clients} clients")
        if self.rollback_at_ms is not None and self.to is None:
            raise UsageError("--rollback-at needs --to (a rollback undoes a rolling change)")
        if self.to is not None and self.start_ms >= self.duration_ms:
            raise UsageError(f"--start {self.start_ms // 1000}s is not before the end of "
                             f"--duration ({self.duration_ms // 1000}s): nothing would change")

    def schedule(self) -> Schedule:
        if self.to is None:
            return Schedule()
        out = rolling(len(self.fleet), self.to, start_ms=self.start_ms, every_ms=self.every_ms)
        if self.rollback_at_ms is not None:
            out = out.then(rollback(self.fleet, start_ms=self.rollback_at_ms,
                                    every_ms=self.every_ms))
        return out

    @property
    def clients(self) -> int:
        return sum(g.count for g in self.groups)

    def to_dict(self) -> dict[str, Any]:
        return {"clients": [{"spec": g.spec.name, "count": g.count} for g in self.groups],
                "fleet": [p.name for p in self.fleet],
                "to": self.to.name if self.to else None, "duration_ms": self.duration_ms,
                "rate_per_minute": self.rate, "start_ms": self.start_ms,
                "every_ms": self.every_ms, "rollback_at_ms": self.rollback_at_ms,
                "balancer": self.balancer, "seed": self.seed,
                **({"via": self.via.name} if self.via is not None else {})}


def _run(setup: Setup, schedule: Schedule, outcomes: Outcomes, keep: int = 0) -> Rollout:
    return Rollout(setup.groups, setup.fleet, schedule, duration_ms=setup.duration_ms,
                   rate=setup.rate, balancer=setup.balancer, seed=setup.seed,
                   classify=failure_kind, keep=keep, outcomes=outcomes)


@dataclass(slots=True)
class Study:
    """A rollout and its baseline; iterate :meth:`timeline`, then read the rest."""

    setup: Setup
    schedule: Schedule
    rollout: Rollout
    baseline: Rollout | None
    minutes: list[dict[str, Any]] = field(default_factory=list)  #: filled by :meth:`timeline`

    def timeline(self, *, keep_rows: bool = True) -> Iterator[Minute]:
        for minute in self.rollout.timeline():
            if keep_rows:
                self.minutes.append(minute.to_dict())
            yield minute
        if self.baseline is not None:
            for _ in self.baseline.timeline():
                pass

    @property
    def totals(self) -> Totals:
        return self.rollout.totals

    @property
    def dropped(self) -> tuple[str, ...]:
        """The revisions the fleet serves today that the target does not (can I drop it?)."""
        if self.setup.to is None:
            return ()
        served = {r for p in self.setup.fleet for r in p.revisions}
        return tuple(r for r in self.setup.fleet[0].registry.revisions()
                     if r in served and r not in self.setup.to.revisions)

    def verdict(self) -> dict[str, Any]:
        """Who loses service because of the change, and who was broken before it."""
        before = self.baseline.broken if self.baseline is not None else {}
        lose = [b for name, b in self.rollout.broken.items() if name not in before]
        already = [b for name, b in self.rollout.broken.items() if name in before]
        end = self.setup.duration_ms
        return {"ok": not self.rollout.broken,
                "lose_service": [_breakage(b, end) for b in lose],
                "already_failing": [_breakage(b, end) for b in already],
                "dropped": list(self.dropped)}

    def document(self) -> dict[str, Any]:
        out = {"format": FORMAT, "format_version": FORMAT_VERSION, **self.setup.to_dict(),
               "schedule": [c.to_dict() for c in self.schedule.changes],
               "timeline": self.minutes, "totals": self.totals.to_dict(),
               "verdict": self.verdict(), "simulations": self.rollout.outcomes.runs}
        if self.setup.keep:
            out["transcripts"] = [{"client": k, "requests": v}
                                  for k, v in sorted(self.rollout.transcripts.items())]
        return out


def _breakage(b: Breakage, end_ms: int) -> dict[str, Any]:
    out = b.to_dict()
    out["until_the_end"] = b.last_ms >= end_ms - _MINUTE_MS
    return out


def study(setup: Setup) -> Study:
    """The rollout ``setup`` asks for, and its baseline (the fleet left as it is)."""
    setup.check()
    outcomes = Outcomes(failure_kind, setup.via)  # shared: the baseline costs no new simulation
    schedule = setup.schedule()
    baseline = _run(setup, Schedule(), outcomes) if schedule.changes else None
    return Study(setup, schedule, _run(setup, schedule, outcomes, setup.keep), baseline)


# -- --plan --------------------------------------------------------------------------------
#: The orders ``--plan`` compares, by name.
ORDERS: Final = ("servers first, then clients", "clients first, then servers")
#: Client batches in a plan (the population moves in this many slices).
CLIENT_BATCHES: Final = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """The orders compared, their totals, and the recommendation (None: no order is safe)."""

    clients_to: PeerSpec
    orders: tuple[tuple[str, Totals, dict[str, Breakage]], ...]
    duration_ms: int

    @property
    def recommended(self) -> str | None:
        safe = [(t.extra_round_trips, name) for name, t, _ in self.orders if t.failed == 0]
        return min(safe)[1] if safe else None

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "plan": True,
                "clients_to": self.clients_to.name, "duration_ms": self.duration_ms,
                "orders": [{"order": name, "totals": t.to_dict(),
                            "broken": [b.to_dict() for b in broken.values()]}
                           for name, t, broken in self.orders],
                "recommended": self.recommended}


def default_clients_to(to: PeerSpec, registry: Registry) -> PeerSpec:
    """Where clients go when ``--clients-to`` is not given: a modern client of the target's
    modern revisions, else a client of the target's own notation."""
    if to.modern:
        return resolve_peer(f"modern:{','.join(to.modern)}", "client", registry)
    return resolve_peer(f"{to.kind}:{','.join(to.revisions)}", "client", registry)


def plan(setup: Setup, clients_to: PeerSpec,
         progress: Callable[[str], None] | None = None) -> Plan:
    """Run both orders (:data:`ORDERS`) long enough for both phases, and compare them."""
    if setup.to is None:
        raise UsageError("--plan needs --to (the fleet's target)")
    setup.check()
    servers = len(setup.fleet)
    phase_ms = max(servers, CLIENT_BATCHES) * setup.every_ms
    duration = max(setup.duration_ms, setup.start_ms + 2 * phase_ms + _MINUTE_MS)
    count = setup.clients
    fleet_first = rolling(servers, setup.to, start_ms=setup.start_ms, every_ms=setup.every_ms)
    fleet_second = rolling(servers, setup.to, start_ms=setup.start_ms + phase_ms,
                           every_ms=setup.every_ms)
    clients_first = client_batches(count, clients_to, CLIENT_BATCHES, start_ms=setup.start_ms,
                                   every_ms=setup.every_ms)
    clients_second = client_batches(count, clients_to, CLIENT_BATCHES,
                                    start_ms=setup.start_ms + phase_ms, every_ms=setup.every_ms)
    long = replace(setup, duration_ms=duration)
    long.check()
    outcomes = Outcomes(failure_kind, setup.via)
    results = []
    for name, schedule in zip(ORDERS, (fleet_first.then(clients_second),
                                       clients_first.then(fleet_second)), strict=True):
        if progress is not None:
            progress(name)
        rollout = _run(long, schedule, outcomes)
        for _ in rollout.timeline():
            pass
        results.append((name, rollout.totals, rollout.broken))
    return Plan(clients_to, tuple(results), duration)


def groups_of(counted: Sequence[tuple[PeerSpec, int]]) -> tuple[Group, ...]:
    return tuple(Group(spec, count) for spec, count in counted)

"""Rollouts: a population of clients against a fleet that changes over simulated time.

Theory of operation
-------------------
Each client sends one request (the ``call a tool`` step of the ``default``
scenario) every ``60000 / rate`` simulated ms, at a phase of its own drawn from
the seed. Before each request the :class:`~._fleet.Schedule`'s changes that are
due are applied: an instance is replaced (its generation bumped) or a slice of
clients becomes a new spec (a fresh process: nothing cached). The
:class:`~._fleet.LoadBalancer` picks the serving instance. What the request
meets depends on what the client holds in its
:class:`~mcp_skew.simulator.ClientCache` (the fleet is one origin behind the
balancer, so one key, :data:`FLEET`): nothing, a legacy session (on the serving
instance and generation, or not), or a modern decision, whose ``server/discover``
result may be stale (``ttlMs``, 2026-07-28 ``server/utilities/caching.mdx``; a
cache miss, and it negotiates again). :mod:`._outcomes` says what each case
meets, read off the simulator's own runs.

The timeline is a stream of :class:`Minute` rows; the totals and the verdict
are ready when the stream ends. Nothing here grows with the number of requests
except the transcripts of the first ``keep`` clients, kept on request.
Pure: no I/O; it imports the simulator's face and the profiles only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..simulator import ClientCache, PeerSpec
from ..versions import Era
from ._fleet import Balancer, Fleet, FleetChange, LoadBalancer, Rng, Schedule
from ._outcomes import CATEGORIES, Classify, Outcome, Outcomes

__all__ = ["FLEET", "Breakage", "Group", "Minute", "Rollout", "Totals"]

#: The cache key of the fleet: one origin behind the load balancer.
FLEET: Final = "fleet"
_MINUTE_MS: Final = 60_000


@dataclass(frozen=True, slots=True)
class Group:
    """``count`` clients of one spec, as the population names them."""

    spec: PeerSpec
    count: int


@dataclass(slots=True)
class Totals:
    """Counts over a minute or the whole rollout."""

    requests: int = 0
    ok: int = 0
    retried: int = 0
    fell_back: int = 0
    failed: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    extra_round_trips: int = 0
    cache_hits: int = 0
    cache_lookups: int = 0

    def add(self, outcome: Outcome) -> None:
        self.requests += 1
        setattr(self, outcome.category, getattr(self, outcome.category) + 1)
        if outcome.cause is not None:
            self.causes[outcome.cause] += 1
        self.extra_round_trips += outcome.extra

    def merge(self, other: Totals) -> None:
        for name in ("requests", *CATEGORIES, "extra_round_trips", "cache_hits",
                     "cache_lookups"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.causes.update(other.causes)

    @property
    def hit_rate(self) -> float | None:
        return self.cache_hits / self.cache_lookups if self.cache_lookups else None

    def to_dict(self) -> dict[str, Any]:
        rate = self.hit_rate
        return {"requests": self.requests, "ok": self.ok, "retried": self.retried,
                "fell_back": self.fell_back, "failed": self.failed,
                "failed_by_cause": dict(sorted(self.causes.items())),
                "extra_round_trips": self.extra_round_trips, "cache_hits": self.cache_hits,
                "cache_lookups": self.cache_lookups,
                "cache_hit_rate": None if rate is None else round(rate, 4)}


@dataclass(slots=True)
class Minute:
    """One row of the timeline: what happened in one simulated minute."""

    minute: int
    totals: Totals
    fleet: dict[str, int]  #: instances by spec name at the end of the minute
    changes: list[str]  #: what the schedule changed in this minute

    def to_dict(self) -> dict[str, Any]:
        return {"minute": self.minute, **self.totals.to_dict(), "fleet": dict(self.fleet),
                "changes": list(self.changes)}


@dataclass(slots=True)
class Breakage:
    """The failures of one client spec: when, how many, why."""

    spec: str
    clients: set[int] = field(default_factory=set)
    failed: int = 0
    first_ms: int = 0
    last_ms: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    minutes: set[int] = field(default_factory=set)  #: the simulated minutes with a failure

    def to_dict(self) -> dict[str, Any]:
        return {"client": self.spec, "clients": len(self.clients), "failed": self.failed,
                "first_ms": self.first_ms, "last_ms": self.last_ms,
                "minutes": sorted(self.minutes), "causes": dict(sorted(self.causes.items()))}


class Rollout:
    """One rollout; iterate :meth:`timeline` once, then read :attr:`totals` and :attr:`broken`."""

    def __init__(self, groups: Sequence[Group], fleet: Sequence[PeerSpec], schedule: Schedule,
                 *, duration_ms: int, rate: int, balancer: Balancer = "sticky", seed: int = 0,
                 classify: Classify, keep: int = 0, outcomes: Outcomes | None = None) -> None:
        self.groups, self.initial_fleet, self.schedule = tuple(groups), tuple(fleet), schedule
        self.duration_ms, self.rate, self.balancer, self.seed = duration_ms, rate, balancer, seed
        self.keep = keep
        self.outcomes = outcomes or Outcomes(classify)
        self.totals = Totals()
        self.broken: dict[str, Breakage] = {}
        #: for the first ``keep`` clients: every request, in order
        self.transcripts: dict[int, list[dict[str, Any]]] = {}
        self.specs = [g.spec for g in groups for _ in range(g.count)]
        self._discovers = [False] * len(self.specs)  #: its decision came from server/discover
        self._fleet = Fleet(self.initial_fleet)
        self._balancer = LoadBalancer(balancer, len(self._fleet), seed)
        self._caches: list[ClientCache] = []
        self._pinned: list[tuple[int, int] | None] = []

    @property
    def requests_per_client(self) -> int:
        return self.duration_ms * self.rate // _MINUTE_MS

    def timeline(self) -> Iterator[Minute]:
        """The minutes, as they complete (a stream: nothing is kept but the totals)."""
        count = len(self.specs)
        self._fleet = fleet = Fleet(self.initial_fleet)
        self._balancer = LoadBalancer(self.balancer, len(fleet), self.seed)
        self._caches = [ClientCache(context=f"client-{k}") for k in range(count)]
        self._pinned = [None] * count
        rng = Rng(self.seed ^ 0x5EED)
        order = sorted(range(count), key=lambda k: (rng.below(_MINUTE_MS), k))
        phases = [0] * count
        for i, k in enumerate(order):
            phases[k] = i * _MINUTE_MS // count
        changes = list(self.schedule.changes)
        minute = Minute(0, Totals(), {}, [])
        for round_ in range(self.requests_per_client):
            for k in order:
                now = (round_ * _MINUTE_MS + phases[k]) // self.rate
                while True:  # the schedule's changes and the minutes' ends, in time order
                    end = (minute.minute + 1) * _MINUTE_MS
                    if changes and changes[0].at_ms <= now and changes[0].at_ms < end:
                        self._apply(changes.pop(0), minute)
                    elif now >= end:
                        yield self._close(minute)
                        minute = Minute(minute.minute + 1, Totals(), {}, [])
                    else:
                        break
                self._request(k, now, minute.totals)
        while changes and changes[0].at_ms < self.duration_ms:
            self._apply(changes.pop(0), minute)
        yield self._close(minute)

    def _close(self, minute: Minute) -> Minute:
        minute.fleet = dict(sorted(Counter(s.name for s in self._fleet.specs).items()))
        self.totals.merge(minute.totals)
        return minute

    def _apply(self, change: FleetChange, minute: Minute) -> None:
        size = len(self._fleet) if change.role == "server" else len(self.specs)
        span = range(change.first, min(change.stop, size))
        for i in span:
            if change.role == "server":
                self._fleet.replace(i, change.spec)
            else:  # a new client process: nothing cached, no session
                self.specs[i] = change.spec
                self._caches[i] = ClientCache(context=f"client-{i}")
                self._pinned[i] = None
                self._discovers[i] = False
        who = (f"instance {change.first}" if change.role == "server" and len(span) == 1
               else f"{change.role}s {change.first}-{change.stop - 1}")
        minute.changes.append(f"{change.at_ms // 1000}s {change.what} {who} -> {change.spec.name}")

    def _request(self, k: int, now: int, totals: Totals) -> None:
        client, fleet, cache = self.specs[k], self._fleet, self._caches[k]
        held = cache.era_for(FLEET)
        pin = self._pinned[k]
        instance = self._balancer.route(pin[0] if pin is not None else None)
        server = fleet.specs[instance]
        if held is None:
            outcome = self.outcomes.fresh(client, server)
        elif held.era is Era.LEGACY:
            same = pin == (instance, fleet.generations[instance])
            outcome = (self.outcomes.session(held.revision) if same
                       else self.outcomes.lost(client, server))
        elif self._discovers[k] and not self._fresh_discover(k, client, held.revision, now,
                                                             totals):
            outcome = self.outcomes.fresh(client, server)  # ask server/discover again
        else:
            outcome = self.outcomes.cached(client, server, held.revision)
        totals.add(outcome)
        self._remember(k, now, instance, outcome)

    def _fresh_discover(self, k: int, client: PeerSpec, revision: str, now: int,
                        totals: Totals) -> bool:
        """Whether the client's cached ``server/discover`` result is still fresh (a hit)."""
        totals.cache_lookups += 1
        lookup = self._caches[k].get(now, "server/discover", {},
                                     profile=client.profile(revision), server=FLEET)
        totals.cache_hits += lookup.hit
        return lookup.hit

    def _remember(self, k: int, now: int, instance: int, outcome: Outcome) -> None:
        cache, fleet = self._caches[k], self._fleet
        era, revision = outcome.era, outcome.revision
        if outcome.category == "failed" or era is None or revision is None:
            cache.forget_era(FLEET)
            self._pinned[k] = None
            self._discovers[k] = False
        else:
            held = cache.era_for(FLEET)
            if held is None or held.era is not era or held.revision != revision:
                cache.remember_era(now, FLEET, era, revision)
            self._pinned[k] = ((instance, fleet.generations[instance]) if era is Era.LEGACY
                               else None)
            if outcome.discover is not None:
                self._discovers[k] = True
                if self.specs[k].client_policy.cache:  # a no-cache client asks every time
                    cache.put(now, "server/discover", {}, outcome.discover,
                              profile=self.specs[k].profile(revision), server=FLEET)
            elif era is Era.LEGACY:
                self._discovers[k] = False
        if outcome.category == "failed":
            self._broke(k, now, outcome)
        if k < self.keep:
            self.transcripts.setdefault(k, []).append(
                {"ms": now, "client": self.specs[k].name, "instance": instance,
                 "generation": fleet.generations[instance], "server": fleet.specs[instance].name,
                 "outcome": outcome.category, "cause": outcome.cause, "extra": outcome.extra,
                 "path": list(outcome.path)})

    def _broke(self, k: int, now: int, outcome: Outcome) -> None:
        name = self.specs[k].name
        entry = self.broken.get(name)
        if entry is None:
            entry = self.broken[name] = Breakage(name, first_ms=now)
        entry.clients.add(k)
        entry.failed += 1
        entry.last_ms = now
        entry.minutes.add(now // _MINUTE_MS)
        entry.causes[outcome.cause or "request"] += 1

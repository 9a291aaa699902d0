"""Fleets: server instances behind a load balancer, and schedules that change them.

A :class:`Fleet` is N instances, each a server :class:`~mcp_skew.simulator.PeerSpec`. Each
instance has a *generation*, bumped every time the instance is replaced (an
upgrade, a rollback): a legacy session belongs to one generation of one instance,
and is lost when that instance is replaced (2025-03-26 and later
``basic/transports.mdx`` §Session Management: a server that no longer knows a
session answers 404, and the client MUST start a new session with a new
``initialize``). A modern request carries its own revision in ``_meta`` and needs
no session (2026-07-28 ``basic/versioning.mdx``), so it may land anywhere.

A :class:`LoadBalancer` picks the instance of a request: ``round-robin``,
``random`` (seeded, :class:`Rng`), or ``sticky`` (round robin, but a legacy
session goes back to the instance that holds it). A :class:`Schedule` is a list
of :class:`FleetChange` at simulated times: :func:`rolling` replaces instances one at a
time, :func:`client_batches` moves slices of the client population to a new
spec, :func:`rollback` undoes a rolling change in reverse order.

Pure: no clock, no I/O; the random balancer draws from a seeded SplitMix64
generator written here, so a seed gives the same choices on every platform. It
imports the simulator's face only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ..simulator import PeerSpec

__all__ = [
    "BALANCERS",
    "Balancer",
    "Fleet",
    "FleetChange",
    "LoadBalancer",
    "Rng",
    "Schedule",
    "client_batches",
    "rollback",
    "rolling",
]

Balancer = Literal["round-robin", "random", "sticky"]
#: The load balancers, in the order ``--help`` lists them.
BALANCERS: Final[tuple[Balancer, ...]] = ("sticky", "round-robin", "random")
_MASK: Final = (1 << 64) - 1


class Rng:
    """SplitMix64: a small, seeded, platform-independent generator (no :mod:`random`)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``."""
        return self.next() % n


@dataclass(frozen=True, slots=True)
class FleetChange:
    """At ``at_ms``, the servers (instances) or clients ``first .. stop-1`` become ``spec``."""

    at_ms: int
    role: Literal["server", "client"]
    first: int
    stop: int
    spec: PeerSpec
    what: str = "upgrade"  #: ``upgrade`` or ``rollback``, for the timeline

    def to_dict(self) -> dict[str, object]:
        return {"at_ms": self.at_ms, "role": self.role, "first": self.first, "stop": self.stop,
                "spec": self.spec.name, "what": self.what}


@dataclass(frozen=True, slots=True)
class Schedule:
    """Changes in the order they happen (equal times keep their order)."""

    changes: tuple[FleetChange, ...] = ()

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.changes, key=lambda c: c.at_ms))
        object.__setattr__(self, "changes", ordered)

    def then(self, other: Schedule) -> Schedule:
        return Schedule(self.changes + other.changes)

    @property
    def end_ms(self) -> int:
        """When the last change happens (0 for an empty schedule)."""
        return self.changes[-1].at_ms if self.changes else 0


def rolling(size: int, to: PeerSpec, *, start_ms: int, every_ms: int) -> Schedule:
    """A rolling upgrade: instance ``i`` becomes ``to`` at ``start_ms + i * every_ms``."""
    return Schedule(tuple(FleetChange(start_ms + i * every_ms, "server", i, i + 1, to)
                          for i in range(size)))


def rollback(fleet: Sequence[PeerSpec], *, start_ms: int, every_ms: int) -> Schedule:
    """Undo a rolling change: the last instance first, each back to its spec in ``fleet``."""
    last = len(fleet) - 1
    return Schedule(tuple(FleetChange(start_ms + k * every_ms, "server", last - k, last - k + 1,
                                 fleet[last - k], "rollback") for k in range(len(fleet))))


def client_batches(count: int, to: PeerSpec, batches: int, *, start_ms: int,
                   every_ms: int) -> Schedule:
    """The clients ``0 .. count-1`` become ``to`` in ``batches`` slices of near-equal size."""
    bounds = [count * b // batches for b in range(batches + 1)]
    return Schedule(tuple(FleetChange(start_ms + b * every_ms, "client", bounds[b], bounds[b + 1], to)
                          for b in range(batches) if bounds[b] < bounds[b + 1]))


class Fleet:
    """The instances and their generations; :meth:`replace` bumps a generation."""

    __slots__ = ("generations", "specs")

    def __init__(self, specs: Sequence[PeerSpec]) -> None:
        if not specs:
            raise ValueError("a fleet needs at least one instance")
        self.specs = list(specs)
        self.generations = [0] * len(specs)

    def __len__(self) -> int:
        return len(self.specs)

    def replace(self, index: int, spec: PeerSpec) -> None:
        """A new process of ``spec`` takes instance ``index``: its sessions are gone."""
        self.specs[index] = spec
        self.generations[index] += 1


class LoadBalancer:
    """Which instance serves a request (see the module docstring)."""

    __slots__ = ("_next", "_rng", "kind", "size")

    def __init__(self, kind: Balancer, size: int, seed: int = 0) -> None:
        self.kind, self.size = kind, size
        self._next = 0
        self._rng = Rng(seed)

    def pick(self) -> int:
        """An instance for a request that belongs to no session."""
        if self.kind == "random":
            return self._rng.below(self.size)
        index = self._next
        self._next = (index + 1) % self.size
        return index

    def route(self, pinned: int | None) -> int:
        """The instance of a request; ``pinned`` is the instance of its legacy session, if any."""
        if pinned is not None and self.kind == "sticky":
            return pinned
        return self.pick()

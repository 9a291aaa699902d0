"""The outcome of a simulated client's negotiation (:class:`Session`), which its scenario
builds on: the revision both sides speak, the era, the readable path, how it got there.
The client that makes one is :class:`._client.SimClient`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..versions import REGISTRY, Era, Profile, Registry
from . import _negotiation as negotiation
from . import _path as steps
from ._negotiation import Mark
from ._path import PathStep
from .findings._finding import Finding

__all__ = ["Session"]


@dataclass(eq=False, slots=True)
class Session:
    """The outcome of negotiation, and what the scenario builds on."""

    status: Literal["ok", "failed"] = "failed"
    revision: str | None = None
    era: Era | None = None
    path: list[PathStep] = field(default_factory=list)  #: typed steps that read as text
    reason: str = ""
    round_trips: int = 0
    server_capabilities: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    fell_back: bool = False
    reprobed: bool = False  #: the fallback was refused after a timed-out probe; it probed again
    retried: bool = False
    downgraded: bool = False
    #: where the negotiated revision's profile is looked up
    registry: Registry = field(default=REGISTRY, compare=False, repr=False)
    #: the last profile looked up (:attr:`profile`), and the revision it was looked up for
    _looked_up: tuple[str, Profile] | None = field(default=None, init=False, compare=False,
                                                   repr=False)

    @property
    def mark(self) -> Mark:
        return negotiation.mark(self.status == "ok", fell_back=self.fell_back,
                                reprobed=self.reprobed, retried=self.retried,
                                downgraded=self.downgraded)

    @property
    def profile(self) -> Profile:
        """The negotiated revision's profile (a scenario asks at every step: the last one
        looked up is kept, with the revision it is for)."""
        revision = self.revision
        assert revision is not None
        looked_up = self._looked_up
        if looked_up is not None and looked_up[0] == revision:
            return looked_up[1]
        found = self.registry.get(revision)
        self._looked_up = (revision, found)
        return found

    def fail(self, reason: str) -> Session:
        self.status, self.reason, self.revision, self.era = "failed", reason, None, None
        return self

    def accept(self, revision: str, era: Era, reason: str = "") -> Session:
        self.status, self.revision, self.era = "ok", revision, era
        self.reason = reason
        self.path.append(steps.accepted(revision))
        return self

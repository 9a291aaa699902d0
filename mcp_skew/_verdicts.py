"""The words the features give their verdicts in: why a pair fails, and a step of advice.

Below the features (the matrix, the probe, the rollout, the migration guide), above the
simulator, so that each reads one vocabulary instead of borrowing another feature's:

- :data:`FailureKind` and :func:`failure_kind`: why a failed pair fails, as the matrix's
  legend explains it: ``era`` (no era in common: the spec's era table says it fails),
  ``revision`` (no revision in common), ``quirk`` (the same pair without quirks works),
  ``negotiation`` (they share a revision the one-shot negotiation does not reach); a
  matrix cell adds ``auth`` and ``result`` (connects, then fails), which only a run says.
  The rollout names a failed request's cause with it.
- :class:`Advice` and :class:`AdviceItem`: what a program's author should change, as
  steps grouped by what they unlock (the probe's card ends with them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .simulator import PeerSpec, Transport, run
from .versions import Era

__all__ = [
    "Advice",
    "AdviceItem",
    "FailureKind",
    "PlainWorks",
    "failure_kind",
    "plain_works",
]

FailureKind = Literal["era", "revision", "quirk", "negotiation", "auth", "result"]


# -- Why a failed pair fails -----------------------------------------------------------
def _eras(peer: PeerSpec) -> set[Era]:
    return {peer.registry.get(r).era for r in peer.revisions}


#: Whether a pair works once both peers drop their quirks (:func:`plain_works`).
PlainWorks = Callable[[PeerSpec, PeerSpec], bool]


def plain_works(client: PeerSpec, server: PeerSpec, transport: Transport = "stdio") -> bool:
    """Whether the pair negotiates once both peers drop their quirks (over ``transport``)."""
    return run(replace(client, quirks=()), replace(server, quirks=()), "handshake",
               transport=transport).status == "ok"


def failure_kind(client: PeerSpec, server: PeerSpec,
                 works: PlainWorks = plain_works) -> FailureKind:
    """Why a failed pair fails, in the legend's words (see the module docstring)."""
    if not _eras(client) & _eras(server):
        return "era"
    if not set(client.revisions) & set(server.revisions):
        return "revision"
    if (client.quirks or server.quirks) and works(client, server):
        return "quirk"
    return "negotiation"


# -- Advice ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AdviceItem:
    """One step: what to do, why, where it is written down, and what the probe saw."""

    title: str
    text: str
    links: tuple[str, ...] = ()  #: guide sections and spec pages
    now: str = ""  #: what this server did, where the probe saw it

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "text": self.text, "links": list(self.links),
                "now": self.now}


@dataclass(frozen=True, slots=True)
class Advice:
    """The steps that unlock one revision (``revision`` None: fix these first, for everyone)."""

    revision: str | None
    heading: str
    items: tuple[AdviceItem, ...]
    command: str = ""  #: the ``mcp-skew migrate`` command with the whole guide
    guide: str = ""  #: the guide page in the repository
    failing: tuple[str, ...] = field(default=())  #: the clients of that revision that failed

    def to_dict(self) -> dict[str, Any]:
        return {"revision": self.revision, "heading": self.heading, "command": self.command,
                "guide": self.guide, "failing": list(self.failing),
                "steps": [i.to_dict() for i in self.items]}

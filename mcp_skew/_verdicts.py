"""The words the features give their verdicts in: why a pair fails.

Below the features (the matrix, the probe, the rollout, the migration guide), above the
simulator, so that each reads one vocabulary instead of borrowing another feature's:

- :data:`FailureKind` and :func:`failure_kind`: why a failed pair fails, as the matrix's
  legend explains it: ``era`` (no era in common: the spec's era table says it fails),
  ``revision`` (no revision in common), ``quirk`` (the same pair without quirks works),
  ``negotiation`` (they share a revision the one-shot negotiation does not reach); a
  matrix cell adds ``auth`` and ``result`` (connects, then fails), which only a run says.
  The rollout names a failed request's cause with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from .simulator import PeerSpec, Transport, run
from .versions import Era

__all__ = [
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
               transport=transport, keep_transcript=False).status == "ok"


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

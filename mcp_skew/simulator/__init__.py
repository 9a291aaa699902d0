"""The negotiation simulator: peers, quirks, links, scenarios and runs.

Public API: :func:`parse_peer`, :class:`PeerSpec`, :data:`QUIRKS`, :func:`run`,
:class:`RunRecord`, :data:`SCENARIOS`, :class:`SimClient`, :class:`SimServer`,
:class:`MemoryLink`, :class:`Transcript`, :class:`Finding`.
"""

from __future__ import annotations

from ._client import Mark, Session, SimClient, check_result
from ._findings import FINDING_CODES, Finding, FindingCode
from ._link import Closed, Entry, Event, Link, MemoryLink, Note, Reply, Timeout, Transcript
from ._peers import KINDS, NAMED_PEER_NAMES, NAMED_RESOLVERS, NamedResolver, PeerSpec, parse_peer
from ._quirks import QUIRKS, Quirk
from ._run import RunRecord, run
from ._scenario import SCENARIOS, Scenario, Step, StepResult
from ._server import Reaction, SimServer

__all__ = [
    "FINDING_CODES",
    "KINDS",
    "NAMED_PEER_NAMES",
    "NAMED_RESOLVERS",
    "QUIRKS",
    "SCENARIOS",
    "Closed",
    "Entry",
    "Event",
    "Finding",
    "FindingCode",
    "Link",
    "Mark",
    "MemoryLink",
    "NamedResolver",
    "Note",
    "PeerSpec",
    "Quirk",
    "Reaction",
    "Reply",
    "RunRecord",
    "Scenario",
    "Session",
    "SimClient",
    "SimServer",
    "Step",
    "StepResult",
    "Timeout",
    "Transcript",
    "check_result",
    "parse_peer",
    "run",
]

"""What a reading of a wire log holds: per-entry notes, the negotiation path, the
outcome, the findings, what each side said of itself and the requests left
unanswered (:class:`Annotation`, made by :class:`~._annotate.Annotator`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..simulator import PathStep
from ..simulator.findings import Finding
from ..versions import Era
from ._log import LogEntry

__all__ = ["Annotation", "Pending", "Side"]


@dataclass(slots=True)
class Pending:
    """A request waiting for its answer."""

    msg_id: Any
    method: str
    index: int
    ms: float
    params: dict[str, Any]
    revision: str | None  #: the revision it is sent under, if known
    negotiating: bool = False  #: a step of the negotiation
    early: bool = False  #: sent before anything was negotiated
    abandoned_ms: float | None = None  #: when the client moved on without its answer
    cancelled: bool = False


@dataclass(slots=True)
class Side:
    """What one side said about itself and which revisions it spoke."""

    info: str | None = None
    spoke: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        if not self.spoke or self.spoke[-1] != text:
            self.spoke.append(text)


@dataclass(slots=True)
class Annotation:
    """A log with its reading: per-entry notes, the path, the outcome, the findings."""

    entries: list[LogEntry]
    notes: dict[int, list[str]]
    findings: list[Finding]
    path: list[PathStep]
    status: str  #: ok, failed or undecided
    revision: str | None
    era: Era | None
    mark: str
    reason: str
    client: Side
    server: Side
    unanswered: list[Pending]

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "revision": self.revision,
            "era": self.era.value if self.era else None,
            "mark": self.mark,
            "reason": self.reason,
            "path": list(self.path),
            "client": {"info": self.client.info, "spoke": list(self.client.spoke)},
            "server": {"info": self.server.info, "spoke": list(self.server.spoke)},
            "findings": [f.to_dict() for f in self.findings],
            "unanswered": [{"id": p.msg_id, "method": p.method, "index": p.index}
                           for p in self.unanswered],
            "entries": [
                {"index": e.index, "ms": e.t_ms, "dir": e.dir,
                 **({"event": e.kind, "text": e.text} if e.dir == "event" else {"line": e.line}),
                 "notes": self.notes.get(e.index, [])}
                for e in self.entries
            ],
        }

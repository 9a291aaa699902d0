"""Build the matrix: one simulator run per (client, server) pair, kept as typed cells.

Theory of operation
-------------------
:func:`build_matrix` runs every client against every server with
:func:`mcp_skew.simulator.run` and keeps each run as a :class:`~._cell.Cell`
(``Cell.of``): the run's outcome, plus what the matrix derives while the run is
at hand (why a failed pair fails, the features kept; see :mod:`._cell`).

A cell's ``transcript`` is the run's transcript records (the format of
``mcp_skew.transcript``, ``docs/transcripts.md``): messages and events
in the order they happened. It is most of a cell's memory, so a matrix built
with ``keep_transcripts=False`` (what ``mcp-skew matrix`` does for the formats
that show none) has none (``None``; no ``transcript`` key in the JSON). Format
versions 1 and 2 kept messages (``transcript``, ``{t_ms, dir, message}``) and
events (``events``, ``{t_ms, event, after}``; version 1 kept ``after`` in a cell
key of its own, ``event_after``) apart; :meth:`Matrix.from_dict` converts them
(``Cell.from_dict``), so an older document reads as a version-3 one.

A :class:`Matrix` is therefore plain data: every renderer reads the same cells,
whether they were just built or read back from JSON (``--from``), and
``Matrix.from_dict(m.to_dict())`` is ``m``.

Layering: this module runs the simulator and reads the registry; the renderers
(``_render*``) read only the matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from .. import __version__
from .._memo import collector_paused
from .._verdicts import plain_works
from ..errors import UsageError
from ..simulator import SCENARIOS, PeerSpec, Transport, run
from ..versions import REGISTRY, Registry
from ._cell import (
    EXTRA_KEYS,
    Cell,
    FailureKind,
    Outcome,
    PlainWorks,
    RealRun,
    failure_kind,
    outcome,
    sharing,
    steps_failed,
    timeline,
)
from ._race import may_race, race_of

if TYPE_CHECKING:
    from ..simulator.bridges import BridgeSpec

__all__ = [
    "EXTRA_KEYS",
    "FORMAT",
    "FORMAT_VERSION",
    "Axis",
    "Cell",
    "FailureKind",
    "Matrix",
    "Outcome",
    "RealRun",
    "Summary",
    "build_matrix",
    "failure_kind",
    "outcome",
    "steps_failed",
    "timeline",
]

FORMAT: Final = "mcp-skew-matrix"
#: Bump when a key changes meaning or goes away (adding keys keeps the version).
#: 2: the cell key ``event_after`` became ``after`` on each event.
#: 3: a cell's ``transcript`` is its transcript records, messages and events in order
#: (``ms`` for ``t_ms``); ``events`` is gone. Versions 1 and 2 are still read.
FORMAT_VERSION: Final = 3
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Axis:
    """One row (client) or column (server): its label and its peer spec."""

    label: str
    notation: str

    @classmethod
    def of(cls, peer: PeerSpec) -> Axis:
        return cls(peer.name, peer.notation)

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "notation": self.notation}


# -- The matrix ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Summary:
    """How many pairs work, work after a fallback, fail."""

    pairs: int
    works: int
    fallback: int
    fails: int
    steps_failed: int  #: pairs that negotiated but failed a scenario step

    def to_dict(self) -> dict[str, int]:
        return {"pairs": self.pairs, "works": self.works, "fallback": self.fallback,
                "fails": self.fails, "steps_failed": self.steps_failed}


@dataclass(frozen=True, slots=True)
class Matrix:
    """Rows are clients, columns servers; ``cells[row][column]`` is one run."""

    scenario: str
    clients: tuple[Axis, ...]
    servers: tuple[Axis, ...]
    cells: tuple[tuple[Cell, ...], ...]
    version: str = __version__  #: the mcp-skew that ran it
    transport: str = "stdio"  #: what the runs went over: ``stdio`` or ``http``
    #: where the labels and cells' revisions are looked up (the peers' registry)
    registry: Registry = field(default=REGISTRY, compare=False, repr=False)
    via: str = ""  #: the bridge every pair went through (``--via``), "" for none

    def pairs(self) -> Iterator[tuple[int, int, Cell]]:
        """``(row, column, cell)`` in reading order."""
        for i, row in enumerate(self.cells):
            for j, cell in enumerate(row):
                yield i, j, cell

    def summary(self) -> Summary:
        kinds = [outcome(cell) for _, _, cell in self.pairs()]
        broken = sum(1 for _, _, c in self.pairs() if c.status == "ok" and steps_failed(c))
        return Summary(len(kinds), kinds.count("works"), kinds.count("fallback"),
                       kinds.count("fails"), broken)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (``--format json``); :meth:`from_dict` reads it back."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "mcp_skew_version": self.version,
            "scenario": self.scenario,
            **({"transport": self.transport} if self.transport != "stdio" else {}),
            **({"via": self.via} if self.via else {}),
            "clients": [a.to_dict() for a in self.clients],
            "servers": [a.to_dict() for a in self.servers],
            "summary": self.summary().to_dict(),
            "cells": [[cell.to_dict() for cell in row] for row in self.cells],
        }

    @classmethod
    def from_dict(cls, data: Any, registry: Registry = REGISTRY) -> Matrix:
        """Read a document written by :meth:`to_dict` (its revisions looked up in
        ``registry``); bad input raises UsageError."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise UsageError(f"not an mcp-skew matrix (no \"format\": \"{FORMAT}\"); "
                             "write one with: mcp-skew matrix --format json")
        version = data.get("format_version")
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise UsageError(f"matrix format version {version!r} is newer than this mcp-skew "
                             f"reads ({FORMAT_VERSION}); upgrade mcp-skew")
        from ._document import check_document  # noqa: PLC0415 - pydantic: only to read one

        check_document(data, version)
        clients, servers = _axes(data, "clients"), _axes(data, "servers")
        rows = data.get("cells")
        if not isinstance(rows, list) or len(rows) != len(clients) or any(
                not isinstance(r, list) or len(r) != len(servers) for r in rows):
            raise UsageError(f"matrix cells must be {len(clients)} rows of {len(servers)} cells")
        cells = tuple(tuple(Cell.from_dict(cell, version) for cell in row) for row in rows)
        return cls(str(data.get("scenario", "")), clients, servers, cells,
                   str(data.get("mcp_skew_version", "")), str(data.get("transport", "stdio")),
                   registry, str(data.get("via", "")))


def _axes(data: dict[str, Any], key: str) -> tuple[Axis, ...]:
    items = data.get(key)
    if not isinstance(items, list) or not all(
            isinstance(a, dict) and isinstance(a.get("label"), str)
            and isinstance(a.get("notation"), str) for a in items):
        raise UsageError(f"matrix {key!r} must be a list of {{label, notation}} objects")
    return tuple(Axis(a["label"], a["notation"]) for a in items)


# -- Building ------------------------------------------------------------------------------
def _plain_works_memo(transport: Transport = "stdio") -> PlainWorks:
    """:func:`~mcp_skew._verdicts.plain_works`, run once per plain pair (a sweep asks for the
    same one per quirk)."""
    known: dict[tuple[object, ...], bool] = {}

    def works(client: PeerSpec, server: PeerSpec) -> bool:
        key = (client.kind, client.revisions, client.registry,
               server.kind, server.revisions, server.registry)
        found = known.get(key)
        if found is None:
            found = known[key] = plain_works(client, server, transport)
        return found

    return works


def build_matrix(clients: Sequence[PeerSpec], servers: Sequence[PeerSpec],
                 scenario: str = "default", *, progress: Progress | None = None,
                 keep_transcripts: bool = True, transport: Transport = "stdio",
                 via: BridgeSpec | None = None) -> Matrix:
    """Run every client against every server; ``progress(done, total)`` after each cell.

    ``keep_transcripts=False`` keeps no cell's transcript: what the formats that show
    none need (:data:`~._render.TRANSCRIPT_FORMATS` are those that do), and a fraction
    of the memory. ``transport`` is what every run goes over: ``stdio``, or ``http``
    (Streamable HTTP; a failed pair's ``quirk`` test runs over it too). ``via``: a bridge
    every pair goes through (client -> bridge -> server; the client meets its downstream
    transport, and a failed pair's ``quirk`` test goes through it too).
    """
    if scenario not in SCENARIOS:
        raise UsageError(f"unknown scenario {scenario!r}; known: {', '.join(sorted(SCENARIOS))}")
    if not clients or not servers:
        raise UsageError("a matrix needs at least one client and one server")
    total = len(clients) * len(servers)
    works = _plain_works_memo(transport) if via is None else _bridged_works(via)
    # the labels made once per axis, and what many cells say kept once (Cell.of's share)
    share = sharing()
    rows_axes = tuple(share(Axis.of(client)) for client in clients)
    columns = tuple(share(Axis.of(server)) for server in servers)
    # a race of time needs a server with a cold start (and no bridge): asked once a column
    racing = tuple(via is None and may_race(server) for server in servers)
    rows: list[tuple[Cell, ...]] = []
    # a run makes no reference cycles, but every pass of the collector walks the cells
    # built so far: with it on, the cost per cell grows with the matrix (about +45% per cell
    # from 1,800 to 7,100 pairs; flat with it paused, benchmarks/bench_matrix.py); with
    # transcripts, the first pass after the build would be about a quarter of building it
    with collector_paused():
        for client, row_axis in zip(clients, rows_axes, strict=True):
            row: list[Cell] = []
            for server, column, races in zip(servers, columns, racing, strict=True):
                record = run(client, server, scenario, transport=transport, via=via,
                             keep_transcript=keep_transcripts)
                race = race_of(client, server, record, scenario, transport) if races else None
                row.append(Cell.of(record, transcript=keep_transcripts, works=works,
                                   labels=(row_axis.label, column.label), share=share,
                                   race=race))
                if progress is not None:
                    progress(len(rows) * len(servers) + len(row), total)
            rows.append(tuple(row))
    return Matrix(scenario, rows_axes, columns, tuple(rows),
                  transport=transport if via is None else via.downstream,
                  registry=clients[0].registry, via="" if via is None else via.name)


def _bridged_works(via: BridgeSpec) -> PlainWorks:
    """Whether the pair negotiates through ``via`` once both peers drop their quirks (the
    bridge keeps its own): a pair the bridge breaks is not a peer's ``quirk``."""
    known: dict[tuple[object, ...], bool] = {}

    def works(client: PeerSpec, server: PeerSpec) -> bool:
        key = (client.kind, client.revisions, server.kind, server.revisions)
        found = known.get(key)
        if found is None:
            found = known[key] = run(replace(client, quirks=()), replace(server, quirks=()),
                                     "handshake", via=via).status == "ok"
        return found

    return works

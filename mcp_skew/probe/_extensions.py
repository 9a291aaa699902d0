"""The extensions a real server offers, and which named clients would use them.

Read from the probe's own transcripts (:func:`mcp_skew.simulator.read_extensions`): the
``extensions`` the server declares in its ``initialize`` or ``server/discover`` result,
and the tools whose ``_meta`` points at an extension's resource (MCP Apps:
``_meta.ui.resourceUri``, a ``ui://`` URI). A server that offers an extension may list
its app tools only to a client that advertises it (ext-apps 2026-01-26 ``apps.mdx``
§Server Behavior: "Servers SHOULD check client capabilities before registering UI-enabled
tools"), and the built-in clients advertise none: so where the server offers one, one
more client runs, the best of those that worked advertising what the server offers.

Which named clients would use an extension: the named client models whose spec
advertises it (``+ext=...``, :mod:`mcp_skew.peers`), given by the caller.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..simulator import ExtensionsSeen, PeerSpec, RunRecord, read_extensions
from ..versions import EXTENSIONS
from ._peer import InferredPeer

if TYPE_CHECKING:
    from ._runner import ProbeReport

__all__ = ["ExtensionsReport", "check_extensions", "with_extensions"]


@dataclass(slots=True)
class ExtensionsReport:
    """What the probe saw of extensions, for the card and the JSON report."""

    seen: ExtensionsSeen
    #: extension id -> the named clients that advertise it
    advertised_by: dict[str, list[str]] = field(default_factory=dict)
    named: int = 0  #: how many named client models were asked
    checked_with: str | None = None  #: the client that ran once more, advertising them

    def offered(self) -> list[str]:
        return sorted(self.seen.offered)

    def known(self) -> tuple[str, ...]:
        """The offered ids the extension table knows (a peer spec can carry only these)."""
        return tuple(e for e in self.offered() if EXTENSIONS.get(e) is not None)

    def lines(self) -> list[str]:
        out = [f"extensions ({len(self.seen.offered)}):"]
        for ext_id in self.offered():
            out.append(f"  {EXTENSIONS.label(ext_id)}: offered")
            for tool, uri in sorted(self.seen.tools.get(ext_id, {}).items()):
                out.append(f"    tool {tool} -> {uri}")
            row = EXTENSIONS.get(ext_id)
            if row is not None and row.tool_meta and not self.seen.tools.get(ext_id):
                where = f" (also to {self.checked_with})" if self.checked_with else ""
                out.append(f"    no listed tool points at a {row.resource_scheme} resource{where}")
            users = self.advertised_by.get(ext_id, [])
            out.append(f"    named clients that advertise it: {', '.join(users)}" if users else
                       f"    named clients that advertise it: none of {self.named}")
        if self.checked_with:
            out.append(f"  (one more run, {self.checked_with}, advertised them)")
        return out

    def to_dict(self) -> dict[str, Any]:
        seen = self.seen.to_dict()
        return {"offered": seen["offered"], "tools": seen["tools"],
                "advertised_by": dict(sorted(self.advertised_by.items())),
                "named_clients": self.named, "checked_with": self.checked_with}


def _pairs(records: Iterable[RunRecord]) -> list[tuple[str, Any]]:
    return [("->" if e.dir == "c2s" else "<-", e.message) for r in records
            for e in r.transcript.entries if isinstance(e.message, dict)]


def check_extensions(records: Sequence[RunRecord], named: Sequence[PeerSpec],
                     again: Callable[[PeerSpec], RunRecord | None]) -> ExtensionsReport | None:
    """The extensions the server offered in ``records`` (None: it offered none); where it did,
    ``again`` runs the best client that worked once more, advertising the known ones."""
    seen = read_extensions(_pairs(records))
    if not seen.offered:
        return None
    report = ExtensionsReport(seen, named=len(named))
    known = report.known()
    worked = [r for r in records if r.status == "ok"]
    checked = None
    if known and worked:
        best = min(worked, key=lambda r: len(r.client.quirks))  # the plainest that worked
        spec = replace(best.client, extensions=known,
                       label=f"{best.client.name}+ext={','.join(_short(known))}")
        checked = again(spec)
    if checked is not None:
        more = read_extensions(_pairs([checked]))
        seen.offered |= more.offered
        for ext_id, tools in more.tools.items():
            seen.tools.setdefault(ext_id, {}).update(tools)
        report.checked_with = checked.client.name
    for ext_id in seen.offered:
        report.advertised_by[ext_id] = sorted(p.name for p in named if ext_id in p.extensions)
    return report


def _short(ids: Sequence[str]) -> list[str]:
    return [row.short if (row := EXTENSIONS.get(e)) is not None else e for e in ids]


def with_extensions(report: ProbeReport, named: Sequence[PeerSpec],
                    run_again: Callable[[int, PeerSpec], RunRecord]) -> ProbeReport:
    """``report`` with the extensions the server offers (one more run, ``run_again`` with the
    next client number, where it offers some), its inferred peer carrying them (a saved peer
    keeps them)."""
    index = max((r.index for r in report.runs), default=0) + 1
    started = time.monotonic()
    ext = check_extensions([r.record for r in report.runs if r.real and not r.prober], named,
                           lambda spec: run_again(index, spec))
    report.extensions = ext
    if ext is not None and ext.checked_with is not None:  # the extra run counts in the totals
        report.elapsed_ms += int((time.monotonic() - started) * 1000)
        report.starts += report.target.transport == "stdio"
    peer = report.peer
    if ext is not None and peer.spec is not None and ext.known():
        report.peer = InferredPeer(replace(peer.spec, extensions=ext.known()), peer.sentence,
                                   peer.evidence)
    return report

"""A bridge in front of the probed server: what tells it, and what it hides.

The probe cannot see past a bridge, but some of its marks show on the downstream side:

- the probe started it (``probe --via BRIDGE -- CMD``): it knows which, and its model says
  what it hides (:meth:`mcp_skew.simulator.bridges.BridgeSpec.hides`);
- a server name that says so (``serverInfo.name`` of an initialize answer, or the modern
  ``_meta`` server identity, naming a known bridge: ``supergateway``, ``mcp-proxy``,
  ``mcp-remote``, or a gateway or proxy);
- a child started per request: a legacy client that sent a request **before**
  ``initialize`` was served as if initialized, over HTTP, where the same server refused
  nothing else a strict server refuses: an auto-initializing bridge (supergateway's
  stateless mode initializes each child itself before the request).

The signs are sentences for the card (``bridge:`` lines and the JSON ``bridge`` object);
none changes a client's verdict.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from ..simulator.messages import SERVER_INFO_KEY

if TYPE_CHECKING:
    from ..simulator.bridges import BridgeSpec
    from ._runner import ProbeReport

__all__ = ["bridge_lines", "bridge_summary"]

#: Server names that say a bridge answers (a word of the name, case ignored).
BRIDGE_NAMES: Final = re.compile(r"\b(supergateway|mcp-proxy|mcp-remote|gateway|proxy|bridge)\b",
                                 re.IGNORECASE)


def _names(report: ProbeReport) -> set[str]:
    """Every server name the real runs were answered with."""
    found: set[str] = set()
    for run in report.runs:
        if not run.real:
            continue
        for entry in run.record.transcript.entries:
            message = entry.message
            result = message.get("result") if entry.dir == "s2c" and isinstance(
                message, dict) else None
            if not isinstance(result, dict):
                continue
            info = result.get("serverInfo")
            meta = result.get("_meta")
            if not isinstance(info, dict) and isinstance(meta, dict):
                info = meta.get(SERVER_INFO_KEY)
            if isinstance(info, dict) and isinstance(info.get("name"), str):
                found.add(info["name"])
    return found


def _served_before_initialize(report: ProbeReport) -> bool:
    """A legacy client whose first request was not ``initialize`` got a result over HTTP."""
    if report.target.transport != "http":
        return False
    for run in report.runs:
        entries = [e for e in run.record.transcript.entries if isinstance(e.message, dict)]
        if not run.real or run.record.client.kind != "legacy" or len(entries) < 2:
            continue
        first, answer = entries[0].message, entries[1].message
        if first.get("method") not in (None, "initialize") and "id" in first \
                and "result" in answer and "_meta" not in (first.get("params") or {}):
            return True
    return False


def bridge_summary(report: ProbeReport, started: BridgeSpec | None = None) -> dict[str, Any] | None:
    """What the probe can tell of a bridge in front: ``{"name", "started", "signs",
    "hides"}``, or None where nothing tells one."""
    signs: list[str] = []
    named = sorted(n for n in _names(report) if BRIDGE_NAMES.search(n))
    if named:
        signs.append(f"the server's name says so ({', '.join(named)})")
    if _served_before_initialize(report):
        signs.append("a request before initialize was served as if initialized (a bridge "
                     "that initializes each server process itself, a child per request)")
    if started is None and not signs:
        return None
    hides = started.hides() if started is not None else [
        "the server's own revisions and era (the bridge's are what the clients met)",
        "the clients' capabilities, if it initializes the server itself"]
    return {"name": started.name if started is not None else None,
            "started": started is not None, "signs": signs, "hides": hides}


def with_bridge(report: ProbeReport, started: BridgeSpec | None = None) -> ProbeReport:
    """The report with what it tells of a bridge in front (:func:`bridge_summary`)."""
    report.bridge = bridge_summary(report, started)
    return report


def bridge_lines(summary: dict[str, Any]) -> list[str]:
    """The card's ``bridge:`` lines."""
    name = summary["name"]
    head = (f"bridge: {name}, started by the probe in front of the server command"
            if summary["started"] else
            "bridge: signs of a bridge in front of the server (inferred from what it answered)")
    out = [head, *(f"  sign: {s}" for s in summary["signs"])]
    # a bridge the probe started hides these; one only inferred from signs may
    hides = "it hides" if summary["started"] else "it may hide"
    out += [f"  {hides}: {h}" for h in summary["hides"]]
    return out

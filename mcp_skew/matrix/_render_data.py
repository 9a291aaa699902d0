"""The matrix for machines: JSON (reads back with ``--from``), CSV and JUnit XML.

- JSON is :meth:`Matrix.to_dict` with a fixed layout (two-space indent, UTF-8,
  key order as built), so reading it back and writing it again gives the same
  bytes.
- CSV has one row per cell: the pair, the outcome, the path, the reason, and
  the step and feature counts; lists are joined (path with `` -> ``, features
  with spaces); the last two columns are the named features each side loses.
- JUnit has one ``testcase`` per cell (``classname`` the client, ``name`` the
  pair) and a ``failure`` for a pair that fails or negotiates but fails a
  scenario step; ``system-out`` holds the wire log, as CI shows it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Final
from xml.etree import ElementTree as ET

from ._build import Matrix, outcome, steps_failed, timeline
from ._cell import Cell

__all__ = ["CSV_COLUMNS", "render_csv", "render_json", "render_junit", "wire_log"]

CSV_COLUMNS: Final = (
    "client", "server", "client_spec", "server_spec", "status", "outcome", "revision", "era",
    "mark", "failure", "path", "reason", "scenario", "round_trips", "t_first_useful_ms",
    "steps_ok", "steps_failed", "features_kept", "features_lost", "client_loses", "server_loses",
)
_ARROWS: Final = {"c2s": "->", "s2c": "<-", "event": ".."}
#: Characters XML 1.0 cannot carry, even escaped (a real peer may print them).
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def render_json(matrix: Matrix) -> str:
    return json.dumps(matrix.to_dict(), indent=2, ensure_ascii=False) + "\n"


def render_csv(matrix: Matrix) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for i, j, cell in matrix.pairs():
        failed = steps_failed(cell)
        writer.writerow([
            matrix.clients[i].label, matrix.servers[j].label,
            matrix.clients[i].notation, matrix.servers[j].notation,
            cell.status, outcome(cell), cell.revision or "", cell.era or "",
            cell.mark, cell.failure or "", " -> ".join(cell.path), cell.reason,
            matrix.scenario if cell.scenario is None else cell.scenario,
            _blank(cell.round_trips), _blank(cell.t_first_useful_ms),
            len(cell.steps) - len(failed), len(failed),
            " ".join(cell.features_kept), " ".join(cell.features_lost),
            " ".join(cell.client_loses), " ".join(cell.server_loses),
        ])
    return out.getvalue()


def _blank(value: Any) -> Any:
    return "" if value is None else value


def wire_log(cell: Cell) -> str:
    """The transcript as ``simulate --trace`` shows it: time, direction, message."""
    items = timeline(cell)
    width = max((len(str(item.t_ms)) for item in items), default=1)
    lines = []
    for item in items:
        t, kind, payload = item.t_ms, item.dir, item.text if item.is_event else item.message
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        lines.append(f"{t:>{width}} ms  {_ARROWS.get(kind, '??')}  {text}")
    return "\n".join(lines)


def _case_text(cell: Cell) -> str:
    lines = ["path: " + " -> ".join(cell.path)]
    if cell.reason:
        lines.append(f"reason: {cell.reason}")
    lines += [f"step {s.name}: {'ok' if s.ok else 'FAIL'} (expected {s.expected}, "
              f"got {s.got})" for s in cell.steps]
    return "\n".join(lines)


def render_junit(matrix: Matrix) -> str:
    """One testsuite, one testcase per pair; failed pairs carry a ``failure``."""
    cases = list(matrix.pairs())
    failing = [c for _, _, c in cases if c.status != "ok" or steps_failed(c)]
    suite = ET.Element("testsuite", {
        "name": f"mcp-skew matrix ({matrix.scenario})", "tests": str(len(cases)),
        "failures": str(len(failing)), "errors": "0", "skipped": "0",
    })
    props = ET.SubElement(suite, "properties")
    for name, value in (("mcp_skew_version", matrix.version), ("scenario", matrix.scenario)):
        ET.SubElement(props, "property", {"name": name, "value": value})
    for i, j, cell in cases:
        client, server = matrix.clients[i], matrix.servers[j]
        case = ET.SubElement(suite, "testcase", {
            "classname": _xml(client.label), "name": _xml(f"{client.label} × {server.label}")})
        broken = steps_failed(cell)
        if cell.status != "ok" or broken:
            message = cell.reason or "scenario step failed: " + ", ".join(
                s.name for s in broken)
            failure = ET.SubElement(case, "failure", {
                "message": _xml(message), "type": cell.failure or "scenario"})
            failure.text = _xml(_case_text(cell))
        out = ET.SubElement(case, "system-out")
        out.text = _xml(f"client: {client.notation}\nserver: {server.notation}\n"
                        f"{_case_text(cell)}\n\n{wire_log(cell)}\n")
    root = ET.Element("testsuites", {"name": "mcp-skew", "tests": str(len(cases)),
                                     "failures": str(len(failing))})
    root.append(suite)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"

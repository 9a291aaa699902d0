"""The report card, rendered: terminal, JSON, Markdown, JUnit XML.

All four read the same :class:`ProbeReport`. JSON is the full record (each
client's entry has the ``mcp-skew simulate --json`` fields plus its outcome and
findings); the others summarise it: one row per client, the findings, the
inferred peer and whether the simulator agrees with the real runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Final
from xml.etree import ElementTree as ET

from tabulate import tabulate

from ..simulator import Finding, PeerSpec

if TYPE_CHECKING:  # read only: the renderers (and FORMATS, for --help) need no runner
    from ._runner import ClientRun, ProbeReport

__all__ = ["FORMATS", "render", "short_name"]


def short_name(spec: PeerSpec) -> str:
    """``dual:2026-07-28..2024-11-05+strict`` for a long revision list."""
    if spec.label or len(spec.revisions) <= 2:
        return spec.name
    quirks = "".join(f"+{n}" + (f"={v}" if v is not None else "") for n, v in spec.quirks)
    return f"{spec.kind}:{spec.revisions[0]}..{spec.revisions[-1]}{quirks}"


def _rows(report: ProbeReport) -> list[list[str]]:
    rows = []
    for r in report.runs:
        s = r.record.session
        rows.append([str(r.index), short_name(r.record.client), r.outcome, s.revision or "-",
                     s.era.value if s.era else "-", " -> ".join(s.path)])
    return rows


def _headline(report: ProbeReport) -> str:
    clients = sum(not r.prober for r in report.runs)
    prober = " + prober" if any(r.prober for r in report.runs) else ""
    return (f"mcp-skew probe: {report.target.describe()}\n"
            f"({report.target.transport}, {clients} clients{prober}, {report.jobs} at a time, "
            f"{report.elapsed_ms / 1000:.1f} s)")


def _agreement(report: ProbeReport) -> str:
    clients = [r for r in report.runs if not r.prober]
    judged = [r for r in clients if r.predicted is not None]
    if not judged:
        return "simulation: no peer inferred, nothing to compare"
    off = [r for r in judged if not r.predicted or not r.predicted["agrees"]]
    line = (f"simulation: against that peer the simulator agrees with {len(judged) - len(off)} "
            f"of {len(judged)} real runs")
    if off:
        line += " (differs: " + ", ".join(short_name(r.record.client) for r in off) + ")"
    return line


def _grouped(report: ProbeReport) -> list[tuple[Finding, list[str]]]:
    """Identical findings of several clients once, with where each was seen (#client msg)."""
    groups: dict[tuple[str, str, str, str], tuple[Finding, list[str]]] = {}
    for r, f in report.findings():
        where = f"#{r.index}" + (f" msg {f.index}" if f.index is not None else "")
        groups.setdefault((f.severity, f.code, f.message, f.cite), (f, []))[1].append(where)
    return list(groups.values())


def _finding_lines(report: ProbeReport) -> list[str]:
    lines = []
    for f, where in _grouped(report):
        lines.append(f"  {f.severity:<7} {f.code:<30} {', '.join(where)}: {f.message}"
                     + (f"  [{f.cite}]" if f.cite else ""))
    return lines


def render_terminal(report: ProbeReport) -> str:
    out = [_headline(report), ""]
    out.append(tabulate(_rows(report), headers=["#", "client", "outcome", "revision", "era",
                                                "path"], tablefmt="plain"))
    failing = [r for r in report.runs if r.record.status != "ok" and r.record.session.reason]
    if failing:
        out += ["", "why:"]
        out += [f"  #{r.index} {short_name(r.record.client)}: {r.record.session.reason}"
                for r in failing]
    lines = _finding_lines(report)
    total = len(report.findings())
    out += ["", f"findings ({total}):" if lines else "findings: none", *lines]
    out += ["", f"server: {report.peer.sentence}", _agreement(report)]
    noisy = [r for r in report.runs if r.stderr.strip()]
    if noisy:
        out.append(f"stderr: the server wrote to stderr in {len(noisy)} of {len(report.runs)} "
                   "runs (kept in the JSON report and beside each --record transcript)")
    out.append(f"schemas: {report.schemas}")
    return "\n".join(out)


def render_json(report: ProbeReport) -> str:
    return json.dumps(report.to_dict(), indent=2, default=str)


def render_markdown(report: ProbeReport) -> str:
    head = _headline(report).replace("\n", " ")
    out = [f"# {head}", ""]
    out.append(tabulate(_rows(report), headers=["#", "client", "outcome", "revision", "era",
                                                "path"], tablefmt="github"))
    rows = [[f.severity, f"`{f.code}`", ", ".join(where), f.message.replace("|", "\\|"), f.cite]
            for f, where in _grouped(report)]
    out += ["", "## Findings", ""]
    out.append(tabulate(rows, headers=["severity", "code", "where", "message", "cite"],
                        tablefmt="github") if rows else "None.")
    out += ["", "## Server", "", report.peer.sentence, "", _agreement(report), ""]
    return "\n".join(out)


def _case(suite: ET.Element, r: ClientRun, target: str) -> None:
    case = ET.SubElement(suite, "testcase", classname=f"mcp-skew.probe.{target}",
                         name=r.name, time=f"{r.elapsed_ms / 1000:.3f}")
    s = r.record.session
    if s.status != "ok":
        failure = ET.SubElement(case, "failure", message=s.reason or r.outcome,
                                type=r.outcome)
        failure.text = " -> ".join(s.path)
    lines = [f"outcome: {r.outcome}", f"revision: {s.revision}", "path: " + " -> ".join(s.path)]
    lines += [f"[{f.severity}] {f.code}: {f.message} ({f.cite})"
              for f in (*s.findings, *r.record.findings)]
    ET.SubElement(case, "system-out").text = "\n".join(lines)
    if r.stderr.strip():
        ET.SubElement(case, "system-err").text = r.stderr[-4000:]


def render_junit(report: ProbeReport) -> str:
    root = ET.Element("testsuites")
    failures = sum(r.record.status != "ok" for r in report.runs)
    suite = ET.SubElement(root, "testsuite", name="mcp-skew probe", tests=str(len(report.runs)),
                          failures=str(failures), errors="0",
                          time=f"{report.elapsed_ms / 1000:.3f}")
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="target", value=report.target.describe())
    ET.SubElement(props, "property", name="peer", value=report.peer.sentence)
    for r in report.runs:
        _case(suite, r, report.target.transport)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")


FORMATS: Final[dict[str, Callable[[ProbeReport], str]]] = {
    "terminal": render_terminal,
    "json": render_json,
    "markdown": render_markdown,
    "junit": render_junit,
}


def render(report: ProbeReport, fmt: str = "terminal") -> str:
    """The report card in one of :data:`FORMATS`."""
    return FORMATS[fmt](report)

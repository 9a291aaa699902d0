"""The report card, rendered: terminal, JSON, Markdown, a CI job summary, HTML, JUnit XML.

All read the same :class:`ProbeReport`. JSON is the full record (each
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

from .._markup import markdown_cell
from ._advice import advise
from ._card import (
    agreement,
    derived_line,
    grouped,
    headline,
    not_checked,
    plural,
    required_lines,
    short_name,
    stderr_tail,
    why_lines,
)

if TYPE_CHECKING:  # read only: the renderers (and FORMATS, for --help) need no runner
    from ._runner import ClientRun, ProbeReport

__all__ = ["FORMATS", "render", "short_name", "stderr_tail"]


def _rows(report: ProbeReport) -> list[list[str]]:
    rows = []
    for r in report.runs:
        s = r.record.session
        name = short_name(r.record.client) + r.mark
        rows.append([str(r.index), name, r.outcome, s.revision or "-",
                     s.era.value if s.era else "-", " -> ".join(s.path)])
    return rows


def _finding_lines(report: ProbeReport) -> list[str]:
    lines = []
    for f, where in grouped(report):
        lines.append(f"  {f.severity:<7} {f.code:<30} {', '.join(where)}: {f.message}"
                     + (f"  [{f.cite}]" if f.cite else ""))
    return lines


def _advice_lines(report: ProbeReport) -> list[str]:
    out: list[str] = []
    for group in advise(report):
        head = group.heading + (f" (failing now: {', '.join(group.failing)})"
                                if group.failing else "")
        out += ["", f"  {head}:"]
        if group.command:
            out.append(f"    the guide: {group.command}"
                       + (f"  ({group.guide})" if group.guide else ""))
        for n, item in enumerate(group.items, 1):
            out.append(f"    {n}. {item.title}: {item.text}")
            if item.now:
                out.append(f"       now: {item.now}")
            if item.links:
                out.append(f"       see: {', '.join(item.links)}")
    return out


def startup_line(report: ProbeReport) -> str | None:
    """The cold start, the server starts, and the clients whose discovery wait it exceeds."""
    st = report.startup
    if not st:
        return None
    cold = st.get("cold_start_ms")
    line = (f"start: cold start {cold} ms (the first answer after a start)" if cold is not None
            else "start: cold start unknown (no server answered)")
    line += f"; {plural(report.starts, 'server start')}"
    tried = [*(["the calibrating start"] if st.get("attempts", 1) > 1 else []),
             *st.get("retried", [])]
    if tried:
        line += " (tried again, still starting: " + ", ".join(tried) + ")"
    slow = st.get("slow_for") or []
    if slow:
        line += ("; longer than the server/discover wait of " + ", ".join(
            f"{s['client']} ({s['probe_timeout_ms']} ms)" for s in slow)
            + ": on a cold start they give up on discovery")
    return line


def risk_line(report: ProbeReport) -> str | None:
    """The named clients the measured cold start (and its spread) endangers, with numbers."""
    st = report.startup
    rows = st.get("at_risk") or []
    if not rows:
        return None
    spread = st.get("spread_ms")
    seen = (f"; {spread[0]}-{spread[1]} ms over the probe's starts" if spread else "")
    gives = [r for r in rows if r["risk"] == "gives up"]
    risky = [r for r in rows if r["risk"] == "at risk"]
    parts = []
    if gives:
        parts.append("give up before it answers: " + ", ".join(
            f"{r['client']} ({r['wait']} {r['wait_ms']} ms)" for r in gives))
    if risky:
        parts.append("at risk on a busier machine (within twice the slowest start): "
                     + ", ".join(f"{r['client']} ({r['wait']} {r['wait_ms']} ms)"
                                 for r in risky))
    return (f"named clients this cold start endangers ({st.get('cold_start_ms')} ms{seen}): "
            + "; ".join(parts))


def render_terminal(report: ProbeReport) -> str:
    out = [headline(report), ""]
    out.append(tabulate(_rows(report), headers=["#", "client", "outcome", "revision", "era",
                                                "path"], tablefmt="plain"))
    why = why_lines(report)
    if why:
        out += ["", "why:", *why]
    lines = _finding_lines(report)
    out += ["", f"findings ({len(lines)}):" if lines else "findings: none", *lines]
    unchecked = not_checked(report)
    if unchecked:
        out += ["", "not checked:", *(f"  {line}" for line in unchecked)]
    if report.extensions is not None:
        out += ["", *report.extensions.lines()]
    if report.auth is not None:
        out += ["", *report.auth.lines()]
    sentence = report.peer.sentence if report.auth is None else (
        f"authorization required (HTTP {report.auth.status}): the clients' outcomes are about "
        "authorization, not eras; probe again with --token TOKEN")
    out += ["", f"server: {sentence}", agreement(report)]
    if report.bridge is not None:
        from ._bridge import bridge_lines  # noqa: PLC0415 - only where a bridge was seen

        out += bridge_lines(report.bridge)
    noisy = [r for r in report.runs if r.stderr.strip()]
    if noisy:
        out.append(f"stderr: the server wrote to stderr in {len(noisy)} of {len(report.runs)} "
                   "runs (kept in the JSON report and beside each --record transcript)")
    out.append(f"schemas: {report.schemas}")
    start = startup_line(report)
    if start:
        out.append(start)
    risk = risk_line(report)
    if risk:
        out.append(risk)
    if report.required:
        out += ["", "required (--require):", *required_lines(report)]
    advice = _advice_lines(report)
    out += ["", "what to change:" if advice else "what to change: nothing the probe saw",
            *advice]
    return "\n".join(out)


def render_json(report: ProbeReport) -> str:
    doc = report.to_dict()
    doc["not_checked"] = not_checked(report)
    doc["advice"] = [a.to_dict() for a in advise(report)]
    return json.dumps(doc, indent=2, default=str)


def _advice_markdown(report: ProbeReport) -> list[str]:
    out: list[str] = []
    for group in advise(report):
        out += ["", f"### {group.heading[:1].upper()}{group.heading[1:]}", ""]
        if group.failing:
            out += [f"Failing now: {', '.join(f'`{c}`' for c in group.failing)}.", ""]
        if group.command:
            out += [f"The guide: `{group.command}`"
                    + (f" (`{group.guide}` in mcp-skew)" if group.guide else "") + ".", ""]
        for n, item in enumerate(group.items, 1):
            links = ", ".join(_md_link(x) for x in item.links)
            out.append(f"{n}. **{item.title}**: {item.text}" + (f" ({links})" if links else ""))
            if item.now:
                out.append(f"   Now: {item.now}.")
    return out


def _md_link(link: str) -> str:
    """A spec page as a link; a page of mcp-skew's own docs as its path (a card is read
    where mcp-skew's repository is not: a CI job summary)."""
    return f"[{_label(link)}]({link})" if link.startswith("https://") else f"`{link}`"


def _label(link: str) -> str:
    if link.startswith("https://github.com/modelcontextprotocol/"):
        _, found, page = link.partition("/specification/")
        return f"spec: {page}" if found else "spec"
    return link


def render_markdown(report: ProbeReport) -> str:
    head = headline(report).replace("\n", " ")
    out = [f"# {head}", ""]
    out.append(tabulate(_rows(report), headers=["#", "client", "outcome", "revision", "era",
                                                "path"], tablefmt="github"))
    why = why_lines(report)
    if why:
        out += ["", "## Why", "", "```text", *[w.strip() for w in why], "```"]
    rows = [[f.severity, f"`{f.code}`", ", ".join(where),
             markdown_cell(f.message, backslash=False, newline=False), f.cite]
            for f, where in grouped(report)]
    out += ["", f"## Findings ({len(rows)})", ""]
    out.append(tabulate(rows, headers=["severity", "code", "where", "message", "cite"],
                        tablefmt="github") if rows else "None.")
    unchecked = not_checked(report)
    if unchecked:
        out += ["", "Not checked:", "", *(f"- {line}" for line in unchecked)]
    out += ["", "## Server", "", report.peer.sentence, "", agreement(report), ""]
    if report.bridge is not None:
        from ._bridge import bridge_lines  # noqa: PLC0415 - only where a bridge was seen

        out += [f"- {line.strip()}" for line in bridge_lines(report.bridge)] + [""]
    if report.required:
        out += ["## Required (`--require`)", "", *(f"- {line.strip()}"
                                                   for line in required_lines(report)), ""]
    advice = _advice_markdown(report)
    out += ["## What to change", *(advice or ["", "Nothing the probe saw."]), ""]
    return "\n".join(out)


def render_summary(report: ProbeReport) -> str:
    """A short Markdown summary for a CI job summary (``$GITHUB_STEP_SUMMARY``)."""
    clients = [r for r in report.runs if not r.prober]
    ok = sum(r.record.status == "ok" for r in clients)
    out = [f"## mcp-skew probe: `{report.target.describe()}`", "",
           f"{ok} of {plural(len(clients), 'client')} work; "
           f"{plural(len(grouped(report)), 'finding')}; server {report.peer.sentence}.", ""]
    if report.required:
        rows = []
        for rev in report.required:
            failures = report.failures((rev,))
            rows.append([rev, "✅ ok" if not failures else "❌ failed",
                         markdown_cell("; ".join(f.partition(": ")[2] for f in failures),
                                       backslash=False, newline=False)])
        out += [tabulate(rows, headers=["required", "verdict", "why"], tablefmt="github"), ""]
    rows = [[str(r.index), f"`{short_name(r.record.client)}`" + r.mark,
             ("✅ " if r.record.status == "ok" else "➖ " if r.outcome == "not-checked" else "❌ ")
             + r.outcome, r.record.revision or "-",
             markdown_cell(r.record.reason, backslash=False, newline=False)
             if r.record.status != "ok" else ""] for r in clients]
    out += [tabulate(rows, headers=["#", "client", "outcome", "revision", "why"],
                     tablefmt="github"), ""]
    advice = _advice_markdown(report)
    if advice:
        out += ["<details><summary>What to change</summary>", *advice, "", "</details>", ""]
    return "\n".join(out)


def _judged(report: ProbeReport) -> set[int] | None:
    """The runs the ``--require`` gate judges (by index); None without ``--require``
    (then every client's failure is a failure)."""
    if not report.required:
        return None
    return {r.index for rev in report.required for r in report.clients_of(rev)}


def _case(suite: ET.Element, r: ClientRun, target: str, judged: set[int] | None) -> None:
    case = ET.SubElement(suite, "testcase", classname=f"mcp-skew.probe.{target}",
                         name=r.name + r.mark,
                         time=f"{r.elapsed_ms / 1000:.3f}")
    s = r.record.session
    if r.outcome == "not-checked":  # never run: no verdict to fail
        ET.SubElement(case, "skipped", message=r.record.reason)
    elif r.record.status != "ok" and (judged is None or r.index in judged):  # connects, then fails, too
        failure = ET.SubElement(case, "failure", message=r.record.reason or r.outcome,
                                type=r.outcome)
        failure.text = " -> ".join(s.path)
    elif r.record.status != "ok":  # what the gate does not judge is reported, not failed
        ET.SubElement(case, "skipped", message=f"not judged by --require: {r.outcome}: "
                      f"{r.record.reason or '-'}")
    lines = [f"outcome: {r.outcome}", f"revision: {s.revision or '-'}",
             "path: " + " -> ".join(s.path)]
    if not r.real and r.outcome != "not-checked":
        lines.append(derived_line(r))
    elif not r.real:
        lines.append(r.record.reason)
    else:
        lines += [f"[{f.severity}] {f.code}: {f.message} ({f.cite})"
                  for f in (*s.findings, *r.record.findings)]
    ET.SubElement(case, "system-out").text = "\n".join(lines)
    if r.stderr.strip():
        ET.SubElement(case, "system-err").text = r.stderr[-4000:]


def _required_suite(root: ET.Element, report: ProbeReport) -> None:
    """One test case per ``--require`` revision: it fails when that revision's client does."""
    failing = [rev for rev in report.required if report.failures((rev,))]
    suite = ET.SubElement(root, "testsuite", name="mcp-skew probe --require",
                          tests=str(len(report.required)), failures=str(len(failing)),
                          errors="0", time="0.000")
    for rev in report.required:
        case = ET.SubElement(suite, "testcase", classname="mcp-skew.probe.require",
                             name=f"serves {rev} clients", time="0.000")
        failures = report.failures((rev,))
        if failures:
            ET.SubElement(case, "failure", message=failures[0],
                          type="required-revision").text = "\n".join(failures)
        ET.SubElement(case, "system-out").text = "clients: " + ", ".join(
            r.name for r in report.clients_of(rev))


def render_junit(report: ProbeReport) -> str:
    root = ET.Element("testsuites")
    judged = _judged(report)
    failing = [r for r in report.runs if r.record.status != "ok"]
    failures = [r for r in failing if judged is None or r.index in judged]
    suite = ET.SubElement(root, "testsuite", name="mcp-skew probe", tests=str(len(report.runs)),
                          failures=str(len(failures)), errors="0",
                          skipped=str(len(failing) - len(failures)),
                          time=f"{report.elapsed_ms / 1000:.3f}")
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="target", value=report.target.describe())
    ET.SubElement(props, "property", name="peer", value=report.peer.sentence)
    for r in report.runs:
        _case(suite, r, report.target.transport, judged)
    if report.required:
        _required_suite(root, report)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")


def _render_html(report: ProbeReport) -> str:
    from ._html import render_html  # noqa: PLC0415 - only for --format html

    return render_html(report)


FORMATS: Final[dict[str, Callable[[ProbeReport], str]]] = {
    "terminal": render_terminal,
    "json": render_json,
    "markdown": render_markdown,
    "summary": render_summary,
    "html": _render_html,
    "junit": render_junit,
}


def render(report: ProbeReport, fmt: str = "terminal") -> str:
    """The report card in one of :data:`FORMATS`."""
    return FORMATS[fmt](report)

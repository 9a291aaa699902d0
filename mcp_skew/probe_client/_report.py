"""The client's report card: text (the card), JSON, JUnit XML, a CI summary, one HTML page.

The card shows the client's own words (with ``{server}`` / ``{url}``, never a temporary
path), a row per server (what the client reached and how, whether that is what the
spec says, whether the inferred model predicts it), the failed rows with the request
they failed on and the client's last output, the inferred model trait by trait, the
findings with their citations and what to change, and the ``--require`` verdicts.
"""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any, Final

from tabulate import tabulate

from .._markup import escape, markdown_cell, page
from ..simulator.findings import Finding
from ._extensions import extension_lines, extensions_dict
from ._findings import Row, fix_for
from ._infer import Traits, strictness_checked
from ._launch import RealClientRun
from ._runner import ClientReport

__all__ = ["FORMATS", "render", "traits_lines"]


def _yes(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "NO")


def _cut(text: str, width: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else "…" + text[-(width - 1):]


def _headline(report: ClientReport) -> list[str]:
    works = sum(r.observed.outcome == "works" for r in report.rows)
    return [f"mcp-skew probe-client: {shlex.join(report.argv)}",
            f"{works} of {len(report.rows)} servers work over {report.transport}; "
            f"{len(report.findings)} findings; the client {report.inferred.sentence}"]


def _table(report: ClientReport) -> list[list[str]]:
    return [[str(r.index), r.server, r.observed.outcome, r.observed.revision or "-",
             _yes(r.as_spec_says), _yes(r.model_agrees), " -> ".join(r.observed.path) or "-"]
            for r in report.rows]


def _why_lines(report: ClientReport) -> list[str]:
    out = []
    for r, run in zip(report.rows, report.runs, strict=True):
        if r.observed.outcome == "works":
            continue
        o = r.observed
        exit_text = "ended at the deadline" if o.timed_out else f"exit {o.exit_code}"
        if o.waiting:
            out.append(f"  {r.index} {r.server}: still waiting for an answer to {o.waiting} "
                       f"after {o.waiting_ms} ms when the run ended at the deadline (--timeout): "
                       "not a hang; its wait is longer")
            continue
        out.append(f"  {r.index} {r.server}: failed on {o.failed_on or o.reason or '-'}; "
                   f"{run.spawn_error or exit_text}")
        if r.spec is not None and r.spec.outcome != o.outcome:
            out.append(f"      the spec's client: {r.spec.outcome}: {' -> '.join(r.spec.path)}")
        theirs, served = _split_words(run.stderr)
        tail = (theirs or run.stdout.strip().splitlines())[-2:]
        if tail:
            out.append(f"      client said: {_cut(' | '.join(tail), 200)}")
        if served:
            out.append("      the simulated server said (on the client's stderr): "
                       f"{_cut(' | '.join(served[-2:]), 200)}")
    return out


#: How every line the simulated server (an ``mcp-skew serve`` command) writes to stderr
#: begins; a client spawning it usually passes its stderr on as its own.
_SERVER_PREFIX = "mcp-skew: "


def _split_words(stderr: str) -> tuple[list[str], list[str]]:
    """The client's stderr lines, and the lines the simulated server it spawned wrote there
    (each attributed to whoever wrote it, never the server's words as the client's)."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    served = [line for line in lines if line.startswith(_SERVER_PREFIX)]
    return [line for line in lines if not line.startswith(_SERVER_PREFIX)], served


def _not_strict(report: ClientReport) -> str:
    """``no`` when the client was seen taking a modern result that lacks a required field
    and going on; ``not checked`` when it never received such a result."""
    return "no" if strictness_checked([r.observed for r in report.rows]) else "not checked"


def traits_lines(report: ClientReport) -> list[str]:
    """The inferred model, one trait a line."""
    inferred = report.inferred
    t: Traits = inferred.traits
    offers = [f"{r} (modern)" for r in t.modern] + [f"{r} (legacy)" for r in t.legacy]
    probe = "-"
    if t.probe_ms is not None:
        probe = f"falls back after about {t.probe_ms} ms"
    elif t.gives_up_ms is not None:
        probe = f"gives up after about {t.gives_up_ms} ms"
    elif t.waits_beyond_ms is not None:
        probe = f"still waiting after {t.waits_beyond_ms} ms when the run ended (not a hang)"
    out = [f"  peer spec: {inferred.notation or '(none)'}",
           f"  offers: {', '.join(offers) or 'nothing mcp-skew knows'}",
           f"  era kind: {inferred.spec.kind if inferred.spec else '-'}"
           + (" (opens with server/discover)" if t.discover_first else ""),
           f"  falls back on: {', '.join(t.falls_back_on) or '-'}; gives up on: "
           f"{', '.join(t.stops_on) or '-'}",
           f"  silent probe: {probe}",
           f"  fresh process for the fallback: {'yes' if t.restarts else 'not seen'}",
           f"  retries -32022: {'yes' if t.retries_32022 else 'not seen'}",
           f"  caches ttlMs: {'no' if t.caches is False else 'not seen'}",
           f"  validates results strictly: {t.strict or _not_strict(report)}"
           + (" (and sends the refused request again)" if t.raw_retry else ""),
           "  an incomplete server/discover result: " + {
               True: "read as a failed probe (strict-discover)", False: "taken as it is",
               None: "not seen"}[t.strict_discover]]
    if t.refused:
        out.append(f"  refused counter-offers: {', '.join(t.refused)}")
    out += [f"  not seen: {u}" for u in inferred.unknown]
    return out


def _finding_lines(findings: list[Finding]) -> list[str]:
    out = []
    for f in findings:
        out.append(f"  [{f.severity}] {f.code} (row {f.index}): {f.message}")
        out.append(f"      spec: {f.cite}")
        fix = fix_for(f.code)
        if fix:
            out.append(f"      change: {fix}")
    return out


def _required_lines(report: ClientReport) -> list[str]:
    return [f"  {rev}: " + (f"reached ({', '.join(report.reached(rev))})" if report.reached(rev)
                            else "NOT reached") for rev in report.required]


def render_text(report: ClientReport) -> str:
    out = [*_headline(report), ""]
    out.append(tabulate(_table(report), headers=["#", "server", "outcome", "revision",
                                                 "as spec", "model", "path"], tablefmt="plain"))
    why = _why_lines(report)
    if why:
        out += ["", "why:", *why]
    out += ["", f"the client: {report.inferred.sentence}", *traits_lines(report)]
    seen = [r.observed.extensions for r in report.rows]
    if any(seen):
        out += ["", "extensions:", *extension_lines(seen, [r.server for r in report.rows])]
    lines = _finding_lines(report.findings)
    out += ["", f"findings ({len(report.findings)}):" if lines else "findings: none", *lines]
    if report.required:
        out += ["", "required (--require):", *_required_lines(report)]
    return "\n".join(out)


def _client_dict(run: RealClientRun) -> dict[str, Any]:
    out: dict[str, Any] = {"exit_code": run.exit_code, "timed_out": run.timed_out,
                           "seconds": run.seconds,
                           "spawn_error": run.spawn_error, "stdout_tail": run.stdout[-4000:],
                           "stderr_tail": run.stderr[-4000:]}
    if run.before is not None:  # an upgrade case: the first run, before the upgrade
        out["before"] = {"server": run.before.server, **_client_dict(run.before)}
    return out


def _row_dict(r: Row, report: ClientReport) -> dict[str, Any]:
    run = report.runs[r.index - 1]
    return {"index": r.index, "server": r.server, "why": r.why, "observed": r.observed.to_dict(),
            "as_spec_says": r.as_spec_says, "model_agrees": r.model_agrees,
            "era_table": r.era_table, "spec": r.spec.to_dict() if r.spec else None,
            "model": r.model.to_dict() if r.model else None, "client": _client_dict(run)}


def to_dict(report: ClientReport) -> dict[str, Any]:
    return {"format": "mcp-skew-probe-client/1", "argv": list(report.argv),
            "transport": report.transport, "inferred": report.inferred.to_dict(),
            "rows": [_row_dict(r, report) for r in report.rows],
            "findings": [{**f.to_dict(), "fix": fix_for(f.code)} for f in report.findings],
            "required": {rev: report.reached(rev) for rev in report.required},
            **({"extensions": extensions_dict([r.observed.extensions for r in report.rows])}
               if any(r.observed.extensions for r in report.rows) else {})}


def render_json(report: ClientReport) -> str:
    return json.dumps(to_dict(report), indent=2)


def render_summary(report: ClientReport) -> str:
    """Markdown for a CI job summary (``$GITHUB_STEP_SUMMARY``)."""
    head = _headline(report)
    out = [f"## mcp-skew probe-client: `{shlex.join(report.argv)}`", "",
           markdown_cell(head[1], backslash=False), ""]
    if report.required:
        rows = [[rev, "✅ reached" if report.reached(rev) else "❌ not reached"]
                for rev in report.required]
        out += [tabulate(rows, headers=["required", "verdict"], tablefmt="github"), ""]
    rows = [[str(r.index), f"`{r.server}`", ("✅ " if r.observed.outcome == "works" else "❌ ")
             + r.observed.outcome, r.observed.revision or "-", _yes(r.as_spec_says),
             markdown_cell(r.observed.failed_on, backslash=False)] for r in report.rows]
    out += [tabulate(rows, headers=["#", "server", "outcome", "revision", "as spec", "failed on"],
                     tablefmt="github"), ""]
    out += [f"Inferred peer: `{report.inferred.notation or '(none)'}`", ""]
    if report.findings:
        out += ["<details><summary>Findings</summary>", ""]
        out += [f"- **{f.code}** ({f.severity}): {markdown_cell(f.message, backslash=False)}; "
                f"{markdown_cell(fix_for(f.code), backslash=False)}" for f in report.findings]
        out += ["", "</details>", ""]
    return "\n".join(out)


def render_junit(report: ClientReport) -> str:
    """A test case per server (it fails when the client does not work with it), and one per
    ``--require`` revision."""
    root = ET.Element("testsuites")
    failing = [r for r in report.rows if r.observed.outcome != "works"]
    suite = ET.SubElement(root, "testsuite", name="mcp-skew probe-client",
                          tests=str(len(report.rows)), failures=str(len(failing)), errors="0")
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="client", value=shlex.join(report.argv))
    ET.SubElement(props, "property", name="peer", value=report.inferred.notation or "")
    for r, run in zip(report.rows, report.runs, strict=True):
        case = ET.SubElement(suite, "testcase", classname="mcp-skew.probe-client",
                             name=r.server, time=f"{run.seconds:.3f}")
        if r.observed.outcome != "works":
            ET.SubElement(case, "failure", message=r.observed.failed_on or r.observed.outcome,
                          type=r.observed.outcome).text = " -> ".join(r.observed.path)
        ET.SubElement(case, "system-out").text = "\n".join(
            [f"outcome: {r.observed.outcome}", f"revision: {r.observed.revision}",
             "path: " + " -> ".join(r.observed.path)]
            + [f"[{f.severity}] {f.code}: {f.message}" for f in report.findings
               if f.index == r.index])
        if run.stderr.strip():
            ET.SubElement(case, "system-err").text = run.stderr[-4000:]
    if report.required:
        req = ET.SubElement(root, "testsuite", name="mcp-skew probe-client --require",
                            tests=str(len(report.required)),
                            failures=str(len(report.required_failures())), errors="0")
        for rev in report.required:
            case = ET.SubElement(req, "testcase", classname="mcp-skew.probe-client.require",
                                 name=f"reaches {rev} servers")
            if not report.reached(rev):
                ET.SubElement(case, "failure", message=f"no server of {rev} was reached",
                              type="required-revision")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")


_STYLE: Final = ("body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; } table { "
                 "border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 3px 8px;"
                 " text-align: left; vertical-align: top; } .works { color: #17672f; } "
                 ".fails { color: #a11a1a; } pre { background: #f5f5f5; padding: 8px; }")


def render_html(report: ClientReport) -> str:
    """The card as one self-contained page: no script, every text escaped."""
    head = _headline(report)
    rows = "".join(
        f"<tr><td>{r.index}</td><td><code>{escape(r.server)}</code></td>"
        f'<td class="{"works" if r.observed.outcome == "works" else "fails"}">'
        f"{escape(r.observed.outcome)}</td><td>{escape(r.observed.revision or '-')}</td>"
        f"<td>{_yes(r.as_spec_says)}</td><td>{_yes(r.model_agrees)}</td>"
        f"<td>{escape(' -> '.join(r.observed.path))}</td></tr>" for r in report.rows)
    findings = "".join(
        f"<li><b>{escape(f.code)}</b> ({escape(f.severity)}): {escape(f.message)}<br>Spec: {escape(f.cite)}"
        f"<br>Change: {escape(fix_for(f.code))}</li>" for f in report.findings)
    parts = [
        f"<h1>{escape(head[0])}</h1><p>{escape(head[1])}</p>",
        "<table><tr><th>#</th><th>server</th><th>outcome</th><th>revision</th><th>as spec</th>"
        f"<th>model</th><th>path</th></tr>{rows}</table>",
        f"<h2>The client</h2><pre>{escape(chr(10).join(traits_lines(report)))}</pre>",
        f"<h2>Findings ({len(report.findings)})</h2>",
        f"<ol>{findings}</ol>" if findings else "<p>None.</p>",
    ]
    if report.required:
        parts.append(f"<h2>Required</h2><pre>{escape(chr(10).join(_required_lines(report)))}</pre>")
    return page(head[0], "\n".join(parts), style=_STYLE)


FORMATS: Final[dict[str, Callable[[ClientReport], str]]] = {
    "text": render_text, "json": render_json, "junit": render_junit,
    "summary": render_summary, "html": render_html,
}


def render(report: ClientReport, fmt: str = "text") -> str:
    return FORMATS[fmt](report)

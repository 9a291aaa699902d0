"""The report card as one self-contained HTML page (``--format html``): no script, no
fetched style, every text escaped; each client's transcript opens under its row."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

from .._markup import escape, page
from ._advice import advise
from ._card import (
    agreement,
    grouped,
    headline,
    required_lines,
    short_name,
    why_lines,
)

if TYPE_CHECKING:
    from ._runner import ClientRun, ProbeReport

__all__ = ["render_html"]

_STYLE: Final = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1b1b1b; }
table { border-collapse: collapse; margin: 1em 0; } td, th { border: 1px solid #ccc;
padding: 3px 8px; text-align: left; vertical-align: top; }
.ok { color: #17672f; } .bad { color: #a11a1a; } pre { background: #f5f5f5; padding: 8px;
overflow-x: auto; } code { background: #f0f0f0; padding: 0 3px; } li { margin: 0.4em 0; }
"""


def _link(url: str) -> str:
    """A spec page as a link; a page of mcp-skew's own docs as its path."""
    if not url.startswith("https://"):
        return f"<code>{escape(url)}</code>"
    return f'<a href="{escape(url)}">{escape(url)}</a>'


def _row(r: ClientRun) -> str:
    s = r.record.session
    cls = "ok" if r.record.status == "ok" else "bad"
    if r.real:
        lines = []
        for entry in r.record.transcript.entries:
            arrow = "->" if entry.dir == "c2s" else "<-"
            lines.append(f"{arrow} {json.dumps(entry.message, default=str)[:600]}")
        transcript = (f"<details><summary>transcript ({len(lines)} messages)</summary>"
                      f"<pre>{escape(chr(10).join(lines))}</pre></details>")
    elif r.outcome == "not-checked":
        transcript = f"<br><i>{escape(r.record.reason)}</i>"
    else:  # the simulator's transcript is not the server's: say where the row comes from
        refs = ", ".join(f'<a href="#run-{i}">#{i}</a>' for i in r.derived_from)
        transcript = ("<br><i>predicted (not run): the simulator's run of this client against "
                      "the inferred peer, resting on what the real runs "
                      f"{refs or 'none'} observed; no request of this client was sent</i>")
    name = short_name(r.record.client) + r.mark
    return (f'<tr id="run-{r.index}"><td>{r.index}</td><td><code>{escape(name)}</code></td>'
            f'<td class="{cls}">{escape(r.outcome)}</td><td>{escape(s.revision or "-")}</td>'
            f"<td>{escape(' -> '.join(s.path))}{transcript}</td></tr>")


def _advice(report: ProbeReport) -> list[str]:
    out = []
    for group in advise(report):
        out.append(f"<h3>{escape(group.heading)}</h3>")
        if group.failing:
            out.append(f"<p>Failing now: {escape(', '.join(group.failing))}</p>")
        if group.command:
            out.append(f"<p>The guide: <code>{escape(group.command)}</code>"
                       + (f" ({_link(group.guide)})" if group.guide else "") + "</p>")
        items = []
        for item in group.items:
            now = f"<br>Now: {escape(item.now)}" if item.now else ""
            links = " ".join(_link(x) for x in item.links)
            items.append(f"<li><b>{escape(item.title)}</b>: {escape(item.text)}{now}"
                         + (f"<br>See: {links}" if links else "") + "</li>")
        out.append("<ol>" + "".join(items) + "</ol>")
    return out or ["<p>Nothing the probe saw.</p>"]


def render_html(report: ProbeReport) -> str:
    head = headline(report)
    rows = "".join(_row(r) for r in report.runs)
    findings = "".join(
        f"<tr><td>{escape(f.severity)}</td><td><code>{escape(f.code)}</code></td>"
        f"<td>{escape(', '.join(where))}</td><td>{escape(f.message)}</td><td>{escape(f.cite)}</td></tr>"
        for f, where in grouped(report))
    why = why_lines(report)
    parts = [
        f"<h1>{escape(head.splitlines()[0])}</h1><p>{escape(head.splitlines()[1])}</p>",
        "<table><tr><th>#</th><th>client</th><th>outcome</th><th>revision</th><th>path</th></tr>",
        rows, "</table>",
    ]
    if why:
        parts.append(f"<h2>Why</h2><pre>{escape(chr(10).join(w.strip() for w in why))}</pre>")
    parts.append(f"<h2>Findings ({len(grouped(report))})</h2>")
    parts.append("<table><tr><th>severity</th><th>code</th><th>where</th><th>message</th>"
                 f"<th>cite</th></tr>{findings}</table>" if findings else "<p>None.</p>")
    parts += [f"<h2>Server</h2><p>{escape(report.peer.sentence)}</p><p>{escape(agreement(report))}</p>"]
    if report.required:
        parts.append("<h2>Required</h2><ul>" + "".join(
            f"<li>{escape(line.strip())}</li>" for line in required_lines(report)) + "</ul>")
    parts += ["<h2>What to change</h2>", *_advice(report)]
    return page(head.splitlines()[0], "\n".join(parts), style=_STYLE)

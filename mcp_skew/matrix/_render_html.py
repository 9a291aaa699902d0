"""The matrix as one self-contained HTML report: an index, then every pair in detail.

Like Autobahn|Testsuite's report: the matrix on top is the index, coloured by
outcome (green works, amber works after a fallback, red fails); each cell links
to its case below, which opens to the path, the reason, the scenario steps, the
features kept and lost, the findings and the transcript as a wire log. CSS and
the few lines of script are inline; nothing is fetched. Every piece of text goes
through :func:`mcp_skew._markup.escape`, because a matrix read back from JSON is input.
"""

from __future__ import annotations

import json
from typing import Final

from .._markup import escape, page
from ._build import Matrix, outcome, steps_failed, timeline
from ._cell import Cell
from ._render_text import (
    FAILURE_MEANINGS,
    LOSSES_HEADING,
    View,
    cell_text,
    features_groups,
    legend_lines,
    losses_groups,
    losses_line,
    revision_context,
    short,
    summary_line,
)

__all__ = ["render_html"]

_VIEWPORT: Final = '<meta name="viewport" content="width=device-width, initial-scale=1">'

_OUTCOME_WORDS: Final = {"works": "works", "fallback": "works after a fallback", "fails": "fails"}
_ARROWS: Final = {"c2s": "→", "s2c": "←", "event": "··"}

_CSS: Final = """
:root { --works:#cdeccd; --works-ink:#1b5e20; --fallback:#fbe9b0; --fallback-ink:#6d4c00;
  --fails:#f6c9c9; --fails-ink:#8e1b1b; --line:#d0d4da; --muted:#5f6670; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 24px 48px;
  color: #1d2125; background: #fff; }
h1 { font-size: 22px; margin: 20px 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
.meta { color: var(--muted); margin: 0 0 8px; }
.summary { margin: 8px 0 12px; }
.count { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; }
.works { background: var(--works); color: var(--works-ink); }
.fallback { background: var(--fallback); color: var(--fallback-ink); }
.fails { background: var(--fails); color: var(--fails-ink); }
.scroll { overflow: auto; width: fit-content; max-width: 100%; max-height: 80vh;
  border: 1px solid var(--line); }
table.matrix { border-collapse: separate; border-spacing: 0; }
table.matrix th, table.matrix td { border-right: 1px solid var(--line);
  border-bottom: 1px solid var(--line); padding: 0; }
table.matrix thead th { position: sticky; top: 0; z-index: 2; background: #f3f5f7;
  font-weight: 600; font-size: 12px; padding: 6px 6px; vertical-align: bottom;
  text-align: center; min-width: 64px; }
table.matrix tbody th { position: sticky; left: 0; z-index: 1; background: #f3f5f7;
  text-align: left; white-space: nowrap; padding: 4px 10px; font-weight: 600; font-size: 13px; }
table.matrix thead th.corner { left: 0; z-index: 3; text-align: left; color: var(--muted); }
table.matrix td a { display: block; padding: 6px 6px; text-align: center; white-space: nowrap;
  color: inherit; text-decoration: none; font: 600 13px/1.2 ui-monospace, Menlo, Consolas,
  monospace; }
table.matrix td a:hover { outline: 2px solid #1d2125; outline-offset: -2px; }
td.broken a::after { content: " !"; }
.legend { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px;
  margin: 12px 0; max-width: 1100px; }
.legend code { font-weight: 600; }
.controls { margin: 8px 0; }
.controls button, .controls label { margin-right: 10px; font-size: 13px; }
details.case { border: 1px solid var(--line); border-left: 6px solid var(--line);
  border-radius: 4px; margin: 6px 0; color: #1d2125; }
details.case.works { border-left-color: #43a047; background: #fff; }
details.case.fallback { border-left-color: #f0b400; background: #fff; }
details.case.fails { border-left-color: #d32f2f; background: #fff; }
details.case > summary { cursor: pointer; padding: 6px 10px; }
details.case > div { padding: 0 14px 12px; }
details.case:target { box-shadow: 0 0 0 3px #6ea8fe; }
.badge { display: inline-block; min-width: 72px; text-align: center; padding: 0 6px;
  border-radius: 4px; font: 600 12px/1.6 ui-monospace, Menlo, Consolas, monospace; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.path span { display: inline-block; background: #eef1f4; border-radius: 3px; padding: 0 5px;
  margin: 1px 0; font: 12px ui-monospace, Menlo, Consolas, monospace; }
table.steps { border-collapse: collapse; margin: 6px 0; }
table.steps td, table.steps th { border: 1px solid var(--line); padding: 2px 8px;
  text-align: left; font-size: 13px; }
.ok { color: var(--works-ink); font-weight: 600; }
.bad { color: var(--fails-ink); font-weight: 600; }
pre.wire { background: #0f1419; color: #d6dde4; padding: 10px 12px; border-radius: 4px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px;
  line-height: 1.5; margin: 8px 0; }
pre.wire .t { color: #7f8b96; }
pre.wire .c2s { color: #8fd18f; }
pre.wire .s2c { color: #7fb8f0; }
pre.wire .event { color: #f0c674; }
body.onlyfail details.case.works, body.onlyfail details.case.fallback { display: none; }
a.top { font-size: 12px; }
"""

_JS: Final = """
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') { el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  function all(open) {
    document.querySelectorAll('details.case').forEach(function (d) { d.open = open; });
  }
  document.getElementById('expand').onclick = function () { all(true); };
  document.getElementById('collapse').onclick = function () { all(false); };
  document.getElementById('onlyfail').onchange = function () {
    document.body.classList.toggle('onlyfail', this.checked);
  };
})();
"""


def _label_html(label: str) -> str:
    return "<br>".join(escape(part) for part in label.split(" "))


def _index(matrix: Matrix, view: View) -> str:
    context = revision_context(matrix)
    head = ['<th class="corner" scope="col">client \\ server</th>']
    head += [f'<th scope="col" title="{escape(a.notation)}">{_label_html(a.label)}</th>'
             for a in matrix.servers]
    rows = []
    for i, (client, row) in enumerate(zip(matrix.clients, matrix.cells, strict=True)):
        tds = []
        for j, cell in enumerate(row):
            kind = outcome(cell)
            broken = " broken" if cell.status == "ok" and steps_failed(cell) else ""
            text = cell_text(cell, view, context).removesuffix(" !")
            tip = f"{client.label} × {matrix.servers[j].label}: {_verdict(cell)}"
            tds.append(f'<td class="{kind}{broken}"><a href="#c-{i}-{j}" title="{escape(tip)}">'
                       f"{escape(text)}</a></td>")
        rows.append(f'<tr><th scope="row" title="{escape(client.notation)}">{escape(client.label)}</th>'
                    + "".join(tds) + "</tr>")
    return ('<div class="scroll"><table class="matrix" id="matrix"><thead><tr>' + "".join(head)
            + "</tr></thead><tbody>" + "\n".join(rows) + "</tbody></table></div>")


def _verdict(cell: Cell) -> str:
    if cell.status != "ok":
        return f"fails: {cell.reason}"
    era = f", {cell.era}" if cell.era else ""
    return f"{cell.revision}{era}, {cell.mark}"


def _legend(matrix: Matrix, view: View) -> str:
    items = "".join(f"<dt><code>{escape(k)}</code></dt><dd>{escape(t)}</dd>"
                    for k, t in legend_lines(matrix, view))
    swatches = " ".join(f'<span class="count {k}">{escape(w)}</span>'
                        for k, w in _OUTCOME_WORDS.items())
    return f'<p>Colours: {swatches}</p><dl class="legend">{items}</dl>'


def _features_lost(matrix: Matrix) -> str:
    groups = features_groups(matrix)
    if not groups:
        return ""
    items = "".join(
        f"<dt><code>{escape(short(matrix, new))} → {escape(short(matrix, got))}</code></dt>"
        f"<dd>{n} pair{'s' * (n != 1)}: {escape(', '.join(lost))}</dd>"
        for new, got, n, lost in groups)
    sides = "".join(f"<dt><code>{escape(k)}</code></dt><dd>{escape(t)}</dd>"
                    for k, t in (losses_line(matrix, g) for g in losses_groups(matrix)))
    by_side = (f"<h2>{escape(LOSSES_HEADING.rstrip(':'))}</h2><dl class=\"legend\">{sides}</dl>"
               if sides else "")
    return ("<h2>Features lost (client's newest revision → negotiated revision)</h2>"
            f'<dl class="legend">{items}</dl>{by_side}')


def _summary(matrix: Matrix) -> str:
    s = matrix.summary()
    counts = (f'<span class="count works">{s.works} work directly</span> '
              f'<span class="count fallback">{s.fallback} work after a fallback</span> '
              f'<span class="count fails">{s.fails} fail</span>')
    return f'<p class="summary">{counts}</p><p>{escape(summary_line(matrix))}</p>'


def _facts(matrix: Matrix, i: int, j: int, cell: Cell) -> str:
    path = " → ".join(f"<span>{escape(step)}</span>" for step in cell.path)
    facts = [
        ("client", f"{escape(matrix.clients[i].label)} <code>{escape(matrix.clients[i].notation)}</code>"),
        ("server", f"{escape(matrix.servers[j].label)} <code>{escape(matrix.servers[j].notation)}</code>"),
        ("outcome", escape(_verdict(cell))),
        ("path", f'<span class="path">{path}</span>'),
    ]
    if cell.failure:
        kind = cell.failure
        facts.append(("why", f"<code>{escape(kind)}</code> {escape(FAILURE_MEANINGS.get(kind, ''))}"))
    if cell.round_trips is not None:
        facts.append(("round trips", escape(cell.round_trips)))
    if cell.t_first_useful_ms is not None:
        facts.append(("first useful result", f"{escape(cell.t_first_useful_ms)} ms (simulated)"))
    if cell.status == "ok":
        kept, lost = cell.features_kept, cell.features_lost
        facts.append(("features kept", f"{len(kept)}: {escape(', '.join(kept)) or '—'}"))
        facts.append(("features lost", f"{len(lost)}: {escape(', '.join(lost)) or '—'}"))
        facts.append(("client loses", escape(", ".join(cell.client_loses)) or "—"))
        facts.append(("server loses", escape(", ".join(cell.server_loses)) or "—"))
    for f in cell.findings:
        facts.append((f"finding ({escape(f.severity)})",
                      f"<code>{escape(f.code)}</code> {escape(f.message)} <small>{escape(f.cite)}</small>"))
    return ('<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
            + "</dl>")


def _steps(cell: Cell) -> str:
    if not cell.steps:
        return ""
    rows = "".join(
        f'<tr><td class="{"ok" if s.ok else "bad"}">{"ok" if s.ok else "FAIL"}</td>'
        f"<td>{escape(s.name)}</td><td>{escape(s.expected)}</td><td>{escape(s.got)}</td></tr>"
        for s in cell.steps)
    return ('<table class="steps"><tr><th></th><th>step</th><th>expected</th><th>got</th></tr>'
            + rows + "</table>")


def _wire(cell: Cell) -> str:
    items = timeline(cell)
    width = max((len(str(item.t_ms)) for item in items), default=1)
    lines = []
    for item in items:
        t, kind, payload = item.t_ms, item.dir, item.text if item.is_event else item.message
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        lines.append(f'<span class="t">{t:>{width}} ms</span> <span class="{escape(kind)}">'
                     f"{_ARROWS.get(kind, '??')}</span> {escape(text)}")
    return '<pre class="wire">' + "\n".join(lines) + "</pre>" if lines else ""


def _case(matrix: Matrix, i: int, j: int, cell: Cell, context: set[str]) -> str:
    kind = outcome(cell)
    badge = cell_text(cell, "pairs", context)
    title = f"{matrix.clients[i].label} × {matrix.servers[j].label}"
    return (f'<details class="case {kind}" id="c-{i}-{j}"><summary>'
            f'<span class="badge {kind}">{escape(badge)}</span> <b>{escape(title)}</b> '
            f"— {escape(_verdict(cell))}</summary><div>{_facts(matrix, i, j, cell)}"
            f"{_steps(cell)}{_wire(cell)}"
            '<a class="top" href="#matrix">back to the matrix</a></div></details>')


def render_html(matrix: Matrix, view: View = "pairs") -> str:
    """One HTML file: the matrix, the legend, and every pair with its transcript."""
    title = "MCP compatibility matrix" + (" (features)" if view == "features" else "")
    context = revision_context(matrix)
    cases = "\n".join(_case(matrix, i, j, cell, context) for i, j, cell in matrix.pairs())
    meta = (f"Rows are clients, columns are servers; click a cell for its transcript. "
            f"Scenario {matrix.scenario} · mcp-skew {matrix.version} · "
            f"{len(matrix.clients)} clients × {len(matrix.servers)} servers")
    body = "\n".join([
        f"<h1>{escape(title)}</h1>", f'<p class="meta">{escape(meta)}</p>',
        _summary(matrix), _index(matrix, view), _legend(matrix, view),
        _features_lost(matrix) if view == "features" else "",
        "<h2>Every pair</h2>",
        '<p class="controls"><button id="expand" type="button">expand all</button>'
        '<button id="collapse" type="button">collapse all</button>'
        '<label><input id="onlyfail" type="checkbox"> only failures</label></p>',
        cases, f"<script>{_JS}</script>",
    ])
    return page(title, body, style=_CSS, head=(_VIEWPORT,))

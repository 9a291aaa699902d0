"""Rollout output: the text timeline, the verdict, the plan, and a self-contained HTML page.

The HTML page has no external assets: its chart is an inline SVG of stacked
bars (ok, retried, fell back, failed per simulated minute), its style inline.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .._markup import escape, page
from ._study import Plan, Study

__all__ = ["clock", "render_html", "render_plan", "render_plan_html", "render_text_head", "render_text_row",
           "render_text_tail"]

_HEAD: Final = (("minute", 6), ("requests", 9), ("ok", 8), ("retried", 8), ("fell back", 10),
                ("failed", 7), ("extra rt", 9), ("cache hit", 10), ("on target", 10))
#: The colours of the chart, by category.
COLOURS: Final = {"ok": "#4c9a2a", "retried": "#e0a800", "fell_back": "#4a7bd0",
                  "failed": "#c0392b"}


def clock(ms: int) -> str:
    """Simulated time as ``m:ss`` (``h:mm:ss`` from an hour)."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _rate(row: dict[str, Any]) -> str:
    rate = row["cache_hit_rate"]
    return "-" if rate is None else f"{rate * 100:.1f}%"


def _causes(causes: dict[str, int]) -> str:
    return ", ".join(f"{name} {count:,}" for name, count in causes.items())


def _on_target(row: dict[str, Any], target: str | None) -> str:
    total = sum(row["fleet"].values())
    return f"{row['fleet'].get(target, 0)}/{total}" if target else f"-/{total}"


def render_text_head(study: Study) -> str:
    s = study.setup
    population = ", ".join(f"{g.spec.name} x{g.count}" for g in s.groups)
    fleet = ", ".join(f"{n} x{c}" for n, c in _counts(p.name for p in s.fleet))
    change = (f" -> {s.to.name}, one instance every {clock(s.every_ms)} from "
              f"{clock(s.start_ms)}" if s.to else " (unchanged)")
    if s.rollback_at_ms is not None:
        change += f", rolled back from {clock(s.rollback_at_ms)}"
    via = f" (each behind {s.via.name})" if s.via is not None else ""
    lines = [f"rollout: {s.clients:,} clients ({population})", f"fleet: {fleet}{change}{via}",
             f"{clock(s.duration_ms)} simulated, {s.rate} requests a minute per client, "
             f"balancer {s.balancer}, seed {s.seed}", ""]
    lines.append("  ".join(f"{name:>{width}}" for name, width in _HEAD) + "  failed by cause")
    return "\n".join(lines) + "\n"


def render_text_row(row: dict[str, Any], target: str | None) -> str:
    cells = (clock(row["minute"] * 60_000), f"{row['requests']:,}", f"{row['ok']:,}",
             f"{row['retried']:,}", f"{row['fell_back']:,}", f"{row['failed']:,}",
             f"{row['extra_round_trips']:,}", _rate(row), _on_target(row, target))
    line = "  ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, _HEAD, strict=True))
    return (line + "  " + _causes(row["failed_by_cause"])).rstrip() + "\n"


def render_text_tail(study: Study) -> str:
    t = study.totals.to_dict()
    causes = f" ({_causes(t['failed_by_cause'])})" if t["failed_by_cause"] else ""
    rate = "-" if t["cache_hit_rate"] is None else f"{t['cache_hit_rate'] * 100:.1f}%"
    lines = ["", f"totals: {t['requests']:,} requests: {t['ok']:,} ok, {t['retried']:,} retried, "
             f"{t['fell_back']:,} fell back, {t['failed']:,} failed{causes}; "
             f"{t['extra_round_trips']:,} extra round trips; cache hit rate {rate}"]
    lines += ["", *_verdict_lines(study)]
    return "\n".join(lines) + "\n"


def _verdict_lines(study: Study) -> list[str]:
    v = study.verdict()
    lines: list[str] = []
    if v["dropped"]:
        lines.append(f"dropping {', '.join(v['dropped'])} from the fleet:")
    if v["ok"]:
        lines.append("verdict: no client loses service; every request was answered")
        return lines
    lose, already = v["lose_service"], v["already_failing"]
    if lose:
        many = len(lose) != 1
        lines.append(f"verdict: {len(lose)} client spec{'s' if many else ''} "
                     f"lose{'' if many else 's'} service because of the change:")
        lines += [_breakage_line(b) for b in lose]
    else:
        lines.append("verdict: the change breaks no client that worked before it")
    if already:
        lines.append("failing before the change as well:")
        lines += [_breakage_line(b) for b in already]
    return lines


def _spans(minutes: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive minutes: ``[0, 1, 2, 5]`` -> ``[(0, 2), (5, 5)]``."""
    spans: list[tuple[int, int]] = []
    for m in minutes:
        if spans and spans[-1][1] == m - 1:
            spans[-1] = (spans[-1][0], m)
        else:
            spans.append((m, m))
    return spans


def _breakage_line(b: dict[str, Any]) -> str:
    spans = _spans(b["minutes"])
    when = f"from {clock(b['first_ms'])}"
    if len(spans) > 1:  # it was served in between: say when it failed
        when = "in minutes " + ", ".join(
            clock(a * 60_000) if a == z else f"{clock(a * 60_000)}-{clock(z * 60_000)}"
            for a, z in spans) + ", " + when
    when += " to the end" if b["until_the_end"] else f" to {clock(b['last_ms'])}, then served"
    return (f"  {b['client']} ({b['clients']:,} client{'s' if b['clients'] != 1 else ''}): "
            f"{b['failed']:,} requests failed {when} ({_causes(b['causes'])})")


def _counts(names: Iterable[str]) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for name in names:
        out[name] = out.get(name, 0) + 1
    return list(out.items())


def render_plan(result: Plan, fleet: str, to: str) -> str:
    lines = [f"plan: fleet {fleet} -> {to}; clients -> {result.clients_to.name}",
             f"each order runs {clock(result.duration_ms)} simulated", "",
             f"{'order':<30}  {'requests':>9}  {'ok':>8}  {'retried':>8}  {'fell back':>9}  "
             f"{'failed':>7}  {'extra rt':>8}"]
    for name, t, _ in result.orders:
        lines.append(f"{name:<30}  {t.requests:>9,}  {t.ok:>8,}  {t.retried:>8,}  "
                     f"{t.fell_back:>9,}  {t.failed:>7,}  {t.extra_round_trips:>8,}")
    lines.append("")
    for name, _, broken in result.orders:
        for b in broken.values():
            lines.append(f"{name}: {b.spec} ({len(b.clients):,} clients) fails from "
                         f"{clock(b.first_ms)} ({_causes(dict(sorted(b.causes.items())))})")
    best = result.recommended
    lines.append(f"recommended: {best} (no request fails)" if best is not None
                 else "recommended: none; every order fails some requests (see above)")
    return "\n".join(lines) + "\n"


# -- HTML ----------------------------------------------------------------------------------
_STYLE: Final = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
                 "table{border-collapse:collapse;font-size:13px}"
                 "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
                 "th{background:#f4f4f4}td.l,th.l{text-align:left}"
                 ".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}")


def _chart(rows: list[dict[str, Any]]) -> str:
    """The timeline as stacked bars, one per minute, scaled to the busiest minute."""
    width, height, pad = 720, 240, 30
    peak = max((r["requests"] for r in rows), default=0) or 1
    bar = (width - pad) / max(len(rows), 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 20}" '
             f'role="img" aria-label="requests per simulated minute by outcome">']
    for i, row in enumerate(rows):
        y = float(height)
        for name, colour in COLOURS.items():
            h = row[name] / peak * (height - 10)
            if h > 0:
                y -= h
                parts.append(f'<rect x="{pad + i * bar:.1f}" y="{y:.1f}" width="{bar * 0.9:.1f}" '
                             f'height="{h:.1f}" fill="{colour}"><title>{clock(row["minute"] * 60_000)}'
                             f' {name.replace("_", " ")}: {row[name]:,}</title></rect>')
        if len(rows) <= 30 or i % (len(rows) // 30 + 1) == 0:
            parts.append(f'<text x="{pad + i * bar:.1f}" y="{height + 14}" font-size="10">'
                         f'{row["minute"]}</text>')
    parts.append(f'<text x="0" y="12" font-size="10">{peak:,}</text></svg>')
    return "".join(parts)


def render_html(study: Study, text: str) -> str:
    """A self-contained page: the chart, the timeline table, the totals and the verdict."""
    rows = study.minutes
    target = study.setup.to.name if study.setup.to else None
    head = "".join(f"<th>{escape(name)}</th>" for name, _ in _HEAD)
    body = []
    for row in rows:
        cells = (clock(row["minute"] * 60_000), f"{row['requests']:,}", f"{row['ok']:,}",
                 f"{row['retried']:,}", f"{row['fell_back']:,}", f"{row['failed']:,}",
                 f"{row['extra_round_trips']:,}", _rate(row), _on_target(row, target))
        body.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells)
                    + f"<td class=l>{escape(_causes(row['failed_by_cause']))}</td></tr>")
    key = "".join(f'<span style="background:{c}"></span>{escape(n.replace("_", " "))}'
                  for n, c in COLOURS.items())
    return page("mcp-skew rollout", "<h1>mcp-skew rollout</h1>"
                f"<div class=key>{key}</div>{_chart(rows)}"
                f"<table><tr>{head}<th class=l>failed by cause</th></tr>{''.join(body)}</table>"
                f"<pre>{escape(text)}</pre>", style=_STYLE)


def render_plan_html(text: str) -> str:
    """``--plan --format html``: the plan's text in a self-contained page."""
    return page("mcp-skew rollout --plan",
                f"<h1>mcp-skew rollout --plan</h1><pre>{escape(text)}</pre>", style=_STYLE)

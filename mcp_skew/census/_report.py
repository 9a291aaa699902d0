"""The census report: how ready the listed servers are for each kind of client.

:func:`build_report` reads the rows of a census database into one JSON-able
value; :func:`render_report` writes it as Markdown, HTML or JSON. Nothing in it
depends on when or where the census ran (no timestamps, rows in key order), so
the same database gives the same report byte for byte.

Client kinds are the probe's built-in clients (``mcp_skew.probe.builtin_clients``):
a *modern-only* client speaks 2026-07-28 alone; a *dual-era* client tries
``server/discover`` and falls back to ``initialize`` (its fallback cost is the time
from its first request to that ``initialize``); each *legacy* client speaks one
revision of the ``initialize`` era (2024-11-05 to 2025-11-25).
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from statistics import median
from typing import Any, Final

__all__ = ["REPORT_FORMAT", "REPORT_FORMATS", "build_report", "render_report", "sdk_label"]

REPORT_FORMAT: Final = "mcp-skew-census-report/1"
REPORT_FORMATS: Final = ("markdown", "html", "json")
_EXAMPLES: Final = 3
_CAUSES: Final = 10


def sdk_label(row: dict[str, Any]) -> str:
    """The SDK behind a server: from its installed dependencies, else its ``serverInfo``."""
    deps = row.get("dependencies") or {}
    for package, label in (("@modelcontextprotocol/sdk", "ts-sdk"), ("fastmcp", "fastmcp"),
                           ("mcp", "py-mcp")):
        if package in deps:
            return f"{label} {deps[package]}"
    info = row.get("server_info")
    if info and info.get("name"):
        return f"serverInfo {info['name']}"
    return "unknown"


def _cause(row: dict[str, Any]) -> str | None:
    if row["status"] == "probed":
        ready = row.get("readiness") or {}
        reason = ready.get("modern_reason")
        return f"modern-only client fails: {reason}" if ready.get("modern") is False else None
    first = (row.get("error") or "no detail").strip().splitlines()[0]
    return f"{row['status']}: {first[:160]}"


def _readiness(probed: list[dict[str, Any]]) -> dict[str, Any]:
    ready = [r.get("readiness") or {} for r in probed]
    costs = sorted(r["dual_fallback_ms"] for r in ready if r.get("dual_fallback_ms") is not None)
    revisions = sorted({rev for r in ready for rev in r.get("legacy", {})})
    return {
        "probed": len(probed),
        "modern": sum(bool(r.get("modern")) for r in ready),
        "dual": sum(bool(r.get("dual")) for r in ready),
        "dual_fallback": sum(bool(r.get("dual")) and r.get("dual_mark") == "era-fallback"
                             for r in ready),
        "dual_fallback_ms": {"median": int(median(costs)), "max": costs[-1]} if costs else None,
        "legacy_any": sum(bool(r.get("legacy_any")) for r in ready),
        "legacy": {rev: sum(bool(r.get("legacy", {}).get(rev)) for r in ready)
                   for rev in revisions},
    }


def _by_sdk(probed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in probed:
        groups[sdk_label(row)].append(row)
    out = []
    for sdk in sorted(groups):
        r = _readiness(groups[sdk])
        out.append({"sdk": sdk, "servers": r["probed"], "modern": r["modern"], "dual": r["dual"],
                    "dual_fallback": r["dual_fallback"], "legacy_any": r["legacy_any"],
                    "peers": dict(sorted(Counter(x["peer"] or "-" for x in groups[sdk]).items()))})
    return out


def _failures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    examples: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        cause = _cause(row)
        if cause is not None:
            examples[cause].append(f"{row['server']}@{row['version']}")
    ranked = sorted(examples.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:_CAUSES]
    return [{"cause": c, "count": len(e), "examples": e[:_EXAMPLES]} for c, e in ranked]


def _card(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("key", "server", "version", "kind", "registry_type", "identifier",
            "package_version", "status", "error", "peer", "sentence", "readiness",
            "install_s", "install_cached", "start_ms", "probe_ms")
    return {**{k: row.get(k) for k in keys}, "sdk": sdk_label(row)}


def _authorization(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Of the protected servers (needs-auth): per client revision, how many a client of that
    revision finds the authorization server of (the probe's discovery, in its report)."""
    protected = [r for r in rows if r["status"] == "needs-auth"]
    found: Counter[str] = Counter()
    for row in protected:
        try:
            auth = json.loads(row.get("report") or "{}").get("auth") or {}
        except ValueError:
            continue
        for entry in auth.get("revisions", []):
            found[entry["revision"]] += bool(entry.get("found"))
    return {"protected": len(protected), "found_by_revision": dict(sorted(found.items()))}


def build_report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The report of a census's rows (as :meth:`CensusDB.rows` gives them)."""
    rows = sorted(rows, key=lambda r: r["key"])
    probed = [r for r in rows if r["status"] == "probed"]
    return {"format": REPORT_FORMAT, "entries": len(rows),
            "servers": len({(r["server"], r["version"]) for r in rows}),
            "statuses": dict(sorted(Counter(r["status"] for r in rows).items())),
            "readiness": _readiness(probed), "by_sdk": _by_sdk(probed),
            "authorization": _authorization(rows),
            "failures": _failures(rows), "cards": [_card(r) for r in rows]}


# -- rendering ---------------------------------------------------------------------------------
def _of(count: int, total: int) -> str:
    return f"{count} of {total}" + (f" ({100 * count // total}%)" if total else "")


def _summary_lines(rep: dict[str, Any]) -> list[str]:
    r = rep["readiness"]
    n = r["probed"]
    cost = r["dual_fallback_ms"]
    lines = [f"{rep['entries']} entries from {rep['servers']} servers"
             + "".join(f"{', ' if i else ': '}{v} {k}" for i, (k, v)
                       in enumerate(rep["statuses"].items())) + ".", "",
             f"Of the {n} servers probed:", "",
             f"- a modern-only client (2026-07-28) reaches {_of(r['modern'], n)};",
             f"- a dual-era client reaches {_of(r['dual'], n)}, {r['dual_fallback']} of them "
             "after falling back to initialize"
             + (f" (median {cost['median']} ms before the fallback, at most {cost['max']} ms)"
                if cost else "") + ";",
             f"- a legacy client offering every legacy revision reaches {_of(r['legacy_any'], n)};"]
    lines += [f"- a legacy {rev} client reaches {_of(k, n)};" for rev, k in r["legacy"].items()]
    auth = rep.get("authorization") or {}
    if auth.get("protected"):
        total = auth["protected"]
        lines += ["", f"Of the {total} protected servers (needs-auth):", ""]
        lines += [f"- a {rev} client finds the authorization server of {_of(k, total)};"
                  for rev, k in auth["found_by_revision"].items()]
    return lines


def _ready_text(ready: dict[str, Any] | None) -> str:
    if not ready:
        return "-"
    legacy = ",".join(rev for rev, ok in ready.get("legacy", {}).items() if ok) or "none"
    dual = ("yes" if ready.get("dual") else "no") + (
        f" (fallback {ready['dual_fallback_ms']} ms)" if ready.get("dual_fallback_ms") is not None
        else "")
    return (f"modern {'yes' if ready.get('modern') else 'no'}; dual {dual}; "
            f"legacy {legacy}")


def _markdown(rep: dict[str, Any]) -> str:
    out = ["# MCP census", "", *_summary_lines(rep), "", "## By SDK", "",
           "| SDK | servers | modern-only | dual-era (fallback) | legacy (all revisions) |",
           "|---|---|---|---|---|"]
    out += [f"| {s['sdk']} | {s['servers']} | {s['modern']} | {s['dual']} ({s['dual_fallback']}) "
            f"| {s['legacy_any']} |" for s in rep["by_sdk"]]
    out += ["", "## Top failure causes", ""]
    out += [f"{i}. {f['cause']} ({f['count']}): {', '.join(f['examples'])}"
            for i, f in enumerate(rep["failures"], 1)] or ["None."]
    out += ["", "## Servers", ""]
    for c in rep["cards"]:
        out += [f"### {c['server']} {c['version']} ({c['kind']} {c['registry_type']} "
                f"{c['identifier']}{'@' + c['package_version'] if c['package_version'] else ''})",
                "", f"- status: {c['status']}" + (f": {c['error'].splitlines()[0]}"
                                                  if c["error"] else "")]
        if c["status"] == "probed":
            out += [f"- inferred peer `{c['peer']}`: {c['sentence']}", f"- SDK: {c['sdk']}",
                    f"- clients: {_ready_text(c['readiness'])}",
                    f"- cost: install {c['install_s']} s ({'cached' if c['install_cached'] else 'cold'}), "
                    f"cold start {c['start_ms']} ms, probe {c['probe_ms']} ms"]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _html(rep: dict[str, Any]) -> str:
    e = html.escape
    body = ["<h1>MCP census</h1>", "<ul>" + "".join(
        f"<li>{e(line.lstrip('- '))}</li>" for line in _summary_lines(rep) if line) + "</ul>",
        "<h2>By SDK</h2><table><tr><th>SDK</th><th>servers</th><th>modern-only</th>"
        "<th>dual-era (fallback)</th><th>legacy (all revisions)</th></tr>"]
    body += [f"<tr><td>{e(s['sdk'])}</td><td>{s['servers']}</td><td>{s['modern']}</td>"
             f"<td>{s['dual']} ({s['dual_fallback']})</td><td>{s['legacy_any']}</td></tr>"
             for s in rep["by_sdk"]]
    body += ["</table><h2>Top failure causes</h2><ol>"]
    body += [f"<li>{e(f['cause'])} ({f['count']}): {e(', '.join(f['examples']))}</li>"
             for f in rep["failures"]]
    body += ["</ol><h2>Servers</h2>"]
    for c in rep["cards"]:
        detail = (f"inferred peer <code>{e(c['peer'] or '-')}</code>: {e(c['sentence'] or '')}"
                  f"<br>SDK: {e(c['sdk'])}<br>clients: {e(_ready_text(c['readiness']))}"
                  if c["status"] == "probed" else e((c["error"] or "").splitlines()[0]
                                                    if c["error"] else ""))
        body.append(f"<details><summary>{e(c['server'])} {e(c['version'])} "
                    f"({e(c['kind'])} {e(str(c['identifier']))}): <b>{e(c['status'])}</b>"
                    f"</summary><p>{detail}</p></details>")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>MCP census</title>"
            "</head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def render_report(rep: dict[str, Any], fmt: str) -> str:
    """The report as ``markdown``, ``html`` or ``json``."""
    if fmt == "json":
        return json.dumps(rep, indent=2, sort_keys=True) + "\n"
    return _html(rep) if fmt == "html" else _markdown(rep)

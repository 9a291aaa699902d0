"""The census report: how ready the listed servers are for each kind of client.

:func:`build_report` reads the rows of a census database into one JSON-able
value; :func:`render_report` writes it as Markdown, HTML or JSON. Nothing in it
depends on when or where the census ran (no timestamps, rows in key order), so
the same database gives the same report byte for byte. Every text from outside (a
registry name, a package's identifier or dependency version, a server's ``serverInfo``
name, an error line) goes into the Markdown through :func:`mcp_skew._markup.markdown_cell`
(a ``|`` cannot split a table's cell, a line break cannot end a row, a heading or an
item), and into the HTML through :func:`mcp_skew._markup.escape`.

Client kinds are the probe's built-in clients (``mcp_skew.peers.probe_clients``):
a *modern-only* client speaks 2026-07-28 alone; a *dual-era* client tries
``server/discover`` and falls back to ``initialize`` (its fallback cost is the time
from its first request to that ``initialize``); each *legacy* client speaks one
revision of the ``initialize`` era (2024-11-05 to 2025-11-25).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from statistics import median
from typing import Any, Final

from .._markup import escape, markdown_cell, page
from ..peers import probe_clients

__all__ = ["REPORT_FORMAT", "REPORT_FORMATS", "build_report", "render_report", "sdk_label"]

REPORT_FORMAT: Final = "mcp-skew-census-report/1"
REPORT_FORMATS: Final = ("markdown", "html", "json", "text")
#: Rows of servers that were installed and run: the denominators of every readiness figure
#: (a server that crashes for every client counts, as not reached).
INSTALLED: Final = ("probed", "start-failed", "start-timeout")
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


def _first_line(text: str | None) -> str:
    lines = [line.strip() for line in (text or "").strip().splitlines() if line.strip()]
    return lines[0][:160] if lines else "no detail"


def _exception_line(text: str | None) -> str | None:
    """The exception a traceback ends with (``ModuleNotFoundError: No module named 'x'``)."""
    for part in reversed((text or "").replace(" | ", "\n").splitlines()):
        head = part.strip().split(":", 1)[0]
        if head.endswith(("Error", "Exception")) and " " not in head:
            return part.strip()[:160]
    return None


#: a package (or version) the registry does not have, in pip's, uv's and npm's words
_MISSING: Final = ("no such package", "not found", "no matching distribution", "404",
                   "no local package", "could not find a version", "e404",
                   "there is no version of")
#: a package whose releases all need another Python, in pip's ("Ignored the following
#: versions that require a different python version") and uv's ("the current Python
#: version (3.11.7) does not satisfy Python>=3.13") words: checked before _MISSING, as pip
#: also says it "could not find a version"
_PYTHON: Final = ("require a different python version", "current python version")
_NETWORK: Final = ("unreachable", "could not resolve", "name resolution", "enotfound",
                   "connection", "timed out", "timeout", "network", "eai_again")


#: the first line of a Python install's failure (``realpeers/_envs.py``): the installer that
#: ran, what it installed and how it ended ("uv install mcp-x==1.2: exit code 1")
_INSTALLER_LINE: Final = re.compile(r"(?:uv|pip) install (?P<what>.+?)(?P<end>: exit code -?\d+)?")
#: the Python a pinned release needs, in uv's words ("mcp-x==1.2 depends on Python>=3.13")
_UV_NEEDS: Final = re.compile(r"depends on Python\s*(?P<spec>[<>=!~][^\s,]*(?:,\s*[<>=!~][^\s,]*)*)")


def _install_cause(error: str | None, kind: str) -> str:
    """What an install failure says in a row's cause, in words that do not depend on the
    installer that ran: the same failure is the same cause (and counts once in the report's
    failures) whether uv or pip filled the venv. Which installer it was, its exit code and
    its own output stay in the row's ``error`` (the report's detail of the row)."""
    line = _first_line(error)
    found = _INSTALLER_LINE.fullmatch(line)
    if found is None:  # npm's words (one installer whatever is chosen), or another failure
        return line
    what = found["what"]
    cause = f"install {what} failed" if found["end"] else f"install {what}"
    needs = _needs_python(error or "", what) if kind == "needs another Python" else None
    return f"{cause}: needs Python {needs}" if needs else cause


def _needs_python(error: str, what: str) -> str | None:
    """The Python the pinned release ``what`` (``name==version``) needs, as uv ("depends on
    Python>=3.13") or pip ("1.2.2 Requires-Python >=3.13") says it; None when neither does."""
    found = _UV_NEEDS.search(error)
    if found is not None:
        return found["spec"].replace(" ", "")
    _name, pinned, version = what.partition("==")
    if pinned and version and " " not in version:
        found = re.search(rf"(?<![\w.]){re.escape(version)} Requires-Python (?P<spec>[^;\n]+)",
                          error)
        if found is not None:
            return found["spec"].strip().replace(" ", "")
    return None


def _kind_and_cause(row: dict[str, Any]) -> tuple[str, str] | None:
    """The kind of a row's failure and its cause, or None when it has none."""
    status, error = row["status"], row.get("error")
    low = (error or "").lower()
    if status == "probed":
        ready = row.get("readiness") or {}
        reason = ready.get("modern_reason")
        return ("protocol", f"modern-only client fails: {reason}") if ready.get("modern") \
            is False else None
    if status == "install-failed":
        kind = "needs another Python" if any(m in low for m in _PYTHON) else \
            "missing package" if any(m in low for m in _MISSING) else \
            "registry unreachable" if any(m in low for m in _NETWORK) else "install failed"
        return kind, f"{status}: {_install_cause(error, kind)}"
    if status == "start-timeout":
        return "timeout", f"{status}: {_first_line(error)}"
    if status == "start-failed":
        exc = _exception_line(error)
        if exc is not None:
            return "crash at import", f"start-failed: {exc}"
        return "crash at start", f"{status}: {_first_line(error)}"
    if status == "skipped":
        return None
    kind = {"needs-config": "needs configuration", "unsupported": "unsupported",
            "error": "census error"}.get(status, status)
    return kind, f"{status}: {_first_line(error)}"


def _cause(row: dict[str, Any]) -> str | None:
    found = _kind_and_cause(row)
    return None if found is None else found[1]


def _readiness(installed: list[dict[str, Any]]) -> dict[str, Any]:
    """Client reach over every installed server (one that did not start is not reached)."""
    probed = [r for r in installed if r["status"] == "probed"]
    ready = [r.get("readiness") or {} for r in probed]
    costs = sorted(r["dual_fallback_ms"] for r in ready if r.get("dual_fallback_ms") is not None)
    revisions = sorted({rev for r in ready for rev in r.get("legacy", {})})
    return {
        "installed": len(installed),
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


def _by_sdk(installed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in installed:
        groups[sdk_label(row)].append(row)
    out = []
    for sdk in sorted(groups):
        r = _readiness(groups[sdk])
        out.append({"sdk": sdk, "servers": r["installed"], "started": r["probed"],
                    "modern": r["modern"], "dual": r["dual"],
                    "dual_fallback": r["dual_fallback"], "legacy_any": r["legacy_any"],
                    "peers": dict(sorted(Counter(x["peer"] or "-" for x in groups[sdk]
                                                 if x["status"] == "probed").items()))})
    return out


def _failure_kinds(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Failures grouped by kind (missing package, registry unreachable, crash at import,
    timeout, protocol, ...), with counts, most frequent first."""
    kinds: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        found = _kind_and_cause(row)
        if found is not None:
            kinds[found[0]].append(found[1])
    ranked = sorted(kinds.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return [{"kind": k, "count": len(c), "causes": dict(sorted(Counter(c).items()))}
            for k, c in ranked]


def _client_kinds() -> dict[str, list[str]]:
    """The revisions each kind of client offers (the probe's built-in clients)."""
    out: dict[str, list[str]] = {}
    for spec in probe_clients():
        if spec.quirks:
            continue
        name = {"modern": "modern-only", "dual": "dual-era"}.get(spec.kind)
        if name is None:
            name = f"legacy {spec.revisions[0]}" if len(spec.revisions) == 1 else \
                "legacy (every revision)"
        out[name] = list(spec.revisions)
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
    installed = [r for r in rows if r["status"] in INSTALLED]
    return {"format": REPORT_FORMAT, "entries": len(rows),
            "servers": len({(r["server"], r["version"]) for r in rows}),
            "statuses": dict(sorted(Counter(r["status"] for r in rows).items())),
            "clients": _client_kinds(),
            "readiness": _readiness(installed), "by_sdk": _by_sdk(installed),
            "failure_kinds": _failure_kinds(rows), "authorization": _authorization(rows),
            "failures": _failures(rows), "cards": [_card(r) for r in rows]}


# -- rendering ---------------------------------------------------------------------------------
def _of(count: int, total: int) -> str:
    return f"{count} of {total}" + (f" ({100 * count // total}%)" if total else "")


def _summary_lines(rep: dict[str, Any]) -> list[str]:
    r = rep["readiness"]
    n = r["installed"]
    cost = r["dual_fallback_ms"]
    lines = [f"{rep['entries']} entries from {rep['servers']} servers"
             + "".join(f"{', ' if i else ': '}{v} {k}" for i, (k, v)
                       in enumerate(rep["statuses"].items())) + ".", "",
             f"Of the {n} servers installed and run ({r['probed']} of them started):", "",
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


def _v(value: Any, unit: str = "") -> str:
    """A value for a person: ``-`` for one that is missing (never ``None``)."""
    return "-" if value is None or value == "" else f"{value}{unit}"


def _clients_lines(rep: dict[str, Any]) -> list[str]:
    return [f"- {kind}: {', '.join(revs)}" for kind, revs in rep["clients"].items()]


def _kind_lines(rep: dict[str, Any], cell: Callable[[str], str] = str) -> list[str]:
    out = []
    for n, k in enumerate(rep["failure_kinds"], 1):
        out.append(f"{n}. {k['kind']}: {k['count']}")
        out += [f"   - {cell(cause)} ({count})" for cause, count in k["causes"].items()]
    return out or ["None."]


def _card_lines(c: dict[str, Any]) -> list[str]:
    md = markdown_cell
    where = (f"{c['kind']} {md(_v(c['registry_type']))} {md(_v(c['identifier']))}"
             + (f"@{md(c['package_version'])}" if c["package_version"] else ""))
    out = [f"### {md(c['server'])} {md(c['version'])} ({where})", "",
           f"- status: {c['status']}" + (f": {md(c['error'].splitlines()[0])}" if c["error"]
                                         else "")]
    if c["status"] == "probed":
        cached = "cached" if c["install_cached"] else "cold"
        out += [f"- inferred peer `{_v(c['peer'])}`: {_v(c['sentence'])}",
                f"- SDK: {md(c['sdk'])}",
                f"- clients: {_ready_text(c['readiness'])}",
                f"- cost: install {_v(c['install_s'], ' s')} ({cached}), "
                f"cold start {_v(c['start_ms'], ' ms')}, probe {_v(c['probe_ms'], ' ms')}"]
    return [*out, ""]


def _markdown(rep: dict[str, Any]) -> str:
    out = ["# MCP census", "", *_summary_lines(rep), "", "## What each client offers", "",
           *_clients_lines(rep), "", "## By SDK", "",
           "| SDK | servers (started) | modern-only | dual-era (fallback) | "
           "legacy (all revisions) |", "|---|---|---|---|---|"]
    out += [f"| {markdown_cell(s['sdk'])} | {s['servers']} ({s['started']}) | {s['modern']} | "
            f"{s['dual']} ({s['dual_fallback']}) | {s['legacy_any']} |" for s in rep["by_sdk"]]
    out += ["", "## Failures by kind", "", *_kind_lines(rep, markdown_cell)]
    out += ["", "## Top failure causes", ""]
    out += [f"{i}. {markdown_cell(f['cause'])} ({f['count']}): "
            f"{', '.join(map(markdown_cell, f['examples']))}"
            for i, f in enumerate(rep["failures"], 1)] or ["None."]
    out += ["", "## Servers", ""]
    for c in rep["cards"]:
        out += _card_lines(c)
    return "\n".join(out).rstrip() + "\n"


def _text(rep: dict[str, Any]) -> str:
    """Plain text for a terminal: the summary, the clients, by SDK, failures by kind."""
    out = ["MCP census", "", *(line.removeprefix("- ") for line in _summary_lines(rep)), "",
           "what each client offers:", *(f"  {line[2:]}" for line in _clients_lines(rep)), "",
           "by SDK (servers, started, modern-only, dual-era, legacy):"]
    out += [f"  {s['sdk']}: {s['servers']}, {s['started']}, {s['modern']}, {s['dual']}, "
            f"{s['legacy_any']}" for s in rep["by_sdk"]] or ["  none"]
    out += ["", "failures by kind:", *(f"  {line}" for line in _kind_lines(rep)), "",
            "servers:"]
    for c in rep["cards"]:
        detail = f"{_v(c['peer'])}" if c["status"] == "probed" else \
            _first_line(c["error"]) if c["error"] else ""
        out.append(f"  {c['server']} {c['version']}: {c['status']}"
                   + (f": {detail}" if detail else ""))
    return "\n".join(out).rstrip() + "\n"


def _html(rep: dict[str, Any]) -> str:
    body = ["<h1>MCP census</h1>", "<ul>" + "".join(
        f"<li>{escape(line.lstrip('- '))}</li>" for line in _summary_lines(rep) if line) + "</ul>",
        "<h2>By SDK</h2><table><tr><th>SDK</th><th>servers</th><th>modern-only</th>"
        "<th>dual-era (fallback)</th><th>legacy (all revisions)</th></tr>"]
    body += [f"<tr><td>{escape(s['sdk'])}</td><td>{s['servers']}</td><td>{s['modern']}</td>"
             f"<td>{s['dual']} ({s['dual_fallback']})</td><td>{s['legacy_any']}</td></tr>"
             for s in rep["by_sdk"]]
    body += ["</table><h2>Top failure causes</h2><ol>"]
    body += [f"<li>{escape(f['cause'])} ({f['count']}): {escape(', '.join(f['examples']))}</li>"
             for f in rep["failures"]]
    body += ["</ol><h2>Servers</h2>"]
    for c in rep["cards"]:
        detail = (f"inferred peer <code>{escape(c['peer'] or '-')}</code>: {escape(c['sentence'] or '-')}"
                  f"<br>SDK: {escape(c['sdk'])}<br>clients: {escape(_ready_text(c['readiness']))}"
                  if c["status"] == "probed" else escape((c["error"] or "").splitlines()[0]
                                                    if c["error"] else ""))
        body.append(f"<details><summary>{escape(c['server'])} {escape(c['version'])} "
                    f"({escape(c['kind'])} {escape(_v(c['identifier']))}): <b>{escape(c['status'])}</b>"
                    f"</summary><p>{detail}</p></details>")
    return page("MCP census", "\n".join(body))


def render_report(rep: dict[str, Any], fmt: str) -> str:
    """The report as ``markdown``, ``html``, ``json`` or ``text``."""
    if fmt == "json":
        return json.dumps(rep, indent=2, sort_keys=True) + "\n"
    if fmt == "text":
        return _text(rep)
    return _html(rep) if fmt == "html" else _markdown(rep)

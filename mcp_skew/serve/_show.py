"""Render an annotated wire log as text: time, direction, line, and what it means.

::

     0.051  ->  {"jsonrpc":"2.0","id":0,"method":"server/discover",...}
                # client speaks 2026-07-28 (modern, _meta): server/discover
    10.063  ->  {"jsonrpc":"2.0","id":1,"method":"initialize",...}
                # no answer to id 0 (server/discover) after 10012 ms: the client stops waiting

``->`` client to server, ``<-`` server to client, ``2>`` the server's standard
error, ``..`` an event (start, exit, signal, end of input). Times are seconds
since the log began; a log of several server processes is shown process by process
(:func:`render_processes`), each timed from its own start.
"""

from __future__ import annotations

from ..versions import Registry
from ._annotate import annotate
from ._annotation import Annotation
from ._log import LogEntry, Process

__all__ = ["ARROWS", "render_log", "render_processes", "summary"]

ARROWS = {"c2s": "->", "s2c": "<-", "stderr": "2>", "event": ".."}


def _clip(text: str, width: int | None) -> str:
    if width is None or len(text) <= width:
        return text
    return text[: max(width - 1, 1)] + f"… (+{len(text) - width + 1} chars)"


def _text(entry: LogEntry) -> str:
    if entry.dir == "event":
        return entry.text or entry.kind
    line = entry.line or ""
    safe = line.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates, shown
    return safe + (" (no newline at the end)" if entry.partial else "")


def summary(annotation: Annotation) -> list[str]:
    """The closing block: who spoke what, the path, the outcome, the findings."""
    a = annotation
    lines = ["", "summary:"]
    for name, side in (("client", a.client), ("server", a.server)):
        spoke = ", then ".join(side.spoke) or "no revision seen"
        lines.append(f"  {name}: {side.info + ': ' if side.info else ''}{spoke}")
    lines.append("  path: " + (" -> ".join(a.path) or "(no negotiation seen)"))
    if a.status == "ok":
        era = a.era.value if a.era else "?"
        lines.append(f"  negotiated: {a.revision} ({era}, {a.mark})")
    else:
        lines.append(f"  negotiated: nothing ({a.status}{': ' + a.reason if a.reason else ''})")
    for p in a.unanswered:
        lines.append(f"  unanswered: id {p.msg_id!r} {p.method} (entry {p.index})")
    if a.findings:
        lines.append("  findings:")
        for f in a.findings:
            where = f" at entry {f.index}" if f.index is not None else ""
            cite = f" ({f.cite})" if f.cite else ""
            lines.append(f"    [{f.severity}] {f.code}{where}: {f.message}{cite}")
    else:
        lines.append("  findings: none")
    return lines


def render_log(annotation: Annotation, *, width: int | None = 160, notes: bool = True,
               stderr: bool = True, title: str = "") -> str:
    """The whole log as text; ``width`` clips long lines (None: never)."""
    entries = annotation.entries
    stamps = [f"{e.t_ms / 1000:.3f}" for e in entries]
    pad = max((len(s) for s in stamps), default=5)
    lines = [title] if title else []
    indent = " " * (pad + 6)
    for entry, stamp in zip(entries, stamps, strict=True):
        if entry.dir == "stderr" and not stderr:
            continue
        lines.append(f"{stamp:>{pad}}  {ARROWS[entry.dir]}  {_clip(_text(entry), width)}")
        if notes:
            lines += [f"{indent}# {note}" for note in annotation.notes.get(entry.index, [])]
    lines += summary(annotation)
    return "\n".join(lines)


def render_processes(processes: list[Process], registry: Registry, *, width: int | None = 160,
                     notes: bool = True, stderr: bool = True, title: str = "") -> str:
    """A log of several server processes (:func:`~._log.split_processes`): each as a session
    of its own, annotated alone, its times counted from its own start."""
    parts = [title] if title else []
    for p in processes:
        when = f", {p.offset_s:.3f} s after the first" if p.offset_s is not None and \
            p.number > 1 else ""
        head = f"process {p.number} of {len(processes)}" + (f": {p.start}" if p.start else "")
        parts.append(render_log(annotate(p.entries, registry), width=width, notes=notes, stderr=stderr,
                                title=f"== {head}{when}\n"))
        parts.append("")
    return "\n".join(parts).rstrip("\n")

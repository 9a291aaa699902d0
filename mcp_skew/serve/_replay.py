"""Replay the client's side of a wire log against another server; show where answers differ.

Theory of operation
-------------------
The client's lines (``c2s``) are sent again, in order and as recorded:

- to a **simulated** server (:func:`replay_simulated`): each line goes through
  the same edge as ``mcp-skew serve`` (:class:`StdioServer`), with no real time:
  the answers are stamped with the recorded time of the line they answer, so a
  request left unanswered shows the same ``timeout after N ms`` as recorded.
  A quirk that acts on time (``slow``) is not replayed in time;
- to a **real** command (:func:`replay_command`): each line is written byte for
  byte; after a request, the replay waits for the answer with that id, up to
  ``timeout`` (or, when the recording shows no answer, up to the time the
  recorded client waited, no longer than ``timeout``).

Requests are then paired by order and id with their recorded answers. Each is
``same``, ``differs`` (with a short JSON diff) or ``missing`` (one side has no
answer). The negotiation path of both logs is shown side by side.

A log of several server processes (a client that ran its server twice, such as the
TypeScript v2 client's probe in a throwaway process) is replayed process by process,
each on a fresh server (:func:`replay_processes`), so no session inherits another's state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..simulator import PeerSpec, StdioServer
from ..transcript import parse_record
from ..versions import Message, Registry
from ._annotate import annotate
from ._annotation import Annotation
from ._child import Child
from ._log import LogEntry, decode_line, entry_of, split_processes

__all__ = [
    "ReplayReport",
    "ReplayedExchange",
    "json_diff",
    "outcome",
    "render_replay",
    "replay_command",
    "replay_processes",
    "replay_simulated",
]

Verdict = Literal["same", "differs", "missing"]


def outcome(message: Message | None) -> str:
    """A few words for an answer: result, tool error, error CODE, no answer."""
    if message is None:
        return "no answer"
    error = message.get("error")
    if isinstance(error, dict):
        return f"error {error.get('code')}"
    result = message.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        return "tool error (isError)"
    return "result"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:59] + "…"


def json_diff(old: Any, new: Any, path: str = "", ignore: Sequence[str] = ()) -> list[str]:
    """Where two JSON values differ, one line per leaf: ``path: old -> new``."""
    if any(path == p or path.startswith((p + ".", p + "[")) for p in ignore):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        lines: list[str] = []
        for key in sorted(old.keys() | new.keys()):
            sub = f"{path}.{key}" if path else str(key)
            if key not in new:
                lines += json_diff(old[key], _Missing, sub, ignore)
            elif key not in old:
                lines += json_diff(_Missing, new[key], sub, ignore)
            else:
                lines += json_diff(old[key], new[key], sub, ignore)
        return lines
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [line for i, (a, b) in enumerate(zip(old, new, strict=True))
                for line in json_diff(a, b, f"{path}[{i}]", ignore)]
    if old is _Missing:
        return [f"{path}: only in the replay: {_show(new)}"]
    if new is _Missing:
        return [f"{path}: only in the recording: {_show(old)}"]
    if old == new and type(old) is type(new):
        return []
    return [f"{path or '(whole)'}: {_show(old)} -> {_show(new)}"]


class _MissingType:
    pass


_Missing: Any = _MissingType()


@dataclass(slots=True)
class ReplayedExchange:
    """One request and its two answers."""

    index: int  #: the request's entry in the recorded log
    msg_id: Any
    method: str
    recorded: Message | None
    replayed: Message | None
    diff: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict:
        if (self.recorded is None) != (self.replayed is None):
            return "missing"
        return "differs" if self.diff else "same"

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.msg_id, "method": self.method,
                "verdict": self.verdict, "recorded": outcome(self.recorded),
                "replayed": outcome(self.replayed), "diff": list(self.diff)}


@dataclass(slots=True)
class ReplayReport:
    target: str
    exchanges: list[ReplayedExchange]
    recorded: Annotation
    replayed: Annotation
    replayed_entries: list[LogEntry]
    #: a log of several server processes: one report per process (:func:`replay_processes`)
    processes: list[ReplayReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(x.verdict == "same" for x in self.exchanges)

    def counts(self) -> dict[str, int]:
        out = {"same": 0, "differs": 0, "missing": 0}
        for x in self.exchanges:
            out[x.verdict] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        out = {"target": self.target, "ok": self.ok, "counts": self.counts(),
               "recorded_path": list(self.recorded.path),
               "replayed_path": list(self.replayed.path),
               "exchanges": [x.to_dict() for x in self.exchanges]}
        if self.processes:
            out["processes"] = [{"process": n, "recorded_path": list(r.recorded.path),
                                 "replayed_path": list(r.replayed.path)}
                                for n, r in enumerate(self.processes, 1)]
        return out


def _pairs(entries: list[LogEntry]) -> list[tuple[LogEntry, Message, Message | None]]:
    """Each client request with the server's answer to it (None: none)."""
    pairs: list[tuple[LogEntry, Message, Message | None]] = []
    waiting: dict[str, list[int]] = {}
    for entry in entries:
        messages = entry.message if isinstance(entry.message, list) else [entry.message]
        for message in messages:
            if not isinstance(message, dict) or "id" not in message:
                continue
            key = json.dumps(message["id"], sort_keys=True)
            if entry.dir == "c2s" and "method" in message:
                waiting.setdefault(key, []).append(len(pairs))
                pairs.append((entry, message, None))
            elif entry.dir == "s2c" and "method" not in message and waiting.get(key):
                slot = waiting[key].pop(0)
                request_entry, request, _ = pairs[slot]
                pairs[slot] = (request_entry, request, message)
    return pairs


def _compare(recorded: list[LogEntry], replayed: list[LogEntry],
             ignore: Sequence[str]) -> list[ReplayedExchange]:
    theirs = _pairs(replayed)
    out: list[ReplayedExchange] = []
    for i, (entry, request, answer) in enumerate(_pairs(recorded)):
        again = theirs[i][2] if i < len(theirs) else None
        diff = (json_diff(answer, again, "", ignore)
                if answer is not None and again is not None else [])
        out.append(ReplayedExchange(entry.index, request["id"], str(request["method"]), answer, again,
                            diff))
    return out


class _Builder:
    """The replayed log, entry by entry, as transcript records (``mcp_skew.transcript``)."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def _add(self, record: dict[str, Any]) -> None:
        messages = sum(e.dir in ("c2s", "s2c") for e in self.entries)
        self.entries.append(entry_of(len(self.entries), parse_record(record), messages))

    def line(self, ms: float, direction: str, raw: bytes | str, partial: bool = False) -> None:
        text = decode_line(raw) if isinstance(raw, bytes) else raw
        self._add({"ms": max(ms, 0), "dir": direction, "line": text,
                   **({"partial": True} if partial else {})})

    def event(self, ms: float, event: str, text: str, **fields: Any) -> None:
        self._add({"ms": max(ms, 0), "dir": "event", "event": event, "text": text, **fields})


def _client_lines(entries: list[LogEntry]) -> list[LogEntry]:
    return [e for e in entries if e.dir == "c2s" and e.line is not None]


def replay_simulated(entries: list[LogEntry], spec: PeerSpec,
                     ignore: Sequence[str] = ()) -> ReplayReport:
    """Replay against a simulated server, in memory."""
    loop = StdioServer(spec, say=lambda text: None)
    out = _Builder()
    last = 0.0
    for entry in _client_lines(entries):
        last = entry.t_ms
        out.line(entry.t_ms, "c2s", entry.line or "", entry.partial)
        for reply in loop.handle_line(entry.line or ""):
            out.line(entry.t_ms, "s2c", json.dumps(reply, separators=(",", ":")))
        if loop.exit:
            out.event(entry.t_ms, "exit", "server exited with code 1 (simulated quirk)",
                      side="server", code=1)
            break
    else:
        out.event(last, "client-eof", "the client closed the server's standard input")
    return ReplayReport(f"{spec.name} (simulated)", _compare(entries, out.entries, ignore),
                        annotate(entries, spec.registry), annotate(out.entries, spec.registry),
                        out.entries)


def _gap_after(clients: list[LogEntry], i: int) -> float | None:
    return clients[i + 1].t_ms - clients[i].t_ms if i + 1 < len(clients) else None


def _drain(child: Child, out: _Builder, until_ms: float, want: str | None) -> bool:
    """Collect lines until ``until_ms``; True when the answer to ``want`` arrived."""
    while True:
        line = child.next_line(until_ms)
        if line is None:
            return False
        out.line(line.ms, line.dir, line.raw, line.partial)
        message = out.entries[-1].message
        if want is not None and line.dir == "s2c" and isinstance(message, dict) \
                and "method" not in message and json.dumps(message.get("id"),
                                                           sort_keys=True) == want:
            return True


def _answered(entries: list[LogEntry]) -> set[int]:
    return {entry.index for entry, _, answer in _pairs(entries) if answer is not None}


def replay_command(entries: list[LogEntry], argv: Sequence[str], *, registry: Registry,
                   timeout_s: float = 5.0, ignore: Sequence[str] = ()) -> ReplayReport:
    """Replay against a real server started as ``argv`` (no shell); the two logs' revisions
    are looked up in ``registry``."""
    child = Child(argv)
    out = _Builder()
    out.event(0.0, "start", f"started {' '.join(argv)} (pid {child.proc.pid})",
              argv=list(argv))
    clients = _client_lines(entries)
    answered = _answered(entries)
    limit = timeout_s * 1000
    for i, entry in enumerate(clients):
        raw = (entry.line or "").encode("utf-8", "surrogateescape")
        out.line(child.now_ms(), "c2s", raw, entry.partial)
        if not child.send(raw + (b"" if entry.partial else b"\n"), timeout_s):
            out.event(child.now_ms(), "write-failed", "the server's standard input is closed, "
                      f"or the server did not read the line within {timeout_s:g} s")
            break
        message = entry.message if isinstance(entry.message, dict) else {}
        want = json.dumps(message["id"], sort_keys=True) if "id" in message and \
            "method" in message else None
        wait = limit
        gap = _gap_after(clients, i)
        if want is not None and entry.index not in answered and gap is not None:
            wait = min(gap, limit)
        elif want is None:
            wait = 50.0  # a notification: let the server react before the next line
        _drain(child, out, child.now_ms() + wait, want)
    out.event(child.now_ms(), "client-eof", "the client closed the server's standard input")
    code = child.close(timeout_s)
    _drain(child, out, child.now_ms() + 200, None)
    text = f"server exited with code {code}" if code is not None else "server did not exit"
    out.event(child.now_ms(), "exit", text, side="server", code=code)
    return ReplayReport(" ".join(argv), _compare(entries, out.entries, ignore),
                        annotate(entries, registry), annotate(out.entries, registry),
                        out.entries)


def replay_processes(entries: list[LogEntry],
                     one: Callable[[list[LogEntry]], ReplayReport]) -> ReplayReport:
    """Replay each recorded server process on a fresh server of its own (``one`` replays one
    process), never one process's lines into another's session; the exchanges in order.

    A log of one process is replayed as it is."""
    processes = split_processes(entries)
    if len(processes) <= 1:
        return one(entries)
    originals = {e.index: e for e in entries}
    reports = [one([originals[e.index] for e in p.entries]) for p in processes]
    first = reports[0]
    return ReplayReport(first.target, [x for r in reports for x in r.exchanges],
                        first.recorded, reports[-1].replayed,
                        [e for r in reports for e in r.replayed_entries], reports)


def render_replay(report: ReplayReport, *, title: str = "") -> str:
    """The comparison as a table, then both paths and the counts."""
    head = ("entry", "id", "method", "recorded", "replayed", "verdict")
    rows = [(str(x.index), json.dumps(x.msg_id), x.method, outcome(x.recorded),
             outcome(x.replayed), x.verdict) for x in report.exchanges]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [title or f"replay against {report.target}", ""]
    lines.append("  ".join(h.ljust(wd) for h, wd in zip(head, widths, strict=True)).rstrip())
    for row, x in zip(rows, report.exchanges, strict=True):
        lines.append("  ".join(c.ljust(wd) for c, wd in zip(row, widths, strict=True)).rstrip())
        shown = x.diff[:8]
        lines += [f"    {d}" for d in shown]
        if len(x.diff) > len(shown):
            lines.append(f"    … and {len(x.diff) - len(shown)} more")
    counts = report.counts()
    lines.append("")
    for n, part in enumerate(report.processes or [report], 1):
        label = f"process {n}: " if report.processes else ""
        lines += [f"{label}recorded path: " + (" -> ".join(part.recorded.path) or "(none)"),
                  f"{label}replayed path: " + (" -> ".join(part.replayed.path) or "(none)")]
    lines += [
              f"{len(report.exchanges)} requests: {counts['same']} same, "
              f"{counts['differs']} differ, {counts['missing']} missing"]
    return "\n".join(lines)

"""What a client did against one server, read off the wire by the client rules.

Theory of operation
-------------------
The wire log of one run is read by :meth:`mcp_skew.serve.ServedForClient.annotate`, the
same reading ``mcp-skew show-log`` gives and the same typed path steps the simulator's
clients write (``discover 2026-07-28 -> error -32601 -> initialize 2025-11-25 -> accepted
2025-11-25``). Before that, :func:`rebase` puts every entry on one clock: the
wall-clock time ``t`` of each record, counted from the first server process's
start as the client saw it (:mod:`mcp_skew._stamp`). A line the server read at
once when it became ready had waited in the pipe since the client started it, so
the first line of each process is timed from that process's start: a probe timeout
is then measured from the moment the client sent the probe, not from the end of the
server's start-up.

:func:`observe` reduces the annotation and the client's exit to an
:class:`Observation`: the path, the revision and era reached, the revisions the client
offered, what became of its probe (:class:`ProbeFate`: the answer, how long it
waited, whether it fell back, on a fresh process or not), the counter-offers it took
or refused, and the request it failed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final, Literal

from ..serve import LogEntry, ServedForClient
from ..simulator import ExtensionsSeen, PathStep, read_extensions
from ..simulator.findings import Finding
from ..simulator.messages import VERSION_KEY, request_text
from ..versions import Registry, required_fields

__all__ = ["FIRST_LINE_S", "Observation", "Outcome", "ProbeFate", "measured_waits", "observe",
           "rebase"]

#: A process's first line read this soon after its start had waited in the pipe.
FIRST_LINE_S: Final = 0.05
Outcome = Literal["works", "connects, then fails", "fails"]
#: The log's findings that are about the client's own lines (the others judge the server).
CLIENT_CODES: Final = frozenset({"not-json", "schema-violation"})


def _epoch(stamp: str | None) -> float | None:
    if stamp is None:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def rebase(entries: list[LogEntry], stamps: list[float]) -> list[LogEntry]:
    """``entries`` on one clock (ms from the first server start; see the module)."""
    epochs = [_epoch(e.t) for e in entries]
    if not entries or any(t is None for t in epochs):
        return entries
    times = [t for t in epochs if t is not None]
    base = min([times[0], *stamps[:1]])
    out: list[LogEntry] = []
    process, started, waiting = -1, None, False
    for entry, t in zip(entries, times, strict=True):
        ms = (t - base) * 1000
        if entry.dir == "event" and entry.kind == "start":
            process, started, waiting = process + 1, t, True
            if process < len(stamps):  # the client started it then (a restart, too)
                ms = max(0.0, (stamps[process] - base) * 1000)
        elif entry.dir == "c2s" and waiting:
            waiting = False
            if started is not None and t - started < FIRST_LINE_S and process < len(stamps):
                ms = max(0.0, (stamps[process] - base) * 1000)
        out.append(replace(entry, t_ms=round(ms, 3)))
    return out


@dataclass(frozen=True, slots=True)
class ProbeFate:
    """The client's first modern request before anything was negotiated, and what came of it."""

    method: str  #: ``server/discover`` or the request it sent inline
    revision: str | None
    answer: str  #: ``result``, ``error``, ``timeout``, ``exit`` or ``none`` (the log ended)
    code: int | None = None  #: of an error
    waited_ms: int | None = None  #: how long it waited before moving on (a timeout)
    then: str = "stop"  #: ``initialize`` (fell back), ``retry``, ``re-probe`` or ``stop``
    restarted: bool = False  #: a new server process before the next step

    @property
    def token(self) -> str:
        """``-32601``, ``timeout``, ``exit``, ``result``: the answer as one word."""
        return str(self.code) if self.answer == "error" else self.answer

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "revision": self.revision, "answer": self.answer,
                "code": self.code, "waited_ms": self.waited_ms, "then": self.then,
                "restarted": self.restarted}


@dataclass(slots=True)
class Observation:
    """One run of the client against one server, as the wire shows it."""

    server: str
    outcome: Outcome
    status: str  #: the negotiation: ok, failed or undecided
    revision: str | None
    era: str | None
    mark: str
    path: list[str]
    reason: str
    offered_legacy: list[str] = field(default_factory=list)  #: initialize's revisions, in order
    offered_modern: list[str] = field(default_factory=list)  #: _meta revisions, in order
    counter_offers: dict[str, bool] = field(default_factory=dict)  #: revision -> taken
    first: str | None = None  #: the first request's method (None: the client sent nothing)
    probe: ProbeFate | None = None
    processes: int = 0  #: server processes the client started
    retried_32022: bool = False
    requests: list[str] = field(default_factory=list)  #: ``method revision`` as received
    failed_on: str = ""  #: the request the client failed on, and its answer
    exit_code: int | None = None
    timed_out: bool = False
    findings: list[Finding] = field(default_factory=list)  #: the log's, on the client's lines
    listed_again_ms: int | None = None  #: a second tools/list, ms after the first answer
    first_ttl_ms: int | None = None  #: the ttlMs of the first tools/list answer
    #: ended at the deadline while waiting for an answer: the request (``method revision``)
    #: and how long it had waited; the client was not hanging, its wait was longer
    waiting: str = ""
    waiting_ms: int | None = None
    #: every wait the wire shows (:func:`measured_waits`): a request that got no answer
    #: before the client's next move
    waits: list[dict[str, Any]] = field(default_factory=list)
    #: what either side declared of extensions, and the apps offered, called and read (None:
    #: neither side declared any)
    extensions: ExtensionsSeen | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"server": self.server, "outcome": self.outcome, "status": self.status,
                "revision": self.revision, "era": self.era, "mark": self.mark,
                "path": list(self.path), "reason": self.reason,
                "offered_legacy": self.offered_legacy, "offered_modern": self.offered_modern,
                "counter_offers": self.counter_offers, "first": self.first,
                "probe": self.probe.to_dict() if self.probe else None,
                "processes": self.processes, "retried_32022": self.retried_32022,
                "requests": self.requests, "failed_on": self.failed_on,
                "exit_code": self.exit_code, "timed_out": self.timed_out,
                "waiting": self.waiting or None, "waiting_ms": self.waiting_ms,
                "waits": self.waits,
                "findings": [f.to_dict() for f in self.findings],
                **({"extensions": self.extensions.to_dict()} if self.extensions else {})}


def _params(message: Any) -> dict[str, Any]:
    params = message.get("params") if isinstance(message, dict) else None
    return params if isinstance(params, dict) else {}


def _modern_revision(message: Any) -> str | None:
    meta = _params(message).get("_meta")
    version = meta.get(VERSION_KEY) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def _requests(entries: list[LogEntry]) -> list[tuple[LogEntry, dict[str, Any]]]:
    return [(e, e.message) for e in entries if e.dir == "c2s" and isinstance(e.message, dict)
            and "method" in e.message and "id" in e.message]


def _probe(path: list[PathStep], processes: int) -> ProbeFate | None:
    """What became of the first modern request of the path (None: the client opened with
    ``initialize``)."""
    for i, step in enumerate(path):
        if step.kind == "request" and step.method == "initialize":
            return None
        if step.kind != "request":
            continue
        after = path[i + 1:]
        answer = after[0] if after else None
        kind = {"error": "error", "timeout": "timeout", "exited": "exit",
                "accepted": "result", "choose": "result", "no-answer": "none"}.get(
            answer.kind if answer is not None else "", "none")
        if answer is not None and answer.kind == "request":
            kind = "none"
        rest = after[1:] if answer is not None and answer.kind != "request" else after
        restarted = any(s.kind == "restart" for s in rest[:2]) or (
            kind in ("timeout", "exit") and processes > 1)
        then = "stop"
        for s in rest:
            if s.kind == "request":
                then = "initialize" if s.method == "initialize" else "re-probe"
                break
            if s.kind == "retry":
                then = "retry"
                break
        return ProbeFate(step.method or "", step.revision, kind,
                         answer.code if answer is not None and answer.kind == "error" else None,
                         answer.ms if answer is not None and answer.kind == "timeout" else None,
                         then, restarted)
    return None


def _offers(path: list[PathStep]) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for i, step in enumerate(path):
        if step.kind == "counter-offer" and step.revision is not None:
            nxt = path[i + 1] if i + 1 < len(path) else None
            out[step.revision] = nxt is not None and nxt.kind == "accepted"
    return out


def _answer_text(entries: list[LogEntry], msg_id: Any) -> str:
    for e in entries:
        m = e.message
        if e.dir == "s2c" and isinstance(m, dict) and "method" not in m and m.get("id") == msg_id:
            error = m.get("error")
            if isinstance(error, dict):
                return f"error {error.get('code')}"
            return "a result"
    return "no answer"


def _failed_on(entries: list[LogEntry], outcome: Outcome) -> str:
    if outcome == "works":
        return ""
    sent = _requests(entries)
    if not sent:
        return "no request was sent"
    _, message = sent[-1]
    return f"{request_text(message)} ({_answer_text(entries, message['id'])})"


def _listing(entries: list[LogEntry]) -> tuple[int | None, int | None]:
    """(ms from the first tools/list answer to a second tools/list, that answer's ttlMs)."""
    lists = [(e, m) for e, m in _requests(entries) if m["method"] == "tools/list"]
    if not lists:
        return None, None
    first_id = lists[0][1]["id"]
    for e in entries:
        m = e.message
        if e.dir == "s2c" and isinstance(m, dict) and m.get("id") == first_id and "result" in m:
            ttl = m["result"].get("ttlMs") if isinstance(m["result"], dict) else None
            again = round(lists[1][0].t_ms - e.t_ms) if len(lists) > 1 else None
            return again, ttl if isinstance(ttl, int) else None
    return None, None


def _still_waiting(entries: list[LogEntry], timed_out: bool) -> tuple[str, int | None]:
    """The request the client was still waiting on when the run ended at the deadline (its
    last one, unanswered), and for how long (ms from sending it to the log's last record:
    the client's end); ``("", None)`` when it was not waiting for the server."""
    sent = _requests(entries)
    if not timed_out or not sent:
        return "", None
    entry, message = sent[-1]
    if _answer_text(entries, message["id"]) != "no answer":
        return "", None
    later = [e for e in entries if e.index > entry.index and e.dir == "c2s"]
    if later:  # it moved on (a notification, a new line): not waiting on this one
        return "", None
    return request_text(message), round(entries[-1].t_ms - entry.t_ms)


def _move(entry: LogEntry) -> str:
    """The client's move an entry is: its request, a line, a new server process, its end."""
    m = entry.message
    if entry.dir == "event":
        return {"start": "a fresh server process", "client-eof": "closed the server's input"
                }.get(entry.kind or "", entry.kind or "an event")
    if isinstance(m, dict) and "method" in m:
        return request_text(m) if "id" in m else str(m["method"])
    return "a line"


def measured_waits(entries: list[LogEntry], timed_out: bool) -> list[dict[str, Any]]:
    """Each request that got no answer before the client's next move (a line it sent, a
    fresh server process it started, its input closed), with the time between, ms: the
    waits a client has, measured from the wire (entries on one clock: :func:`rebase`). A
    request still unanswered at the end of a run ended at the deadline is a wait still
    going (``then``: ``still waiting at the deadline``)."""
    out: list[dict[str, Any]] = []
    moves = [e for e in entries if e.dir == "c2s" or (e.dir == "event" and e.kind in (
        "start", "client-eof"))]
    for entry, message in _requests(entries):
        answered = [e for e in entries if e.dir == "s2c" and isinstance(e.message, dict)
                    and "method" not in e.message and e.message.get("id") == message["id"]]
        nxt = next((e for e in moves if e.index > entry.index), None)
        if answered and (nxt is None or answered[0].index < nxt.index):
            continue
        if nxt is None or (nxt.kind == "client-eof" and timed_out):
            if timed_out and entries:
                out.append({"request": request_text(message),
                            "waited_ms": round(entries[-1].t_ms - entry.t_ms),
                            "then": "still waiting at the deadline"})
            continue
        out.append({"request": request_text(message), "waited_ms": round(nxt.t_ms - entry.t_ms),
                    "then": _move(nxt)})
    return out


def _outcome(status: str, exit_code: int | None, timed_out: bool,
             stopped_at_incomplete: bool = False) -> Outcome:
    if status != "ok" or stopped_at_incomplete:
        return "fails"
    return "works" if exit_code == 0 and not timed_out else "connects, then fails"


def _incomplete_discover(entries: list[LogEntry], sent: list[tuple[LogEntry, dict[str, Any]]],
                         exit_code: int | None, registry: Registry) -> list[str]:
    """The fields a DiscoverResult on the wire lacked (its revision's schema requires them;
    the envelope fields every result or cacheable result carries aside, as the client quirk
    ``strict-discover`` reads it), when the client sent nothing but ``server/discover`` and
    ended unsuccessfully: it refused that answer, so it never connected (the log's
    annotation reads any result as accepted). [] otherwise."""
    if exit_code == 0 or not sent or any(m["method"] != "server/discover" for _, m in sent):
        return []
    results = {e.message.get("id"): e.message["result"] for e in entries
               if e.dir == "s2c" and isinstance(e.message, dict)
               and isinstance(e.message.get("result"), dict)}
    for _, message in sent:
        result, revision = results.get(message["id"]), _modern_revision(message)
        if result is not None and revision is not None and revision in registry:
            profile = registry.get(revision)
            envelope = profile.names("result_fields_required") | profile.names("cache_fields")
            missing = sorted(required_fields(revision, "server/discover") - envelope
                             - set(result))
            if missing:
                return missing
    return []


def observe(server: str, entries: list[LogEntry], stamps: list[float], exit_code: int | None,
            timed_out: bool, *, registry: Registry) -> Observation:
    """The run's :class:`Observation` (entries as
    :meth:`mcp_skew.serve.ServedForClient.read_back` gives them)."""
    entries = rebase(entries, stamps)
    note = ServedForClient.annotate(entries, registry)
    sent = _requests(entries)
    processes = sum(1 for e in entries if e.dir == "event" and e.kind == "start")
    lacked = _incomplete_discover(entries, sent, exit_code, registry)
    refused = bool(lacked)
    reason = (f"stopped at the server/discover result, which lacks the required "
              f"{', '.join(lacked)}" if refused else note.reason)
    outcome = _outcome(note.status, exit_code, timed_out, refused)
    legacy = [str(_params(m).get("protocolVersion")) for _, m in sent
              if m["method"] == "initialize"]
    modern = [v for _, m in sent if (v := _modern_revision(m)) is not None]
    client_lines = {e.index for e in entries if e.dir == "c2s"}
    again, ttl = _listing(entries)
    waiting, waiting_ms = _still_waiting(entries, timed_out)
    return Observation(
        server, outcome, "failed" if refused else note.status,
        None if refused else note.revision,
        None if refused or note.era is None else note.era.value,
        note.mark, [str(s) for s in note.path], reason,
        offered_legacy=list(dict.fromkeys(legacy)), offered_modern=list(dict.fromkeys(modern)),
        counter_offers=_offers(note.path), first=sent[0][1]["method"] if sent else None,
        probe=_probe(note.path, processes), processes=processes,
        retried_32022=any(s.kind == "retry" for s in note.path),
        requests=[request_text(m) for _, m in sent], failed_on=_failed_on(entries, outcome),
        exit_code=exit_code, timed_out=timed_out,
        findings=[f for f in note.findings if f.index in client_lines
                  and f.code in CLIENT_CODES],
        listed_again_ms=again, first_ttl_ms=ttl, waiting=waiting, waiting_ms=waiting_ms,
        waits=measured_waits(entries, timed_out), extensions=_extensions(entries))


def _extensions(entries: list[LogEntry]) -> ExtensionsSeen | None:
    """What the wire shows of extensions (:func:`mcp_skew.simulator.read_extensions`)."""
    seen = read_extensions(("->" if e.dir == "c2s" else "<-", e.message) for e in entries
                           if e.dir in ("c2s", "s2c"))
    return seen if seen.advertised or seen.offered else None


def describe(observation: Observation) -> str:
    """One line: the outcome, the revision, the path."""
    o = observation
    reached = f" {o.revision} ({o.era})" if o.revision else ""
    return f"{o.outcome}{reached}: {' -> '.join(o.path) or 'nothing on the wire'}"


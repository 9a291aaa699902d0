"""From probe transcripts to a peer spec: what the real server behaves like.

Theory of operation
-------------------
:func:`gather` reads every exchange of every client and collects *evidence*:
which legacy revisions the server accepts when asked (``initialize`` answered
with the revision asked), which modern revisions it names (a DiscoverResult's
``supportedVersions``, the ``supported`` list of a -32022), how it answers a
request it does not know, whether it echoes a bogus revision, refuses instead
of counter-offering, serves requests before ``initialize``, keeps the era of a
process fixed, and whether its modern results carry ``resultType`` and the
caching hints. :func:`infer` turns the evidence into the simplest
:class:`~mcp_skew.simulator.PeerSpec` that behaves the same way towards every
built-in client, with a sentence a person can read. Two specs that no client
can tell apart (``legacy:A`` and ``legacy:A,B+fixed=A``) infer as the simpler.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from .._output import write_output
from ..errors import UsageError
from ..peers import PEER_FILE_FORMAT, load_probe_peer
from ..simulator import PeerSpec, negotiation, parse_peer, untyped_tools
from ..transcript import Transcript
from ..versions import Era, Registry
from ._calls import outputs_seen
from ._clients import BOGUS_REVISION, MISSING_URI, REINIT_CONTROL, UNKNOWN_METHOD
from ._exchanges import Exchange, modern_version

__all__ = ["PEER_FILE_FORMAT", "Evidence", "InferredPeer", "RunView", "cold_start_record",
           "gather", "infer", "load_probe_peer", "reinit_trusted", "save_peer"]


#: How each quirk reads in the sentence.
PHRASES: Final = {
    "unknown-32602": "-32602 on unknown requests",
    "silent": "no answer to unknown requests",
    "silent-exit": "no answer to unknown requests and an exit on the next message",
    "lenient": "requests served before initialize",
    "echo": "any requested revision echoed back",
    "reject": "an error instead of a counter-offer for revisions it does not support",
    "no-result-type": "2026-07-28 results without resultType",
    "no-cache-hints": "2026-07-28 results without ttlMs and cacheScope",
    "sticky-era": "the era of a process fixed by its first request",
    "early-32602": "-32602 on known requests before initialize",
    "legacy-32022": "-32022 naming its modern revisions for initialize",
    "not-found-code": "error {value} for a missing resource",
    "asks-roots": "a roots/list request to a client that declares roots",
    "discover-legacy": "a server/discover that lists only its legacy revisions",
    "discover-incomplete": "a server/discover result without capabilities",
    "untyped-input-schema": "tools whose inputSchema has no \"type\": \"object\"",
}
_UNKNOWN_QUIRK: Final = {"-32602": "unknown-32602", "silent": "silent", "silent-exit": "silent-exit",
                         "exit": "silent-exit"}
_SEVERITY: Final = ("silent-exit", "exit", "silent", "-32602", "-32601")


@dataclass(slots=True)
class RunView:
    """What inference reads from one client's run."""

    client: str
    prober: bool
    transcript: Transcript
    exchanges: list[Exchange]


@dataclass(slots=True)
class Evidence:
    """What the transcripts show, before it becomes a spec."""

    legacy: set[str] = field(default_factory=set)  #: accepted when asked
    modern: set[str] = field(default_factory=set)  #: named by the server
    answered: set[str] = field(default_factory=set)  #: every revision initialize answered with
    asked: set[str] = field(default_factory=set)  #: every revision initialize was asked for
    echo: bool = False
    rejected: set[str] = field(default_factory=set)  #: asked revisions refused with an error
    unknown: list[tuple[str, bool]] = field(default_factory=list)  #: (answer, before init)
    #: answers to methods a legacy server knows, sent before initialize (tools/list)
    early_known: list[str] = field(default_factory=list)
    served_early: bool = False  #: a non-discover modern request got a legacy result pre-init
    #: ``tools/list`` before ``initialize`` got -32603 (server quirk ``early-tools-32603``)
    early_tools_32603: bool = False
    initialize_32022: bool = False  #: initialize refused with -32022 naming modern revisions
    not_found: list[tuple[int, str]] = field(default_factory=list)  #: (code, revision in use)
    sticky: bool = False
    no_result_type: bool = False
    no_cache_hints: bool = False
    #: the server sent a client a ``roots/list`` request (server quirk ``asks-roots``)
    asks_roots: bool = False
    #: a DiscoverResult listed no modern revision (server quirk ``discover-legacy``)
    discover_legacy: bool = False
    #: the legacy revisions such a DiscoverResult listed (what an echoing server supports)
    discover_listed: set[str] = field(default_factory=set)
    #: a DiscoverResult lacked ``capabilities`` (server quirk ``discover-incomplete``)
    discover_incomplete: bool = False
    #: a ``tools/list`` result listed a tool whose inputSchema lacks ``"type": "object"``
    untyped_tools: bool = False
    #: a listed outputSchema declared this dialect, not 2020-12 (``draft-07-output-schema``)
    output_dialect: str | None = None
    #: a call of a tool with an outputSchema got no structuredContent (``no-structured-content``)
    no_structured: bool = False
    #: the server answered at least one request (with something it wrote, not an HTTP status)
    alive: bool = False
    notes: list[str] = field(default_factory=list)
    #: where the revisions the answers name are looked up
    registry: Registry = field(kw_only=True, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "legacy": list(self.registry.ordered(sorted(self.legacy))),
            "modern": list(self.registry.ordered(sorted(self.modern))),
            "echo": self.echo, "rejected": sorted(self.rejected),
            "unknown": [{"answer": a, "before_initialize": b} for a, b in self.unknown],
            "early_known": list(self.early_known), "served_early": self.served_early,
            "early_tools_32603": self.early_tools_32603,
            "initialize_32022": self.initialize_32022,
            "not_found": [{"code": c, "revision": r} for c, r in self.not_found],
            "sticky": self.sticky,
            "no_result_type": self.no_result_type, "no_cache_hints": self.no_cache_hints,
            "asks_roots": self.asks_roots, "discover_legacy": self.discover_legacy,
            "discover_listed": list(self.registry.ordered(sorted(self.discover_listed))),
            "discover_incomplete": self.discover_incomplete,
            "untyped_tools": self.untyped_tools,
            "output_dialect": self.output_dialect, "no_structured": self.no_structured,
            "alive": self.alive, "notes": list(self.notes),
        }


#: an observed outputSchema dialect -> the server quirk that lists one
_OUTPUT_DIALECTS: Final = {"draft-07": "draft-07-output-schema", "draft-06": "draft-07-output-schema",
                           "draft-04": "draft-04-output-schema", "draft-03": "draft-04-output-schema"}


def _era(registry: Registry, revision: Any) -> Era | None:
    return registry.get(revision).era if isinstance(revision, str) and revision in registry \
        else None


def _modern_answer(ex: Exchange, modern_codes: frozenset[int]) -> bool:
    """The answer shows a modern server (a DiscoverResult, a modern error, a typed result)."""
    if ex.result is not None:
        return ex.method == "server/discover" or "resultType" in ex.result
    return ex.code in modern_codes


def _token(ex: Exchange) -> str:
    """How the server answered: an error code (``http-400`` when made up from a bare
    HTTP status), ``result``, ``exit``, ``silent`` or ``silent-exit``."""
    if ex.fate == "answered" and ex.error is not None:
        status = ex.status if ex.synthesized else None
        return f"http-{status}" if status else str(ex.code)
    if ex.fate == "answered":
        return "result"
    if ex.fate == "exited":
        return "exit"
    return "silent-exit" if ex.next_fate == "exited" else "silent"


def _initialize(ex: Exchange, ev: Evidence, first: bool) -> None:
    """What an initialize shows; a refusal counts only as the first request of a process
    (after a modern request, a sticky server refuses any initialize)."""
    asked = ex.params.get("protocolVersion")
    if isinstance(asked, str):
        ev.asked.add(asked)
    if ex.result is not None:
        answered = ex.result.get("protocolVersion")
        ev.answered.add(str(answered))
        if asked == answered and _era(ev.registry, asked) is Era.LEGACY:
            ev.legacy.add(str(asked))
        if asked == BOGUS_REVISION and answered == asked:
            ev.echo = True
    elif ex.error is not None and not ex.synthesized and isinstance(asked, str) and first:
        ev.rejected.add(asked)
        supported = (ex.error.get("data") or {}).get("supported") if isinstance(
            ex.error.get("data"), dict) else None
        named = {v for v in supported or [] if isinstance(v, str) and _era(ev.registry, v) is Era.MODERN}
        if ex.code in negotiation.modern_codes_of(ev.registry) and named:
            ev.modern |= named
            ev.initialize_32022 = True


def _modern(ex: Exchange, ev: Evidence, codes: frozenset[int]) -> None:
    version = modern_version(ex.request)
    if ex.result is not None and ex.method == "server/discover":
        offered = ex.result.get("supportedVersions")
        offered = offered if isinstance(offered, list) else []
        named = {v for v in offered if _era(ev.registry, v) is Era.MODERN}
        ev.modern |= named
        if not named and isinstance(offered, list) and _era(ev.registry, version) is Era.MODERN:
            ev.discover_legacy = True  # it answered at that modern version, listing none
            ev.modern.add(str(version))
            ev.discover_listed |= {v for v in offered if _era(ev.registry, v) is Era.LEGACY}
        if "capabilities" not in ex.result:
            ev.discover_incomplete = True
    elif ex.code in codes:
        supported = negotiation.supported_of(ex.error) or []
        ev.modern |= {v for v in supported if isinstance(v, str) and _era(ev.registry, v) is Era.MODERN}
    elif ex.result is not None and "resultType" in ex.result and _era(ev.registry, version) is Era.MODERN:
        ev.modern.add(str(version))
    elif ex.result is not None and ex.after_initialize is None:
        ev.served_early = True
    if ex.result is not None and _era(ev.registry, version) is Era.MODERN and _modern_answer(ex, codes):
        _hints(ex, str(version), ev)


def _hints(ex: Exchange, version: str, ev: Evidence) -> None:
    profile = ev.registry.get(version)
    result = ex.result or {}
    if any(f not in result for f in profile.names("result_fields_required")):
        ev.no_result_type = True
    if ex.method in profile.names("cacheable_results") and \
            any(f not in result for f in profile.names("cache_fields")):
        ev.no_cache_hints = True


def _legacy_knows(registry: Registry, method: str) -> bool:
    newest = registry.ordered(registry.of_era(Era.LEGACY))[0]
    return method in registry.get(newest).methods


def _unknown(ex: Exchange, ev: Evidence, codes: frozenset[int], first: bool) -> None:
    """Answers to requests a legacy server does not know, or gets too early.

    Only the first request of a process counts as "early": after a modern request
    was served, later ones are answered by the application (an unknown tool).
    """
    early = ex.after_initialize is None
    early_modern = modern_version(ex.request) is not None and early and first
    if early_modern and _modern_answer(ex, codes):
        return
    if not (early_modern or ex.method == UNKNOWN_METHOD):
        return
    token = _token(ex)
    if token == "result":
        return
    if early and ex.method == "tools/list" and token == "-32603":
        ev.early_tools_32603 = True  # its handler failed, not its lifecycle check
    elif early and _legacy_knows(ev.registry, ex.method):
        ev.early_known.append(token)
    else:
        ev.unknown.append((token, early))


def _not_found(ex: Exchange, ev: Evidence) -> None:
    if ex.method != "resources/read" or ex.params.get("uri") != MISSING_URI:
        return
    revision = modern_version(ex.request) or ex.after_initialize
    if ex.code is not None and not ex.synthesized and revision in ev.registry:
        ev.not_found.append((ex.code, str(revision)))


def _sticky(view: RunView, ev: Evidence, codes: frozenset[int]) -> None:
    """In the prober's second process: a modern answer, then initialize refused."""
    later = [ex for ex in view.exchanges if ex.generation > 0]
    for first, second in itertools.pairwise(later):
        if first.method == "server/discover" and _modern_answer(first, codes) and \
                second.method == "initialize" and second.result is None:
            ev.sticky = True


def gather(views: list[RunView], registry: Registry) -> Evidence:
    """Evidence from every run of a probe; revisions are looked up in ``registry``."""
    ev = Evidence(registry=registry)
    codes = negotiation.modern_codes_of(registry)
    trusted = reinit_trusted(views)
    for view in views:
        seen: set[int] = set()
        for ex in view.exchanges:
            if _reinit(ex):
                if trusted:  # read as the first exchange of a fresh process
                    _initialize(ex, ev, True)
                continue
            if ex.method == "initialize":
                _initialize(ex, ev, ex.generation not in seen)
            elif modern_version(ex.request) is not None:
                _modern(ex, ev, codes)
            _unknown(ex, ev, codes, ex.generation not in seen)
            seen.add(ex.generation)
            _not_found(ex, ev)
            if ex.method == "tools/list" and ex.result is not None and untyped_tools(ex.result):
                ev.untyped_tools = True
            ev.alive = ev.alive or (ex.fate == "answered" and not ex.synthesized)
        if view.prober:
            _sticky(view, ev, codes)
        else:
            _sticky_after(view, ev, codes)
        ev.asks_roots = ev.asks_roots or _asks_roots(view)
        dialect, missing = outputs_seen(view.exchanges, registry)
        ev.output_dialect = ev.output_dialect or dialect
        ev.no_structured = ev.no_structured or missing
    return ev


def _reinit(ex: Exchange) -> bool:
    """One of the fast probe's extra initializes in the oldest client's process."""
    return ex.method == "initialize" and str(ex.request.get("id", "")).startswith(
        "mcp-skew-reinit-")


def _answer_kind(ex: Exchange) -> str | None:
    if ex.fate != "answered" or ex.synthesized:
        return None
    if ex.result is not None:
        return f"result {ex.result.get('protocolVersion')}"
    return f"error {ex.code}"


def reinit_trusted(views: list[RunView]) -> bool:
    """The extra initializes (``_fast.reinitialize``) are read as first exchanges only when
    their control, the newest revision's initialize asked again last, got what that
    initialize got as the first request of a fresh process: a server that answers a second
    initialize otherwise (refuses it, keeps the first revision) says nothing here of the
    clients that would open with one."""
    control = next((ex for v in views for ex in v.exchanges
                    if ex.request.get("id") == REINIT_CONTROL), None)
    if control is None or _answer_kind(control) is None:
        return False
    asked = control.params.get("protocolVersion")
    fresh = [_answer_kind(group[0]) for v in views if not v.prober
             for group in _processes(v.exchanges)
             if group[0].method == "initialize" and not _reinit(group[0])
             and group[0].params.get("protocolVersion") == asked]
    return bool(fresh) and all(kind == _answer_kind(control) for kind in fresh)


def _processes(exchanges: list[Exchange]) -> list[list[Exchange]]:
    groups: dict[int, list[Exchange]] = {}
    for ex in exchanges:
        groups.setdefault(ex.generation, []).append(ex)
    return list(groups.values())


def _asks_roots(view: RunView) -> bool:
    """Whether the server sent this client a ``roots/list`` request (a message with a method
    and an id, from the server: 2024-11-05 and later ``client/roots.mdx``)."""
    return any(e.dir == "s2c" and isinstance(e.message, dict) and "id" in e.message
               and e.message.get("method") == "roots/list" for e in view.transcript.entries)


def _sticky_after(view: RunView, ev: Evidence, codes: frozenset[int]) -> None:
    """The fast probe's ``initialize`` after a modern client's session (its model step):
    refused, after modern answers in the same process."""
    for pos, ex in enumerate(view.exchanges):
        if ex.request.get("id") != "mcp-skew-initialize" or ex.result is not None \
                or ex.fate != "answered":
            continue
        if any(o.generation == ex.generation and _modern_answer(o, codes)
               for o in view.exchanges[:pos]):
            ev.sticky = True


@dataclass(frozen=True, slots=True)
class InferredPeer:
    """The server as a peer spec (None when nothing could be inferred), and why."""

    spec: PeerSpec | None
    sentence: str
    evidence: Evidence

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec.notation if self.spec else None, "sentence": self.sentence,
                "evidence": self.evidence.to_dict()}


def _most(tokens: list[str]) -> str | None:
    """The most frequent answer; ties go to the most disruptive one."""
    counts = Counter(tokens)
    if not counts:
        return None
    top = max(counts.values())
    best = [t for t in counts if counts[t] == top]
    return min(best, key=lambda t: _SEVERITY.index(t) if t in _SEVERITY else 99)


def _unknown_answer(ev: Evidence) -> str | None:
    """The most telling answer to unknown requests: before initialize if seen there."""
    for early in (True, False):
        answer = _most([t for t, b in ev.unknown if b is early])
        if answer is not None:
            return answer
    return _most(ev.early_known)


def _not_found_code(ev: Evidence, kind: str) -> str | None:
    """The one code a missing resource gets, when it is not what each revision expects.

    Only sessions of an era the server serves count (a modern request a legacy
    server ran under legacy rules says nothing about its modern answers).
    """
    eras = {"legacy": {Era.LEGACY}, "modern": {Era.MODERN}}.get(kind, {Era.LEGACY, Era.MODERN})
    seen = [(code, rev) for code, rev in ev.not_found if ev.registry.get(rev).era in eras]
    codes = {code for code, _ in seen}
    if len(codes) != 1:
        return None
    code = codes.pop()
    profiles = [ev.registry.get(rev) for _, rev in seen]
    expected = {p.error(p.settings["resource_not_found"]).code for p in profiles}
    return str(code) if expected != {code} else None


def _rejects(ev: Evidence) -> bool:
    """Refuses what it does not support: known revisions if any were asked, else the bogus one."""
    unsupported = {r for r in ev.asked if _era(ev.registry, r) is Era.LEGACY} - ev.legacy
    if unsupported:
        return bool(unsupported & ev.rejected)
    return BOGUS_REVISION in ev.rejected


def _kind(ev: Evidence) -> str | None:
    if ev.legacy and ev.modern:
        return "dual"
    if ev.legacy:
        return "legacy"
    return "modern" if ev.modern else None


def _unknown_quirks(kind: str, ev: Evidence) -> tuple[list[str], list[str]]:
    quirks: list[str] = []
    extra: list[str] = []
    answer = _unknown_answer(ev)
    if answer in _UNKNOWN_QUIRK:
        quirks.append(_UNKNOWN_QUIRK[answer])
    elif answer not in (None, "-32601", "result", "http-404", "http-405"):
        # any error but -32601 sends dual-era clients down the same path as -32602
        quirks.append("unknown-32602")
        what = f"HTTP {answer[5:]} without a JSON-RPC body" if answer.startswith("http-") \
            else f"error {answer}"
        extra.append(f"{what} on unknown requests (simulated as -32602)")
    if _most(ev.early_known) == "-32602" and answer not in ("-32602", None):
        quirks.append("early-32602")
    if kind == "legacy" and ev.served_early:
        quirks.append("lenient")
    if ev.early_tools_32603:
        quirks.append("early-tools-32603")
    return quirks, extra


def _quirks(kind: str, ev: Evidence) -> tuple[list[str], list[str]]:
    """Quirk texts for the spec, and extra phrases for the sentence."""
    quirks: list[str] = []
    extra: list[str] = []
    if kind in ("legacy", "dual"):
        if ev.echo:
            quirks.append("echo")
        elif _rejects(ev):
            quirks.append("reject")
        more, extra = _unknown_quirks(kind, ev)
        quirks += more
    if kind in ("modern", "dual"):
        quirks += [q for q, on in (("no-result-type", ev.no_result_type),
                                   ("no-cache-hints", ev.no_cache_hints)) if on]
    if kind == "modern" and ev.initialize_32022:
        quirks.append("legacy-32022")
    if kind == "dual" and ev.sticky:
        quirks.append("sticky-era")
    if kind == "dual" and ev.discover_legacy:
        quirks.append("discover-legacy")
    if kind in ("modern", "dual") and ev.discover_incomplete:
        quirks.append("discover-incomplete")
    if ev.untyped_tools:
        quirks.append("untyped-input-schema")
    # the tool-output traits a client refuses (docs/calls.md), not the schemas themselves
    dialect = _OUTPUT_DIALECTS.get(ev.output_dialect or "")
    quirks += [q for q, on in ((dialect, dialect is not None),
                               ("no-structured-content", ev.no_structured)) if on and q]
    if kind in ("legacy", "dual") and ev.asks_roots:
        quirks.append("asks-roots")
    code = _not_found_code(ev, kind)
    if code is not None:
        quirks.append(f"not-found-code={code}")
    return quirks, extra


def infer(ev: Evidence, label: str = "") -> InferredPeer:
    """The simplest peer spec that behaves like the evidence, with its sentence."""
    kind = _kind(ev)
    if kind is None:
        why = ("no initialize was answered with the revision asked and no modern answer "
               "named a revision")
        return InferredPeer(None, f"does not behave like any peer mcp-skew can simulate: {why}",
                            ev)
    legacy = ev.legacy
    if kind == "dual" and ev.echo and ev.discover_listed:
        # an echoing initialize accepts any revision asked: what the server supports is what
        # its DiscoverResult lists (discover-legacy), and a dual client that reads that list
        # asks for one of those
        legacy = ev.discover_listed
    revs = ev.registry.ordered(sorted(legacy | ev.modern))
    quirks, extra = _quirks(kind, ev)
    notation = f"{kind}:{','.join(revs)}" + "".join(f"+{q}" for q in quirks)
    try:
        spec = parse_peer(notation, "server", ev.registry)
    except UsageError as exc:
        return InferredPeer(None, f"does not fit a peer spec: {exc}", ev)
    if label:
        spec = replace(spec, label=label, note=f"inferred by mcp-skew probe as {notation}")
    phrases = [PHRASES[q.partition("=")[0]].format(value=q.partition("=")[2]) for q in quirks
               if q.partition("=")[0] in PHRASES and not (q == "unknown-32602" and extra)]
    phrases += extra
    sentence = f"behaves like {kind}:{','.join(revs)}"
    if phrases:
        sentence += " with " + ", ".join(phrases[:-1]) + (" and " if len(phrases) > 1 else "") \
            + phrases[-1]
    return InferredPeer(spec, sentence, ev)


# -- saving and loading ------------------------------------------------------------------
def cold_start_record(startup: dict[str, Any], first_answers: list[int | None]
                      ) -> dict[str, Any] | None:
    """What a saved peer keeps of the server's start (``cold_start`` in the file): the cold
    start the probe measured (its calibrating start's first answer, ms after the process
    started), the first answers of every start it made as samples (their count and spread),
    and the load it was measured under (the 1-minute load average when the probe ended, the
    machine's CPUs). None when no start was measured. ``--servers @FILE`` reads ``ms`` as the
    server's quirk ``slow``."""
    cold = startup.get("cold_start_ms")
    if not isinstance(cold, int):
        return None
    samples = sorted(ms for ms in first_answers if ms is not None)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"ms": cold, "samples": len(samples),
            "min_ms": samples[0] if samples else cold,
            "median_ms": int(statistics.median(samples)) if samples else cold,
            "max_ms": samples[-1] if samples else cold,
            "load_1m": None if load is None else round(load, 2), "cpus": os.cpu_count(),
            "how": "the first answer after each server start of this probe, in ms from the "
                   "start; ms: the calibrating start's (docs/time.md)"}


def save_peer(peer: InferredPeer, path: str | Path, target: str, label: str, *,
              startup: dict[str, Any] | None = None,
              first_answers: list[int | None] | None = None) -> None:
    """Write the inferred peer where ``mcp-skew matrix --servers @FILE`` can read it, with the
    cold start the probe measured (``startup``: the report's; ``first_answers``: each run's
    first answer, :func:`cold_start_record`) where there is one."""
    cold_start = None if startup is None else cold_start_record(startup, first_answers or [])
    doc = {"format": PEER_FILE_FORMAT, "peer": peer.spec.notation if peer.spec else None,
           "label": label, "sentence": peer.sentence, "target": target,
           "evidence": peer.evidence.to_dict()}
    if cold_start is not None:
        doc["cold_start"] = cold_start
    write_output(path, json.dumps(doc, indent=2) + "\n", "--save-peer")

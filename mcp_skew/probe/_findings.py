"""Findings inferred from a real server's transcripts: where it departs from the revision in use.

Each finding has a stable code (:data:`mcp_skew.simulator.FINDING_CODES`, documented
in ``docs/findings.md`` from :data:`mcp_skew.simulator.findings._finding.FINDINGS`), a
severity, the index of the message in its transcript and a citation. The rules
read exchanges (:mod:`._exchanges`) and the probe-wide evidence (:mod:`._peer`):
"counter-offers a revision it does not support" needs to know which revisions
the server accepts when asked, which only the whole probe shows.

Rule: severities follow the spec's words. MUST -> ``error``, SHOULD ->
``warning``, a legacy behaviour a newer revision changed -> ``info``.
"""

from __future__ import annotations

from typing import Final

from ..simulator.findings import Finding, Severity
from ..versions import Era, Profile, Registry, unknown_fields
from ._clients import BOGUS_REVISION, MISSING_URI, UNKNOWN_METHOD
from ._exchanges import Exchange, modern_version
from ._peer import Evidence, RunView
from ._schemas import SchemaCheck
from ._verdict import Culprit

__all__ = ["RAW_LIMIT", "culprit_finding", "discover_findings", "findings_for",
           "server_findings", "tool_input_finding"]

#: Non-JSON lines reported one by one per run; the rest are counted in one finding.
RAW_LIMIT: Final = 5

_LIFECYCLE = "basic/lifecycle.mdx §Version Negotiation"
_STDIO = "basic/transports.mdx §stdio (every revision): only valid MCP messages on stdout"
_PROBE = "2026-07-28: basic/transports/stdio.mdx §Backward Compatibility"


def _newest_legacy(registry: Registry) -> str:
    return registry.ordered(registry.of_era(Era.LEGACY))[0]


def _responses(registry: Registry, rev: str) -> str:
    """Where ``rev`` says every request gets a response (the first revision: basic/messages.mdx)."""
    first = rev in registry and registry.get(rev).previous is None
    return f"{rev}: {'basic/messages.mdx' if first else 'basic/index.mdx'} §Responses"


def _raw(view: RunView) -> list[Finding]:
    """Server output that is not JSON, or JSON that is not a JSON-RPC message."""
    found: list[Finding] = []
    bad = 0
    for index, entry in enumerate(view.transcript.entries):
        if entry.dir != "s2c":
            continue
        message = entry.message
        items = message if isinstance(message, list) and message else [message]
        if isinstance(message, str):
            code, what = "not-json", f"a line that is not JSON: {message[:80]!r}"
        elif all(isinstance(m, dict) and m.get("jsonrpc") == "2.0" for m in items):
            continue
        else:
            code, what = "not-jsonrpc", f"JSON that is not a JSON-RPC 2.0 message: " \
                f"{str(message)[:80]}"
        bad += 1
        if bad <= RAW_LIMIT:
            found.append(Finding(code, "error", f"the server wrote {what}", index, _STDIO))  # type: ignore[arg-type]
    if bad > RAW_LIMIT:
        found.append(Finding("not-json", "error", f"... and {bad - RAW_LIMIT} more such lines",
                             None, _STDIO))
    return found


def _initialize(ex: Exchange, ev: Evidence) -> list[Finding]:
    asked = ex.params.get("protocolVersion")
    cite = f"{asked if asked in ev.registry else _newest_legacy(ev.registry)}: {_LIFECYCLE}"
    if ex.result is not None:
        return _answered(ex, ev, str(asked), str(ex.result.get("protocolVersion")), cite)
    if ex.error is not None and not ex.synthesized and ev.legacy and asked not in ev.legacy:
        return [Finding("rejects-instead-of-counter-offer", "warning",
                        f"initialize {asked} was refused with error {ex.code} instead of a "
                        f"counter-offer of a revision the server supports "
                        f"({', '.join(ev.registry.ordered(sorted(ev.legacy)))})",
                        ex.answer_index, cite)]
    return []


def _answered(ex: Exchange, ev: Evidence, asked: str, answered: str, cite: str) -> list[Finding]:
    at = ex.answer_index
    if asked == answered:
        if asked == BOGUS_REVISION:
            return [Finding("echoes-any-revision", "error",
                            f"initialize {asked} (a revision no server supports) was answered "
                            f"with {asked}: the server echoes whatever it is asked", at, cite)]
        return []
    if asked in ev.legacy:
        return [Finding("counter-offer-despite-support", "error",
                        f"initialize {asked} was answered with {answered}, though the server "
                        f"accepts {asked} (it MUST answer with the same version)", at, cite)]
    if answered in ev.legacy:
        return []
    if answered in ev.registry:
        why = (f"{answered} is a modern revision, which has no initialize"
               if ev.registry.get(answered).era is Era.MODERN
               else f"asked for {answered} itself, the server does not accept it")
    else:
        why = f"{answered} is not a revision mcp-skew knows, and no client here asked for it"
    return [Finding("counter-offer-unsupported", "error",
                    f"initialize {asked} was answered with {answered}: {why}", at, cite)]


def _modern_bogus(ex: Exchange, registry: Registry) -> list[Finding]:
    """A modern request for a revision nobody supports must get -32022, not service."""
    if modern_version(ex.request) != BOGUS_REVISION or ex.result is None:
        return []
    newest = registry.ordered(registry.of_era(Era.MODERN))[0]
    return [Finding("echoes-any-revision", "error",
                    f"{ex.method} for revision {BOGUS_REVISION} was served instead of refused "
                    "with -32022 UnsupportedProtocolVersion", ex.answer_index,
                    f"{newest}: basic/versioning.mdx §Protocol Version Negotiation")]


def _is_unknown(ex: Exchange, ev: Evidence) -> bool:
    """A request this server does not know: an unknown method, or modern traffic to a legacy one."""
    if ex.method == UNKNOWN_METHOD:
        return True
    early_modern = modern_version(ex.request) is not None and ex.after_initialize is None
    return early_modern and not ev.modern


def _unknown(ex: Exchange, ev: Evidence) -> list[Finding]:
    if not _is_unknown(ex, ev) or not ev.alive:
        return []  # a server that never answered anything exits whatever it is sent
    early = ex.after_initialize is None
    where = "before initialize" if early else "after initialize"
    rev = ex.after_initialize or _newest_legacy(ev.registry)
    cite = _PROBE if early else f"{_responses(ev.registry, rev)}; JSON-RPC 2.0 §5.1"
    at = ex.index
    if ex.fate == "exited" or (ex.fate == "timeout" and ex.next_fate == "exited"):
        how = "exited" if ex.fate == "exited" else \
            "did not answer, and exited when the next message arrived"
        return [Finding("crash-on-unknown", "error",
                        f"{ex.method} ({where}): the server {how}", at, cite)]
    if ex.fate == "timeout" and ex.answer is None:
        return [Finding("silent-on-unknown", "warning" if early else "error",
                        f"{ex.method} ({where}) got no answer; a client waits out its timeout",
                        at, cite)]
    if not early and ex.error is not None and ex.code != -32601:
        return [Finding("unexpected-answer", "warning",
                        f"an unknown method was answered with {ex.code}, not -32601 "
                        "Method not found", ex.answer_index, cite)]
    return []


def _not_found(ex: Exchange, registry: Registry) -> list[Finding]:
    if ex.method != "resources/read" or ex.params.get("uri") != MISSING_URI or ex.answer is None:
        return []
    rev = modern_version(ex.request) or ex.after_initialize
    if rev not in registry:
        return []
    profile = registry.get(str(rev))
    expected = profile.error(profile.settings["resource_not_found"]).code
    cite = f"{rev}: server/resources.mdx §Error Handling"
    got = ex.code
    if got == expected:
        return []
    severity: Severity
    if got == -32002 and profile.era is Era.MODERN:
        severity, why = "error", "2026-07-28 servers MUST NOT emit -32002"
    elif got == -32602:
        severity, why = "info", "the legacy code is -32002 (a SHOULD; 2026-07-28 moved to -32602)"
    else:
        severity, why = "warning", f"expected {expected}"
    what = f"error {got}" if got is not None else "a result"
    return [Finding("resource-not-found-code", severity,
                    f"a missing resource under {rev} got {what}: {why}", ex.answer_index, cite)]


def _unknown_fields(ex: Exchange, registry: Registry) -> list[Finding]:
    """Result fields the revision in use does not define, by its official schema.

    A newer revision's field reaching an older peer is the leak the no-leak rule
    forbids; a vendor field is harmless. Either way it is worth knowing (``info``).
    A method the schemas lack, or a result that does not fit its definition (the
    schema check's to report), gives none.
    """
    result = ex.result
    if result is None:
        return []
    rev = result.get("protocolVersion") if ex.method == "initialize" else None
    rev = rev or modern_version(ex.request) or ex.after_initialize
    if not isinstance(rev, str) or rev not in registry:
        return []
    extra = unknown_fields(rev, ex.method, result)
    if not extra:
        return []
    return [Finding("unknown-field", "info",
                    f"{ex.method} result carries fields {rev} does not define: "
                    f"{', '.join(extra[:8])}", ex.answer_index,
                    f"{rev}: schema.json (the result definition of {ex.method})")]


def findings_for(view: RunView, ev: Evidence, schemas: SchemaCheck | None) -> list[Finding]:
    """Every inferred finding for one run, in transcript order."""
    found = _raw(view)
    for ex in view.exchanges:
        if ex.method == "initialize":
            found += _initialize(ex, ev)
        found += _unknown(ex, ev)
        found += _modern_bogus(ex, ev.registry)
        found += _not_found(ex, ev.registry)
        found += _unknown_fields(ex, ev.registry)
        if schemas is not None:
            finding = schemas.check(ex)
            if finding is not None:
                found.append(finding)
    return sorted(found, key=lambda f: (f.index is None, f.index or 0))


def tool_input_finding(profile: Profile, got: str, index: int | None) -> Finding | None:
    """A tool input error answered as a protocol error where the revision wants isError."""
    revision = profile.revision
    if not str(profile.settings["tool_input_errors"]).startswith("tool execution error"):
        return None
    if not got.startswith("error"):
        return None
    return Finding("tool-input-error-as-protocol-error", "warning",
                   f"invalid tool arguments got {got}; from {revision} they are a tool "
                   "execution error (isError: true)", index,
                   f"{revision}: server/tools.mdx §Error Handling")



def culprit_finding(blamed: Culprit | None, ev: Evidence) -> Finding | None:
    """The request in flight when the server exited or went quiet, when it can be blamed:
    the server answers other requests, and this one is not an unknown request (those are
    ``crash-on-unknown`` and ``silent-on-unknown``)."""
    if blamed is None or not ev.alive or _is_unknown(blamed.exchange, ev):
        return None
    ex = blamed.exchange
    rev = ex.after_initialize or modern_version(ex.request) or _newest_legacy(ev.registry)
    rev = rev if rev in ev.registry else _newest_legacy(ev.registry)
    code = "server-exited" if blamed.how == "exited" else "stopped-answering"
    return Finding(code, "error", blamed.sentence(), ex.index,  # type: ignore[arg-type]
                   f"{_responses(ev.registry, rev)}; JSON-RPC 2.0 §5")


def server_findings(culprits: list[Culprit], runs: int, ev: Evidence, kind: str | None
                    ) -> list[Finding]:
    """What the whole probe shows about the server, never part of a client's verdict."""
    found: list[Finding] = []
    silent = [c for c in culprits if c.silent_before and c.how == "exited"]
    if silent and not ev.alive:
        firsts = sorted({c.exchange.method for c in silent})
        found.append(Finding(
            "server-exited", "error",
            f"the server exited before answering anything in {len(silent)} of {runs} runs, "
            f"whatever it was sent first ({', '.join(firsts)}): no request can be blamed; "
            "read its stderr", None, f"{_newest_legacy(ev.registry)}: basic/transports.mdx §stdio"))
    if kind == "legacy" and ev.served_early:
        found.append(Finding(
            "serves-before-initialize", "warning",
            "a request sent before initialize (a modern client's first request) was served "
            "under legacy rules: a 2026-07-28 client believes it speaks 2026-07-28 and does not",
            None, "2026-07-28: basic/versioning.mdx §Compatibility Matrix"))
    return found


#: the page that requires ``server/discover`` of every 2026-07-28 server
_DISCOVER = "2026-07-28: server/discover.mdx (servers MUST implement it)"
#: the error a modern server answers a discover of a revision it does not serve with
_UNSUPPORTED_VERSION = -32022


def discover_findings(views: list[tuple[int, RunView]], ev: Evidence) -> list[Finding]:
    """A server that speaks the modern era (it served modern requests, or refused
    ``initialize`` naming modern revisions) but answered a ``server/discover`` it was sent
    with another error than a modern refusal, or not at all: one server-level
    ``discover-missing``, saying where it was seen. Nothing when no discover was sent."""
    if not (ev.modern or ev.initialize_32022):
        return []
    seen: list[str] = []
    got = ""
    for index, view in views:
        if view.prober:
            continue
        for ex in view.exchanges:
            if ex.method != "server/discover" or ex.synthesized:
                continue
            if ex.result is not None or ex.code == _UNSUPPORTED_VERSION:
                continue
            seen.append(f"#{index} msg {ex.index}")
            got = got or (f"error {ex.code}" if ex.error is not None else "no answer")
    if not seen:
        return []
    served = ", ".join(ev.registry.ordered(sorted(ev.modern))) or "the modern era"
    return [Finding("discover-missing", "error",
                    f"server/discover got {got} ({', '.join(seen)}), though the server serves "
                    f"{served}: servers MUST implement it, and a dual-era client reads the "
                    "error as a legacy server", None, _DISCOVER)]

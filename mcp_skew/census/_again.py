"""A server that dies in the middle of a conversation is probed again, and its row says what
both probes saw.

A server process that exits after it has answered something, with a request in flight, may
have exited because of that request (a crash on ``tools/list``: the same in every run) or
at a moment of its own (a background task that fails a few seconds after the start: which
of a probe's exchanges it cuts short depends on the machine's load, so the same census
gives other rows from one run to the next). One probe cannot tell them apart, so the census
probes such a server once more (:func:`died_midway`) and stores (:func:`settle`):

- the first probe's row when the second saw the same verdict (status, peer, sentence,
  readiness, server identity): the exit is the server's answer, as reproducible as any;
  and when the second probe did not get going (its start failed or timed out: that says
  nothing of how the server answers);
- else a row that says the server answers differently from one probe to the next, naming
  both observations: the peer when both saw the same one (else none), each kind of client
  ready only where both probes found it so, and ``readiness["varies"]`` holding, for each
  field the probes disagree on, its two values. The two probes are ordered by their
  verdicts, not by which ran first, so the row is the same whichever order they came in.

Either way the row's report (its JSON, the detail a user reads) keeps the first probe's
whole report and adds the second one as ``again``, with ``starts`` counting both probes'
server starts. A verdict is an observation: a row says only what the two probes sent and
saw.
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = ["died_midway", "settle"]

#: what two probes of one server must agree on for its row to be one observation
VERDICT: Final = ("status", "peer", "sentence", "readiness", "server_info")
#: the readiness flags a client kind has (legacy revisions are under "legacy")
_FLAGS: Final = ("modern", "dual", "legacy_any")


def died_midway(report: Any) -> bool:
    """Did a server the probe ran exit after it had answered something, with a request in
    flight (a run's culprit: ``probe/_verdict.py``)? A server that never answered is a
    start that failed (tried twice already); one that stopped answering is waited for."""
    for run in report.runs:
        culprit = run.culprit
        if run.real and culprit is not None and culprit.how == "exited" \
                and not culprit.silent_before:
            return True
    return False


def _verdict(row: dict[str, Any]) -> dict[str, Any]:
    ready = {k: v for k, v in (row.get("readiness") or {}).items() if not k.endswith("_ms")}
    return {**{k: row.get(k) for k in VERDICT}, "readiness": ready}


def _key(row: dict[str, Any]) -> str:
    return json.dumps(_verdict(row), sort_keys=True, default=str)


def _merged_readiness(one: dict[str, Any], two: dict[str, Any]
                      ) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Each kind of client ready where both probes found it so; what differs, both ways."""
    varies: dict[str, list[Any]] = {}
    out: dict[str, Any] = {}
    for flag in _FLAGS:
        a, b = one.get(flag), two.get(flag)
        out[flag] = a if a == b else False
        if a != b:
            varies[flag] = [a, b]
    legacy: dict[str, Any] = {}
    for rev in sorted(set(one.get("legacy") or {}) | set(two.get("legacy") or {}), reverse=True):
        a, b = (one.get("legacy") or {}).get(rev), (two.get("legacy") or {}).get(rev)
        legacy[rev] = a if a == b else False
        if a != b:
            varies[f"legacy {rev}"] = [a, b]
    out["legacy"] = legacy
    for text in ("modern_reason", "dual_mark"):
        a, b = one.get(text), two.get(text)
        out[text] = a if a == b else (" / ".join(str(x) for x in (a, b)))
        if a != b:
            varies[text] = [a, b]
    # a fallback's cost is a time: the one of the probe that sorts first, where both fell back
    out["dual_fallback_ms"] = one.get("dual_fallback_ms") if out["dual"] else None
    return out, varies


def _report(first: dict[str, Any], second: dict[str, Any]) -> str | None:
    """The first probe's report with the second's as ``again`` and both probes' starts."""
    try:
        one = json.loads(first["report"]) if first.get("report") else {}
        two = json.loads(second["report"]) if second.get("report") else {}
    except ValueError:
        return first.get("report")
    if not isinstance(one, dict) or not isinstance(two, dict):
        return first.get("report")
    starts = sum(int(r.get("starts") or 0) for r in (one, two))
    return json.dumps({**one, "starts": starts, "again": two}, indent=2, sort_keys=False)


def settle(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """The row of a server probed twice (``first`` and ``second``: rows of
    :func:`~mcp_skew.census._work.run_job`'s shape, from the same job)."""
    row = {**first, "report": _report(first, second)}
    times = [r.get("probe_ms") for r in (first, second) if r.get("probe_ms") is not None]
    row["probe_ms"] = sum(times) if times else None
    if _key(first) == _key(second) or second.get("status") != "probed":
        return row  # the same verdict; or a second probe that never got going (a start that
        # failed or timed out says nothing of how the server answers: census/_work.RETRYABLE)
    one, two = sorted((first, second), key=_key)  # the same row, whichever probe came first
    ready, varies = _merged_readiness(one.get("readiness") or {}, two.get("readiness") or {})
    for field in ("status", "peer", "server_info"):
        if one.get(field) != two.get(field):
            varies[field] = [one.get(field), two.get(field)]
    same_peer = one.get("peer") == two.get("peer")
    said = [str(r.get("sentence") or r.get("error") or r.get("status")) for r in (one, two)]
    what = said[0] if said[0] == said[1] else f"one probe: {said[0]}; the other: {said[1]}"
    row.update(
        status="probed", peer=one.get("peer") if same_peer else None,
        server_info=one.get("server_info") or two.get("server_info"),
        sentence=(f"varies from one probe to the next (the server exited mid-conversation; "
                  f"probed twice, they differ on {', '.join(varies)}): {what}"),
        readiness={**ready, "varies": varies})
    return row

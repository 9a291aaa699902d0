"""Render a run as a person reads a wire log: time, direction, message.

Over HTTP a message line is the exchange as the wire has it: the request's
method, path and MCP headers, or the response's status and headers, then the
message on a line of its own.
"""

from __future__ import annotations

import json
from typing import Any

from ..transcript import Record
from ._run import RunRecord
from ._transport import rule_for

__all__ = ["render_trace", "summary_line"]

ARROWS = {"c2s": "->", "s2c": "<-"}


def _line(item: Record, width: int) -> str:
    stamp = f"{item.t_ms:>{width}} ms"
    if item.kind == "upstream":  # behind a bridge: the bridge <-> server leg
        return f"{stamp}   >  {item.text}"
    if item.is_event:
        return f"{stamp}  ..  {item.text}"
    text = item.message if isinstance(item.message, str) else json.dumps(item.message)
    if item.http is not None:
        return f"{stamp}  {ARROWS[item.dir]}  {_http_head(item.http)}\n{' ' * (len(stamp) + 6)}{text}"
    return f"{stamp}  {ARROWS[item.dir]}  {text}"


def _http_head(http: dict[str, Any]) -> str:
    """``POST /mcp  Mcp-Method: tools/list``, or ``HTTP 200 OK  Content-Type: ...``."""
    if "post_stream" in http:  # more on the response stream of a POST (features scenario)
        return (f"SSE event {http.get('sse_event', 'message')} (on the POST {http['post_stream']} "
                "stream)")
    if "stream" in http:  # a message on the HTTP+SSE stream the client's GET opened
        return f"SSE event {http.get('sse_event', 'message')} (stream GET {http['stream']})"
    if "status" in http:
        # an HTTP run's trace only: a stdio run's trace loads no HTTP
        from .http._words import REASONS  # noqa: PLC0415

        status = http["status"]
        head = f"HTTP {status} {REASONS.get(status, '')}".rstrip()
    else:
        head = f"{http.get('method', '?')} {http.get('path', '')}".rstrip()
    parts = [head, *(f"{k}: {v}" for k, v in (http.get("headers") or {}).items())]
    if http.get("sse_id") is not None:
        parts.append(f"(SSE event id {http['sse_id']})")
    return "  ".join(parts)


def summary_line(record: RunRecord) -> str:
    s = record.session
    over = "" if record.transport == "stdio" else f" over {rule_for(record.transport).title}"
    via = f"  x  {record.via.name}" if record.via is not None else ""
    head = f"{record.client.name}{via}  x  {record.server.name}{over}: "
    if s.status == "ok":
        said = f"{s.revision} ({s.era.value if s.era else '?'}, {s.mark})"
        if record.failed_step is not None:  # connects, then fails
            return head + f"failed after connecting on {said}: {record.reason}"
        return head + f"ok, {said}"
    return head + f"failed: {s.reason}"


def render_trace(record: RunRecord) -> str:
    """The transcript as a wire log, then the path and the outcome."""
    timeline = record.transcript.timeline()
    width = max((len(str(i.t_ms)) for i in timeline), default=1)
    lines = [summary_line(record), ""]
    lines += [_line(item, width) for item in timeline]
    lines += ["", "path: " + " -> ".join(record.session.path)]
    if record.via is not None:
        lines.append(f"upstream path ({record.via.name}): " + (
            "; ".join(record.upstream_path) or "nothing reached the server"))
    if record.steps:
        lines.append("steps:")
        lines += [f"  {'ok  ' if st.ok else 'FAIL'} {st.name}: expected {st.expected}, got {st.got}"
                  for st in record.steps]
    if record.features_lost:
        lines.append("features lost: " + ", ".join(record.features_lost))
    findings = [*record.session.findings, *record.findings]
    for f in findings:
        lines.append(f"finding [{f.severity}] {f.code}: {f.message} ({f.cite})")
    return "\n".join(lines)

"""The wire: real transports, the same :class:`~mcp_skew.simulator.Link` over a real server.

The simulator core never does I/O (it imports nothing but :mod:`mcp_skew.versions`);
these links do, feeding it the same events as the in-memory link. :class:`StdioLink` runs a
server command (an argument list, never a shell) and speaks newline-delimited
JSON on its stdin and stdout; :class:`HttpLink` speaks Streamable HTTP, with the
deprecated HTTP+SSE transport where a legacy client would try it. Both record a
wall-clock transcript (milliseconds since the link opened) as messages arrive,
bound every wait, and can write each transcript record to a :class:`Recorder` at
once (:class:`JsonlRecorder` writes the transcript format of
``mcp_skew.transcript`` as JSON Lines, and the server's stderr beside them).

Public API: :class:`StdioLink`, :class:`HttpLink`, :class:`Limits`,
:class:`JsonlRecorder`, :class:`TransportError` (the SSE parser is
:mod:`mcp_skew.simulator.http`'s). Shared (internal, for the probe's authorization
discovery and the census): :func:`send`, the one real HTTP client (an
:class:`~mcp_skew.simulator.http.HttpRequest` sent within a :class:`Deadline`, bounded
in all, http(s) only), :func:`read_capped`.
"""

from __future__ import annotations

from ._base import JsonlRecorder, Limits, TransportError, open_new
from ._deadline import Deadline, read_capped
from ._procs import end, family_usage, spawn
from .http import HttpLink, send
from .stdio import StdioLink

__all__ = [
    "Deadline",
    "HttpLink",
    "JsonlRecorder",
    "Limits",
    "StdioLink",
    "TransportError",
    "end",
    "family_usage",
    "open_new",
    "read_capped",
    "send",
    "spawn",
]

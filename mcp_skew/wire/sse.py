"""A server-sent events parser, sans I/O: text in, events out.

The parser lives in the simulator (:mod:`mcp_skew.simulator._sse`), whose HTTP
client side reads SSE bodies with it too; this module keeps its import path.
"""

from __future__ import annotations

from ..simulator._sse import SseEvent, SseParser

__all__ = ["SseEvent", "SseParser"]

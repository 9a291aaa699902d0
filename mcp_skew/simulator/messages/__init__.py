"""JSON-RPC messages as MCP sends them: building, encoding and decoding, sans I/O.

``_wire`` builds the messages a simulated peer sends (requests, notifications,
results, errors, the ``_meta`` keys and capabilities a revision's profile names);
``_decode`` reads one stdio line or one HTTP body with the limits of
:mod:`mcp_skew._jsontext` into a message or :class:`Junk` (why it is none);
``_json`` is the encoding a message crosses a link with.

Shared with mcp-skew's other packages (internal: importable, no promise between versions):
the ``_meta`` keys (:data:`VERSION_KEY`, :data:`CAPS_KEY`, :data:`CLIENT_INFO_KEY`,
:data:`SERVER_INFO_KEY`), :func:`notification`, :func:`request_text` (the probe's own
clients, the annotation of logs). The decoder of a raw line is the simulator's own (its
:class:`~mcp_skew.simulator.StdioServer` answers ``serve``'s lines with it).
"""

from __future__ import annotations

from ._wire import (
    CAPS_KEY,
    CLIENT_INFO_KEY,
    SERVER_INFO_KEY,
    VERSION_KEY,
    notification,
    request_text,
)

__all__ = [
    "CAPS_KEY",
    "CLIENT_INFO_KEY",
    "SERVER_INFO_KEY",
    "VERSION_KEY",
    "notification",
    "request_text",
]

"""JSON-RPC messages as MCP sends them: building, encoding and decoding, sans I/O.

``_wire`` builds the messages a simulated peer sends (requests, notifications,
results, errors, the ``_meta`` keys and capabilities a revision's profile names);
``_decode`` reads one stdio line or one HTTP body with the limits of
:mod:`mcp_skew._jsontext` into a message or :class:`Junk` (why it is none);
``_json`` is the encoding a message crosses a link with.

Shared with mcp-skew's other packages (internal: importable, no promise between versions):
the ``_meta`` keys (:data:`VERSION_KEY`, :data:`CAPS_KEY`, :data:`CLIENT_INFO_KEY`,
:data:`SERVER_INFO_KEY`), :func:`notification`, :func:`request_text` (the probe's own
clients, the annotation of logs); the decoder of a raw line (:func:`decode_rpc`,
:func:`batch_element`, :func:`unbatched_methods`, :class:`Junk`, :data:`PARSE_ERROR`) and
:func:`describe_message`, a few words about a message for a log (``serve``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ._wire import (
    CAPS_KEY,
    CLIENT_INFO_KEY,
    SERVER_INFO_KEY,
    VERSION_KEY,
    describe_message,
    notification,
    request_text,
)

if TYPE_CHECKING:
    from ._decode import PARSE_ERROR, Junk, batch_element, decode_rpc, unbatched_methods

__all__ = [
    "CAPS_KEY",
    "CLIENT_INFO_KEY",
    "PARSE_ERROR",
    "SERVER_INFO_KEY",
    "VERSION_KEY",
    "Junk",
    "batch_element",
    "decode_rpc",
    "describe_message",
    "notification",
    "request_text",
    "unbatched_methods",
]

#: The decoder of a raw line, read on first use: the simulator's own links cross decoded
#: messages (``_json``); only a real peer's lines (``serve``) and HTTP bodies are decoded.
_DECODER: Final = frozenset(
    {"PARSE_ERROR", "Junk", "batch_element", "decode_rpc", "unbatched_methods"})


def __getattr__(name: str) -> Any:
    if name not in _DECODER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _decode  # noqa: PLC0415 - on first use (see _DECODER)

    value = getattr(_decode, name)
    globals()[name] = value  # read once
    return value

"""One decoding path for a JSON-RPC message from the wire: a message, or junk with its error.

Theory of operation
-------------------
:func:`decode_rpc` reads one stdio line or one HTTP body with the limits of
:mod:`mcp_skew._jsontext` (size, nesting, integer digits; lone surrogates kept as
data) and says what it is, as a value, never an exception:

- :class:`Parsed`: a JSON object (one message) or a non-empty JSON array (a batch,
  which the reader serves or refuses by its revisions' ``batching`` setting);
- :class:`Junk`: anything else, with the JSON-RPC error the spec gives it
  (`JSON-RPC 2.0 §5.1 <https://www.jsonrpc.org/specification#error_object>`_):
  ``-32700 Parse error`` ("Invalid JSON was received by the server"; text that is
  not JSON, or over a limit) or ``-32600 Invalid Request`` ("The JSON sent is not
  a valid Request object": a JSON scalar, an empty array, an object whose
  ``jsonrpc`` is not ``"2.0"``, whose ``method`` is not a string, or whose
  ``params`` is neither an object nor an array, JSON-RPC 2.0 §4 and §4.2).

Every revision's base protocol page carries these codes (``basic/index.mdx``
§Messages: "All messages between MCP clients and servers MUST follow the
JSON-RPC 2.0 specification"; the schema's ``PARSE_ERROR``/``INVALID_REQUEST``
constants, 2024-11-05 onwards). The error's ``id`` is null where it could not be
read (JSON-RPC 2.0 §5: "If there was an error in detecting the id in the Request
object (e.g. Parse error/Invalid Request), it MUST be Null"), else the id given.

Inside a batch, :func:`batch_element` also refuses, as ``-32600`` for that element, a
request that a revision which allows batches keeps out of them (the profile's
``unbatched_methods``: 2025-03-26 ``basic/lifecycle.mdx`` §Initialization, "The
initialize request MUST NOT be part of a JSON-RPC batch"); the other elements are served.

A reader that serves answers :meth:`Junk.error`; a reader that records logs
:attr:`Junk.reason` and goes on. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from ..._jsontext import WIRE, JsonLimits, JsonTextError, loads
from ...versions import Message, Profile

__all__ = ["INVALID_REQUEST", "PARSE_ERROR", "Decoded", "Junk", "Parsed", "batch_element",
           "check_message", "decode_rpc", "invalid_reason", "unbatched_methods"]

PARSE_ERROR: Final = -32700  #: JSON-RPC 2.0 §5.1 "Parse error"
INVALID_REQUEST: Final = -32600  #: JSON-RPC 2.0 §5.1 "Invalid Request"
_TITLES: Final = {PARSE_ERROR: "Parse error", INVALID_REQUEST: "Invalid request"}


@dataclass(frozen=True, slots=True)
class Parsed:
    """A JSON-RPC message (a dict) or a non-empty batch (a list) read from the wire."""

    value: Message | list[Any]


@dataclass(frozen=True, slots=True)
class Junk:
    """A line or body that is no JSON-RPC message: why, and the error it is answered with."""

    code: int  #: :data:`PARSE_ERROR` or :data:`INVALID_REQUEST`
    reason: str  #: a few words, one line (``nested deeper than 128 levels``)
    id: str | int | None = None  #: the request's id where it could be read

    def error(self) -> Message:
        """The JSON-RPC error response to send back."""
        return {"jsonrpc": "2.0", "id": self.id,
                "error": {"code": self.code, "message": f"{_TITLES[self.code]}: {self.reason}"}}


Decoded = Parsed | Junk


def _valid_id(value: Any) -> bool:
    """A string or an integer (``basic/index.mdx`` §Requests: "a string or integer ID")."""
    return isinstance(value, str | int) and not isinstance(value, bool)


def invalid_reason(message: Any) -> str | None:
    """Why one JSON value is not a JSON-RPC 2.0 message (§4, §4.2, §5), or None if it is.

    Only what JSON-RPC itself requires is checked; what MCP adds (the id may not be
    null, the method must be known) is the simulated peer's to judge.
    """
    if not isinstance(message, dict):
        return f"not an object but {_kind(message)}"
    if message.get("jsonrpc") != "2.0":
        return 'no "jsonrpc": "2.0"'
    if "method" in message:
        if not isinstance(message["method"], str):
            return "the method is not a string"
        if "params" in message and not isinstance(message["params"], dict | list):
            return "params is neither an object nor an array"
    elif "result" not in message and "error" not in message:
        return "neither a request, a notification nor a response"
    return None


def _kind(value: Any) -> str:
    return {bool: "a boolean", str: "a string", int: "a number", float: "a number",
            list: "an array", type(None): "null"}.get(type(value), "a value")


def decode_rpc(text: str | bytes, limits: JsonLimits = WIRE) -> Decoded:
    """What one line or body is: :class:`Parsed`, or :class:`Junk` with its error."""
    try:
        value = loads(text, limits)
    except JsonTextError as exc:
        return Junk(PARSE_ERROR, exc.msg)
    if isinstance(value, list):
        return Parsed(value) if value else Junk(INVALID_REQUEST, "an empty batch")
    return check_message(value)


def check_message(value: Any) -> Decoded:
    """One decoded value (a whole message, or one element of a batch) as a message or junk."""
    reason = invalid_reason(value)
    if reason is not None:
        msg_id = value.get("id") if isinstance(value, dict) else None
        return Junk(INVALID_REQUEST, reason, msg_id if _valid_id(msg_id) else None)
    return Parsed(value)


def unbatched_methods(profiles: Iterable[Profile]) -> frozenset[str]:
    """The requests a batch may not carry: those of every profile here that allows batches."""
    return frozenset().union(*(p.names("unbatched_methods") for p in profiles
                               if p.settings.get("batching")))


def batch_element(value: Any, unbatched: frozenset[str]) -> Decoded:
    """One element of a batch: :func:`check_message`, and a request named in ``unbatched``
    is an Invalid Request with its id (JSON-RPC 2.0 §6: each element is answered alone)."""
    checked = check_message(value)
    if isinstance(checked, Junk) or not isinstance(checked.value, dict):
        return checked
    method = checked.value.get("method")
    if method not in unbatched:
        return checked
    msg_id = checked.value.get("id")
    return Junk(INVALID_REQUEST, f"{method} MUST NOT be part of a JSON-RPC batch",
                msg_id if _valid_id(msg_id) else None)

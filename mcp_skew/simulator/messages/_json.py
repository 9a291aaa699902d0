"""JSON text as the simulated wire carries it: ``json.dumps`` and ``json.loads``, set up once.

The in-memory link encodes every message to JSON text and decodes it on the
other side, as a real wire does (:mod:`._link`). It does so a dozen times a
run, so the per-call setup of ``json.dumps`` (building the C encoder each time)
and ``json.loads`` (two whitespace scans around the value) is a large share of
the cost of a message. Here the C encoder is built once with ``json.dumps``'s
defaults and the decoder's scanner (what ``raw_decode`` runs) reads the text:

- :func:`encode` gives exactly the text ``json.dumps(message)`` gives;
- :func:`decode` gives what ``json.loads(text)`` gives for text with no
  whitespace around the value (what :func:`encode` writes); anything left
  after the value is an error, as there;
- :func:`cross` is one then the other: a message as the other side reads it.

A :class:`Sealed` message carries the text it encodes to, made where that text is known
already (a request the simulated client sends again and again, :func:`._wire.sealed_request`):
:func:`cross` then decodes that text, and skips encoding it again. The other side still
reads a fresh decode, as from any wire.

Without the C accelerator (an interpreter that has none), the text comes from
``json.JSONEncoder().encode``: the same text, the slower way.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any, Final

__all__ = ["Sealed", "cross", "decode", "encode"]

_DEFAULTS: Final = json.JSONEncoder()  #: json.dumps's settings: ensure_ascii, ", ", ": "
_DECODER: Final = json.JSONDecoder()
#: The scanner ``json.loads`` runs (``JSONDecoder.raw_decode`` calls it): ``(value, end)``
#: for the value at an index, StopIteration where there is none.
_scan: Final[Callable[[str, int], tuple[Any, int]]] = getattr(
    _DECODER, "scan_once", _DECODER.raw_decode)


def _c_encoder() -> Callable[[Any, int], Sequence[str]] | None:
    """The C encoder ``json.dumps`` builds on every call, built once; None without it."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    # the arguments JSONEncoder.iterencode passes for json.dumps's defaults, but for the
    # circular-reference markers: a message is a tree the simulator built, or decoded
    encoder: Callable[[Any, int], Sequence[str]] = make(
        None, _DEFAULTS.default, json.encoder.encode_basestring_ascii, None,
        _DEFAULTS.key_separator, _DEFAULTS.item_separator, _DEFAULTS.sort_keys,
        _DEFAULTS.skipkeys, _DEFAULTS.allow_nan)
    return encoder


_C_ENCODER: Final = _c_encoder()


class Sealed(dict[str, Any]):
    """A message and its JSON text: ``text`` is ``encode(message)``, what :func:`cross` reads.

    Whoever makes one promises that nothing changes it before it crosses: the simulated
    client's requests, which go from the client to the link as they were made. A copy of
    one is a plain dict (``copy.copy``, ``copy.deepcopy``, ``dict.copy``, ``dict(...)``),
    so that a copy changed on the way (a bridge rewriting a request) is encoded afresh.
    """

    __slots__ = ("text",)
    text: str

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as the plain dict it is
        return dict, (dict(self),)


def encode(message: Any) -> str:
    """``json.dumps(message)``: the same text."""
    if _C_ENCODER is None or isinstance(message, str):  # a bare string is one chunk there too
        return _DEFAULTS.encode(message)
    return "".join(_C_ENCODER(message, 0))


def decode(text: str) -> Any:
    """``json.loads(text)`` for text :func:`encode` wrote (nothing around the value)."""
    try:
        value, end = _scan(text, 0)
    except StopIteration as stop:
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def cross(message: Any) -> Any:
    """``decode(encode(message))`` in one call (the link crosses every message); a
    :class:`Sealed` message's own text is decoded."""
    if type(message) is Sealed:
        text = message.text
    elif _C_ENCODER is None or isinstance(message, str):
        text = _DEFAULTS.encode(message)
    else:
        text = "".join(_C_ENCODER(message, 0))
    try:
        value, end = _scan(text, 0)
    except StopIteration as stop:  # not reached: the text is JSON just written
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value

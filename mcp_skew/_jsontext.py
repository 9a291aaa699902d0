"""JSON text from outside, read and written with limits: the one path every reader takes.

Theory of operation
-------------------
Everything mcp-skew reads as JSON from outside (a wire line or body, a log, a
profile file, ``--args``, a ``matrix --from`` document, an ``@FILE`` peer) goes
through :func:`loads`, which turns every way :func:`json.loads` can fail or
mislead into one :class:`JsonTextError` (a :class:`ValueError`) with a short reason:

- **size**: text longer than :attr:`JsonLimits.max_chars` is refused before it is read;
- **nesting**: arrays and objects nested deeper than :attr:`JsonLimits.max_depth`
  are refused before the parser (a recursive C scanner) sees them, so 100,000
  ``[`` give an error, never a :class:`RecursionError`;
- **integers** longer than :attr:`JsonLimits.max_int_digits` digits are refused
  (Python's own ``int`` limit, 4,300 digits, raises a bare :class:`ValueError`);
- **not JSON**: ``NaN``, ``Infinity`` and ``-Infinity`` are no JSON values
  (RFC 8259 §6: "Numeric values that cannot be represented ... such as Infinity
  and NaN are not permitted"), nor is a number too large for a float (``1e400``),
  which would come back out as ``Infinity``.

Lone surrogates are data on the wire and in logs (:data:`WIRE`, :data:`FILE`):
``"\\ud800"`` decodes to a one-character string, and :func:`dumps` /
:func:`dump_line` write any value back as valid UTF-8 (escaping with ``\\uXXXX`` what
UTF-8 cannot carry), so writing a value read here never raises :class:`UnicodeEncodeError`.
A document a person gives (a profile, a ``matrix --from`` document, an ``@FILE`` peer:
:data:`DOCUMENT`) is shown and obeyed, not relayed: a lone surrogate there is refused
with its place (:func:`check_text`).

:func:`check_depth` bounds the nesting of a value that came from elsewhere (a TOML
document: ``a.b.c...`` dotted keys nest tables without a bracket).

This module is a leaf: it does no I/O and imports nothing of mcp-skew, so the
profiles (:mod:`mcp_skew.versions`) and the pure simulator can use it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "DEFAULT",
    "DOCUMENT",
    "FILE",
    "WIRE",
    "JsonLimits",
    "JsonTextError",
    "check_depth",
    "check_text",
    "dump_line",
    "dumps",
    "loads",
    "to_json",
]


@dataclass(frozen=True, slots=True)
class JsonLimits:
    """What :func:`loads` accepts."""

    max_chars: int = 64 << 20  #: the text's length, in characters
    max_depth: int = 128  #: arrays and objects inside each other
    max_int_digits: int = 4300  #: digits of one integer (Python's default int limit)
    #: whether a string may hold a lone surrogate (data on the wire and in logs; not in a
    #: document a person gives, :data:`DOCUMENT`)
    lone_surrogates: bool = True


#: Wire messages: a line or an HTTP body.
WIRE: Final = JsonLimits()
#: Files a person gives (profiles, peers, ``--args``, matrix documents).
FILE: Final = JsonLimits(max_chars=64 << 20)
DEFAULT: Final = WIRE
#: Documents a person gives and a command reads back to show or to obey (profiles,
#: ``matrix --from`` documents, ``@FILE`` peers): as :data:`FILE`, and no lone surrogates.
DOCUMENT: Final = JsonLimits(max_chars=64 << 20, lone_surrogates=False)


class JsonTextError(ValueError):
    """Text that is not JSON, or JSON over a limit; ``msg`` says which, in a few words."""

    def __init__(self, msg: str, pos: int | None = None) -> None:
        super().__init__(msg if pos is None else f"{msg} (at character {pos})")
        self.msg = msg
        self.pos = pos


# -- reading ---------------------------------------------------------------------------

#: A JSON string, escapes included (unrolled, so a long string is one fast match).
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET: Final = re.compile(r"[\[\]{}]")
_OPEN: Final = frozenset("[{")


def _text_depth_over(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (a cheap count first)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in _OPEN:
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _hooks(limits: JsonLimits) -> json.JSONDecoder:
    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > limits.max_int_digits:
            raise JsonTextError(f"an integer of {len(digits.lstrip('-'))} digits "
                                f"(at most {limits.max_int_digits})")
        return int(digits)

    def parse_float(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise JsonTextError(f"a number too large for a float ({text[:20]})")
        return value

    def parse_constant(name: str) -> Any:
        raise JsonTextError(f"{name} is not JSON")

    return json.JSONDecoder(parse_int=parse_int, parse_float=parse_float,
                            parse_constant=parse_constant)


_DECODERS: dict[JsonLimits, json.JSONDecoder] = {}


def loads(text: str | bytes, limits: JsonLimits = DEFAULT) -> Any:
    """The JSON value of ``text``; :class:`JsonTextError` when it is not JSON or over a limit.

    Bytes are read as UTF-8, invalid bytes kept as lone surrogates (``surrogateescape``).
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > limits.max_chars:
            raise JsonTextError(f"{len(text)} bytes (at most {limits.max_chars})")
        text = bytes(text).decode("utf-8", "surrogateescape")
    if len(text) > limits.max_chars:
        raise JsonTextError(f"{len(text)} characters (at most {limits.max_chars})")
    if _text_depth_over(text, limits.max_depth):
        raise JsonTextError(f"nested deeper than {limits.max_depth} levels")
    decoder = _DECODERS.get(limits)
    if decoder is None:
        decoder = _DECODERS.setdefault(limits, _hooks(limits))
    try:
        value = decoder.decode(text)
    except JsonTextError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonTextError(exc.msg, exc.pos) from None
    except (ValueError, RecursionError) as exc:  # not reached with the checks above
        raise JsonTextError(str(exc).split("\n")[0][:200]) from None
    if not limits.lone_surrogates and (_RAW_SURROGATE.search(text)
                                       or _ESCAPED_SURROGATE.search(text)):
        check_text(value)  # (a pair is no error: only a text with a surrogate is walked)
    return value


#: A surrogate code point in text, and one written as a JSON escape (a pair is two of them).
_RAW_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def check_text(value: Any) -> None:
    """Raise :class:`JsonTextError` when a string or key in ``value`` holds a lone surrogate
    (a surrogate code point that is not half of a pair: ``"\\ud800"``, or a byte that was
    not UTF-8, read as one by ``surrogateescape``). It is no character: RFC 8259 §8.2 leaves
    what a reader does with one "unpredictable", and it cannot be written as UTF-8 (a
    terminal, a report), so a document a person gives is refused at once, with the place.
    Iterative: a value of any depth is walked without recursion."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            found = _RAW_SURROGATE.search(item)
            if found:
                raise JsonTextError(f"{where or 'the document'}: a string holds a lone surrogate "
                                    f"(U+{ord(found.group()):04X}), which is not text; write "
                                    "the character itself, or a surrogate pair")
        elif isinstance(item, dict):
            for key, child in item.items():
                place = f"{where}.{_shown_key(key)}" if where else _shown_key(key)
                stack.append((child, place))
                stack.append((key, f"{place} (the key)"))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(item))


def _shown_key(key: Any) -> str:
    """A key as a place names it: its surrogates written as ``\\uXXXX`` (printable)."""
    text = str(key)[:60]
    return _RAW_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def check_depth(value: Any, max_depth: int = DEFAULT.max_depth) -> None:
    """Raise :class:`JsonTextError` when lists and dicts in ``value`` nest deeper than the
    limit (iterative: a value of any depth is measured without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth >= max_depth:
                raise JsonTextError(f"nested deeper than {max_depth} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


# -- writing ---------------------------------------------------------------------------

def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)``, but text that always encodes
    as UTF-8: where a string holds a lone surrogate, the whole value is written with
    ``ensure_ascii=True`` (``\\ud800`` as six ASCII characters, as it came in)."""
    text = json.dumps(value, ensure_ascii=False, **options)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, **options)
    return text


def to_json(data: Any) -> str:
    """Stable JSON: sorted keys, two-space indent, ending in a newline (the JSON views of
    profiles and diffs, ``versions``, ``show``, ``diff``, and the migration guides')."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dump_line(value: Any) -> bytes:
    """One message as a compact line of UTF-8, ``\\n`` included; never raises on a string."""
    return (dumps(value, separators=(",", ":")) + "\n").encode("utf-8")

"""Numbers a person writes (quirk values, ports, counts, seconds), checked before use.

``int()`` and ``float()`` accept far more than a person means: Unicode digits
(``int("٣")`` is 3; ``"²".isdigit()`` is true but ``int("²")`` raises), strings of
thousands of digits (Python refuses over 4,300, with a bare :class:`ValueError`),
``nan``, ``inf`` and ``1_000``. :func:`parse_int` and :func:`parse_seconds` take
ASCII digits only, within a range, and raise :class:`ValueError` with a short reason
the caller puts in its one-line error. :func:`check_quirk_value` checks a quirk's
value by its kind (``ms``, ``count``, ``code``); a new quirk with one of these kinds
is checked with no more code. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["QUIRK_RANGES", "check_quirk_value", "parse_int", "parse_seconds"]

_INT: Final = re.compile(r"-?[0-9]{1,30}", re.ASCII)
_DECIMAL: Final = re.compile(r"[0-9]{1,12}(\.[0-9]{1,9})?|\.[0-9]{1,9}", re.ASCII)

#: The values each kind of quirk value takes: (lowest, highest, in words).
QUIRK_RANGES: Final[dict[str, tuple[int, int, str]]] = {
    "ms": (0, 86_400_000, "milliseconds"),  # up to a day
    "count": (1, 1_000_000, "a count"),
    # JSON-RPC 2.0 §5.1: "code: A Number that indicates the error type ... MUST be an integer"
    "code": (-(2**31), 2**31 - 1, "an error code"),  # 32 bits
}


def parse_int(text: str, low: int, high: int) -> int:
    """``text`` as an integer in ``[low, high]``: ASCII digits with an optional ``-``."""
    if not _INT.fullmatch(text):
        raise ValueError(f"{_show(text)} is not a whole number")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"{text} is out of range ({low} to {high})")
    return value


def parse_seconds(text: str, low: float, high: float) -> float:
    """``text`` as seconds in ``[low, high]``: ``5``, ``0.5`` (no ``nan``, ``inf``, exponent)."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"{_show(text)} is not a number of seconds")
    value = float(text)
    if not low <= value <= high:
        raise ValueError(f"{text} is out of range ({low:g} to {high:g} seconds)")
    return value


def check_quirk_value(kind: str, value: str) -> str | None:
    """Why ``value`` is no value of this kind (``ms``, ``count``, ``code``), or None if it is."""
    bounds = QUIRK_RANGES.get(kind)
    if bounds is None:
        return None
    low, high, words = bounds
    try:
        parse_int(value, low, high)
    except ValueError:
        return f"takes {words}, not {_show(value)} ({low} to {high})"
    return None


def _show(text: str) -> str:
    """The text for an error line: quoted, cut at 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text)} characters)"

"""The numbers a person gives on the command line, checked with one line and exit code 2.

An option that takes a number is parsed as text (argparse's ``type=int`` accepts
Unicode digits and prints its usage on an error) and checked by :func:`whole` or
:func:`seconds` when the command starts: ASCII digits within a range, no ``nan``,
``inf``, exponent or thousands of digits (:mod:`mcp_skew.simulator._numbers`);
a bad value is a :class:`~mcp_skew.errors.UsageError` naming the option. A default
that is already a number passes as it is.
"""

from __future__ import annotations

from ..errors import UsageError
from ..simulator._numbers import parse_int, parse_seconds

__all__ = ["seconds", "whole"]


def whole(value: str | int, option: str, low: int = 1, high: int = 10_000) -> int:
    """A whole number in ``[low, high]`` (``--jobs``, ``--width``)."""
    if isinstance(value, int):
        return value
    try:
        return parse_int(value, low, high)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def seconds(value: str | float, option: str, low: float = 0.001,
            high: float = 86_400.0) -> float:
    """Seconds in ``[low, high]`` (``--timeout 5``, ``0.5``)."""
    if isinstance(value, int | float):
        return float(value)
    try:
        return parse_seconds(value, low, high)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None

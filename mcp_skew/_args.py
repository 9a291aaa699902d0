"""The numbers and addresses a person gives on the command line, checked with one line and
exit code 2.

An option that takes a number is parsed as text (argparse's ``type=int`` accepts
Unicode digits and prints its usage on an error) and checked by :func:`whole` or
:func:`seconds` when the command starts: ASCII digits within a range, no ``nan``,
``inf``, exponent or thousands of digits (:mod:`mcp_skew._numbers`);
a bad value is a :class:`~mcp_skew.errors.UsageError` naming the option. A default
that is already a number passes as it is.

Addresses (``--http HOST:PORT``, ``--url``, ``--scheduler``) are parsed by the one
parser of :mod:`mcp_skew._input` (:func:`host_port`, :func:`url`), before anything
starts: a malformed one is never bound to, connected to, or guessed at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._input import AddressError, parse_host_port, parse_url
from ._numbers import parse_int, parse_seconds
from .errors import UsageError
from .versions import REVISION_CUTOFF, did_you_mean

if TYPE_CHECKING:
    from .versions import Registry

__all__ = ["host_port", "label", "required_revisions", "seconds", "url", "whole"]


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


def host_port(text: str, option: str, default_host: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` (port 0: any free one)."""
    try:
        return parse_host_port(text, default_host)
    except AddressError as exc:
        raise UsageError(f"{option} {text[:80]!r}: {exc}; expected [HOST:]PORT, "
                         "e.g. 127.0.0.1:8808 or [::1]:8808") from None


def url(text: str, option: str, schemes: tuple[str, ...] = ("http", "https")) -> str:
    """A URL of one of ``schemes``, its host and port checked."""
    try:
        return parse_url(text, schemes)
    except AddressError as exc:
        raise UsageError(f"{option}: {exc}") from None


def required_revisions(text: str, registry: Registry) -> tuple[str, ...]:
    """``--require REV[,REV...]``: revisions of ``registry``, in the order given."""
    revs = tuple(r.strip() for r in text.split(",") if r.strip())
    for rev in revs:
        if rev not in registry:
            raise UsageError(f"--require: unknown revision {rev!r}"
                             f"{did_you_mean(rev, registry.revisions(), REVISION_CUTOFF)}; known: "
                             + ", ".join(registry.revisions()))
    return revs


def label(value: str | None) -> str | None:
    """``--label`` (probe, probe-client), checked: a name of 1 to 200 printable characters."""
    if value is None:
        return None
    if not value.strip() or len(value) > 200 or not value.isprintable():
        raise UsageError(f"--label {value!r}: give a name of 1 to 200 printable characters")
    return value.strip()

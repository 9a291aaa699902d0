"""Every file and address a person gives mcp-skew to read (profiles, ``@FILE`` peers, logs,
``--from``; ``HOST:PORT`` and URLs).

:func:`read_capped` reads at most :data:`MAX_BYTES` (a larger file, or an endless one
such as ``/dev/zero``, is refused, not read whole) and refuses a directory;
:func:`read_user_text` also turns every failure into one line
(:class:`~mcp_skew.errors.UsageError`, exit code 2). Bytes that are not UTF-8 are
kept as lone surrogates (``surrogateescape``); JSON is then read with limits by
:func:`mcp_skew._jsontext.loads`.

Addresses are parsed strictly, before anything starts (:func:`parse_host_port`,
:func:`parse_url`): a host is a DNS name (RFC 1123 labels), an IPv4 address, or an
IPv6 address in brackets; a port is ASCII digits within its range. A bad one raises
:class:`AddressError`, whose message says what is wrong in a few words (the command
names its option: :mod:`mcp_skew.commands._args`).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from typing import TYPE_CHECKING, Any, Final

from .errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "MAX_BYTES",
    "AddressError",
    "FileTooLarge",
    "parse_host",
    "parse_host_port",
    "parse_url",
    "read_capped",
    "read_user_text",
]

#: The largest file read: far above any profile, peer, log or matrix mcp-skew writes.
MAX_BYTES: Final = 256 << 20


class FileTooLarge(ValueError):
    """A file over the cap; the message says the cap."""


def read_capped(path: str | Path, max_bytes: int = MAX_BYTES, *,
                errors: str = "surrogateescape") -> str:
    """The text of ``path`` (``-``: standard input); OSError, or :class:`FileTooLarge`
    (``errors="strict"``: :class:`UnicodeDecodeError` for bytes that are not UTF-8)."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # a text stand-in (tests) has none
        if stream is None:
            text: str = sys.stdin.read(max_bytes + 1)
            if len(text) > max_bytes:
                raise FileTooLarge(f"larger than {max_bytes} bytes; not read")
            return text
        data: bytes = stream.read(max_bytes + 1)
    else:
        data = _read_path(path, max_bytes)
    if len(data) > max_bytes:
        raise FileTooLarge(f"larger than {max_bytes} bytes; not read")
    return data.decode("utf-8", errors)


#: How long a FIFO, a pipe or a device may go without giving a byte before it is given up
#: (a FIFO with no writer gives end of file at once: opened without blocking, it is empty).
IDLE_SECONDS: Final = 30.0


def _read_path(path: str | Path, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of ``path``, opened without blocking: a FIFO with no
    writer is not waited for; one whose writer stops for :data:`IDLE_SECONDS` is refused."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb", buffering=0) as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory")
        if stat.S_ISREG(mode):
            os.set_blocking(fd, True)
            return _read_all(handle, max_bytes)
        return _read_stream(fd, max_bytes)


def _read_all(handle: Any, max_bytes: int) -> bytes:
    chunks, size = [], 0
    while size <= max_bytes:
        chunk = handle.read(max_bytes + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_stream(fd: int, max_bytes: int) -> bytes:
    import select  # noqa: PLC0415 - only for a FIFO or a device

    chunks, size = [], 0
    while size <= max_bytes:
        try:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
        except BlockingIOError:
            ready, _, _ = select.select([fd], [], [], IDLE_SECONDS)
            if not ready:
                raise TimeoutError(f"no data for {IDLE_SECONDS:g} s; given up") from None
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_user_text(path: str | Path, what: str, *, max_bytes: int = MAX_BYTES) -> str:
    """:func:`read_capped`, every failure one line: ``{what} {path}: {why}``."""
    try:
        return read_capped(path, max_bytes)
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    except FileTooLarge as exc:
        raise UsageError(f"{what} {path}: {exc}") from None
    except UnicodeEncodeError:  # a lone surrogate: no file can have that name here
        raise UsageError(f"{what} {path}: not a file name this system can encode") from None
    except ValueError as exc:  # a NUL in the name ("embedded null byte")
        raise UsageError(f"{what} {path}: not a file name ({exc})") from None


# -- addresses -----------------------------------------------------------------------------------


class AddressError(ValueError):
    """A malformed host, port, ``HOST:PORT`` or URL; the message says why, in a few words."""


_LABEL: Final = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def parse_host(text: str) -> str:
    """A host: an IPv6 address in brackets (returned without them), an IPv4 address, or a
    DNS name (RFC 1123: labels of letters, digits and inner dashes, 253 characters at most)."""
    import ipaddress  # noqa: PLC0415 - only where an address is given (not for every run)

    if text.startswith("[") or text.endswith("]"):
        inner = text[1:-1] if text.startswith("[") and text.endswith("]") else None
        try:
            if inner is None:
                raise ValueError
            return str(ipaddress.IPv6Address(inner)) if inner else _fail("[]")
        except ValueError:
            raise AddressError(f"{text!r} is not an IPv6 address in brackets") from None
    if ":" in text:
        raise AddressError(f"{text!r}: an IPv6 address goes in brackets, [{text}]")
    if text and all(part.isascii() and part.isdigit() for part in text.split(".")):
        try:
            return str(ipaddress.IPv4Address(text))
        except ValueError:
            raise AddressError(f"{text!r} is not an IPv4 address") from None
    name = text[:-1] if text.endswith(".") else text
    if not name or len(name) > 253 or not all(_LABEL.match(p) for p in name.split(".")):
        raise AddressError(f"{text[:80]!r} is not a host name")
    return text


def _fail(text: str) -> str:
    raise ValueError(text)


def _port(text: str, low: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 5 or not low <= int(text) <= 65535:
        raise AddressError(f"port {text[:20]!r} is not a number from {low} to 65535")
    return int(text)


def parse_host_port(text: str, default_host: str, *, low_port: int = 0) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); ``PORT`` alone takes
    ``default_host``. The host, when given, must be one (``:8808`` and ``]:0`` are not)."""
    if text.isascii() and text.isdigit():
        return default_host, _port(text, low_port)
    if text.startswith("["):
        inner, close, rest = text.partition("]")
        if not close or not rest.startswith(":"):
            raise AddressError(f"{text[:80]!r} is not [IPV6]:PORT")
        return parse_host(inner + "]"), _port(rest[1:], low_port)
    host, sep, port = text.rpartition(":")
    if not sep or not host:
        raise AddressError(f"{text[:80]!r} is not [HOST:]PORT")
    return parse_host(host), _port(port, low_port)


def parse_url(text: str, schemes: tuple[str, ...], *, need_port: bool = False) -> str:
    """``text``, checked: a URL of one of ``schemes`` with a valid host and port (a port
    is needed with ``need_port``); no spaces or control characters anywhere."""
    if any(c.isspace() or not c.isprintable() for c in text):
        raise AddressError("a URL has no spaces or control characters")
    import urllib.parse  # noqa: PLC0415 - only where a URL is given (not for every run)

    try:
        parts = urllib.parse.urlsplit(text)
    except ValueError:  # a "[" not closed, or no IPv6 address inside the brackets
        raise AddressError(f"{text[:80]!r}: the host is not an IPv6 address in brackets "
                           "([V6])") from None
    if parts.scheme.lower() not in schemes or not parts.netloc:
        raise AddressError(f"{text[:80]!r} is not a {' or '.join(schemes)} URL "
                           f"({schemes[0]}://HOST{':PORT' if need_port else '[:PORT]'}...)")
    hostport = parts.netloc.rpartition("@")[2]
    if hostport.startswith("[") and "]" in hostport:
        host, _, rest = hostport.partition("]")
        host += "]"
        if rest and not rest.startswith(":"):
            raise AddressError(f"{hostport[:80]!r}: after the IPv6 address comes :PORT")
        port = rest[1:] if rest else None
    else:
        host, sep, port_text = hostport.rpartition(":")
        host, port = (host, port_text) if sep else (hostport, None)
    parse_host(host)
    if port is not None:
        _port(port, 1)
    elif need_port:
        raise AddressError(f"{text[:80]!r} has no port ({schemes[0]}://HOST:PORT)")
    return text

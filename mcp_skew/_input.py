"""Every file a person gives mcp-skew to read (profiles, ``@FILE`` peers, logs, ``--from``).

:func:`read_capped` reads at most :data:`MAX_BYTES` (a larger file, or an endless one
such as ``/dev/zero``, is refused, not read whole) and refuses a directory;
:func:`read_user_text` also turns every failure into one line
(:class:`~mcp_skew.errors.UsageError`, exit code 2). Bytes that are not UTF-8 are
kept as lone surrogates (``surrogateescape``); JSON is then read with limits by
:func:`mcp_skew._jsontext.loads`.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Final

from .errors import UsageError

__all__ = ["MAX_BYTES", "FileTooLarge", "read_capped", "read_user_text"]

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
        with open(path, "rb") as handle:
            if stat.S_ISDIR(os.fstat(handle.fileno()).st_mode):
                raise IsADirectoryError(21, "Is a directory")
            data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileTooLarge(f"larger than {max_bytes} bytes; not read")
    return data.decode("utf-8", errors)


def read_user_text(path: str | Path, what: str, *, max_bytes: int = MAX_BYTES) -> str:
    """:func:`read_capped`, every failure one line: ``{what} {path}: {why}``."""
    try:
        return read_capped(path, max_bytes)
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    except FileTooLarge as exc:
        raise UsageError(f"{what} {path}: {exc}") from None

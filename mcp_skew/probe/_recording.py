"""Where a probe's client run keeps its wire log under ``--record DIR`` (one JSONL
transcript and the server's stderr per client, named by its number and spec)."""

from __future__ import annotations

import errno
import re

from ..errors import UsageError
from ..wire import JsonlRecorder
from ._target import ProbeOptions

__all__ = ["recorder"]


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", name)[:60]


def recorder(opts: ProbeOptions, index: int, name: str) -> JsonlRecorder | None:
    if opts.record_dir is None:
        return None
    stem = f"{index:02d}-{_slug(name)}"
    path = opts.record_dir / f"{stem}.jsonl"
    try:
        return JsonlRecorder(path, opts.record_dir / f"{stem}.stderr.log")
    except OSError as exc:  # a directory or a FIFO nobody reads where a transcript goes
        why = "a FIFO with no reader" if exc.errno == errno.ENXIO else exc.strerror or str(exc)
        raise UsageError(f"--record {exc.filename or path}: {why}") from None

"""Wire logs: JSON Lines, one object per line that crossed, flushed as it is written.

Format
------
Every line of a log is one JSON object. A line that crossed the wire::

    {"t": "2026-08-30T09:15:02.123456Z", "ms": 52.113, "dir": "c2s",
     "line": "{\"jsonrpc\":\"2.0\",\"id\":0,...}", "message": {...}}

- ``t``: wall-clock time (UTC, ISO 8601); ``ms``: milliseconds since the log began.
- ``dir``: ``c2s`` (client to server), ``s2c`` (server to client), ``stderr``
  (the server's standard error) or ``event`` (not a line: a start, an exit, a
  signal, an end of input).
- ``line``: the exact text of the line, without its ``\\n``. Bytes that are not
  UTF-8 are kept as lone surrogates (Python's ``surrogateescape``), so
  ``line.encode("utf-8", "surrogateescape")`` gives the bytes back.
- ``partial``: ``true`` for a last line that ended without ``\\n``.
- ``message``: the parsed JSON, when the line is JSON.
- ``http``: on a log written by ``serve --http``, the request's method, path and
  MCP headers (``c2s``) or the response status and headers (``s2c``).

An event: ``{"t", "ms", "dir": "event", "event": "exit", "text": "server exited
with code 1", ...}`` with fields of its own (``code``, ``signal``, ``argv``).

Joining the ``line`` values of one direction with ``\\n`` (and a final ``\\n``
unless the last is partial) gives back the bytes that crossed, byte for byte.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Final, Literal

from ..errors import UsageError

__all__ = [
    "DIRECTIONS",
    "NO_MESSAGE",
    "Direction",
    "LineSplitter",
    "LogEntry",
    "LogWriter",
    "decode_line",
    "read_log",
]

Direction = Literal["c2s", "s2c", "stderr", "event"]
DIRECTIONS: Final[tuple[str, ...]] = ("c2s", "s2c", "stderr", "event")


class _NoMessage:
    """The ``message`` of a line that is not JSON (distinct from a JSON ``null``)."""

    def __repr__(self) -> str:
        return "NO_MESSAGE"


NO_MESSAGE: Final = _NoMessage()


def decode_line(raw: bytes) -> str:
    """The text of a line, lossless: invalid UTF-8 bytes become lone surrogates."""
    return raw.decode("utf-8", "surrogateescape")


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return NO_MESSAGE


def _dumps(record: dict[str, Any]) -> str:
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from invalid bytes: escape them
        text = json.dumps(record, ensure_ascii=True)
    return text


class LogWriter:
    """Appends log records to a file, one line each, flushed at once; safe across threads."""

    def __init__(self, target: str | Path | IO[str], *, clock: Any = time.monotonic) -> None:
        if isinstance(target, str | Path):
            try:
                self._stream: IO[str] = open(target, "a", encoding="utf-8")  # noqa: SIM115
            except OSError as exc:
                raise UsageError(f"cannot write the log {target}: {exc.strerror}") from None
            self._owned = True
        else:
            self._stream, self._owned = target, False
        self._clock = clock
        self._start = clock()
        self._lock = threading.Lock()

    def _write(self, record: dict[str, Any]) -> None:
        now = self._clock()
        stamp = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        out = {"t": stamp, "ms": round((now - self._start) * 1000, 3), **record}
        with self._lock:
            if self._stream.closed:
                return
            self._stream.write(_dumps(out) + "\n")
            self._stream.flush()

    def line(self, direction: Direction, raw: bytes | str, *, partial: bool = False,
             **extra: Any) -> None:
        """One line that crossed (without its ``\\n``)."""
        text = decode_line(raw) if isinstance(raw, bytes) else raw
        record: dict[str, Any] = {"dir": direction, "line": text}
        if partial:
            record["partial"] = True
        message = _parse(text)
        if message is not NO_MESSAGE:
            record["message"] = message
        record.update(extra)
        self._write(record)

    def event(self, event: str, text: str, **fields: Any) -> None:
        """Something that is not a line: a start, an exit, a signal, an end of input."""
        self._write({"dir": "event", "event": event, "text": text, **fields})

    def close(self) -> None:
        with self._lock:
            if self._owned and not self._stream.closed:
                self._stream.close()


class LineSplitter:
    """Cuts a byte stream into lines (without ``\\n``); keeps the unfinished tail."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, chunk: bytes) -> list[bytes]:
        self._buf += chunk
        *lines, rest = self._buf.split(b"\n")
        self._buf = bytearray(rest)
        return [bytes(line) for line in lines]

    def finish(self) -> bytes | None:
        """The unterminated tail at the end of the stream, if any."""
        tail, self._buf = bytes(self._buf), bytearray()
        return tail or None


@dataclass(slots=True)
class LogEntry:
    """One record of a log, read back."""

    index: int
    ms: float
    dir: Direction
    line: str | None = None  #: the exact text (lines only)
    message: Any = NO_MESSAGE  #: the parsed JSON, or NO_MESSAGE
    partial: bool = False
    event: str | None = None  #: the event name (events only)
    text: str = ""  #: the event's sentence
    fields: dict[str, Any] = field(default_factory=dict)  #: everything else in the record

    @property
    def is_json(self) -> bool:
        return self.message is not NO_MESSAGE

    @property
    def http(self) -> dict[str, Any]:
        value = self.fields.get("http")
        return value if isinstance(value, dict) else {}


_KNOWN_KEYS: Final = frozenset({"t", "ms", "t_ms", "dir", "line", "message", "partial",
                                "event", "text"})


def _entry(index: int, record: dict[str, Any], t0: datetime | None) -> LogEntry:
    direction = record.get("dir")
    if direction not in DIRECTIONS:
        direction = "event" if "event" in record else None
    if direction is None:
        raise ValueError("no 'dir' (c2s, s2c, stderr or event)")
    assert isinstance(direction, str)
    ms = record.get("ms", record.get("t_ms"))
    if not isinstance(ms, int | float):
        ms = _ms_from_iso(record.get("t"), t0)
    line = record.get("line")
    message = record.get("message", NO_MESSAGE)
    if message is NO_MESSAGE and isinstance(line, str):
        message = _parse(line)
    if line is None and message is not NO_MESSAGE:
        line = json.dumps(message, separators=(",", ":"))
    extra = {k: v for k, v in record.items() if k not in _KNOWN_KEYS}
    return LogEntry(index=index, ms=float(ms), dir=direction,  # type: ignore[arg-type]
                    line=line, message=message,
                    partial=bool(record.get("partial")), event=record.get("event"),
                    text=str(record.get("text", "")), fields=extra)


def _ms_from_iso(value: Any, t0: datetime | None) -> float:
    if not isinstance(value, str) or t0 is None:
        return 0.0
    try:
        return (datetime.fromisoformat(value.replace("Z", "+00:00")) - t0).total_seconds() * 1000
    except ValueError:
        return 0.0


def _first_time(records: Iterable[dict[str, Any]]) -> datetime | None:
    for record in records:
        value = record.get("t")
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                return None
    return None


def _simulated(run: dict[str, Any]) -> list[dict[str, Any]]:
    """The transcript and events of a ``simulate --json`` run, in time order."""
    entries = [e for e in run["transcript"] if isinstance(e, dict)]
    events: list[dict[str, Any]] = []
    for note in run.get("events") or []:
        text = str(note.get("event", "")) if isinstance(note, dict) else ""
        if "exited" in text:  # the simulated server ended itself: a quirk, exit code 1
            events.append({"t_ms": note["t_ms"], "dir": "event", "event": "exit", "text": text,
                           "side": "server", "code": 1})
        elif "restarts the server" in text:
            events.append({"t_ms": note["t_ms"], "dir": "event", "event": "start", "text": text})
        elif "closes the connection" in text:
            events.append({"t_ms": note["t_ms"], "dir": "event", "event": "client-eof",
                           "text": text})
        elif text:
            events.append({"t_ms": note["t_ms"], "dir": "event", "event": "note", "text": text})
    merged = [(e.get("t_ms", 0), 0, i, e) for i, e in enumerate(entries)]
    merged += [(e["t_ms"], 1, i, e) for i, e in enumerate(events)]
    return [record for *_, record in sorted(merged, key=lambda m: m[:3])]


def _records(text: str, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of a log, and warnings about lines that could not be read."""
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.rstrip():
        # one object: a ``simulate --json`` run, whose transcript is the log
        try:
            whole = json.loads(stripped)
        except ValueError:
            whole = None
        if isinstance(whole, dict) and isinstance(whole.get("transcript"), list):
            return _simulated(whole), []
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            last = number == len(lines)
            warnings.append(f"{name}:{number}: " + ("the last record is cut short (the writer "
                                                    "stopped mid-line)" if last else
                                                    "not a JSON object; skipped"))
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            warnings.append(f"{name}:{number}: not a JSON object; skipped")
    return records, warnings


def read_log(path: str | Path) -> tuple[list[LogEntry], list[str]]:
    """Read a wire log (or a ``simulate --json`` run); returns entries and warnings.

    Raises :class:`~mcp_skew.errors.UsageError` when the file cannot be read or
    holds no record at all.
    """
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise UsageError(f"cannot read the log {path}: {exc.strerror}") from None
    records, warnings = _records(text, str(path))
    t0 = _first_time(records)
    entries: list[LogEntry] = []
    for record in records:
        try:
            entries.append(_entry(len(entries), record, t0))
        except ValueError as exc:
            warnings.append(f"{path}: record skipped: {exc}")
    if not entries and not text.strip():
        raise UsageError(f"the log {path} is empty")
    if not entries:
        raise UsageError(f"{path} is not a wire log (JSON Lines with 'dir' and 'line')")
    return entries, warnings

"""Wire logs: JSON Lines, one transcript record per line, flushed as it is written.

Format
------
The transcript format of :mod:`mcp_skew.transcript`
(``docs/transcripts.md``): a header, then one record per line that crossed::

    {"format": "mcp-skew-transcript", "format_version": 1, "source": "record", "clock": "wall"}
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
- ``cut_bytes``: on a line longer than :data:`LINE_CAP` (8 MiB), its length; ``line``
  then holds its first 8 MiB only (the line itself crossed whole).
- ``message``: the parsed JSON, when the line is JSON (left out for a line over
  :data:`MESSAGE_CAP`, 1 MiB: the reader parses ``line``).
- ``http``: on a log written by ``serve --http``, the request's method, path and
  MCP headers (``c2s``) or the response status and headers (``s2c``).

An event: ``{"t", "ms", "dir": "event", "event": "exit", "text": "server exited
with code 1", ...}`` with fields of its own (``side``, ``code``, ``signal``, ``argv``, ``pid``).

Joining the ``line`` values of one direction with ``\\n`` (and a final ``\\n``
unless the last is partial) gives back the bytes that crossed, byte for byte.

:func:`read_log` also reads the older formats, converted: logs without a header
(``ms``), the probe's recordings (``t_ms``) and ``simulate --json`` runs of either
format version (:func:`mcp_skew.transcript.load_text`). What it gives back is a
:class:`LogEntry` per record: the transcript's :class:`~mcp_skew.transcript.Record`
with its index in the log, the exact line and the wall-clock time.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, Literal

from .. import _jsontext
from .._input import read_user_text
from ..errors import UsageError
from ..transcript import Record
from ..versions import HTTP_HEADERS

if TYPE_CHECKING:
    from ..transcript import CheckedRecord

__all__ = [
    "DIRECTIONS",
    "LINE_CAP",
    "LOGGED_HEADERS",
    "MESSAGE_CAP",
    "NO_MESSAGE",
    "CutLine",
    "Direction",
    "LineSplitter",
    "LogEntry",
    "LogWriter",
    "Process",
    "decode_line",
    "entries_of",
    "entry_of",
    "header_line",
    "read_log",
    "record_line",
    "split_processes",
]

Direction = Literal["c2s", "s2c", "stderr", "event"]
DIRECTIONS: Final[tuple[str, ...]] = ("c2s", "s2c", "stderr", "event")
#: The HTTP request headers worth keeping in a log: the MCP ones of the profiles' header table
#: that say so, and the content negotiation and origin.
LOGGED_HEADERS: Final = (*(h.key for h in HTTP_HEADERS if h.logged), *HTTP_HEADERS.logged_also)


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
        return _jsontext.loads(text)
    except ValueError:
        return NO_MESSAGE


def open_log(target: str | Path) -> IO[str]:
    """``target`` opened to append text, without blocking: a FIFO that no one reads is
    refused at once (ENXIO), not waited on; UsageError (one line) when it cannot be opened."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        why = ("a FIFO with no reader" if exc.errno == errno.ENXIO
               else exc.strerror or str(exc))
        raise UsageError(f"cannot write the log {target}: {why}") from None
    os.set_blocking(fd, True)
    return open(fd, "a", encoding="utf-8")  # the writer closes it


#: The transcript format's name and version, as its header says them (the format's
#: ``FORMAT`` and ``FORMAT_VERSION``; a test holds them to the header the format writes).
_FORMAT: Final = "mcp-skew-transcript"
_FORMAT_VERSION: Final = 1
#: The keys of a record after ``t``, ``ms`` and ``dir``, in the order the transcript format
#: writes them (its ``record_dict``), by ``dir``; any other key follows, in the order given.
_KEY_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "c2s": ("line", "partial", "message", "http"),
    "s2c": ("line", "partial", "message", "http"),
    "stderr": ("line", "partial"),
    "event": ("event", "text", "side", "code", "signal", "argv", "pid", "http"),
}


def header_line(source: str) -> str:
    """The header a log begins with, as the transcript format writes it
    (``dumps(header(source, "wall"))``), without building its model."""
    return _jsontext.dumps({"format": _FORMAT, "format_version": _FORMAT_VERSION,
                            "source": source, "clock": "wall"})


def record_line(record: dict[str, Any]) -> str:
    """One record as the line the transcript format writes for it
    (``dumps(parse_record(record))``: its keys in the format's order) without building its
    checked model: the writer of every ``serve --record`` and ``record`` log, which would
    otherwise load pydantic in each served process. ``record`` is one the writer built (a
    ``dir`` of :data:`DIRECTIONS`, its values of the model's types); a test holds the two
    paths to the same bytes over drawn records."""
    out: dict[str, Any] = {}
    if "t" in record:
        out["t"] = record["t"]
    out["ms"] = record["ms"]
    out["dir"] = record["dir"]
    for key in _KEY_ORDER[record["dir"]]:
        if key in record:
            out[key] = record[key]
    if len(out) < len(record):
        for key, value in record.items():
            if key not in out:
                out[key] = value
    return _jsontext.dumps(out)


class LogWriter:
    """Appends log records to a file, one line each, flushed at once; safe across threads.

    A file that is new (or empty) starts with the transcript header, ``source``
    naming the writer (``record``, ``serve``); appending to a log adds records only.
    The lines are the transcript format's (:func:`record_line`), written without its
    checked models: reading the log back (:func:`read_log`) checks them.
    """

    def __init__(self, target: str | Path | IO[str], *, clock: Any = time.monotonic,
                 source: str = "record") -> None:
        if isinstance(target, str | Path):
            self._stream: IO[str] = open_log(target)
            self._owned = True
        else:
            self._stream, self._owned = target, False
        self._clock = clock
        self._start = clock()
        self._lock = threading.Lock()
        try:
            fresh = self._stream.tell() == 0
        except (OSError, ValueError):  # a pipe: it starts here
            fresh = True
        if fresh:
            try:
                self._put(header_line(source))
            except OSError as exc:  # /dev/full, a full disk: say so before any work starts
                self.close()
                raise UsageError(f"cannot write the log {target}: {exc.strerror or exc}"
                                 ) from None

    def _put(self, text: str) -> None:
        with self._lock:
            if self._stream.closed:
                return
            self._stream.write(text)  # no ``text + "\\n"``: a long line is not copied again
            self._stream.write("\n")
            self._stream.flush()

    def _write(self, record: dict[str, Any]) -> None:
        now = self._clock()
        stamp = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        self._put(record_line({"t": stamp, "ms": round((now - self._start) * 1000, 3),
                               **record}))

    def line(self, direction: Direction, raw: bytes | str, *, partial: bool = False,
             **extra: Any) -> None:
        """One line that crossed (without its ``\\n``)."""
        text = decode_line(raw) if isinstance(raw, bytes) else raw
        record: dict[str, Any] = {"dir": direction, "line": text}
        if partial:
            record["partial"] = True
        if isinstance(raw, CutLine):
            record["cut_bytes"] = raw.size
        elif len(text) <= MESSAGE_CAP:
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
                with contextlib.suppress(OSError):  # what a full disk could not take is lost
                    self._stream.close()


#: The longest line a wire log holds whole, in bytes. A longer line still crosses whole
#: (``record`` forwards bytes as they come); its record keeps its first ``LINE_CAP`` bytes,
#: with ``cut_bytes`` (the line's length), and a ``line-cut`` event says so. Chosen so that
#: the record of any line up to the cap, every byte escaped (six characters each), stays
#: under what :func:`read_log` reads in one record: every log ``record`` writes reads back.
LINE_CAP: Final = 8 << 20
#: A line longer than this is logged without its parsed ``message`` (the reader parses the
#: ``line`` again): the record holds the text once, not twice.
MESSAGE_CAP: Final = 1 << 20


class CutLine(bytes):
    """The first bytes of a line over the cap; ``size`` is the whole line's length."""

    size: int


class LineSplitter:
    """Cuts a byte stream into lines (without ``\\n``); keeps the unfinished tail, at most
    ``cap`` bytes of it: a longer line comes out as a :class:`CutLine` (memory stays bounded
    by the cap, whatever the line's length)."""

    def __init__(self, cap: int | None = None) -> None:
        self._buf = bytearray()
        self._cap = cap
        self._size = 0  #: the current line's length so far (beyond what is kept)

    def _keep(self, data: bytes) -> None:
        self._size += len(data)
        if self._cap is None:
            self._buf += data
        elif len(self._buf) < self._cap:
            self._buf += data[:self._cap - len(self._buf)]

    def _take(self) -> bytes:
        line: bytes = bytes(self._buf)
        if self._cap is not None and self._size > self._cap:
            line = CutLine(line)
            line.size = self._size
        self._buf, self._size = bytearray(), 0
        return line

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes. Linear in the line's length: only the new chunk is
        searched, and a long line's start is copied once, when its newline arrives."""
        if b"\n" not in chunk:
            self._keep(chunk)
            return []
        first, *lines = chunk.split(b"\n")
        rest = lines.pop()
        self._keep(first)
        done = [self._take()]
        for line in lines:
            if self._cap is None or len(line) <= self._cap:
                done.append(line)  # whole in this chunk: no copy
            else:
                self._keep(line)
                done.append(self._take())
        self._keep(rest)
        return done

    def finish(self) -> bytes | None:
        """The unterminated tail at the end of the stream, if any."""
        if not self._size:
            return None
        return self._take()


@dataclass(frozen=True, slots=True, kw_only=True)
class LogEntry(Record):
    """One record of a log, read back: a transcript :class:`~mcp_skew.transcript.Record`
    (``t_ms`` from the record's ``ms``; an event's name is its ``kind``, its other keys its
    ``fields``, in order), with its index in the log and what a read line has besides."""

    #: the parsed JSON, or NO_MESSAGE (a line that is not JSON, a stderr line, an event)
    message: Any = NO_MESSAGE
    index: int  #: the record's place in the log (0, 1, ...)
    line: str | None = None  #: the exact text (lines only)
    partial: bool = False  #: a last line that ended without a newline
    t: str | None = None  #: the wall-clock time of the record (ISO 8601), where the log has it

    @property
    def is_json(self) -> bool:
        return self.message is not NO_MESSAGE


#: The keys of a record that a :class:`LogEntry` holds as its own (the rest are its fields;
#: a message's ``http`` is its own too, an event's is a field, as in a simulated transcript).
_KNOWN_KEYS: Final = frozenset({"t", "ms", "dir", "line", "message", "partial", "event",
                                "text"})


def entry_of(index: int, record: CheckedRecord, after: int = 0) -> LogEntry:
    """A transcript record as a log entry (the line parsed where the record has no message);
    ``after``: how many messages came before it in the log."""
    from ..transcript import record_dict  # noqa: PLC0415  (the checked models: when read)

    data = record_dict(record)
    line = data.get("line")
    message = data.get("message", NO_MESSAGE)
    if message is NO_MESSAGE and isinstance(line, str):
        message = _parse(line)
    if line is None and message is not NO_MESSAGE:
        line = _jsontext.dumps(message, separators=(",", ":"))
    own = _KNOWN_KEYS if data["dir"] == "event" else _KNOWN_KEYS | {"http"}
    http = data.get("http") if data["dir"] != "event" else None
    return LogEntry(t_ms=float(data["ms"]), dir=data["dir"], message=message,
                    http=http if isinstance(http, dict) else None,
                    text=str(data.get("text", "")), kind=str(data.get("event") or ""),
                    fields=tuple((k, v) for k, v in data.items() if k not in own),
                    after=after, index=index, line=line, partial=bool(data.get("partial")),
                    t=data["t"] if isinstance(data.get("t"), str) else None)


def entries_of(records: list[CheckedRecord]) -> list[LogEntry]:
    """A log's records as entries, each event counting the messages before it."""
    out: list[LogEntry] = []
    messages = 0
    for index, record in enumerate(records):
        out.append(entry_of(index, record, messages))
        messages += record.dir in ("c2s", "s2c")
    return out


@dataclass(frozen=True, slots=True)
class Process:
    """The entries of one recorded server process, timed from its own start."""

    number: int  #: 1, 2, ... in the order the processes started
    entries: list[LogEntry]  #: ``t_ms`` counted from this process's first entry
    start: str  #: the start event's sentence ("" when the log shows none)
    #: seconds from the first process's first entry, by the wall clock (None: no ``t``)
    offset_s: float | None


def _starts(entry: LogEntry) -> bool:
    return entry.dir == "event" and entry.kind == "start"


def split_processes(entries: list[LogEntry]) -> list[Process]:
    """The log's server processes: a ``start`` event after any line begins the next one.

    A client that runs its server more than once (the TypeScript v2 client's probe in a
    throwaway process, then the session in a fresh one, each ``mcp-skew serve --record``
    appending to the same file with its own clock) leaves one log of several sessions;
    each is a session of its own, with times from its own start.
    """
    groups: list[list[LogEntry]] = [[]]
    for entry in entries:
        if _starts(entry) and any(not _starts(e) for e in groups[-1]):
            groups.append([])
        groups[-1].append(entry)
    first_t = next((e.t for e in entries if e.t is not None), None)
    out: list[Process] = []
    for number, group in enumerate(g for g in groups if g):
        base = group[0].t_ms
        start = next((e.text for e in group if _starts(e)), "")
        offset = None
        if first_t is not None and group[0].t is not None:
            gap = _elapsed(first_t, group[0].t)
            offset = None if gap is None else round(gap / 1000, 3)
        rebased = [replace(e, t_ms=round(e.t_ms - base, 3)) for e in group]
        out.append(Process(number + 1, rebased, start, offset))
    return out


def wall_time(value: str) -> datetime | None:
    """The time of an ISO 8601 ``t`` (``Z`` for UTC), or None when it is not one."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _elapsed(first: str, value: str) -> float | None:
    """Milliseconds from the ISO time ``first`` to ``value`` (a record of an old log without ``ms``)."""
    start, end = wall_time(first), wall_time(value)
    if start is None or end is None or (start.tzinfo is None) is not (end.tzinfo is None):
        return None  # not times, or one with a UTC offset and one without: not comparable
    return (end - start).total_seconds() * 1000


def read_log(path: str | Path) -> tuple[list[LogEntry], list[str]]:
    """Read a transcript (a wire log, a probe recording, a ``simulate --json`` run).

    Returns entries and warnings (a last line cut short). Raises
    :class:`~mcp_skew.errors.UsageError` when the file cannot be read, holds no
    record at all, or has a bad line (naming the file and the line).
    """
    from ..transcript import TranscriptError, load_text  # noqa: PLC0415  (as entry_of)

    text = read_user_text(path, "cannot read the log")
    if not text.strip():
        raise UsageError(f"the log {path} is empty")
    try:
        loaded = load_text(text, str(path), elapsed=_elapsed)
    except TranscriptError as exc:
        raise UsageError(str(exc)) from None
    if not loaded.records:
        raise UsageError(f"{path} has no transcript records")
    return entries_of(loaded.records), loaded.warnings

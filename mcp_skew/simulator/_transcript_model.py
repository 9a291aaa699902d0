"""The transcript format: one record per line, versioned, for every transcript mcp-skew writes.

``simulate --json``, the matrix JSON and the probe's JSON report hold a run's
transcript as a list of these records; ``record``, ``serve --record`` and
``probe --record`` write them as JSON Lines, after a header record; ``show-log``
and ``replay`` read them back (and the older formats, converted).
``docs/transcripts.md`` describes the format for people.

Records
-------
A header (first line of a JSON Lines file)::

    {"format": "mcp-skew-transcript", "format_version": 1, "source": "record", "clock": "wall"}

Then one record per line, told apart by ``dir``:

- :class:`MessageRecord` (``dir`` ``c2s`` or ``s2c``): ``ms``, and ``line`` (the
  exact text, where known), ``message`` (the parsed JSON, where it is JSON; a
  JSON ``null`` is a message, an absent key is none), ``partial``, ``http``;
- :class:`StderrRecord` (``dir`` ``stderr``): a line of the server's standard error;
- :class:`EventRecord` (``dir`` ``event``): ``event`` (a name, :data:`EVENTS`),
  ``text`` (a sentence), and fields of its own (``side``, ``code``, ``signal``,
  ``argv``, ``pid``, ``http``).

Every record has ``ms`` (milliseconds since the transcript began: simulated in
the simulator, wall-clock elsewhere) and may have ``t`` (UTC, ISO 8601). A key
is written when it was given and only then, in a fixed order
(:func:`record_dict`), so writing what was read gives the same bytes.

Rule: the hot path builds no model. The simulator's :class:`~._link.Transcript`
turns itself into plain record dicts (``Transcript.records()``); the models
validate what is read and what the wire writers write. This module does no I/O:
files are read and written in ``serve`` and ``wire``; it takes and gives text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from .. import _jsontext
from ._link import Transcript
from ._run import RUN_FORMAT, RUN_FORMAT_VERSION

__all__ = [
    "DIRECTIONS",
    "EVENTS",
    "FORMAT",
    "FORMAT_VERSION",
    "EventRecord",
    "Header",
    "Loaded",
    "MessageRecord",
    "Record",
    "StderrRecord",
    "TranscriptError",
    "classify_note",
    "dump_lines",
    "dumps",
    "has_offset",
    "header",
    "legacy_run_records",
    "load_text",
    "parse_header",
    "parse_record",
    "record_dict",
    "records_of",
    "upgrade_record",
]

FORMAT: Final = "mcp-skew-transcript"
#: Bump when a key changes meaning or goes away (adding a key or an event name keeps it).
FORMAT_VERSION: Final = 1
DIRECTIONS: Final = ("c2s", "s2c", "stderr", "event")

#: The event names mcp-skew writes, and what each means. A reader keeps any other name.
EVENTS: Final[Mapping[str, str]] = {
    "start": "a server process started (`argv`, `pid`)",
    "restart": "the client restarts the server",
    "exit": "the server ended (`side`: `server`; `code`, or `signal` by name)",
    "timeout": "a request got no answer within its timeout; the client stopped waiting",
    "deadline": "a client's overall deadline passed; the request was not sent",
    "write-failed": "a line could not be written: the other side is gone",
    "client-eof": "the client closed its end of the connection",
    "eof": "one side's stream ended (`side`: `c2s`, `s2c` or `stderr`)",
    "signal": "the proxy got a signal and passed it on (`signal`)",
    "spawn-failed": "the server command could not be started (`argv`)",
    "no-answer": "the server holds a request unanswered (a quirk)",
    "http": "an HTTP exchange without a message body (`http`)",
    "auth": "the client's authorization (scenario auth): it starts, or it failed, and why",
    "cache": "the client's cache: a hit, a miss, a result kept or not, an invalidation, "
             "an era decision reused or dropped (simulated runs)",
    "server-change": "the simulated server was replaced by another (an upgrade, a downgrade)",
    "note": "anything else, said in `text`",
}


class TranscriptError(ValueError):
    """A transcript that cannot be read: the message names the place (``FILE:LINE: ...``)."""


# -- the records ----------------------------------------------------------------------------

#: The largest ``ms`` read: 10**15 ms is some 31,700 years, far beyond any log, and a
#: float holds every whole number up to it exactly.
MAX_MS: Final = 10**15


def _milliseconds(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("should be a number (milliseconds)")
    if not 0 <= value <= MAX_MS:  # (NaN fails both)
        raise ValueError(f"should be a number from 0 to {MAX_MS} (milliseconds)")
    return value


Ms: TypeAlias = Annotated[int | float, PlainValidator(_milliseconds)]


#: An ISO 8601 date and time, as :meth:`datetime.isoformat` writes it (``Z`` for UTC);
#: the group ``zone`` is its UTC offset, where it has one. (A pattern: the simulator reads
#: no clock and imports no datetime; the serve package turns ``t`` into times.)
_ISO_TIME: Final = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d{1,9})?)?(?P<zone>Z|[+-]\d{2}(:?\d{2})?)?$")


def has_offset(value: str) -> bool | None:
    """Whether the ISO 8601 time ``value`` has a UTC offset; None when it is no such time."""
    found = _ISO_TIME.match(value)
    return None if found is None else found.group("zone") is not None


def _iso_time(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("should be a string (an ISO 8601 time)")
    if has_offset(value) is None:
        raise ValueError(f"{value[:40]!r} is not an ISO 8601 time")
    return value


IsoTime: TypeAlias = Annotated[str, PlainValidator(_iso_time)]


class _Base(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    t: IsoTime | None = None  #: wall-clock time, UTC, ISO 8601 (real traffic only)
    ms: Ms  #: milliseconds since the transcript began


class MessageRecord(_Base):
    """A line that crossed between client and server."""

    dir: Literal["c2s", "s2c"]
    line: StrictStr | None = None  #: the exact text, without its newline, where known
    partial: StrictBool = False  #: a last line that ended without a newline
    message: Any = None  #: the parsed JSON (present only when given: ``null`` is a message)
    http: dict[str, Any] | None = None  #: request method, path, headers / response status

    @model_validator(mode="after")
    def _has_content(self) -> MessageRecord:
        if self.line is None and "message" not in self.model_fields_set:
            raise ValueError("a message record needs 'line' or 'message'")
        if self.partial and self.line is None:
            raise ValueError("a partial record needs its 'line'")
        return self


class StderrRecord(_Base):
    """A line of the server's standard error."""

    dir: Literal["stderr"]
    line: StrictStr
    partial: StrictBool = False


class EventRecord(_Base):
    """Something that happened that is not a line: a start, an exit, a timeout, ..."""

    dir: Literal["event"]
    #: a name (:data:`EVENTS`, or a newer writer's): lower case, digits and dashes
    event: Annotated[StrictStr, Field(pattern=r"^[a-z][a-z0-9-]*$")]
    text: StrictStr = ""  #: the sentence a person reads
    side: StrictStr | None = None  #: whose end: ``server``, ``c2s``, ``s2c``, ``stderr``
    code: StrictInt | None = None  #: an exit code
    signal: StrictStr | StrictInt | None = None  #: a signal, by name
    argv: list[StrictStr] | None = None  #: a command
    pid: StrictInt | None = None
    http: dict[str, Any] | None = None


Record: TypeAlias = MessageRecord | StderrRecord | EventRecord


class Header(BaseModel):
    """The first record of a JSON Lines transcript: what it is and which version."""

    model_config = ConfigDict(extra="allow", frozen=True)

    format: Literal["mcp-skew-transcript"]
    format_version: Annotated[StrictInt, Field(ge=1)]
    source: StrictStr | None = None  #: the writer: ``record``, ``serve``, ``probe``
    clock: Literal["wall", "simulated"] | None = None  #: what ``ms`` counts


_BY_DIR: Final[Mapping[str, type[Record]]] = {
    "c2s": MessageRecord, "s2c": MessageRecord, "stderr": StderrRecord, "event": EventRecord}
#: The keys of each record after ``t``, ``ms`` and ``dir``, in the order they are written.
_KEYS: Final[Mapping[type[BaseModel], tuple[str, ...]]] = {
    MessageRecord: ("line", "partial", "message", "http"),
    StderrRecord: ("line", "partial"),
    EventRecord: ("event", "text", "side", "code", "signal", "argv", "pid", "http"),
    Header: ("format", "format_version", "source", "clock"),
}


#: Parts of an error's location that name a type of a union, not a key.
_TYPE_TAG: Final = re.compile(r"^(str|int|float|bool|none|dict|list|constrained-\w+|[\w-]*\[.*\])$")


def _explain(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]
                     if isinstance(part, int) or not _TYPE_TAG.match(part))
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where!r}: {message}" if where else message


def parse_record(data: Any) -> Record:
    """One record, checked; :class:`TranscriptError` (without a place) when it is not one."""
    if not isinstance(data, dict):
        raise TranscriptError("not a JSON object")
    direction = data.get("dir")
    model = _BY_DIR.get(direction) if isinstance(direction, str) else None
    if model is None:
        raise TranscriptError("no 'dir' (c2s, s2c, stderr or event)" if direction is None else
                              f"unknown 'dir' {direction!r} (c2s, s2c, stderr or event)")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise TranscriptError(_explain(exc)) from None


def parse_header(data: Any) -> Header:
    """A header record, checked: the format, and a version this mcp-skew reads."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        got = data.get("format") if isinstance(data, dict) else None
        raise TranscriptError(f"not an mcp-skew transcript (format {got!r}, not {FORMAT!r})")
    version = data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise TranscriptError(f"transcript format version {version} is newer than this mcp-skew "
                              f"reads ({FORMAT_VERSION}); upgrade mcp-skew")
    try:
        return Header.model_validate(data)
    except ValidationError as exc:
        raise TranscriptError(_explain(exc)) from None


def header(source: str | None = None, clock: Literal["wall", "simulated"] | None = None) -> Header:
    """The header of a transcript of the current version."""
    given: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION}
    if source is not None:
        given["source"] = source
    if clock is not None:
        given["clock"] = clock
    return Header.model_validate(given)


def record_dict(record: Record | Header) -> dict[str, Any]:
    """A record as JSON: the keys it was given, in the fixed order, then any others."""
    given = record.model_fields_set
    out: dict[str, Any] = {}
    if not isinstance(record, Header):
        if "t" in given:
            out["t"] = record.t
        out["ms"] = record.ms
        out["dir"] = record.dir
    for name in _KEYS[type(record)]:
        if name in given:
            out[name] = getattr(record, name)
    out.update(record.model_extra or {})
    return out


def dumps(record: Record | Header | Mapping[str, Any]) -> str:
    """One line of JSON Lines (without its newline), the same bytes for the same record.

    UTF-8 where it can be; a line holding lone surrogates (bytes that were not
    UTF-8, kept by ``surrogateescape``) is written with ``\\u`` escapes instead.
    """
    data = record_dict(record) if isinstance(record, BaseModel) else dict(record)
    return _jsontext.dumps(data)


def records_of(transcript: Transcript) -> list[Record]:
    """The simulator's in-memory transcript as checked records."""
    return [parse_record(item) for item in transcript.records()]


# -- older formats ------------------------------------------------------------------------------

_NOTES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"write failed: "), "write-failed"),
    (re.compile(r"the server process exited( \(code (?P<code>-?\d+)\))?$"), "exit"),
    (re.compile(r"no answer to id .* (within|before)"), "timeout"),
    (re.compile(r"the overall deadline of .* has passed"), "deadline"),
    (re.compile(r"client restarts the server"), "restart"),
    (re.compile(r"client closes the connection$"), "client-eof"),
    (re.compile(r"started pid (?P<pid>\d+): "), "start"),
)


def classify_note(text: str) -> tuple[str, dict[str, Any]]:
    """The event name and fields of an event known only by its sentence (older formats).

    The simulator's own sentences get the names and fields it now writes; a
    simulated exit is a quirk's, with code 1.
    """
    for pattern, name in _NOTES:
        found = pattern.match(text)
        if found is None:
            continue
        fields: dict[str, Any] = {}
        if name == "exit":
            code = found.group("code")
            fields = {"side": "server", "code": int(code) if code is not None else 1}
        elif name == "start":
            fields = {"pid": int(found.group("pid"))}
        return name, fields
    return "note", {}


def _event_of(ms: Any, text: Any) -> dict[str, Any]:
    name, fields = classify_note(str(text))
    return {"ms": ms, "dir": "event", "event": name, "text": str(text), **fields}


Elapsed: TypeAlias = Callable[[str, str], float | None]


def upgrade_record(data: dict[str, Any], first_t: str | None = None,
                   elapsed: Elapsed | None = None) -> dict[str, Any]:
    """A record of an unversioned log, as a version-1 record.

    Unversioned logs are ``record``'s and ``serve``'s (``ms``; already records but for
    the header) and the probe's (``t_ms``; an event was ``{"t_ms", "event": SENTENCE}``).
    A record with neither takes ``ms`` from ``t`` (``elapsed(first_t, t)``), else 0.
    """
    if "ms" not in data:
        if "t_ms" in data:
            data = {("ms" if k == "t_ms" else k): v for k, v in data.items()}
        else:
            t = data.get("t")
            ms = elapsed(first_t, t) if elapsed and isinstance(t, str) and first_t else None
            data = {"ms": max(0.0, round(ms, 3)) if ms is not None else 0, **data}
    if "dir" not in data and "event" in data:
        rest = {k: v for k, v in data.items() if k not in ("ms", "event", "text", "after")}
        return {**_event_of(data["ms"], data["event"]), **rest}
    return data


def _run_ms(item: Mapping[str, Any], where: str) -> int | float:
    """The time of an item of an unversioned run, checked (the records are sorted by it)."""
    try:
        return _milliseconds(item.get("t_ms", item.get("ms", 0)))
    except ValueError as exc:
        raise TranscriptError(f"{where}: 't_ms': {exc}") from None


def legacy_run_records(run: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The transcript of an unversioned ``simulate --json`` run (or matrix cell) as records.

    It kept messages (``{t_ms, dir, message}``) and events (``{t_ms, event,
    after}``) in two lists; ``after`` (how many messages came before) puts each
    event in its place. Without it, an event goes before messages of the same
    millisecond.
    """
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(run.get("transcript") or ()):
        if not isinstance(item, dict):
            continue
        record = {"ms": _run_ms(item, f"transcript[{index}]"), "dir": item.get("dir")}
        message = item.get("message")
        record.update({"line": message} if isinstance(message, str) else {"message": message})
        messages.append(record)
    raw = [e for e in run.get("events") or () if isinstance(e, dict)]
    events = [_event_of(_run_ms(e, f"events[{i}]"), e.get("event", "")) for i, e in enumerate(raw)]
    after = [a for e in raw if isinstance(a := e.get("after"), int) and not isinstance(a, bool)]
    if len(after) != len(events):
        order = sorted([(m["ms"], 1, i, m) for i, m in enumerate(messages)]
                       + [(e["ms"], 0, i, e) for i, e in enumerate(events)],
                       key=lambda item: item[:3])
        return [record for *_, record in order]
    out: list[dict[str, Any]] = []
    queue = sorted(zip(after, events, strict=True), key=lambda pair: pair[0])
    for index, message_record in enumerate([*messages, None]):
        while queue and queue[0][0] <= index:
            out.append(queue.pop(0)[1])
        if message_record is not None:
            out.append(message_record)
    return out


# -- reading ----------------------------------------------------------------------------------

@dataclass(slots=True)
class Loaded:
    """What :func:`load_text` read."""

    records: list[Record]
    headers: list[Header] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kind: Literal["jsonl", "run"] = "jsonl"  #: JSON Lines, or one ``simulate --json`` run
    aware: bool | None = None  #: whether the times (``t``) have a UTC offset (None: no time)


def _is_run(data: dict[str, Any]) -> bool:
    if data.get("format") == RUN_FORMAT:
        return True
    return "format" not in data and "dir" not in data and isinstance(data.get("transcript"), list)


def _run_records(run: dict[str, Any], name: str) -> list[Record]:
    version = run.get("format_version", 1) if run.get("format") == RUN_FORMAT else 1
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise TranscriptError(f"{name}: a bad format_version {version!r}")
    if version > RUN_FORMAT_VERSION:
        raise TranscriptError(f"{name}: run format version {version} is newer than this mcp-skew "
                              f"reads ({RUN_FORMAT_VERSION}); upgrade mcp-skew")
    items = run.get("transcript")
    if not isinstance(items, list):
        raise TranscriptError(f"{name}: the run has no 'transcript' list")
    if version == 1:
        try:
            items = legacy_run_records(run)
        except TranscriptError as exc:
            raise TranscriptError(f"{name}: {exc}") from None
    out: list[Record] = []
    for index, item in enumerate(items):
        try:
            out.append(parse_record(item))
        except TranscriptError as exc:
            raise TranscriptError(f"{name}: transcript[{index}]: {exc}") from None
    return out


def _is_header(data: dict[str, Any]) -> bool:
    return "format" in data and "dir" not in data


def load_text(text: str, name: str, *, elapsed: Elapsed | None = None) -> Loaded:
    """Read a transcript: JSON Lines (any version), or one ``simulate --json`` run.

    A JSON Lines file with a header is read as that version; one without (older
    logs) is converted record by record (:func:`upgrade_record`). A last line
    without its newline that is not JSON is a warning (the writer was stopped
    mid-line); any other bad line raises :class:`TranscriptError` naming
    ``name`` and the line number.
    """
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.rstrip():
        try:
            whole = _jsontext.loads(stripped, _jsontext.FILE)
        except ValueError:
            whole = None
        if isinstance(whole, dict) and _is_run(whole):
            return Loaded(_run_records(whole, name), kind="run")
    lines = text.split("\n")
    parsed: list[tuple[int, dict[str, Any]]] = []
    warnings: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = _jsontext.loads(line, _jsontext.FILE)
        except ValueError as exc:
            if number == len(lines):
                warnings.append(f"{name}:{number}: the last record is cut short (the writer "
                                "stopped mid-line); skipped")
                continue
            raise TranscriptError(f"{name}:{number}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise TranscriptError(f"{name}:{number}: not a JSON object")
        parsed.append((number, data))
    first_t = next((d["t"] for _, d in parsed if isinstance(d.get("t"), str)), None)
    loaded = Loaded([], warnings=warnings)
    versioned = False
    for number, data in parsed:
        try:
            if _is_header(data):
                loaded.headers.append(parse_header(data))
                versioned = True
                continue
            record = parse_record(data if versioned else upgrade_record(data, first_t, elapsed))
        except TranscriptError as exc:
            raise TranscriptError(f"{name}:{number}: {exc}") from None
        loaded.records.append(record)
        _check_clock(record, number, name, loaded)
    return loaded


def _check_clock(record: Record, number: int, name: str, loaded: Loaded) -> None:
    """Every ``t`` of a transcript has a UTC offset, or none has: the two do not subtract."""
    aware = has_offset(record.t) if record.t is not None else None
    if aware is None:
        return
    if loaded.aware is None:
        loaded.aware = aware
    elif loaded.aware is not aware:
        raise TranscriptError(
            f"{name}:{number}: 't': {'a' if aware else 'no'} UTC offset, where the times before "
            f"{'have none' if aware else 'have one'} (the times of a log cannot be compared)")


def dump_lines(records: Iterable[Record | Header | Mapping[str, Any]]) -> str:
    """Records as JSON Lines text, each line ending with a newline."""
    return "".join(dumps(record) + "\n" for record in records)

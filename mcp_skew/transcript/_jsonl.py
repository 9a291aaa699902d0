"""The transcript format: one record per line, versioned, for every transcript mcp-skew writes.

``simulate --json``, the matrix JSON and the probe's JSON report hold a run's
transcript as a list of these records; ``record``, ``serve --record`` and
``probe --record`` write them as JSON Lines, after a header record; ``show-log``
and ``replay`` read them back (:mod:`._read`; the older formats, converted by
:mod:`._upgrade`). ``docs/transcripts.md`` describes the format for people.

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

Rule: the hot path builds no model. An in-memory :class:`~._record.Transcript`
turns itself into plain record dicts (``Transcript.records()``, :func:`~._record.as_json`);
the models here check what is read and what the probe's recorder writes (the wire logs'
writer, ``serve``'s ``LogWriter``, writes the same lines without them). The package
does no I/O: files are read and written in ``serve`` and ``wire``; it takes and
gives text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
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
from ._names import FORMAT, FORMAT_VERSION
from ._record import Transcript

__all__ = [
    "MAX_MS",
    "CheckedRecord",
    "EventRecord",
    "Header",
    "MessageRecord",
    "StderrRecord",
    "TranscriptError",
    "dump_lines",
    "dumps",
    "has_offset",
    "header",
    "milliseconds",
    "parse_header",
    "parse_record",
    "record_dict",
    "records_of",
]

class TranscriptError(ValueError):
    """A transcript that cannot be read: the message names the place (``FILE:LINE: ...``)."""


# -- the records ----------------------------------------------------------------------------

#: The largest ``ms`` read: 10**15 ms is some 31,700 years, far beyond any log, and a
#: float holds every whole number up to it exactly.
MAX_MS: Final = 10**15


def milliseconds(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("should be a number (milliseconds)")
    if not 0 <= value <= MAX_MS:  # (NaN fails both)
        raise ValueError(f"should be a number from 0 to {MAX_MS} (milliseconds)")
    return value


Ms: TypeAlias = Annotated[int | float, PlainValidator(milliseconds)]


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


CheckedRecord: TypeAlias = MessageRecord | StderrRecord | EventRecord


class Header(BaseModel):
    """The first record of a JSON Lines transcript: what it is and which version."""

    model_config = ConfigDict(extra="allow", frozen=True)

    format: Literal["mcp-skew-transcript"]
    format_version: Annotated[StrictInt, Field(ge=1)]
    source: StrictStr | None = None  #: the writer: ``record``, ``serve``, ``probe``
    clock: Literal["wall", "simulated"] | None = None  #: what ``ms`` counts


_BY_DIR: Final[Mapping[str, type[CheckedRecord]]] = {
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


def parse_record(data: Any) -> CheckedRecord:
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


def record_dict(record: CheckedRecord | Header) -> dict[str, Any]:
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


def dumps(record: CheckedRecord | Header | Mapping[str, Any]) -> str:
    """One line of JSON Lines (without its newline), the same bytes for the same record.

    UTF-8 where it can be; a line holding lone surrogates (bytes that were not
    UTF-8, kept by ``surrogateescape``) is written with ``\\u`` escapes instead.
    """
    data = record_dict(record) if isinstance(record, BaseModel) else dict(record)
    return _jsontext.dumps(data)


def records_of(transcript: Transcript) -> list[CheckedRecord]:
    """An in-memory transcript as checked records."""
    return [parse_record(item) for item in transcript.records()]


def dump_lines(records: Iterable[CheckedRecord | Header | Mapping[str, Any]]) -> str:
    """Records as JSON Lines text, each line ending with a newline."""
    return "".join(dumps(record) + "\n" for record in records)

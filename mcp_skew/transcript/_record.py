"""The transcript record: one frozen type for what crossed a link and what happened on it.

A :class:`Record` is a message that crossed (``dir`` ``c2s`` or ``s2c``: ``message``
and, over HTTP, ``http``) or an event (``dir`` ``event``: ``kind``, ``text``,
``fields``, and ``after``, how many messages came before it). :class:`Entry` and
:class:`Note` are its two constructors (a message, an event), kept as the names the
links and the library use; an item of either is a :class:`Record`.

A :class:`Transcript` holds a link's records in order (the in-memory link's ``Tally``, one that
keeps the events and only counts the messages, is one too). :func:`as_json` writes one as
the JSON of the transcript format (:mod:`._jsonl`): the one writer of an in-memory
record, on the hot path of every run (plain dicts, no validation); :func:`of_json`
reads such JSON back (a matrix cell keeps its transcript as JSON).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Direction", "Entry", "Note", "Record", "Transcript", "as_json", "of_json"]

#: Where a record comes from: client to server, server to client, the server's standard
#: error, or an event (not a line).
Direction = Literal["c2s", "s2c", "stderr", "event"]


@dataclass(frozen=True, slots=True, init=False)
class Record:
    """One record of a transcript: a message that crossed, or an event."""

    t_ms: int | float  #: milliseconds since the transcript began (``ms`` in its JSON)
    dir: Direction
    #: a message's parsed JSON, or its raw line (a ``str``) when it was not JSON; None on events
    message: Any = None
    #: a message over HTTP: the request's method, path and MCP headers, or the response's
    #: status and headers (``simulator.http._link``); None on stdio (an event's ``http`` is a field)
    http: dict[str, Any] | None = None
    text: str = ""  #: an event's sentence
    #: what happened, as a transcript event name (``timeout``, ``exit``, ``restart``, ...)
    kind: str = ""
    fields: tuple[tuple[str, Any], ...] = ()  #: an event's own fields (``side``, ``code``, ...)
    after: int = 0  #: an event: how many messages came before it

    def __init__(self, t_ms: int | float, dir: Direction, message: Any = None,
                 http: dict[str, Any] | None = None, *, text: str = "", kind: str = "",
                 fields: tuple[tuple[str, Any], ...] = (), after: int = 0) -> None:
        # a run builds one record per message: each slot is set through its descriptor, once
        # (a frozen dataclass's own __init__ calls object.__setattr__ per field, which costs
        # twice as much for these eight fields)
        _SET_T_MS(self, t_ms)
        _SET_DIR(self, dir)
        _SET_MESSAGE(self, message)
        _SET_HTTP(self, http)
        _SET_TEXT(self, text)
        _SET_KIND(self, kind)
        _SET_FIELDS(self, fields)
        _SET_AFTER(self, after)

    @property
    def is_event(self) -> bool:
        return self.dir == "event"

    def get(self, name: str, default: Any = None) -> Any:
        """The event's field ``name`` (``side``, ``code``, ...), else ``default``."""
        return next((value for key, value in self.fields if key == name), default)

    def to_record(self) -> dict[str, Any]:
        """This record as the JSON of the transcript format (:func:`as_json`)."""
        return as_json(self)


#: The setters of the record's slots (its frozen ``__setattr__`` refuses every change after).
(_SET_T_MS, _SET_DIR, _SET_MESSAGE, _SET_HTTP, _SET_TEXT, _SET_KIND, _SET_FIELDS,
 _SET_AFTER) = (Record.__dict__[name].__set__ for name in (
    "t_ms", "dir", "message", "http", "text", "kind", "fields", "after"))


class Entry(Record):
    """A message on the wire: ``Entry(t_ms, dir, message, http=None)``."""

    __slots__ = ()


#: Makes a record whose slots are set next (:meth:`Transcript.add`).
_NEW = object.__new__


class Note(Record):
    """Something that happened that is not a message (a timeout, an exit, a restart):
    ``Note(t_ms, text, after, kind="note", fields=())``."""

    __slots__ = ()

    def __init__(self, t_ms: int | float, text: str, after: int, kind: str = "note",
                 fields: tuple[tuple[str, Any], ...] = ()) -> None:
        _SET_T_MS(self, t_ms)
        _SET_DIR(self, "event")
        _SET_MESSAGE(self, None)
        _SET_HTTP(self, None)
        _SET_TEXT(self, text)
        _SET_KIND(self, kind)
        _SET_FIELDS(self, fields)
        _SET_AFTER(self, after)


def as_json(record: Record) -> dict[str, Any]:
    """A record as the transcript format's JSON (``MessageRecord`` / ``EventRecord``).

    A message's ``str`` is a line that was not JSON: it is written as ``line``.
    """
    if record.dir == "event":
        out: dict[str, Any] = {"ms": record.t_ms, "dir": "event", "event": record.kind,
                               "text": record.text}
        out.update(record.fields)
        return out
    key = "line" if isinstance(record.message, str) else "message"
    if record.http is None:
        return {"ms": record.t_ms, "dir": record.dir, key: record.message}
    return {"ms": record.t_ms, "dir": record.dir, key: record.message, "http": record.http}


#: The keys of an event's JSON that are not its own fields.
_EVENT_KEYS = frozenset({"t", "ms", "dir", "event", "text"})


def of_json(items: Iterable[Mapping[str, Any]]) -> list[Record]:
    """Records' JSON (as :func:`as_json` writes it, or as a document holds it) as the
    records again, unchecked: ``of_json(t.records()) == t.timeline()``.

    A message's ``message`` is read where it is given, else its ``line``; an event's
    ``after`` is counted, its fields are its other keys, in order.
    """
    out: list[Record] = []
    messages = 0
    for data in items:
        if data["dir"] == "event":
            fields = tuple((k, v) for k, v in data.items() if k not in _EVENT_KEYS)
            out.append(Note(data["ms"], str(data.get("text", "")), messages,
                            str(data.get("event", "note")), fields))
            continue
        message = data["message"] if "message" in data else data.get("line")
        out.append(Entry(data["ms"], data["dir"], message, data.get("http")))
        messages += 1
    return out


@dataclass(eq=False, slots=True)
class Transcript:
    """Every message that crossed, in order, and the events between them."""

    entries: list[Entry] = field(default_factory=list)  #: the messages
    notes: list[Note] = field(default_factory=list)  #: the events
    _order: list[Record] = field(default_factory=list, repr=False)

    def add(self, t_ms: int, direction: Literal["c2s", "s2c"], message: Any,
            http: dict[str, Any] | None = None) -> None:
        # Entry(t_ms, direction, message, http), its slots set here: a run adds a record per
        # message, and this saves a call per record
        entry = _NEW(Entry)
        _SET_T_MS(entry, t_ms)
        _SET_DIR(entry, direction)
        _SET_MESSAGE(entry, message)
        _SET_HTTP(entry, http)
        _SET_TEXT(entry, "")
        _SET_KIND(entry, "")
        _SET_FIELDS(entry, ())
        _SET_AFTER(entry, 0)
        self.entries.append(entry)
        self._order.append(entry)

    def note(self, t_ms: int, text: str, kind: str = "note", **fields: Any) -> None:
        note = Note(t_ms, text, self.count(), kind, tuple(fields.items()))
        self.notes.append(note)
        self._order.append(note)

    def count(self) -> int:
        """How many messages crossed so far (a finding's index, an event's ``after``)."""
        return len(self.entries)

    def timeline(self) -> list[Record]:
        """Messages and notes in the order they happened."""
        return list(self._order)

    def records(self) -> list[dict[str, Any]]:
        """The transcript records, in order, as JSON (:func:`as_json`).

        Plain dicts, built without validation: this is what ``RunRecord.to_dict`` and
        the matrix call for every run.
        """
        return [as_json(item) for item in self._order]


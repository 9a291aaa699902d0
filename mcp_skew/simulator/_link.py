"""Links: how a client's messages reach a server, and the transcript of what crossed.

A :class:`Link` is what a client strategy talks to: ``request`` (send, then wait
for the answer with that id, a timeout or the end of the process), ``notify``
and ``restart``. :class:`MemoryLink` runs a simulated server in the same
process on a **simulated clock**: latency and timeouts are simulated
milliseconds, nothing sleeps, and the same inputs give the same transcript byte
for byte. Real transports (stdio, HTTP) implement the same protocol in :mod:`mcp_skew.wire`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..versions import Message
from ._events import Closed, Event, Reply, Timeout
from ._json import cross
from ._server import SimServer

__all__ = [
    "Closed",
    "Entry",
    "Event",
    "Link",
    "LinkObserver",
    "MemoryLink",
    "Note",
    "Reply",
    "Timeout",
    "Transcript",
]



@dataclass(frozen=True, slots=True)
class Entry:
    """One message on the wire."""

    t_ms: int
    dir: Literal["c2s", "s2c"]
    message: Any  #: the parsed message, or the raw line (a ``str``) when it was not JSON
    #: over HTTP: the request's method, path and MCP headers, or the response's status and
    #: headers (``_httplink``); None on stdio
    http: dict[str, Any] | None = None

    def to_record(self) -> dict[str, Any]:
        """This message as a transcript record (``_transcript_model.MessageRecord``), as JSON.

        A ``str`` message is a line that was not JSON: it is kept as ``line``.
        """
        key = "line" if isinstance(self.message, str) else "message"
        if self.http is None:
            return {"ms": self.t_ms, "dir": self.dir, key: self.message}
        return {"ms": self.t_ms, "dir": self.dir, key: self.message, "http": self.http}


@dataclass(frozen=True, slots=True)
class Note:
    """Something that happened that is not a message: a timeout, an exit, a restart."""

    t_ms: int
    text: str
    #: how many transcript messages came before it
    after: int
    #: what happened, as a transcript event name (``timeout``, ``exit``, ``restart``, ...)
    kind: str = "note"
    #: the event's own fields (``side``, ``code``, ``pid``, ...), in order
    fields: tuple[tuple[str, Any], ...] = ()

    def to_record(self) -> dict[str, Any]:
        """This note as a transcript record (``_transcript_model.EventRecord``), as JSON."""
        out: dict[str, Any] = {"ms": self.t_ms, "dir": "event", "event": self.kind,
                               "text": self.text}
        out.update(self.fields)
        return out


@dataclass(slots=True)
class Transcript:
    """Every message that crossed, in order, and the events between them."""

    entries: list[Entry] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    _order: list[Entry | Note] = field(default_factory=list, repr=False)

    def add(self, t_ms: int, direction: Literal["c2s", "s2c"], message: Any,
            http: dict[str, Any] | None = None) -> None:
        entry = Entry(t_ms, direction, message, http)
        self.entries.append(entry)
        self._order.append(entry)

    def note(self, t_ms: int, text: str, kind: str = "note", **fields: Any) -> None:
        note = Note(t_ms, text, len(self.entries), kind, tuple(fields.items()))
        self.notes.append(note)
        self._order.append(note)

    def timeline(self) -> list[Entry | Note]:
        """Messages and notes in the order they happened."""
        return list(self._order)

    def records(self) -> list[dict[str, Any]]:
        """The transcript records, in order, as JSON (the format of ``_transcript_model``).

        Plain dicts, built without validation: this is what ``RunRecord.to_dict`` and
        the matrix call for every run.
        """
        return [item.to_record() for item in self._order]


class Link(Protocol):
    """What a client strategy needs from a transport."""

    transcript: Transcript

    def now_ms(self) -> int: ...
    def request(self, message: Message, timeout_ms: int) -> Event: ...
    def notify(self, message: Message) -> None: ...
    def restart(self) -> bool: ...
    def close(self) -> None: ...


class LinkObserver:
    """What a driven machine reads from a link: its clock and its transcript's length."""

    __slots__ = ("_link",)

    def __init__(self, link: Link) -> None:
        self._link = link

    def now_ms(self) -> int:
        return self._link.now_ms()

    def position(self) -> int:
        return len(self._link.transcript.entries)


class MemoryLink:
    """A simulated server in memory, on a simulated clock.

    Each message is encoded to JSON text and decoded on the other side, as on a
    real wire. The server reads a message ``latency_ms`` after it is sent (or
    when it has finished starting), and its replies reach the client
    ``latency_ms`` later. A reply that arrives after the client stopped waiting
    is still recorded, when the clock passes it.
    """

    def __init__(self, server_factory: Callable[[], SimServer], latency_ms: int = 5, *,
                 stalls_on_server_request: bool = False) -> None:
        self._factory = server_factory
        self.latency_ms = latency_ms
        #: the client reads no answer after the server's first request to it (a client quirk)
        self.stalls_on_server_request = stalls_on_server_request
        self.stalled = False
        self.transcript = Transcript()
        self._clock = 0
        self._seq = 0
        self._pending: list[tuple[int, int, Message]] = []  # heap of (arrives, seq, message)
        self._start()

    def _start(self) -> None:
        self.server = self._factory()
        self._ready_at = self._clock + self.server.startup_ms
        self._closed_at: int | None = None
        self._pending = []

    def now_ms(self) -> int:
        return self._clock

    def _send(self, message: Message) -> bool:
        # encoded to JSON text and decoded again (:func:`._json.cross`), as on a real wire:
        # what the server reads is what the transcript records
        wire: Message = cross(message)
        self.transcript.add(self._clock, "c2s", wire)
        if self._closed_at is not None and self._closed_at <= self._clock:
            return False
        read_at = max(self._clock + self.latency_ms, self._ready_at)
        self._ready_at = read_at
        reaction = self.server.receive(wire)
        for reply in reaction.replies:
            self._seq += 1
            heapq.heappush(self._pending, (read_at + self.latency_ms, self._seq, reply))
        if reaction.exit:
            self._closed_at = read_at + self.latency_ms
        return True

    def _deliver_until(self, deadline: int, want_id: Any = None) -> Reply | None:
        """Deliver queued replies up to ``deadline``; stop at the one with ``want_id``."""
        while self._pending and self._pending[0][0] <= deadline:
            if self._closed_at is not None and self._pending[0][0] > self._closed_at:
                break
            at, _, sent = heapq.heappop(self._pending)
            self._clock = max(self._clock, at)
            message: Message = cross(sent)  # the client reads what crossed the wire, as recorded
            self.transcript.add(at, "s2c", message)
            if "method" in message and "id" in message and self.stalls_on_server_request:
                self.stalled = True  # quirk stalls-on-server-request
            if want_id is not None and message.get("id") == want_id and "method" not in message \
                    and not self.stalled:
                return Reply(message)
        return None

    def request(self, message: Message, timeout_ms: int) -> Event:
        if not self._send(message):
            self.transcript.note(self._clock, "write failed: the server process has exited",
                                 "write-failed")
            return Closed()
        deadline = self._clock + timeout_ms
        reply = self._deliver_until(deadline, message["id"])
        if reply is not None:
            return reply
        if self._closed_at is not None and self._closed_at <= deadline:
            self._clock = max(self._clock, self._closed_at)
            # a simulated server ends itself only by a quirk (silent-exit), with code 1
            self.transcript.note(self._clock, "the server process exited", "exit",
                                 side="server", code=1)
            return Closed()
        self._clock = deadline
        self.transcript.note(self._clock, f"no answer to id {message['id']} within {timeout_ms} ms",
                             "timeout")
        return Timeout(timeout_ms)

    def notify(self, message: Message) -> None:
        if not self._send(message):
            self.transcript.note(self._clock, "write failed: the server process has exited",
                                 "write-failed")

    def restart(self) -> bool:
        self.transcript.note(self._clock, "client restarts the server process", "restart")
        self._start()
        return True

    def close(self) -> None:
        self._deliver_until(self._clock)
        self.transcript.note(self._clock, "client closes the connection", "client-eof")

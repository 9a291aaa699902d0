"""A server-sent events parser, sans I/O: text in, events out.

Used by the simulator's HTTP client side (:mod:`._client`) and by the real HTTP
link (:mod:`mcp_skew.wire.http`, through the simulator's face).

Follows the WHATWG HTML "event stream interpretation" rules that Streamable
HTTP and the deprecated HTTP+SSE transport rely on: lines end with CRLF, LF or
CR; ``data`` lines accumulate (joined by LF); a blank line dispatches; a line
starting with ``:`` is a comment; one space after the colon is dropped; an event
with no ``data`` line is not dispatched, though its ``id`` is kept as the last
event id. An empty ``data`` line does dispatch, an event whose data is ``""``:
the 2025-11-25 priming event is one (an ``id`` and an empty ``data`` field,
2025-11-25 ``basic/transports.mdx`` §Sending Messages to the Server), and a
client reads it as no message (:func:`mcp_skew.simulator.http._client.sse_messages`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

__all__ = ["SseEvent", "SseParser"]

_EOL = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    event: str
    data: str
    id: str | None = None
    retry_ms: int | None = None


class SseParser:
    """Feed bytes (or text) as they arrive; get the events completed so far."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""  #: text after the last line ending
        self._skip_lf = False  #: the last chunk ended with CR (a CRLF may be split)
        self._data: list[str] = []
        self._event = ""
        self._retry: int | None = None
        self.last_event_id: str | None = None
        self._first = True

    def feed(self, chunk: bytes | str) -> list[SseEvent]:
        text = chunk if isinstance(chunk, str) else self._decoder.decode(chunk)
        if self._first and text:
            text = text.removeprefix("\ufeff")
            self._first = False
        if self._skip_lf and text:
            text = text.removeprefix("\n")
            self._skip_lf = False
        buf = self._pending + text
        events: list[SseEvent] = []
        start = 0
        for end in _EOL.finditer(buf):
            self._line(buf[start:end.start()], events)
            start = end.end()
            if end.group() == "\r" and start == len(buf):
                self._skip_lf = True  # a CRLF may be split across chunks
        self._pending = buf[start:]
        return events

    def _line(self, line: str, events: list[SseEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        if line.startswith(":"):
            return
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():  # not "²"
            self._retry = int(value)

    def _dispatch(self, events: list[SseEvent]) -> None:
        if self._data:
            events.append(SseEvent(self._event or "message", "\n".join(self._data),
                                   self.last_event_id, self._retry))
        self._data, self._event, self._retry = [], "", None

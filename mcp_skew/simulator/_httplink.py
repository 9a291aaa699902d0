"""The in-memory HTTP link: a simulated server behind Streamable HTTP, on the simulated clock.

:class:`HttpMemoryLink` has the interface of :class:`~._link.MemoryLink`
(``request``, ``notify``, ``restart``, ``close``, ``now_ms``, ``transcript``), so
the same driven client machine runs over it. Each message is one POST: the
client side (:class:`~._http.HttpClient`) gives its headers, the server side
(:class:`~._http.HttpEndpoint`) decides the response, and the client side reads
it back into the client's event. Nothing sleeps:

- a POST reaches the server ``latency_ms`` after it is sent (or when the server
  has finished starting), and its response reaches the client ``latency_ms``
  later;
- a held request (a silent server) is never answered: the client waits as long
  as it waits on stdio (the probe timeout, or the request timeout) and gives up
  (``timeout``); over HTTP that is an error, not a sign of a legacy server
  (:mod:`._transport`);
- a server that exits closes the request's connection unanswered (``exit``),
  and every later POST finds nobody listening (``write-failed``, connection
  refused);
- ``restart`` is a new connection: the session is ended (``DELETE``) and
  forgotten; the server, a remote process, is the same one; ``close`` lets the
  responses already on their way arrive, then ends the session too (2025-03-26
  ``basic/transports.mdx`` §Session Management).

The transcript records each exchange as the wire has it: a message record
carries an ``http`` field (the request's method, path and MCP headers; the
response's status and headers, with the SSE event id where the body was an SSE
stream); a response without a message (202, a bodiless 405, an SSE priming
event) is an ``http`` event. A response that comes after the client stopped
waiting is still recorded, when the clock passes it.

HTTP+SSE (the transport of 2024-11-05) is not simulated: a 2024-11-05 exchange is
carried over Streamable HTTP, and the transcript says so once.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from typing import Any, Final

from ..versions import Message
from ._events import Closed, Event, Reply, Timeout
from ._http import REASONS, HttpClient, HttpEndpoint, HttpReading, HttpRequest, HttpResponse
from ._link import Transcript

__all__ = ["MCP_PATH", "HttpMemoryLink"]

#: The MCP endpoint the simulated client POSTs to.
MCP_PATH: Final = "/mcp"
#: Request headers a transcript keeps (the rest are the same on every POST).
RECORDED_REQUEST_HEADERS: Final = frozenset(
    {"mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id"})


@dataclass(frozen=True, slots=True)
class _Arrival:
    """A response on its way to the client: to which message, and what it is."""

    message: Message
    response: HttpResponse | None  #: None: the connection closed unanswered (the server exited)


def _status_text(status: int) -> str:
    return f"HTTP {status} {REASONS.get(status, '')}".rstrip()


class HttpMemoryLink:
    """A simulated server behind Streamable HTTP, in memory, on a simulated clock."""

    def __init__(self, endpoint: HttpEndpoint, latency_ms: int = 5, *,
                 client: HttpClient | None = None) -> None:
        self.endpoint = endpoint
        self.client = client or HttpClient(endpoint.spec.registry)
        self.latency_ms = latency_ms
        self.transcript = Transcript()
        self._clock = 0
        self._seq = 0
        self._pending: list[tuple[int, int, _Arrival]] = []  # heap of (arrives, seq, arrival)
        self._ready_at = endpoint.startup_ms
        self._exited_at: int | None = None
        self._said_http_sse = False

    @property
    def server(self) -> HttpEndpoint:
        """The server side (what ``run`` reads the served eras from)."""
        return self.endpoint

    def now_ms(self) -> int:
        return self._clock

    # -- sending -----------------------------------------------------------------------
    def _gone(self) -> bool:
        return self._exited_at is not None and self._exited_at <= self._clock

    def _post(self, message: Message) -> bool:
        """POST ``message``; False when nobody listens any more (the server exited)."""
        if self._gone():
            what = message.get("method", "a message")
            self.transcript.note(self._clock, f"POST {MCP_PATH} ({what}): connection refused: "
                                 "the server process has exited", "write-failed")
            return False
        self._say_http_sse(message)
        headers = self.client.headers(message)
        body = json.dumps(message, ensure_ascii=False).encode()
        wire: Message = json.loads(body)  # what the server reads is what the transcript records
        shown = {k: v for k, v in headers.items() if k.lower() in RECORDED_REQUEST_HEADERS}
        self.transcript.add(self._clock, "c2s", wire,
                            http={"method": "POST", "path": MCP_PATH, "headers": shown})
        read_at = max(self._clock + self.latency_ms, self._ready_at)
        self._ready_at = read_at
        lower = {k.lower(): v for k, v in headers.items()}
        response = self.endpoint.handle(HttpRequest("POST", MCP_PATH, lower, body))
        if response.exit:
            self._exited_at = read_at
            self._push(read_at + self.latency_ms, _Arrival(wire, None))
        elif not response.hold:
            self._push(read_at + self.latency_ms, _Arrival(wire, response))
        return True

    def _push(self, at: int, arrival: _Arrival) -> None:
        self._seq += 1
        heapq.heappush(self._pending, (at, self._seq, arrival))

    def _say_http_sse(self, message: Message) -> None:
        """Say once that a 2024-11-05 exchange is carried over Streamable HTTP."""
        revision = None
        if message.get("method") == "initialize":
            revision = (message.get("params") or {}).get("protocolVersion")
        elif self.client.legacy_revision is not None:
            revision = self.client.legacy_revision
        if self._said_http_sse or revision is None or revision not in self.client.registry:
            return
        if self.client.registry.get(str(revision)).settings.get("http_transport") != "http+sse":
            return
        self._said_http_sse = True
        self.transcript.note(self._clock, f"{revision} uses the HTTP+SSE transport (a GET opens "
                             "the stream first); the simulator carries it over Streamable HTTP: "
                             "HTTP+SSE is not simulated yet", "note")

    # -- receiving ---------------------------------------------------------------------
    def _deliver_until(self, deadline: int, want_id: Any = None) -> Event | None:
        """Deliver the responses that arrive by ``deadline``; stop at the answer to ``want_id``."""
        while self._pending and self._pending[0][0] <= deadline:
            at, _, arrival = heapq.heappop(self._pending)
            self._clock = max(self._clock, at)
            wanted = want_id is not None and arrival.message.get("id") == want_id \
                and "method" in arrival.message
            if arrival.response is None:
                # a simulated server ends itself only by a quirk (silent-exit), with code 1
                self.transcript.note(at, "the server process exited", "exit", side="server",
                                     code=1)
                if wanted:
                    return Closed()
                continue
            reading = self._record(at, arrival)
            if wanted and reading.answer is not None:
                return Reply(reading.answer)
        return None

    def _record(self, at: int, arrival: _Arrival) -> HttpReading:
        response = arrival.response
        assert response is not None
        headers = dict(response.headers)
        if response.content_type is not None:
            headers = {"Content-Type": response.content_type, **headers}
        reading = self.client.read(arrival.message, response.status, headers, response.encoded())
        http: dict[str, Any] = {"status": response.status, "headers": headers}
        for event_id in reading.primed:
            self.transcript.note(at, f"{_status_text(response.status)}, SSE priming event (id "
                                 f"{event_id}, empty data): not a message", "http", http=http)
        for part in reading.parts:
            extra = {"sse_id": part.event_id} if part.event_id is not None else {}
            self.transcript.add(at, "s2c", part.message, http={**http, **extra})
        if not reading.parts:
            text = f"{_status_text(response.status)}, no body"
            if reading.synthesized and reading.answer is not None:
                text += f": the client reads it as error {reading.answer['error']['code']}"
            self.transcript.note(at, text, "http", http=http)
        self._say_http_sse({})  # initialize may have agreed on a revision of HTTP+SSE
        return reading

    # -- the link ----------------------------------------------------------------------
    def request(self, message: Message, timeout_ms: int) -> Event:
        if not self._post(message):
            return Closed("connection refused")
        deadline = self._clock + timeout_ms
        event = self._deliver_until(deadline, message["id"])
        if event is not None:
            return event
        self._clock = deadline
        self.transcript.note(self._clock, f"no answer to id {message['id']} within {timeout_ms} ms",
                             "timeout")
        return Timeout(timeout_ms)

    def notify(self, message: Message) -> None:
        self._post(message)

    def _end_session(self) -> None:
        """``DELETE`` the session, if there is one (2025-03-26 §Session Management)."""
        sid = self.client.session_id
        if sid is None:
            return
        self.client.forget()
        if self._gone():
            self.transcript.note(self._clock, f"DELETE {MCP_PATH}: connection refused",
                                 "write-failed")
            return
        response = self.endpoint.handle(HttpRequest("DELETE", MCP_PATH, {"mcp-session-id": sid}))
        self.transcript.note(self._clock, f"DELETE {MCP_PATH} (Mcp-Session-Id: {sid}) -> "
                             f"{_status_text(response.status)}", "http",
                             http={"method": "DELETE", "path": MCP_PATH,
                                   "headers": {"Mcp-Session-Id": sid},
                                   "status": response.status})

    def restart(self) -> bool:
        self._deliver_until(self._clock)
        self.transcript.note(self._clock, "client starts a new connection", "restart")
        self._end_session()
        self.client.forget()
        return True

    def close(self) -> None:
        # the responses already on their way (a notification's 202) complete their POSTs
        self._deliver_until(max((at for at, _, _ in self._pending), default=self._clock))
        self._end_session()
        self.transcript.note(self._clock, "client closes the connection", "client-eof")

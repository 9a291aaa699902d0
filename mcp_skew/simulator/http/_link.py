"""The in-memory HTTP link: a simulated server behind Streamable HTTP, on the simulated clock.

:class:`HttpMemoryLink` has the interface of :class:`~._link.MemoryLink`
(``request``, ``notify``, ``restart``, ``close``, ``now_ms``, ``transcript``), so
the same driven client machine runs over it. Each message is one POST: the
client side (:class:`~._client.HttpClient`) gives its headers, the server side
(:class:`~._endpoint.HttpEndpoint`) decides the response, and the client side reads
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
  ``basic/transports.mdx`` §Session Management);
- a 404 to a request that carried ``Mcp-Session-Id`` means the server no longer
  knows the session: the link POSTs the ``initialize`` it sent before again, without
  a session id (the same message: ids are scoped to a session), then
  ``notifications/initialized``, then the request again in the new session, once
  (2025-03-26 and later ``basic/transports.mdx`` §Session Management: the client
  MUST start a new session). The transcript notes it; the path gets ``session``
  steps, carried on the request's event (``via``).

The transcript records each exchange as the wire has it: a message record
carries an ``http`` field (the request's method, path and MCP headers; the
response's status and headers, with the SSE event id where the body was an SSE
stream); a response without a message (202, a bodiless 405, an SSE priming
event) is an ``http`` event. A response that comes after the client stopped
waiting is still recorded, when the clock passes it.

HTTP+SSE (the transport of 2024-11-05, ``basic/transports.mdx`` §HTTP with SSE):

- a client whose ``initialize`` asks for 2024-11-05 knows no other HTTP transport:
  it GETs the URL first and expects an SSE stream whose first event is
  ``endpoint``, naming where to POST (unless it POSTs first: client quirk
  ``post-first``);
- a client whose ``initialize`` POST gets 400, 404 or 405 without a recognised
  modern error GETs the URL the same way (2025-03-26..2025-11-25
  ``basic/transports.mdx`` §Backwards Compatibility; 2026-07-28
  ``streamable-http.mdx`` §HTTP+SSE Transport), and POSTs ``initialize`` again
  on the stream's endpoint;
- on the stream each POST is answered 202 and its answer comes as an SSE
  ``message`` event, ``latency_ms`` after the server said it;
- a GET that opens no stream (405 from a Streamable HTTP server) leaves the
  client with the error of its ``initialize`` (the original POST's, or the 405
  read as an error).

The client's path records what the transport did (``transport`` steps, carried
on the event: ``via``); the transcript has the GET, the ``endpoint`` event and
each stream event.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ...versions import HTTP_HEADERS, Message
from .. import _path as steps
from .._link import Transcript
from .._path import PathStep
from ..machine._events import Closed, Event, Reply, Timeout
from ._client import HttpClient, HttpReading, synthesized_error
from ._endpoint import HttpEndpoint
from ._words import REASONS, HttpRequest, HttpResponse
from .auth._link import AuthAgent, protect

if TYPE_CHECKING:
    from .._peers import PeerSpec

__all__ = ["MCP_PATH", "HttpMemoryLink", "http_link"]

#: The MCP endpoint the simulated client POSTs to.
MCP_PATH: Final = "/mcp"
#: Request headers a transcript keeps (the rest are the same on every POST), by lower-case
#: name, from the profiles' header table (and the token), and the prefixes of ``{Name}`` ones.
RECORDED_REQUEST_HEADERS: Final = frozenset(
    {h.key for h in HTTP_HEADERS if h.recorded and not h.key.endswith("-")} | {*HTTP_HEADERS.recorded_also})
_RECORDED_PREFIXES: Final = tuple(h.key for h in HTTP_HEADERS if h.recorded and h.key.endswith("-"))


@dataclass(frozen=True, slots=True)
class _Arrival:
    """A response on its way to the client: to which message, and what it is."""

    message: Message
    response: HttpResponse | None  #: None: the connection closed unanswered (the server exited)
    #: a server message on the HTTP+SSE stream (``response`` is then None)
    streamed: Message | None = None
    #: the ``Mcp-Session-Id`` the request carried
    session: str | None = None
    #: the request was sent again in a new session (it is not renewed twice)
    renewed: bool = False
    #: ``streamed`` comes on the response stream of the POST of ``message`` (after the
    #: client answered the server's request there), not on the HTTP+SSE stream
    on_post: bool = False


def _reply(reading: HttpReading, reason: str = "") -> Reply:
    """The answer a reading gives the client: with its status (and ``reason``, why it stays a
    failure) when it was made from one."""
    assert reading.answer is not None
    if not reading.synthesized:
        return Reply(reading.answer)
    return Reply(reading.answer, status=reading.status, reason=reason)


def _status_text(status: int) -> str:
    return f"HTTP {status} {REASONS.get(status, '')}".rstrip()


class HttpMemoryLink:
    """A simulated server behind Streamable HTTP, in memory, on a simulated clock."""

    def __init__(self, endpoint: HttpEndpoint, latency_ms: int = 5, *,
                 client: HttpClient | None = None, auth: AuthAgent | None = None) -> None:
        self.endpoint = endpoint
        #: the client's authorization (scenario auth): a 401 starts it (:mod:`.auth._link`)
        self.auth = auth
        self.client = client or HttpClient(endpoint.spec.registry)
        self.latency_ms = latency_ms
        self.transcript = Transcript()
        self._clock = 0
        self._seq = 0
        self._pending: list[tuple[int, int, _Arrival]] = []  # heap of (arrives, seq, arrival)
        self._ready_at = endpoint.startup_ms
        self._exited_at: int | None = None
        #: HTTP+SSE: the stream's session and the POST endpoint its ``endpoint`` event named
        self._stream: str | None = None
        self._post_path: str | None = None
        #: transport steps taken while serving the current request (for the event's ``via``)
        self._via: list[PathStep] = []
        #: the last ``initialize`` and ``notifications/initialized`` POSTed: a lost session is
        #: replaced by sending them again (2025-03-26 ``basic/transports.mdx`` §Session Management)
        self._init: Message | None = None
        self._initialized: Message | None = None
        #: why the last answer's status stays a failure (the authorization's word; or "")
        self._refused = ""
        #: how the client answers a request of the server's (the ``features`` scenario); None:
        #: it leaves them unanswered
        self.answers: Callable[[Message], Message] | None = None

    @property
    def server(self) -> HttpEndpoint:
        """The server side (what ``run`` reads the served eras from)."""
        return self.endpoint

    def now_ms(self) -> int:
        return self._clock

    def wait_until(self, until_ms: int) -> None:
        """Let the simulated clock run to ``until_ms``, delivering what arrives meanwhile.
        (Server changes over time are the stdio link's: :meth:`MemoryLink.schedule`.)"""
        if until_ms > self._clock:
            self._deliver_until(until_ms)
            self._clock = max(self._clock, until_ms)

    # -- sending -----------------------------------------------------------------------
    def _gone(self) -> bool:
        return self._exited_at is not None and self._exited_at <= self._clock

    def _post(self, message: Message, *, renewed: bool = False) -> bool:
        """POST ``message``; False when nobody listens any more (the server exited)."""
        path = self._post_path or MCP_PATH
        if self._gone():
            what = message.get("method", "a message")
            self.transcript.note(self._clock, f"POST {path} ({what}): connection refused: "
                                 "the server process has exited", "write-failed")
            return False
        headers = self.client.headers(message)
        body = json.dumps(message, ensure_ascii=False).encode()
        wire: Message = json.loads(body)  # what the server reads is what the transcript records
        shown = {k: v for k, v in headers.items()
                 if k.lower() in RECORDED_REQUEST_HEADERS or k.lower().startswith(_RECORDED_PREFIXES)}
        self.transcript.add(self._clock, "c2s", wire,
                            http={"method": "POST", "path": path, "headers": shown})
        read_at = max(self._clock + self.latency_ms, self._ready_at)
        if "id" in wire and "method" in wire:  # a request keeps it busy (quirk latency)
            read_at += self.endpoint.latency_ms
        self._ready_at = read_at
        lower = {k.lower(): v for k, v in headers.items()}
        if wire.get("method") == "initialize":
            self._init = wire
        elif wire.get("method") == "notifications/initialized":
            self._initialized = wire
        response = self.endpoint.handle(HttpRequest("POST", path, lower, body))
        if response.exit:
            self._exited_at = read_at
            self._push(read_at + self.latency_ms, _Arrival(wire, None))
        elif not response.hold:
            self._push(read_at + self.latency_ms,
                       _Arrival(wire, response, session=lower.get("mcp-session-id"),
                                renewed=renewed))
        if self._stream is not None:  # what the server said on the stream, in order
            for said in self.endpoint.take_events(self._stream):
                self._push(read_at + self.latency_ms, _Arrival(wire, None, said))
        return True

    # -- HTTP+SSE ----------------------------------------------------------------------
    def _open_stream(self) -> int | None:
        """GET the URL for an HTTP+SSE stream; None when it opened, else the status."""
        self._deliver_until(self._clock)
        self.transcript.note(self._clock, f"GET {MCP_PATH} (Accept: text/event-stream): open "
                             "an HTTP+SSE stream", "http",
                             http={"method": "GET", "path": MCP_PATH,
                                   "headers": {"Accept": "text/event-stream"}})
        read_at = max(self._clock + self.latency_ms, self._ready_at)
        response = self.endpoint.handle(HttpRequest("GET", MCP_PATH,
                                                    {"accept": "text/event-stream"}))
        at = read_at + self.latency_ms
        self._deliver_until(at)
        self._clock = max(self._clock, at)
        headers = dict(response.headers)
        if response.content_type is not None:
            headers = {"Content-Type": response.content_type, **headers}
        http: dict[str, Any] = {"status": response.status, "headers": headers}
        endpoint = next((data for name, data in response.events if name == "endpoint"), None)
        if response.status != 200 or endpoint is None:
            self.transcript.note(at, f"{_status_text(response.status)}, no SSE stream", "http",
                                 http=http)
            self._via.append(steps.sse_refused(response.status))
            return response.status
        self._post_path = endpoint
        self._stream = endpoint.partition("session_id=")[2]
        self.transcript.note(at, f"{_status_text(response.status)}, SSE stream; event endpoint: "
                             f"{endpoint}", "http", http={**http, "sse_event": "endpoint"})
        self._via.append(steps.sse_opened(endpoint))
        self.client.forget()  # a new transport: no Streamable HTTP session, nothing agreed yet
        return None

    def _close_stream(self) -> None:
        if self._stream is None:
            return
        self.endpoint.close_stream(self._stream)
        self.transcript.note(self._clock, f"client closes the HTTP+SSE stream (GET {MCP_PATH})",
                             "http")
        self._stream = self._post_path = None

    def _push(self, at: int, arrival: _Arrival) -> None:
        self._seq += 1
        heapq.heappush(self._pending, (at, self._seq, arrival))

    # -- receiving ---------------------------------------------------------------------
    def _deliver_until(self, deadline: int, want_id: Any = None) -> Event | None:
        """Deliver the responses that arrive by ``deadline``; stop at the answer to ``want_id``."""
        while self._pending and self._pending[0][0] <= deadline:
            at, _, arrival = heapq.heappop(self._pending)
            self._clock = max(self._clock, at)
            wanted = want_id is not None and arrival.message.get("id") == want_id \
                and "method" in arrival.message
            if arrival.streamed is not None:
                said = arrival.streamed
                where = {"post_stream": MCP_PATH} if arrival.on_post else {"stream": MCP_PATH}
                self.transcript.add(at, "s2c", said, http={"sse_event": "message", **where})
                self.client.learn(arrival.message, said)
                if "method" in said and "id" in said and self.answers is not None:
                    self._post(self.answers(said))  # the server asks on the stream: answered
                # after the client POSTed an answer, the stream carries the call's result
                answered = want_id is not None and "method" not in arrival.message
                if (wanted or answered) and said.get("id") == want_id and "method" not in said:
                    return self._event(Reply(said))
                continue
            if arrival.response is None:
                # a simulated server ends itself only by a quirk (silent-exit), with code 1
                self.transcript.note(at, "the server process exited", "exit", side="server",
                                     code=1)
                if wanted:
                    return self._event(Closed())
                continue
            reading = self._record(at, arrival)
            self._answer_asks(arrival, reading)
            self._refused = ""
            if wanted and reading.answer is not None and self.auth is not None \
                    and self._authorized(arrival, reading):
                continue  # the request again, with the token; its answer comes
            refused = self._refused
            if wanted and reading.answer is not None:
                if (not arrival.renewed and self._stream is None
                        and self.client.session_lost(arrival.message, reading, arrival.session)):
                    if self._renew(arrival.message, reading, deadline):
                        continue  # the request again, in the new session; its answer comes
                    return self._event(_reply(reading, refused))
                if self._stream is None and self.client.wants_sse(arrival.message, reading):
                    self._clock = max(self._clock, at)
                    self._via.append(steps.sse_fallback(reading.status))
                    if self._open_stream() is None and self._post(arrival.message):
                        continue  # initialize again, on the stream; its answer comes there
                return self._event(_reply(reading, refused))
        return None

    def _answer_asks(self, arrival: _Arrival, reading: HttpReading) -> None:
        """The server's requests on a response stream, answered (the ``features`` scenario:
        :attr:`answers`): each answer is POSTed; what the server then says for the open
        request comes on its stream."""
        if self.answers is None:
            return
        for part in reading.parts:
            asked = part.message
            if isinstance(asked, dict) and "method" in asked and "id" in asked:
                self._post(self.answers(asked))
                for said in self.endpoint.take_late():
                    self._push(self._ready_at + self.latency_ms,
                               _Arrival(arrival.message, None, said, on_post=True))

    def _authorized(self, arrival: _Arrival, reading: HttpReading) -> bool:
        """A 401: authorize (:mod:`.auth._link`) and send the request again with the token;
        a 403 insufficient_scope: step up, where the client's revision does, and send it
        again. Any other answer after an authorization closes its path (``retry 200``)."""
        assert self.auth is not None and arrival.response is not None
        settled = self.auth.settle(reading.status)
        if settled is not None:
            self._via.append(settled)
        method = arrival.message.get("method")
        method = method if isinstance(method, str) else None
        headers = arrival.response.headers
        if not self.auth.wants(reading.status, headers, method):
            refusal = self.auth.refusal(reading.status, headers, method)
            if refusal and reading.synthesized and reading.answer is not None:
                self.transcript.note(self._clock, refusal, "auth", refused=reading.status)
                self._refused = refusal  # the client says it after the error
            return False
        result, self._clock = self.auth.run(arrival.response, self.endpoint.handle,
                                            self._clock, self.latency_ms, self.transcript,
                                            method=method)
        if result.token is None:
            failed = self.auth.failed_step()
            if failed is not None:
                self._via.append(failed)
            if reading.synthesized and reading.answer is not None:  # why, beside the error
                self._refused = f"authorization failed: {result.reason}"
            return False
        self.client.authorization = f"Bearer {result.token}"
        return self._post(arrival.message)

    def _renew(self, message: Message, reading: HttpReading, deadline: int) -> bool:
        """The server answered 404 to a request in the session: it no longer knows it. Start
        a new session, a new ``initialize`` without ``Mcp-Session-Id`` (and the
        ``notifications/initialized`` after it), then send ``message`` again in it (2025-03-26
        and later ``basic/transports.mdx`` §Session Management). False when no new session
        opened: the client is left with the 404's error."""
        init = self._init
        if init is None:
            return False
        self._via.append(steps.session_lost(str(message.get("method")), reading.status))
        self.transcript.note(self._clock, f"session {self.client.session_id} is gone "
                             f"(HTTP {reading.status}): the client starts a new session, "
                             "initialize again without Mcp-Session-Id", "http")
        self.client.forget()
        if not self._post(init):
            return False
        event = self._deliver_until(deadline, init["id"])
        if event is not None:  # the steps taken on the way stay with the pending request
            self._via = [*event.via]
        if not isinstance(event, Reply) or event.error is not None \
                or not isinstance(event.result, dict):
            code = event.code if isinstance(event, Reply) else "none"
            self._via.append(steps.session_refused(code))
            return False
        self._via.append(steps.session_renewed(event.result.get("protocolVersion")))
        if self._initialized is not None:
            self._post(self._initialized)
        return self._post(message, renewed=True)

    def _event(self, event: Event) -> Event:
        """``event`` with the transport steps taken for it (``via``)."""
        if not self._via:
            return event
        via, self._via = tuple(self._via), []
        if isinstance(event, Reply):
            return Reply(event.message, via, event.status, event.reason)
        if isinstance(event, Timeout):
            return Timeout(event.after_ms, via)
        return Closed(event.detail, via)

    def _record(self, at: int, arrival: _Arrival) -> HttpReading:
        response = arrival.response
        assert response is not None
        headers = dict(response.headers)
        if response.content_type is not None:
            headers = {"Content-Type": response.content_type, **headers}
        reading = self.client.read(arrival.message,
                                   HttpResponse(response.status, response.encoded(), headers))
        http: dict[str, Any] = {"status": response.status, "headers": headers}
        for event_id in reading.primed:
            self.transcript.note(at, f"{_status_text(response.status)}, SSE priming event (id "
                                 f"{event_id}, empty data): not a message", "http", http=http)
        for part in reading.parts:
            extra = {"sse_id": part.event_id} if part.event_id is not None else {}
            self.transcript.add(at, "s2c", part.message, http={**http, **extra})
        if not reading.parts:
            said = "no body" if response.body is None else "a body that is no JSON-RPC message"
            text = f"{_status_text(response.status)}, {said}"
            if reading.synthesized and reading.answer is not None:
                text += f": the client reads it as error {reading.answer['error']['code']}"
            self.transcript.note(at, text, "http", http=http)
        return reading

    # -- the link ----------------------------------------------------------------------
    def request(self, message: Message, timeout_ms: int) -> Event:
        deadline = self._clock + timeout_ms
        if self._stream is None and self.client.opens_sse(message):
            status = self._open_stream()  # 2024-11-05: the stream first, then POST there
            if status is not None:
                made = synthesized_error(message.get("id"), status, REASONS.get(status, ""),
                                         f"GET {MCP_PATH}: no HTTP+SSE stream")
                return self._event(Reply(made, status=status))
        if not self._post(message):
            return self._event(Closed("connection refused"))
        event = self._deliver_until(deadline, message["id"])
        if event is not None:
            return event
        self._clock = deadline
        self.transcript.note(self._clock, f"no answer to id {message['id']} within {timeout_ms} ms",
                             "timeout")
        return self._event(Timeout(timeout_ms))

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
        sent = {"mcp-session-id": sid}
        if self.client.authorization:  # every request carries the token (scenario auth)
            sent["authorization"] = self.client.authorization
        response = self.endpoint.handle(HttpRequest("DELETE", MCP_PATH, sent))
        self.transcript.note(self._clock, f"DELETE {MCP_PATH} (Mcp-Session-Id: {sid}) -> "
                             f"{_status_text(response.status)}", "http",
                             http={"method": "DELETE", "path": MCP_PATH,
                                   "headers": {"Mcp-Session-Id": sid},
                                   "status": response.status})

    def restart(self) -> bool:
        self._deliver_until(self._clock)
        self.transcript.note(self._clock, "client starts a new connection", "restart")
        self._end_session()
        self._close_stream()
        self.client.forget()
        return True

    def close(self) -> None:
        # the responses already on their way (a notification's 202) complete their POSTs
        self._deliver_until(max((at for at, _, _ in self._pending), default=self._clock))
        self._end_session()
        self._close_stream()
        self.transcript.note(self._clock, "client closes the connection", "client-eof")


def http_link(client: PeerSpec, server: PeerSpec, *, protected: bool,
              latency_ms: int) -> HttpMemoryLink:
    """The link of one run over Streamable HTTP: ``server``'s endpoint (behind its
    authorization when the scenario is ``protected``) and ``client``'s HTTP side, as its
    policy has them. :func:`mcp_skew.simulator.run` imports this on the first HTTP run, so a
    stdio run loads no HTTP and no authorization."""
    endpoint, auth = protect(client, server) if protected else (HttpEndpoint(server), None)
    policy = client.client_policy
    return HttpMemoryLink(endpoint, latency_ms, auth=auth,
                          client=HttpClient(client.registry, post_first=policy.http_post_first,
                                            version_on_initialize=policy
                                            .http_version_on_initialize,
                                            drops_session=policy.http_drops_session))

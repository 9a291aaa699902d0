"""A simulated server as a real MCP server over Streamable HTTP (POST, JSON responses), and
over the HTTP+SSE transport of 2024-11-05 where the server speaks that revision.

Theory of operation
-------------------
What one HTTP request gets is decided without sockets by the simulator's
endpoint, :class:`mcp_skew.simulator.HttpEndpoint` (sessions, status
codes, the 2026-07-28 header checks, held requests, a server that exits: see
its module for every rule and its citation); the in-memory HTTP link of
``simulate --transport http`` and ``matrix --transport http`` runs the same one.
Here it is made safe across threads, given random session ids and an idle
expiry for sessions (:class:`ServedEndpoint`), and :func:`make_http_server` binds
the socket; :meth:`HttpServer.serve_forever` serves it with Starlette and
Uvicorn (:mod:`._asgi`, imported only then: ``--help`` and the other commands
never load them). What the HTTP stack adds, with the limits in
:class:`HttpLimits`:

- a body-size cap (413), a deadline for a request's headers and for its body
  (the connection is closed; 408 for a body), an idle timeout between the
  requests of a kept-alive connection, a real listen backlog;
- malformed headers (an ``Origin`` or ``Host`` that does not parse, a
  ``Content-Length`` that is not a number or has more than 18 digits) get 400;
- DNS rebinding: the ``Host`` must name a loopback address (421 otherwise, as the
  official Python SDK's transport security answers) and the ``Origin``, when
  present, a loopback host (403, decided by the endpoint), unless remote clients
  are allowed: "Servers MUST validate the ``Origin`` header on all incoming
  connections to prevent DNS rebinding attacks" (2025-03-26 and later
  ``basic/transports.mdx`` §Security Warning);
- a held request (a ``silent`` server) is kept open until the client gives up
  and disconnects, or the server stops;
- a server that exits (``silent-exit`` on its next input) closes the
  connection unanswered and stops the whole process;
- an HTTP+SSE stream (a ``GET`` to a server with 2024-11-05) is held open: the
  endpoint opens it and decides every POST to ``/messages?session_id=…``; what the
  stream's server says is moved, under the endpoint's lock, to the stream's queue
  (:class:`StreamBox`), and the stream writes it as SSE ``message`` events until the
  client disconnects or the server stops (it looks every 0.05 s, so it never blocks
  shutdown);
- load: at most ``limits.max_connections`` connections are served at once (a request on
  one more gets 503 with ``Retry-After``), at most half of them HTTP+SSE streams (a
  ``GET`` past that: 503 too); a stream whose client does not read has at most
  ``limits.stream_queue_bytes`` waiting for it: past that, the stream is closed and its
  server forgotten (its next POST gets 404), never a queue that grows without bound; and
  all streams together at most ``limits.streams_total_bytes``: past that, the stream with
  the most waiting (the slowest reader; the oldest of equals) is closed the same way;
- a protected server (``auth=LAYOUT``): its test authorization server's tokens, codes and
  client ids are keyed by random bytes of this process (a token of another ``serve`` is
  unknown here); a body to one of its URLs (anything but the MCP endpoint and
  ``/messages``) over ``limits.auth_body_bytes`` is 413, before it is read whole; a
  ``POST /messages`` needs the token its stream was opened with;
- a request target is read once (:func:`mcp_skew.simulator.parse_target`): one with a
  fragment, or of no form served here, is 400; an absolute-form target's host is checked as
  a ``Host`` header's is, and the target then read in origin form;
- a client that gives up mid-answer, a body nested too deeply, an id with a lone
  surrogate: an answer or a quiet close, never a traceback.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..simulator import PeerSpec
from ..simulator import http as core
from ..simulator.http import HttpRequest, HttpResponse, RequestTarget, decode_header_value, is_loopback
from ..simulator.http.auth import AUTH_BODY_BYTES, AuthServer, auth_server_for, guard
from ._log import LogWriter
from ._stdio import Say

__all__ = [
    "HttpLimits",
    "HttpRequest",
    "HttpResponse",
    "HttpServer",
    "ServedEndpoint",
    "StreamBox",
    "check_host",
    "decode_header_value",
    "is_loopback",
    "make_http_server",
    "server_url",
]


def check_host(host: str, allow_remote: bool) -> None:
    if not allow_remote and not is_loopback(host):
        raise UsageError(f"refusing to listen on {host}: not a loopback address; the simulated "
                         "server has no authentication (pass --allow-remote to do it anyway)")


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """What one client may take of ``serve --http``: sizes, deadlines, sessions."""

    body_bytes: int = 4 << 20  #: a longer body gets 413 (the stdio line cap, 4 MiB)
    header_s: float = 10.0  #: to send a request's headers, from connect or the last answer
    body_s: float = 30.0  #: to send a request's body once its headers are in (else 408)
    idle_s: float = 5.0  #: a kept-alive connection with no request is closed after this
    session_idle_s: float = 600.0  #: a legacy session unused this long is forgotten (404)
    max_sessions: int = 10_000  #: over this, the longest unused sessions are forgotten
    backlog: int = 1024  #: connections the kernel queues before they are accepted
    shutdown_s: float = 3.0  #: how long stopping waits for open requests and streams
    max_connections: int = 512  #: a request on one more connection gets 503 (Retry-After)
    stream_queue_bytes: int = 16 << 20  #: SSE bytes one stream may have waiting (then closed)
    #: SSE bytes all streams together may have waiting (then the one with most is closed)
    streams_total_bytes: int = 64 << 20
    #: a body to the authorization URLs (anything but ``/mcp`` and ``/messages``): more, 413
    auth_body_bytes: int = AUTH_BODY_BYTES

    @property
    def max_streams(self) -> int:
        """HTTP+SSE streams held open at most: half the connections, so requests still fit."""
        return max(1, self.max_connections // 2)


class StreamBox:
    """What one HTTP+SSE stream has still to write: SSE events (bytes) in order, at most
    ``cap`` bytes of them (an empty box takes any one event, however long).

    A put past the cap *overflows* the box: what it held is dropped, it takes nothing more,
    and ``on_overflow`` (set by the stream: it closes the connection, which a writer
    blocked on a client that does not read cannot see otherwise) is called once.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.size = 0  #: bytes waiting
        #: bytes taken and written, but maybe still in the connection's buffer (a client
        #: that does not read): the stream says so (:meth:`in_buffer`); counted by the
        #: global cap, not by this box's
        self.in_flight = 0
        self.overflowed = False
        self.why = ""  #: why it overflowed, where not its own cap (the streams' global one)
        self.on_overflow: Callable[[], None] | None = None
        self._events: deque[bytes] = deque()
        self._lock = threading.Lock()

    def put(self, event: bytes) -> bool:
        """Queue ``event``; False when the box is (or now becomes) overflowed."""
        with self._lock:
            if self.overflowed:
                return False
            if not self._events or self.size + len(event) <= self.cap:
                self._events.append(event)
                self.size += len(event)
                return True
        self.overflow()
        return False

    def overflow(self, why: str = "") -> None:
        """Drop what the box holds and take nothing more; ``on_overflow`` is called once."""
        with self._lock:
            if self.overflowed:
                return
            self.overflowed, self.why = True, why
            self._events.clear()
            self.size = self.in_flight = 0
        if self.on_overflow is not None:
            self.on_overflow()

    def get(self) -> bytes | None:
        """The next event to write, or None when none is waiting."""
        with self._lock:
            if not self._events:
                return None
            event = self._events.popleft()
            self.size -= len(event)
            return event

    def in_buffer(self, size: int) -> None:
        """The stream holds ``size`` bytes it took from the box: the event it is writing (a
        write waits for the connection's buffer to drain first) and what the connection's
        buffer has not sent yet; 0 once both are gone."""
        with self._lock:
            self.in_flight = 0 if self.overflowed else size

    @property
    def held(self) -> int:
        """What the box costs now: the bytes waiting and those in the connection's buffer."""
        return self.size + self.in_flight


class ServedEndpoint(core.HttpEndpoint):
    """The simulator's endpoint, safe across threads, minting random session ids.

    Each open HTTP+SSE stream has a queue: after every request, what the stream
    servers said (:meth:`take_events`) goes to their queues, in order, under the lock.
    A legacy session unused for ``limits.session_idle_s`` seconds is forgotten (its
    next request gets 404, and the client starts a new one: 2025-03-26 and later
    ``basic/transports.mdx`` §Session Management), as are the longest unused when
    there are more than ``limits.max_sessions``.
    """

    def __init__(self, spec: PeerSpec, *, say: Say, allow_remote: bool = False,
                 limits: HttpLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(spec, say=say, allow_remote=allow_remote,
                         session_ids=lambda: uuid.uuid4().hex)
        self._lock = threading.Lock()
        self.queues: dict[str, StreamBox] = {}
        self.limits = limits or HttpLimits()
        self._clock = clock
        self.last_used: dict[str, float] = {}  #: session id -> when it was last used
        #: a protected server's authorization URLs and test authorization server (server
        #: quirk ``auth=LAYOUT``: ``protect`` sets it once the URL is known), else None
        self.auth: AuthServer | None = None

    def protect(self, url: str, secret: bytes | None = None) -> None:
        """Protect the server at ``url`` when its spec names a layout (``auth=LAYOUT``); its
        tokens, codes and client ids are keyed by ``secret`` (default: random bytes)."""
        if self.spec.server_policy.auth_layout is not None:
            origin = url.split("://", 1)[0] + "://" + url.split("://", 1)[1].split("/", 1)[0]
            self.auth = auth_server_for(self.spec, origin,
                                        os.urandom(32) if secret is None else secret)
            self.binds_streams = self.auth is not None

    def guard(self, request: HttpRequest, target: RequestTarget) -> HttpResponse | None:
        return guard(self.auth, request, target) if self.auth is not None else None

    def handle(self, request: HttpRequest) -> HttpResponse:
        with self._lock:
            now = self._clock()
            self._expire(now)
            response = super().handle(request)
            for sid in (response.headers.get("Mcp-Session-Id"),
                        request.headers.get("mcp-session-id")):
                if sid is not None and sid in self.sessions:
                    self.last_used[sid] = now
            self._to_streams()
            return response

    def _to_streams(self) -> None:
        """Move what each stream's server said to its box; a box that overflows ends its
        stream's server (the stream closes and its next POST gets 404)."""
        overflowed: list[str] = []
        for sid in self.streams:
            box = self.queues.setdefault(sid, StreamBox(self.limits.stream_queue_bytes))
            for message in self.take_events(sid):
                if not box.put(HttpResponse(200, message, stream=True).encoded()):
                    overflowed.append(sid)
                    break
        for sid in overflowed:
            self.say(f"HTTP+SSE stream {sid[:8]}: over {self.limits.stream_queue_bytes} bytes "
                     "waiting for a client that does not read; closing it")
            super().close_stream(sid)
        self._within_total()

    def _within_total(self) -> None:
        """While all streams together have more than ``limits.streams_total_bytes`` waiting
        (in their boxes and in their connections' buffers), close the one with the most (the
        slowest reader; of equals, the oldest)."""
        boxes = {sid: box for sid, box in self.queues.items() if not box.overflowed}
        total = sum(box.held for box in boxes.values())
        while total > self.limits.streams_total_bytes and boxes:
            sid = max(boxes, key=lambda s: boxes[s].held)  # max keeps the first (oldest)
            box = boxes.pop(sid)
            total -= box.held
            self.say(f"HTTP+SSE stream {sid[:8]}: the streams have over "
                     f"{self.limits.streams_total_bytes} bytes waiting; closing the one with "
                     f"most ({box.held} bytes)")
            box.overflow(f"the streams had over {self.limits.streams_total_bytes} bytes waiting, "
                         f"this one the most ({box.held})")
            super().close_stream(sid)

    def _expire(self, now: float) -> None:
        for sid in [s for s in self.last_used if s not in self.sessions]:
            del self.last_used[sid]  # ended by DELETE or by quirk session-expiry
        idle = self.limits.session_idle_s
        stale = [sid for sid, used in self.last_used.items() if now - used > idle]
        excess = len(self.last_used) - len(stale) - self.limits.max_sessions
        if excess > 0:
            kept = sorted((used, sid) for sid, used in self.last_used.items() if sid not in stale)
            stale += [sid for _, sid in kept[:excess]]
        for sid in stale:
            for table in (self.sessions, self.answered, self.served, self.last_used):
                table.pop(sid, None)
            self.say(f"session {sid[:8]} expired (unused for {idle:g} s, or over "
                     f"{self.limits.max_sessions} sessions)")

    def stream_queue(self, sid: str) -> StreamBox | None:
        with self._lock:
            return self.queues.get(sid)

    def close_stream(self, sid: str) -> None:
        with self._lock:
            self.queues.pop(sid, None)
            super().close_stream(sid)


# -- the socket side ------------------------------------------------------------------------

class HttpServer:
    """A bound socket and what serving it needs; :meth:`serve_forever` serves it.

    The interface of the standard library's servers, which the command and the
    tests use: ``serve_forever``, ``shutdown`` (from another thread), ``server_close``,
    ``server_address``; and ``stop_streams`` to end held requests and streams.
    """

    def __init__(self, endpoint: ServedEndpoint, sock: socket.socket, log: LogWriter | None,
                 limits: HttpLimits) -> None:
        self.endpoint = endpoint
        self.socket = sock
        self.log = log
        self.say = endpoint.say
        self.limits = limits
        self.server_address: tuple[Any, ...] = sock.getsockname()
        self.stopping = threading.Event()  #: held requests and streams end when set
        self.exit_code = 0
        self.open_streams = 0  #: HTTP+SSE streams held open now
        self.streams_changed = threading.Condition()
        self.stop_requested = threading.Event()  #: the serving loop ends when set
        self._serving = threading.Event()
        self._done = threading.Event()

    def serve_forever(self, poll_interval: float = 0.1) -> None:
        """Serve until :meth:`shutdown`, a simulated exit, or SIGINT/SIGTERM (main thread:
        the server stops gracefully, then the signal is raised again)."""
        from ._asgi import serve  # noqa: PLC0415 - Starlette and Uvicorn load when a server runs

        self._serving.set()
        try:
            serve(self, poll_interval)
        finally:
            self._done.set()

    def shutdown(self) -> None:
        """Stop serving and wait for it (at most the shutdown bound and a second)."""
        self.stop_requested.set()
        if self._serving.is_set():
            self._done.wait(self.limits.shutdown_s + 1.0)

    def stop_streams(self, timeout: float = 2.0) -> None:
        """Stop: held requests and HTTP+SSE streams end (each looks every 0.05 s); wait, at
        most ``timeout`` seconds, for the streams to finish (their last log records included)."""
        self.stopping.set()
        with self.streams_changed:
            self.streams_changed.wait_for(lambda: self.open_streams == 0, timeout)

    def stream_opened(self) -> None:
        with self.streams_changed:
            self.open_streams += 1

    def stream_closed(self) -> None:
        with self.streams_changed:
            self.open_streams -= 1
            self.streams_changed.notify_all()

    def server_close(self) -> None:
        self.socket.close()


def make_http_server(endpoint: ServedEndpoint, host: str, port: int, *,
                     log: LogWriter | None = None,
                     limits: HttpLimits | None = None) -> HttpServer:
    """Bind and listen (not yet serve): ``server.serve_forever()`` then runs it; port 0
    picks one."""
    check_host(host, endpoint.allow_remote)
    limits = limits or endpoint.limits
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(limits.backlog)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except OverflowError:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: not a port") from None
    return HttpServer(endpoint, sock, log, limits)


def server_url(server: HttpServer) -> str:
    raw_host, port = server.server_address[:2]
    host = raw_host.decode() if isinstance(raw_host, bytes) else str(raw_host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/mcp"

"""``serve --http`` on Starlette and Uvicorn: the HTTP side of :mod:`._http`.

Imported only when a server runs (:meth:`HttpServer.serve_forever`), so that
``--help``, ``--version`` and every other command start without them.

Theory of operation
-------------------
Uvicorn (its pure-Python ``h11`` protocol) parses HTTP/1.1 and answers what does
not parse with 400 (a ``Content-Length: abc``, a header line without a colon);
:class:`_Protocol` adds a deadline for a request's headers, which Uvicorn has
not, and hands each request its connection (``scope["extensions"]``) so that the
app can close it unanswered: a simulated server that exits. The app
(:class:`_App`) reads each request with Starlette, checks what the endpoint
cannot know (``Host``, a malformed ``Origin``, the body's size and deadline),
lets the endpoint decide, and sends the answer: JSON, an HTTP+SSE stream, a held
request, or a closed connection. Everything runs on one event loop thread; the
endpoint's decisions are quick and do no I/O but the log.

Under load: :class:`_Protocol` marks a connection accepted past
``limits.max_connections`` (counted by Uvicorn's own set of open connections),
and the app answers its request 503 with ``Retry-After`` and closes it; a
``GET`` that would open an HTTP+SSE stream past ``limits.max_streams`` gets the
same. The cap is lowered to fit the process's descriptor limit, so that
accepting never runs out of descriptors, and what the event loop reports (an
``accept`` that failed, say) is one line, at most once a second, never a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import resource
import time
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

import h11
from starlette.requests import Request
from starlette.responses import Response
from uvicorn import Config, Server
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..simulator.http import HttpRequest, HttpResponse, RequestTarget, is_loopback, mcp_route, parse_target
from ._log import LOGGED_HEADERS

if TYPE_CHECKING:  # the server this module serves imports it when it runs
    from ._http import HttpServer

__all__ = ["serve"]

#: Where a request finds its connection (to close it unanswered).
TRANSPORT: Final = "mcp-skew.transport"
#: Set when the client half-closed its side after a whole request.
EOF: Final = "mcp-skew.eof"
#: Longest decimal ``Content-Length`` taken as a number (more: 400, as a malformed header).
LENGTH_DIGITS: Final = 18
#: The connection cap, on a connection accepted past it (its request gets 503); else 0.
OVER: Final = "mcp-skew.over-cap"
#: How often a held request or a stream looks whether the server stops.
TICK: Final = 0.05
#: Seconds a 503 asks the client to wait (``Retry-After``, RFC 9110 §10.2.3).
RETRY_AFTER_S: Final = 1
#: Descriptors kept free of connections: the listening socket, the log, the loop's own.
SPARE_FDS: Final = 32


#: A host name or address, as a ``Host`` header may carry it (RFC 3986 reg-name or IP).
_HOST: Final = re.compile(r"[A-Za-z0-9._~%!$&'()*+,;=:-]+")


class _Protocol(H11Protocol):
    """Uvicorn's h11 protocol with a deadline for the request's headers (from connect, or from
    the first byte after an answer), and the connection handed to each request."""

    header_s: float = 10.0
    max_connections: int = 512
    over_cap: bool = False
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.over_cap = len(self.connections) > self.max_connections
        self._arm()

    def _arm(self) -> None:
        if self._timer is None:
            self._timer = self.loop.call_later(self.header_s, self._too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()
        if self.cycle is not None:
            extensions: dict[str, Any] = self.cycle.scope.setdefault("extensions", {})
            extensions[TRANSPORT] = self.transport
            extensions[OVER] = self.max_connections if self.over_cap else 0

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """The client half-closed (it sends no more): a request it sent whole is still
        answered (Uvicorn would close at once); a held request or an HTTP+SSE stream ends,
        as if the client had left."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete \
                and self.conn.their_state in (h11.DONE, h11.MUST_CLOSE):
            extensions: dict[str, Any] = cycle.scope.setdefault("extensions", {})
            extensions[EOF] = True
            return True
        return None


class _Refused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def _host_of(value: str) -> str:
    """The host of a ``Host`` header (``host[:port]``, ``[v6][:port]``); ValueError if it does
    not parse."""
    parts = urlsplit(f"http://{value}")
    if parts.hostname is None or parts.path or parts.query or parts.username is not None \
            or not _HOST.fullmatch(parts.hostname):
        raise ValueError(value)
    _ = parts.port  # ValueError when it is not a port
    return parts.hostname


def _check_origin(value: str) -> None:
    """An ``Origin`` is ``null`` or ``scheme://host[:port]`` (RFC 6454 §7); ValueError else."""
    if value == "null":
        return
    parts = urlsplit(value)
    if not parts.scheme or parts.hostname is None:
        raise ValueError(value)
    _ = parts.port


class _App:
    """The ASGI application: one :class:`HttpServer`'s endpoint behind Starlette requests."""

    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.endpoint = server.endpoint
        self.limits = server.limits
        self.uvicorn: Server | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        try:
            await self._serve(request, send)
        except _Refused as refused:
            await self._refuse(request, send, refused)
        except Exception as exc:  # a bug must cost one answer, never the server or a traceback
            self.server.say(f"internal error on {request.method} {request.url.path}: {exc!r}")
            with contextlib.suppress(Exception):
                await Response(status_code=500, headers={"Connection": "close"})(
                    scope, receive, send)

    async def _refuse(self, request: Request, send: Any, refused: _Refused) -> None:
        self.server.say(f"{request.method} -> HTTP {refused.status}: {refused}")
        log = self.server.log
        if log:
            log.event("http", f"{request.method} {request.url.path} -> HTTP {refused.status}: "
                      f"{refused}", http={"method": request.method, "status": refused.status})
        headers = {"Connection": "close"}
        if refused.status == 503:
            headers["Retry-After"] = str(RETRY_AFTER_S)
        response = Response(f"{refused}\n", refused.status, headers, media_type="text/plain")
        await response(request.scope, request.receive, send)

    # -- reading -------------------------------------------------------------------------
    def _target(self, request: Request) -> tuple[str, RequestTarget]:
        """The request target, read once as the endpoint and the guard read it, in origin
        form: a fragment or a form not served here is 400; an absolute-form target's host
        stands for the ``Host`` (RFC 9112 §3.2.2) and is checked as one (421)."""
        scope = request.scope
        text = scope["raw_path"].decode("latin-1")
        if scope["query_string"]:
            text += "?" + scope["query_string"].decode("latin-1")
        target = parse_target(text)
        if target is None:
            raise _Refused(400, "malformed request target")
        if target.origin is not None:
            try:
                hostname = _host_of(target.origin.partition("://")[2])
            except ValueError:
                raise _Refused(400, "malformed request target") from None
            if not self.endpoint.allow_remote and not is_loopback(hostname):
                raise _Refused(421, f"Host {hostname} is not this server's (DNS rebinding?)")
            text = target.path + (f"?{target.query}" if target.query else "")
            target = RequestTarget(target.path, target.query)
        return text, target

    def _body_cap(self, target: RequestTarget) -> int:
        """The largest body ``target`` takes: the MCP endpoint's and ``/messages``'s
        ``limits.body_bytes``, the authorization URLs' (everything else) far less."""
        return self.limits.body_bytes if mcp_route(target) is not None \
            else self.limits.auth_body_bytes

    def _headers(self, request: Request, cap: int) -> dict[str, str]:
        headers: dict[str, str] = {}
        for raw_name, raw_value in request.scope["headers"]:
            name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
            if name in ("host", "origin", "content-length") and name in headers:
                raise _Refused(400, f"more than one {name.title()} header")
            headers[name] = value
        host = headers.get("host")
        if host is not None:
            try:
                hostname = _host_of(host)
            except ValueError:
                raise _Refused(400, "malformed Host header") from None
            if not self.endpoint.allow_remote and not is_loopback(hostname):
                raise _Refused(421, f"Host {hostname} is not this server's (DNS rebinding?)")
        origin = headers.get("origin")
        if origin is not None:
            try:
                _check_origin(origin)
            except ValueError:
                raise _Refused(400, "malformed Origin header") from None
        length = headers.get("content-length")
        if length is not None:
            if not (length.isascii() and length.isdigit()) or len(length) > LENGTH_DIGITS:
                raise _Refused(400, "malformed Content-Length header")
            if int(length) > cap:
                raise _Refused(413, f"body over {cap} bytes")
        return headers

    async def _body(self, request: Request, cap: int) -> bytes | None:
        """The body, within the size cap and deadline; None when the client left."""
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.limits.body_s
        while True:
            try:
                message = await asyncio.wait_for(request.receive(), give_up - loop.time())
            except TimeoutError:
                raise _Refused(408, f"body not sent within {self.limits.body_s:g} s") from None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                raise _Refused(413, f"body over {cap} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    # -- serving -------------------------------------------------------------------------
    async def _serve(self, request: Request, send: Any) -> None:
        over = request.scope.get("extensions", {}).get(OVER)
        if over:
            raise _Refused(503, f"over {over} connections; retry later")
        target, parsed = self._target(request)
        cap = self._body_cap(parsed)
        headers = self._headers(request, cap)
        body = await self._body(request, cap)
        if body is None:
            return  # the client gave up before its body was in
        incoming = HttpRequest(request.method, target, headers, body)
        log = self.server.log
        if log and incoming.method == "POST":
            kept = {k: v for k, v in headers.items() if k in LOGGED_HEADERS}
            log.line("c2s", body, http={"method": "POST", "path": target, "headers": kept})
        response = self.endpoint.handle(incoming)
        if response.events and self.server.open_streams >= self.limits.max_streams:
            self.endpoint.close_stream(dict(response.events).get("endpoint", "")
                                       .partition("session_id=")[2])
            raise _Refused(503, f"over {self.limits.max_streams} HTTP+SSE streams; retry later")
        if response.exit:
            await self._exit(request)
        elif response.hold:
            await self._hold(request)
        elif response.events:
            await self._stream(request, send, response)
        else:
            await self._send(request, send, response, parsed.path)

    async def _send(self, request: Request, send: Any, response: HttpResponse,
                    path: str) -> None:
        body = response.encoded()
        answer = Response(body, response.status, dict(response.headers),
                          media_type=response.content_type)
        await answer(request.scope, request.receive, send)
        log = self.server.log
        if log and request.method == "POST":
            info = {"status": response.status, "headers": dict(response.headers)}
            if body:
                log.line("s2c", body, http=info)
            else:
                log.event("http", f"HTTP {response.status}, no body", http=info)
        elif log:
            log.event("http", f"{request.method} {request.url.path} -> HTTP {response.status}",
                      http={"method": request.method, "status": response.status})
        if request.method != "POST" or response.status >= 400:  # the request's one line
            self.server.say(f"{request.method} {path} -> HTTP {response.status}")

    async def _until_gone(self, request: Request, seconds: float | None = None) -> bool:
        """Wait until the client disconnects (True), the server stops or ``seconds`` pass."""
        loop = asyncio.get_running_loop()
        give_up = None if seconds is None else loop.time() + seconds
        waiting = asyncio.ensure_future(request.receive())
        try:
            while not self.server.stopping.is_set():
                if give_up is not None and loop.time() >= give_up:
                    return False
                if request.scope.get("extensions", {}).get(EOF):
                    return True
                done, _ = await asyncio.wait({waiting}, timeout=TICK)
                if done:
                    if waiting.result()["type"] == "http.disconnect":
                        return True
                    waiting = asyncio.ensure_future(request.receive())
            return False
        finally:
            waiting.cancel()

    @staticmethod
    def _unsent(request: Request) -> int:
        """Bytes written to ``request``'s connection that it has not sent yet."""
        transport = request.scope.get("extensions", {}).get(TRANSPORT)
        size = getattr(transport, "get_write_buffer_size", None)  # asyncio's transports have it
        return 0 if size is None else int(size())

    def _abort(self, request: Request) -> None:
        """Close ``request``'s connection now, dropping what its buffer holds: a stream whose
        client does not read would otherwise keep it until the client reads it all (a
        transport flushes before it closes)."""
        transport = request.scope.get("extensions", {}).get(TRANSPORT)
        abort = getattr(transport, "abort", None)
        if abort is not None:
            abort()
        else:
            self._close(request)

    def _close(self, request: Request) -> None:
        transport = request.scope.get("extensions", {}).get(TRANSPORT)
        if transport is not None and not transport.is_closing():
            transport.close()

    async def _hold(self, request: Request) -> None:
        """Answer nothing until the client disconnects or the server stops."""
        if self.server.log:
            self.server.log.event("no-answer", "the server holds the request unanswered")
        if not await self._until_gone(request):
            self._close(request)
            await self._until_gone(request, 1.0)

    async def _exit(self, request: Request) -> None:
        server = self.server
        server.exit_code = 1
        if server.log:
            server.log.event("exit", "server exited with code 1 (simulated quirk)",
                             side="server", code=1)
        server.stopping.set()
        server.stop_requested.set()
        self._close(request)
        await self._until_gone(request, 1.0)

    async def _stream(self, request: Request, send: Any, response: HttpResponse) -> None:
        """An HTTP+SSE stream (2024-11-05): its opening events, then each message its server
        says, until the client disconnects or the server stops. No length: the stream ends
        when the connection closes."""
        server, endpoint, log = self.server, self.endpoint, self.server.log
        named = dict(response.events).get("endpoint", "")
        sid = named.partition("session_id=")[2]
        server.stream_opened()
        waiting = asyncio.ensure_future(request.receive())
        try:
            await send({"type": "http.response.start", "status": response.status,
                        "headers": [(b"content-type", b"text/event-stream"),
                                    (b"cache-control", b"no-cache"), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": response.encoded(),
                        "more_body": True})
            if log:
                log.event("http", f"{request.method} {request.url.path} -> HTTP "
                          f"{response.status}, SSE stream; event endpoint: {named}",
                          http={"method": request.method, "status": response.status,
                                "sse_event": "endpoint"})
            box = endpoint.stream_queue(sid)
            if box is not None:
                loop = asyncio.get_running_loop()

                def close() -> None:  # a writer blocked on a client that does not read
                    loop.call_soon_threadsafe(self._abort, request)
                box.on_overflow = close
            while box is not None and not box.overflowed and not server.stopping.is_set() \
                    and not request.scope.get("extensions", {}).get(EOF):
                body = box.get()
                if body is None:
                    if self._unsent(request) == 0:
                        box.in_buffer(0)
                    done, _ = await asyncio.wait({waiting}, timeout=TICK)
                    if done:
                        if waiting.result()["type"] == "http.disconnect":
                            break
                        waiting = asyncio.ensure_future(request.receive())
                    continue
                box.in_buffer(self._unsent(request) + len(body))  # held until it is written
                await send({"type": "http.response.body", "body": body, "more_body": True})
                box.in_buffer(self._unsent(request))
                if log:
                    log.line("s2c", body.decode().partition("data: ")[2].rstrip("\n"),
                             http={"sse_event": "message", "stream": request.url.path})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            waiting.cancel()
            endpoint.close_stream(sid)
            self._stream_closed(request, box is not None and box.overflowed,
                                box.why if box is not None else "")

    def _stream_closed(self, request: Request, overflowed: bool, reason: str = "") -> None:
        log = self.server.log
        if overflowed:
            self._abort(request)
        if log:
            why = (": " + (reason or f"over {self.limits.stream_queue_bytes} bytes waiting "
                           "for a client that does not read")) if overflowed else ""
            log.event("http", f"the HTTP+SSE stream ({request.method} {request.url.path}) "
                      f"is closed{why}")
        self.server.stream_closed()


class _Uvicorn(Server):
    """Uvicorn's server, stopped by :attr:`HttpServer.stop_requested` as well, and ending held
    requests and streams before it waits for them."""

    def __init__(self, config: Config, owner: HttpServer) -> None:
        super().__init__(config)
        self.owner = owner

    async def serve(self, sockets: Any = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        await super().serve(sockets)

    _said_at: float = float("-inf")

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What the event loop reports (an ``accept`` out of descriptors, a callback that
        failed): one line, at most once a second, never a traceback."""
        now = time.monotonic()
        if now - self._said_at < 1.0:
            return
        self._said_at = now
        exc = context.get("exception")
        text = str(context.get("message", "event loop error")).splitlines()[0]
        with contextlib.suppress(Exception):
            self.owner.say(f"http: {text}" + (f" ({exc!r})" if exc is not None else ""))

    async def on_tick(self, counter: int) -> bool:
        if self.owner.stop_requested.is_set():
            self.should_exit = True
        return await super().on_tick(counter)

    async def shutdown(self, sockets: Any = None) -> None:
        self.owner.stopping.set()
        await super().shutdown(sockets)


class _Say(logging.Handler):
    """Uvicorn's warnings and errors as one line each (never a traceback)."""

    def __init__(self, owner: HttpServer) -> None:
        super().__init__(logging.WARNING)
        self.owner = owner

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.owner.say(f"http: {record.getMessage().splitlines()[0]}")


def connection_cap(wanted: int, owner: HttpServer) -> int:
    """``wanted``, lowered (and said so) to fit the descriptor limit with :data:`SPARE_FDS`
    to spare."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or wanted <= soft - SPARE_FDS:
        return wanted
    fits = max(1, soft - SPARE_FDS)
    owner.say(f"at most {fits} connections at once, not {wanted}: the descriptor limit is "
              f"{soft} (ulimit -n)")
    return fits


def serve(owner: HttpServer, poll_interval: float = 0.1) -> None:
    """Serve ``owner``'s socket until it is asked to stop (its loop ticks every 0.1 s)."""
    protocol = type("Protocol", (_Protocol,), {
        "header_s": owner.limits.header_s,
        "max_connections": connection_cap(owner.limits.max_connections, owner)})
    config = Config(_App(owner), http=protocol, interface="asgi3", lifespan="off",
                    log_config=None, access_log=False, proxy_headers=False,
                    server_header=False, backlog=owner.limits.backlog,
                    timeout_keep_alive=max(1, round(owner.limits.idle_s)),
                    timeout_graceful_shutdown=max(1, round(owner.limits.shutdown_s)),
                    h11_max_incomplete_event_size=16 * 1024)
    logger = logging.getLogger("uvicorn")
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    for handler in [h for h in logger.handlers if isinstance(h, _Say)]:
        logger.removeHandler(handler)
    logger.addHandler(_Say(owner))
    _Uvicorn(config, owner).run(sockets=[owner.socket])

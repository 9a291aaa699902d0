"""A simulated server as a real MCP server over Streamable HTTP (POST, JSON responses), and
over the HTTP+SSE transport of 2024-11-05 where the server speaks that revision.

Theory of operation
-------------------
What one HTTP request gets is decided without sockets by the simulator's
endpoint, :class:`mcp_skew.simulator._http.HttpEndpoint` (sessions, status
codes, the 2026-07-28 header checks, held requests, a server that exits: see
its module for every rule and its citation); the in-memory HTTP link of
``simulate --transport http`` and ``matrix --transport http`` runs the same one.
Here it is made safe across threads and given random session ids
(:class:`HttpEndpoint`), and :func:`make_http_server` wraps it in a stdlib
``ThreadingHTTPServer``:

- a held request (a ``silent`` server) is kept open until the client gives up
  and disconnects;
- a server that exits (``silent-exit`` on its next input) closes the
  connection unanswered and stops the whole process;
- an HTTP+SSE stream (a ``GET`` to a server with 2024-11-05) is held open: the
  endpoint opens it and decides every POST to ``/messages?session_id=…``; what the
  stream's server says is moved, under the endpoint's lock, to the stream's queue,
  and the GET's thread writes it as SSE ``message`` events until the client
  disconnects or the server stops (it looks every 0.1 s, so it never blocks
  shutdown).
"""

from __future__ import annotations

import queue
import select
import socket
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

from ..errors import UsageError
from ..simulator import PeerSpec
from ..simulator import _http as core
from ..simulator._http import HttpRequest, HttpResponse, decode_header_value, is_loopback
from ..versions import Message
from ._log import LogWriter
from ._stdio import Say

__all__ = [
    "HttpEndpoint",
    "HttpRequest",
    "HttpResponse",
    "check_host",
    "decode_header_value",
    "is_loopback",
    "make_http_server",
    "server_url",
]


#: Headers worth keeping in a log.
LOGGED_HEADERS: Final = ("mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id",
                         "accept", "content-type", "origin")


def check_host(host: str, allow_remote: bool) -> None:
    if not allow_remote and not is_loopback(host):
        raise UsageError(f"refusing to listen on {host}: not a loopback address; the simulated "
                         "server has no authentication (pass --allow-remote to do it anyway)")


class HttpEndpoint(core.HttpEndpoint):
    """The simulator's endpoint, safe across threads, minting random session ids.

    Each open HTTP+SSE stream has a queue: after every request, what the stream
    servers said (:meth:`take_events`) goes to their queues, in order, under the lock.
    """

    def __init__(self, spec: PeerSpec, *, say: Say, allow_remote: bool = False) -> None:
        super().__init__(spec, say=say, allow_remote=allow_remote,
                         session_ids=lambda: uuid.uuid4().hex)
        self._lock = threading.Lock()
        self.queues: dict[str, queue.SimpleQueue[Message]] = {}

    def handle(self, request: HttpRequest) -> HttpResponse:
        with self._lock:
            response = super().handle(request)
            for sid in self.streams:
                said = self.take_events(sid)
                box = self.queues.setdefault(sid, queue.SimpleQueue())
                for message in said:
                    box.put(message)
            return response

    def stream_queue(self, sid: str) -> queue.SimpleQueue[Message] | None:
        with self._lock:
            return self.queues.get(sid)

    def close_stream(self, sid: str) -> None:
        with self._lock:
            self.queues.pop(sid, None)
            super().close_stream(sid)


# -- the socket side ------------------------------------------------------------------------

class _Server(ThreadingHTTPServer):
    daemon_threads = True
    endpoint: HttpEndpoint
    log: LogWriter | None
    say: Say
    stopping: threading.Event
    exit_code: int
    open_streams: int  #: HTTP+SSE streams held open now
    streams_changed: threading.Condition

    def stop_streams(self, timeout: float = 2.0) -> None:
        """Stop: held requests and HTTP+SSE streams end (each looks every 0.1 s); wait, at most
        ``timeout`` seconds, for the streams to finish (their last log records included)."""
        self.stopping.set()
        with self.streams_changed:
            self.streams_changed.wait_for(lambda: self.open_streams == 0, timeout)


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return  # every request is reported by the endpoint; keep stderr readable

    def _request(self) -> HttpRequest:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        return HttpRequest(self.command, self.path, headers, body)

    def _handle(self) -> None:
        request = self._request()
        log = self.server.log
        if log and request.method == "POST":
            kept = {k: v for k, v in request.headers.items() if k in LOGGED_HEADERS}
            log.line("c2s", request.body, http={"method": "POST", "path": request.path,
                                                "headers": kept})
        response = self.server.endpoint.handle(request)
        if response.exit:
            self._exit()
        elif response.hold:
            self._hold(request)
        elif response.events:
            self._stream(request, response)
        else:
            self._send(request, response)

    def _send(self, request: HttpRequest, response: HttpResponse) -> None:
        body = response.encoded()
        self.send_response(response.status)
        if response.content_type is not None:
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        log = self.server.log
        if log and request.method == "POST":
            info = {"status": response.status, "headers": dict(response.headers)}
            if body:
                log.line("s2c", body, http=info)
            else:
                log.event("http", f"HTTP {response.status}, no body", http=info)
        elif log:
            log.event("http", f"{request.method} {request.path} -> HTTP {response.status}",
                      http={"method": request.method, "status": response.status})
        if request.method != "POST" or response.status >= 400:
            self.server.endpoint.say(f"{request.method} -> HTTP {response.status}")

    def _hold(self, request: HttpRequest) -> None:
        """Answer nothing until the client disconnects or the server stops."""
        if self.server.log:
            self.server.log.event("no-answer", "the server holds the request unanswered")
        sock = self.connection
        while not self.server.stopping.is_set():
            readable, _, _ = select.select([sock], [], [], 0.2)
            if readable:
                try:
                    if not sock.recv(1, socket.MSG_PEEK):
                        break
                except OSError:
                    break
        self.close_connection = True

    def _client_gone(self) -> bool:
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):
            return True

    def _stream(self, request: HttpRequest, response: HttpResponse) -> None:
        """An HTTP+SSE stream (2024-11-05): its opening events, then each message its server
        says, until the client disconnects or the server stops. No length: the stream ends
        when the connection closes."""
        endpoint, log = self.server.endpoint, self.server.log
        named = dict(response.events).get("endpoint", "")
        sid = named.partition("session_id=")[2]
        self.close_connection = True
        with self.server.streams_changed:
            self.server.open_streams += 1
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(response.encoded())
            self.wfile.flush()
            if log:
                log.event("http", f"{request.method} {request.path} -> HTTP "
                          f"{response.status}, SSE stream; event endpoint: {named}",
                          http={"method": request.method, "status": response.status,
                                "sse_event": "endpoint"})
            box = endpoint.stream_queue(sid)
            while box is not None and not self.server.stopping.is_set():
                try:
                    said = box.get(timeout=0.1)
                except queue.Empty:
                    if self._client_gone():
                        break
                    continue
                body = HttpResponse(200, said, stream=True).encoded()
                self.wfile.write(body)
                self.wfile.flush()
                if log:
                    log.line("s2c", body.decode().partition("data: ")[2].rstrip("\n"),
                             http={"sse_event": "message", "stream": request.path})
        except OSError:
            pass  # the client went away mid-write
        finally:
            endpoint.close_stream(sid)
            if log:
                log.event("http", f"the HTTP+SSE stream ({request.method} {request.path}) "
                          "is closed")
            with self.server.streams_changed:
                self.server.open_streams -= 1
                self.server.streams_changed.notify_all()

    def _exit(self) -> None:
        server = self.server
        server.exit_code = 1
        if server.log:
            server.log.event("exit", "server exited with code 1 (simulated quirk)",
                             side="server", code=1)
        self.close_connection = True
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    def do_POST(self) -> None:
        self._handle()

    def do_GET(self) -> None:
        self._handle()

    def do_DELETE(self) -> None:
        self._handle()


def make_http_server(endpoint: HttpEndpoint, host: str, port: int, *,
                     log: LogWriter | None = None) -> _Server:
    """Bind (not yet serve): ``server.serve_forever()`` then runs it; port 0 picks one."""
    check_host(host, endpoint.allow_remote)
    cls = _Server6 if ":" in host else _Server
    try:
        server = cls((host.strip("[]"), port), _Handler)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    server.endpoint = endpoint
    server.log = log
    server.say = endpoint.say
    server.stopping = threading.Event()
    server.exit_code = 0
    server.open_streams = 0
    server.streams_changed = threading.Condition()
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    raw_host, port = server.server_address[:2]
    host = raw_host.decode() if isinstance(raw_host, bytes) else str(raw_host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/mcp"

"""A simulated server as a real MCP server over Streamable HTTP (POST, JSON responses).

Theory of operation
-------------------
:class:`HttpEndpoint` decides, without sockets, what one HTTP request gets;
:func:`make_http_server` wraps it in a stdlib ``ThreadingHTTPServer``.

- A request whose ``params._meta`` names a protocol version, to a server with a
  modern revision, is served statelessly by a fresh :class:`SimServer` after
  the 2026-07-28 header checks (``basic/transports/streamable-http.mdx``
  §Server Validation, in the order the official SDK uses: ``_meta`` present,
  then ``MCP-Protocol-Version`` equal to ``_meta``, ``Mcp-Method`` equal to
  ``method``, ``Mcp-Name`` equal to ``params.name``/``params.uri``). The status
  follows the 2026-07-28 cheat-sheet: 400 for -32700/-32600/-32602/-32020/
  -32021/-32022, 404 for -32601, 200 otherwise.
- ``initialize`` to a server with a legacy revision starts a session: its own
  :class:`SimServer`, named by the ``Mcp-Session-Id`` header of the answer
  (2025-03-26 and later ``basic/transports.mdx`` §Session Management). Requests
  carrying that header go to that server and are answered 200; an unknown
  session id gets 404; ``DELETE`` ends the session. A legacy session checks a
  ``MCP-Protocol-Version`` header where its revision has one (400 if unknown).
- Any other request before a session (a dual-era client's probe, say) goes to
  one shared pre-session server, whose quirks decide the JSON-RPC answer,
  sent with status 400 as the official SDK servers refuse session-less
  requests; a result (``ping``, a ``lenient`` server) is 200.
- A modern-only server answers a request without ``_meta`` 400 (-32602, or the
  simulated ``initialize`` refusal that names its versions): the request fails
  server validation (2026-07-28 ``basic/versioning.mdx`` §Compatibility Matrix).
- ``GET`` gets 405 (no standalone SSE stream); ``DELETE`` without a session
  gets 405. An ``Origin`` that is not loopback gets 403 unless remote clients
  are allowed.
- Silence is real: an unanswered request is held open until the client gives up
  and disconnects. A server that exits (``silent-exit`` on its next input)
  closes the connection unanswered and stops the whole process.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import select
import socket
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final
from urllib.parse import urlsplit

from ..errors import UsageError
from ..simulator import PeerSpec, Reaction, SimServer
from ..simulator import _wire as w
from ..versions import Message, Profile
from ._log import LogWriter
from ._stdio import Say, describe

__all__ = [
    "HttpEndpoint",
    "HttpRequest",
    "HttpResponse",
    "check_host",
    "decode_header_value",
    "make_http_server",
    "server_url",
]


#: JSON-RPC error code -> HTTP status on the modern path (2026-07-28 status cheat-sheet).
MODERN_STATUS: Final[Mapping[int, int]] = {
    -32700: 400, -32600: 400, -32602: 400, -32020: 400, -32021: 400, -32022: 400, -32601: 404,
}
#: Methods whose ``Mcp-Name`` header mirrors a parameter (2026-07-28 streamable-http.mdx).
NAME_BEARING: Final[Mapping[str, str]] = {
    "tools/call": "name", "resources/read": "uri", "prompts/get": "name",
}
#: Headers worth keeping in a log.
LOGGED_HEADERS: Final = ("mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id",
                         "accept", "content-type", "origin")
LOOPBACK_NAMES: Final = frozenset({"localhost", "ip6-localhost"})


@dataclass(frozen=True, slots=True)
class HttpRequest:
    method: str
    path: str
    headers: Mapping[str, str]  #: lower-case names
    body: bytes = b""


@dataclass(slots=True)
class HttpResponse:
    status: int
    body: Any = None  #: JSON to send; None sends no body
    headers: dict[str, str] = field(default_factory=dict)
    hold: bool = False  #: never answer: keep the request open until the client leaves
    exit: bool = False  #: the server process ends: close unanswered and stop

    def encoded(self) -> bytes:
        return b"" if self.body is None else json.dumps(
            self.body, separators=(",", ":"), ensure_ascii=False).encode()


def _error(msg_id: Any, code: int, text: str, data: Any = None) -> Message:
    return w.error(msg_id, code, text, data)


def decode_header_value(value: str | None) -> str | None:
    """A header value, with the ``=?base64?...?=`` sentinel of 2026-07-28 undone."""
    if value is None or not (value.startswith("=?base64?") and value.endswith("?=")):
        return value
    try:
        return base64.b64decode(value[len("=?base64?"):-2]).decode()
    except (ValueError, UnicodeDecodeError):
        return value


def _meta(message: Message) -> dict[str, Any]:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_host(host: str, allow_remote: bool) -> None:
    if not allow_remote and not is_loopback(host):
        raise UsageError(f"refusing to listen on {host}: not a loopback address; the simulated "
                         "server has no authentication (pass --allow-remote to do it anyway)")


class HttpEndpoint:
    """What each HTTP request gets, decided without sockets; safe across threads."""

    def __init__(self, spec: PeerSpec, *, say: Say, allow_remote: bool = False) -> None:
        self.spec = spec
        self.say = say
        self.allow_remote = allow_remote
        self.sessions: dict[str, SimServer] = {}
        self.answered: dict[str, str] = {}  #: session -> protocolVersion the server answered
        self.presession = SimServer(spec)
        self.doomed = False  #: a server left itself to exit on the next input
        self._lock = threading.Lock()

    # -- entry point ------------------------------------------------------------------
    def handle(self, request: HttpRequest) -> HttpResponse:
        with self._lock:
            return self._handle(request)

    def _handle(self, request: HttpRequest) -> HttpResponse:
        origin = request.headers.get("origin")
        if origin and not self.allow_remote and not is_loopback(urlsplit(origin).hostname or ""):
            return HttpResponse(403)
        if urlsplit(request.path).path.rstrip("/") not in ("", "/mcp"):
            return HttpResponse(404)
        if request.method == "POST":
            if self.doomed:
                return HttpResponse(0, exit=True)
            return self._post(request)
        if request.method == "DELETE":
            return self._delete(request)
        allow = "POST, DELETE" if self.spec.legacy else "POST"
        return HttpResponse(405, headers={"Allow": allow})

    def _delete(self, request: HttpRequest) -> HttpResponse:
        sid = request.headers.get("mcp-session-id")
        if sid is None or not self.spec.legacy:
            return HttpResponse(405, headers={"Allow": "POST"})
        if self.sessions.pop(sid, None) is None:
            return HttpResponse(404)
        self.answered.pop(sid, None)
        self.say(f"session {sid[:8]} ended by DELETE")
        return HttpResponse(200)

    def _post(self, request: HttpRequest) -> HttpResponse:
        try:
            message = json.loads(request.body)
        except (ValueError, UnicodeDecodeError) as exc:
            return HttpResponse(400, _error(None, -32700, f"Parse error: {exc}"))
        if isinstance(message, list):
            return self._batch(message, request)
        if not isinstance(message, dict) or not isinstance(message.get("method", ""), str):
            return HttpResponse(400, _error(None, -32600, "Invalid request"))
        return self._message(message, request.headers)

    def _batch(self, batch: list[Any], request: HttpRequest) -> HttpResponse:
        sid = request.headers.get("mcp-session-id")
        server = self.sessions.get(sid or "")
        allowed = any(self.spec.profile(r).settings.get("batching") for r in self.spec.legacy)
        if server is None or not allowed or not batch:
            revs = ", ".join(self.spec.revisions)
            return HttpResponse(400, _error(None, -32600, f"Invalid request: no JSON-RPC "
                                            f"batches here ({revs}, session required)"))
        replies: list[Any] = []
        for item in batch:
            if isinstance(item, dict):
                replies += self._feed(server, item).replies
        headers = {"Mcp-Session-Id": sid or ""}
        return HttpResponse(200, replies, headers) if replies else HttpResponse(202, None, headers)

    # -- routing ----------------------------------------------------------------------
    def _message(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        sid = headers.get("mcp-session-id")
        if w.VERSION_KEY in _meta(message) and self.spec.modern and "method" in message:
            return self._modern(message, headers)
        if sid is not None and sid in self.sessions:
            return self._in_session(sid, message, headers)
        if sid is not None and self.spec.legacy:
            return HttpResponse(404, _error(message.get("id"), -32600,
                                            f"Session not found: {sid}"))
        if not self.spec.legacy:
            return self._not_modern(message)
        if message.get("method") == "initialize":
            return self._initialize(message)
        return self._presession(message)

    def _feed(self, server: SimServer, message: Message) -> Reaction:
        self.say(f"recv {describe(message)}")
        reaction = server.receive(message)
        if server.exit_on_next:
            self.doomed = True
        for reply in reaction.replies:
            self.say(f"send {describe(reply)}")
        return reaction

    def _reply(self, message: Message, reaction: Reaction, status_of: Callable[[Message], int],
               headers: dict[str, str] | None = None) -> HttpResponse:
        if reaction.exit:
            self.say("the simulated server exits now (quirk), without answering")
            return HttpResponse(0, exit=True)
        if "id" not in message or "method" not in message:
            return HttpResponse(202, None, headers or {})
        if not reaction.replies:
            self.say(f"no answer to {describe(message)} (holding the request open)")
            return HttpResponse(0, hold=True)
        reply = reaction.replies[0]
        return HttpResponse(status_of(reply), reply, headers or {})

    # -- the modern era -----------------------------------------------------------------
    def _modern(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        meta = _meta(message)
        asked = meta.get(w.VERSION_KEY)
        profile = self._profile(asked)
        if w.CAPS_KEY in meta and "Mcp-Method" in profile.names("http_headers"):
            mismatch = self._header_mismatch(message, headers, asked)
            if mismatch is not None:
                self.say(f"recv {describe(message)}: {mismatch} (-32020)")
                if "id" not in message:
                    return HttpResponse(400)
                return HttpResponse(400, _error(message["id"], -32020, mismatch))
        reaction = self._feed(SimServer(self.spec), message)
        return self._reply(message, reaction, _modern_status)

    def _profile(self, asked: Any) -> Profile:
        if isinstance(asked, str) and asked in self.spec.modern:
            return self.spec.profile(asked)
        return self.spec.profile(self.spec.modern[0])

    @staticmethod
    def _header_mismatch(message: Message, headers: Mapping[str, str], asked: Any) -> str | None:
        if headers.get("mcp-protocol-version") != asked:
            return "Header mismatch: MCP-Protocol-Version must equal _meta protocolVersion"
        if headers.get("mcp-method") != message.get("method"):
            return "Header mismatch: Mcp-Method must equal the method"
        key = NAME_BEARING.get(str(message.get("method")))
        params = message.get("params")
        value = params.get(key) if key and isinstance(params, dict) else None
        if value is not None and decode_header_value(headers.get("mcp-name")) != value:
            return f"Header mismatch: Mcp-Name must equal params.{key}"
        return None

    def _not_modern(self, message: Message) -> HttpResponse:
        """A request without ``_meta`` to a modern-only server: it fails server validation."""
        if "id" not in message or "method" not in message:
            return HttpResponse(202)
        if message.get("method") == "initialize":
            reaction = self._feed(SimServer(self.spec), message)
            return self._reply(message, reaction, lambda reply: 400)
        supported = list(self.spec.modern)
        text = (f"Invalid params: missing _meta {w.VERSION_KEY} (this server speaks "
                f"{', '.join(supported)} only)")
        self.say(f"recv {describe(message)}: no _meta; answering -32602")
        return HttpResponse(400, _error(message["id"], -32602, text, {"supported": supported}))

    # -- the legacy era -----------------------------------------------------------------
    def _initialize(self, message: Message) -> HttpResponse:
        server = SimServer(self.spec)
        reaction = self._feed(server, message)
        reply = reaction.replies[0] if reaction.replies else None
        if reply is None or not isinstance(reply.get("result"), dict):
            return self._reply(message, reaction, lambda reply: 400)
        sid = uuid.uuid4().hex
        self.sessions[sid] = server
        self.answered[sid] = str(reply["result"].get("protocolVersion"))
        self.say(f"session {sid[:8]} started ({self.answered[sid]})")
        return HttpResponse(200, reply, {"Mcp-Session-Id": sid})

    def _in_session(self, sid: str, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        server = self.sessions[sid]
        profile = self.spec.profile(server.legacy_revision)
        version = headers.get("mcp-protocol-version")
        known = {*self.spec.revisions, self.answered.get(sid)}
        if ("MCP-Protocol-Version" in profile.names("http_headers") and version is not None
                and version not in known):
            text = f"Bad Request: unsupported MCP-Protocol-Version {version}"
            return HttpResponse(400, _error(message.get("id"), -32600, text),
                                {"Mcp-Session-Id": sid})
        reaction = self._feed(server, message)
        return self._reply(message, reaction, lambda reply: 200, {"Mcp-Session-Id": sid})

    def _presession(self, message: Message) -> HttpResponse:
        reaction = self._feed(self.presession, message)
        return self._reply(message, reaction, lambda reply: 400 if "error" in reply else 200)


def _modern_status(reply: Message) -> int:
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return MODERN_STATUS.get(code, 200) if isinstance(code, int) else 200


# -- the socket side ------------------------------------------------------------------------

class _Server(ThreadingHTTPServer):
    daemon_threads = True
    endpoint: HttpEndpoint
    log: LogWriter | None
    say: Say
    stopping: threading.Event
    exit_code: int


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
        else:
            self._send(request, response)

    def _send(self, request: HttpRequest, response: HttpResponse) -> None:
        body = response.encoded()
        self.send_response(response.status)
        if response.body is not None:
            self.send_header("Content-Type", "application/json")
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
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    raw_host, port = server.server_address[:2]
    host = raw_host.decode() if isinstance(raw_host, bytes) else str(raw_host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/mcp"

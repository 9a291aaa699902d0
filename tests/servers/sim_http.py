"""A simulated MCP server behind real HTTP, in a thread: Streamable HTTP or legacy HTTP+SSE.

Test helper for the HTTP transport and the probe; not part of mcp-skew. The
server's behaviour comes from mcp-skew's sans-I/O ``SimServer`` for a peer spec;
this module adds the HTTP rules:

- Streamable HTTP at ``/mcp``: ``initialize`` mints an ``Mcp-Session-Id``; a
  legacy request without a valid session gets ``400`` with a plain-text body
  (as the Python SDK does); a modern request (``_meta`` version) is checked
  against its headers (``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``:
  a mismatch is ``400`` + -32020), -32022 is sent with ``400`` and -32601 with
  ``404``; a notification gets ``202``; ``sse=True`` answers requests as an SSE
  stream instead of JSON; ``GET`` and ``DELETE`` follow the revision.
- HTTP+SSE (``legacy_sse=True``, 2024-11-05): ``POST`` to the URL is ``405``;
  ``GET`` opens a stream whose first event is ``endpoint``; messages POSTed
  there get ``202`` and their answers come on the stream.

Every request is kept in :attr:`SimHttpServer.seen` (method, path, headers, body).
"""

from __future__ import annotations

import base64
import json
import queue
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mcp_skew.simulator import SimServer, parse_peer
from mcp_skew.simulator.messages._wire import VERSION_KEY

NAME_PARAMS = {"tools/call": "name", "resources/read": "uri", "prompts/get": "name"}


def _decode(value: str) -> str:
    if value.startswith("=?base64?") and value.endswith("?="):
        return base64.b64decode(value[9:-2]).decode()
    return value


class SimHttpServer:
    """``with SimHttpServer("legacy:2025-06-18") as srv: ... srv.url ...``"""

    def __init__(self, spec: str, *, sse: bool = False, legacy_sse: bool = False) -> None:
        self.spec = parse_peer(spec, "server")
        self.sse = sse
        self.legacy_sse = legacy_sse
        self.sessions: dict[str, SimServer] = {}
        self.streams: dict[str, queue.Queue[dict[str, Any] | None]] = {}
        self.seen: list[tuple[str, str, dict[str, str], Any]] = []
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                owner._post(self)

            def do_GET(self) -> None:
                owner._get(self)

            def do_DELETE(self) -> None:
                owner._delete(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,),
                                       daemon=True)

    @property
    def url(self) -> str:
        path = "/sse" if self.legacy_sse else "/mcp"
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def __enter__(self) -> SimHttpServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for stream in list(self.streams.values()):
            stream.put(None)
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- plumbing -------------------------------------------------------------------------
    def _body(self, h: BaseHTTPRequestHandler) -> Any:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode(errors="replace")
        with self._lock:  # header names kept lower-case: they are case-insensitive
            self.seen.append((h.command, h.path, {k.lower(): v for k, v in h.headers.items()},
                              body))
        return body

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: Any = None,
              headers: dict[str, str] | None = None, ctype: str = "application/json") -> None:
        data = b"" if body is None else (
            body.encode() if isinstance(body, str) else json.dumps(body).encode())
        h.send_response(status)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        if data:
            h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _reply(self, h: BaseHTTPRequestHandler, status: int, messages: list[dict[str, Any]],
               headers: dict[str, str] | None = None) -> None:
        if not messages:
            self._send(h, 202, headers=headers)
            return
        if not self.sse or status != 200:
            self._send(h, status, messages[0], headers)
            return
        note = {"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "working"}}
        text = "".join(f"event: message\r\ndata: {json.dumps(m)}\r\n\r\n"
                       for m in [note, *messages])
        self._send(h, 200, ": priming\n\n" + text, headers, "text/event-stream")

    # -- Streamable HTTP --------------------------------------------------------------------
    def _post(self, h: BaseHTTPRequestHandler) -> None:
        body = self._body(h)
        path = urlsplit(h.path)
        if self.legacy_sse:
            if path.path == "/messages":
                self._post_message(h, body, parse_qs(path.query).get("session", [""])[0])
            else:
                self._send(h, 405, "Method Not Allowed", ctype="text/plain")
            return
        if not isinstance(body, dict) or "method" not in body:
            self._send(h, 400, "Bad Request: not a JSON-RPC message", ctype="text/plain")
            return
        params = body.get("params") or {}
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(meta, dict) and VERSION_KEY in meta and self.spec.modern:
            self._modern(h, body, meta)
        else:
            self._legacy(h, body)

    def _modern(self, h: BaseHTTPRequestHandler, body: dict[str, Any],
                meta: dict[str, Any]) -> None:
        problem = self._header_problem(h, body, meta)
        if problem:
            self._send(h, 400, {"jsonrpc": "2.0", "id": body.get("id"),
                                "error": {"code": -32020, "message": problem}})
            return
        replies = SimServer(self.spec).receive(body).replies
        code = ((replies[0].get("error") or {}).get("code")) if replies else None
        status = 400 if code in (-32022, -32020, -32021) else 404 if code == -32601 else 200
        self._reply(h, status, replies)

    @staticmethod
    def _header_problem(h: BaseHTTPRequestHandler, body: dict[str, Any],
                        meta: dict[str, Any]) -> str | None:
        if h.headers.get("MCP-Protocol-Version") != meta.get(VERSION_KEY):
            return "Header mismatch: MCP-Protocol-Version"
        if h.headers.get("Mcp-Method") != body.get("method"):
            return "Header mismatch: Mcp-Method"
        name_param = NAME_PARAMS.get(str(body.get("method")))
        if name_param:
            value = (body.get("params") or {}).get(name_param)
            if _decode(h.headers.get("Mcp-Name", "")) != value:
                return "Header mismatch: Mcp-Name"
        return None

    def _legacy(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        sid = h.headers.get("Mcp-Session-Id")
        if body.get("method") == "initialize" and self.spec.legacy:
            server = SimServer(self.spec)
            replies = server.receive(body).replies
            sid = uuid.uuid4().hex
            with self._lock:
                self.sessions[sid] = server
            self._reply(h, 200, replies, {"Mcp-Session-Id": sid})
            return
        server = self.sessions.get(sid or "")
        if server is None:
            if not self.spec.legacy:  # a modern-only server: initialize is unknown here
                replies = SimServer(self.spec).receive(body).replies
                self._reply(h, 404 if replies else 202, replies)
                return
            self._send(h, 400, "Bad Request: No valid session ID provided", ctype="text/plain")
            return
        self._reply(h, 200, server.receive(body).replies)

    def _delete(self, h: BaseHTTPRequestHandler) -> None:
        self._body(h)
        sid = h.headers.get("Mcp-Session-Id", "")
        with self._lock:
            found = self.sessions.pop(sid, None)
        self._send(h, 200 if found else 404)

    # -- HTTP+SSE (2024-11-05) ------------------------------------------------------------
    def _get(self, h: BaseHTTPRequestHandler) -> None:
        self._body(h)
        if not self.legacy_sse:
            self._send(h, 405, "Method Not Allowed", ctype="text/plain")
            return
        sid = uuid.uuid4().hex
        stream: queue.Queue[dict[str, Any] | None] = queue.Queue()
        with self._lock:
            self.sessions[sid] = SimServer(self.spec)
            self.streams[sid] = stream
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.end_headers()
        h.wfile.write(f"event: endpoint\ndata: /messages?session={sid}\n\n".encode())
        h.wfile.flush()
        h.close_connection = True
        while (message := stream.get()) is not None:
            try:
                h.wfile.write(f"event: message\ndata: {json.dumps(message)}\n\n".encode())
                h.wfile.flush()
            except OSError:
                return

    def _post_message(self, h: BaseHTTPRequestHandler, body: Any, sid: str) -> None:
        server, stream = self.sessions.get(sid), self.streams.get(sid)
        if server is None or stream is None or not isinstance(body, dict):
            self._send(h, 404, "Could not find session", ctype="text/plain")
            return
        self._send(h, 202, "Accepted", ctype="text/plain")
        for reply in server.receive(body).replies:
            stream.put(reply)

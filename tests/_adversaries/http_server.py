"""A hostile HTTP "server" and its "authorization server", for ``probe --url``'s slow tests.

``with hostile(MODE) as h: ... h.url ...`` serves on two loopback ports in this process's
threads: the MCP server (``h.url``, ``/mcp``) and *elsewhere*, another origin (another
port), which answers every request with 404 and keeps its headers in ``h.elsewhere``: any
request seen there is a credential sent where it must not go. As a script,
``python http_server.py MODE [DRIP_S]`` prints the MCP URL and serves until killed (to
measure a probe by hand). MODE:

- ``sse-other-origin``: a POST to ``/mcp`` is 404, so a client falls back to HTTP+SSE; the
  GET's ``endpoint`` event names ``http://127.0.0.1:<elsewhere>/messages``;
- ``sse-scheme-relative``: the same, as ``//127.0.0.1:<elsewhere>/messages`` (it resolves
  to another origin against the stream's URL);
- ``sse-file``: the ``endpoint`` event names ``file:///etc/passwd``;
- ``sse-data``: the ``endpoint`` event names ``data:text/plain,hello``;
- ``redirect``: every request is answered 307 to the same path on *elsewhere*;
- ``drip-as``: ``/mcp`` is 401 naming its protected resource metadata, which names an
  authorization server on this origin; every authorization server metadata URL answers
  200 and then one byte of its body every DRIP_S seconds, forever;
- ``drip-mcp``: ``initialize`` gets a result; any other POST gets 200 and then one byte of
  its body every DRIP_S seconds, forever;
- ``deep-metadata``: ``/mcp`` is 401; the protected resource metadata and the
  authorization server metadata are JSON nested 100,000 deep;
- ``bad-url-metadata``: ``/mcp`` is 401 naming ``resource_metadata`` with a port that is
  no number; the protected resource metadata (at the well-known URL) names authorization
  servers with a port out of range, an unclosed IPv6 literal, a ``file:`` URL; the
  metadata served on this origin names endpoints that are no URLs.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

MODES = ("sse-other-origin", "sse-scheme-relative", "sse-file", "sse-data", "redirect",
         "drip-as", "drip-mcp", "deep-metadata", "bad-url-metadata")
DEEP = b"[" * 100_000 + b"]" * 100_000


@dataclass
class Hostile:
    """The two origins of one mode, and what reached the other one."""

    mode: str
    port: int = 0
    elsewhere_port: int = 0
    drip_s: float = 1.0
    #: every request *elsewhere* got: method, path and headers (lower-case names)
    elsewhere: list[dict[str, str]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def other(self) -> str:
        return f"http://127.0.0.1:{self.elsewhere_port}"


class _Handler(http.server.BaseHTTPRequestHandler):
    hostile: Hostile
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes = b"", ctype: str = "application/json",
              **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def _drip(self) -> None:
        """200, a body it says is 1 MB long, and one byte of it every ``drip_s``."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        self.wfile.flush()
        h = self.hostile
        while not h.stop.wait(h.drip_s):
            try:
                self.wfile.write(b" ")
                self.wfile.flush()
            except OSError:
                return
        self.close_connection = True

    def _body(self) -> Any:
        data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            return json.loads(data)
        except ValueError:
            return None


class _Elsewhere(_Handler):
    def _any(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.hostile.elsewhere.append({"method": self.command, "path": self.path,
                                       **{k.lower(): v for k, v in self.headers.items()}})
        self._send(404, b"{}")

    do_GET = do_POST = do_DELETE = _any


class _Main(_Handler):
    def do_POST(self) -> None:
        h, message = self.hostile, self._body()
        mode = h.mode
        if mode == "redirect":
            self._send(307, Location=h.other + self.path)
        elif mode.startswith("sse-"):
            self._send(404, b"not found", "text/plain")
        elif mode == "drip-mcp":
            if isinstance(message, dict) and message.get("method") == "initialize":
                params = message.get("params") or {}
                result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                          "capabilities": {}, "serverInfo": {"name": "drip", "version": "0"}}
                self._send(200, json.dumps({"jsonrpc": "2.0", "id": message.get("id"),
                                            "result": result}).encode())
            else:
                self._drip()
        else:  # the protected modes
            named = (f"{h.origin}/.well-known/oauth-protected-resource/mcp"
                     if mode != "bad-url-metadata" else "http://127.0.0.1:port/prm")
            self._send(401, b'{"error":"unauthorized"}', WWW_Authenticate=(
                f'Bearer resource_metadata="{named}"'))

    def do_GET(self) -> None:
        h, mode, path = self.hostile, self.hostile.mode, self.path
        if mode == "redirect":
            self._send(307, Location=h.other + path)
        elif mode.startswith("sse-"):
            self._stream()
        elif path.startswith("/.well-known/oauth-protected-resource"):
            self._prm()
        elif path.startswith(("/.well-known/oauth-authorization-server",
                              "/.well-known/openid-configuration")) or path.endswith(
                                  "/.well-known/openid-configuration"):
            self._as_metadata()
        else:
            self._send(404, b"{}")

    def _stream(self) -> None:
        h = self.hostile
        where = {"sse-other-origin": h.other + "/messages",
                 "sse-scheme-relative": f"//127.0.0.1:{h.elsewhere_port}/messages",
                 "sse-file": "file:///etc/passwd",
                 "sse-data": "data:text/plain,hello"}[h.mode]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            self.wfile.write(f"event: endpoint\ndata: {where}\n\n".encode())
            self.wfile.flush()
            while not h.stop.wait(0.5):  # keep the stream open, as a server does
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except OSError:
            pass
        self.close_connection = True

    def _prm(self) -> None:
        h = self.hostile
        if h.mode == "deep-metadata":
            self._send(200, DEEP)
            return
        servers = ([f"{h.origin}/as"] if h.mode != "bad-url-metadata" else
                   ["http://127.0.0.1:99999/as", "http://[::1/as", "file:///etc/passwd"])
        self._send(200, json.dumps({"resource": h.url, "authorization_servers": servers})
                   .encode())

    def _as_metadata(self) -> None:
        h = self.hostile
        if h.mode == "drip-as":
            self._drip()
        elif h.mode == "deep-metadata":
            self._send(200, DEEP)
        else:
            issuer = h.origin + ("/as" if "/as" in self.path else "")
            self._send(200, json.dumps({
                "issuer": issuer, "authorization_endpoint": "http://[::1/authorize",
                "token_endpoint": "http://127.0.0.1:0x50/token",
                "registration_endpoint": "javascript:alert(1)",
                "code_challenge_methods_supported": ["S256"]}).encode())


def _server(handler: type[_Handler], hostile: Hostile) -> http.server.ThreadingHTTPServer:
    bound = type(handler.__name__, (handler,), {"hostile": hostile})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), bound)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True, name="hostile-http").start()
    return server


@contextlib.contextmanager
def hostile(mode: str, drip_s: float = 1.0) -> Iterator[Hostile]:
    """Serve ``mode`` on two loopback ports for the block (see the module's docstring)."""
    if mode not in MODES:
        raise ValueError(f"no such mode: {mode}")
    h = Hostile(mode, drip_s=drip_s)
    elsewhere = _server(_Elsewhere, h)
    h.elsewhere_port = elsewhere.server_address[1]
    main = _server(_Main, h)
    h.port = main.server_address[1]
    try:
        yield h
    finally:
        h.stop.set()
        for server in (main, elsewhere):
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    with hostile(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.0) as served:
        print(served.url, flush=True)
        threading.Event().wait()

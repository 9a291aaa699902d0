"""Shared setup of the serve and record tests: messages to send, a line read that never hangs,
and a ``serve --http`` server run on a thread of the test."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "MODERN",
    "C",
    "V",
    "http_server",
    "initialize",
    "meta",
    "modern",
    "raw_http",
    "readline",
    "request",
    "serve_in_thread",
]

V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"
MODERN = "2026-07-28"


def readline(stream: Any, timeout: float) -> Any:
    """One line from a child's pipe, or fail after ``timeout`` (a test never hangs)."""
    box: list[Any] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert box, f"no line within {timeout} s"
    return box[0]


def meta(rev: str = MODERN) -> dict[str, Any]:
    """A modern request's ``_meta``: its revision and no client capabilities."""
    return {V: rev, C: {}}


def request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        out["params"] = params
    return out


def modern(msg_id: int, method: str, params: dict[str, Any] | None = None,
           rev: str = MODERN) -> dict[str, Any]:
    """A request with ``params._meta`` naming ``rev``."""
    return request(msg_id, method, {**(params or {}), "_meta": meta(rev)})


def initialize(msg_id: int = 1, rev: str = "2025-11-25") -> dict[str, Any]:
    return request(msg_id, "initialize", {"protocolVersion": rev, "capabilities": {},
                                          "clientInfo": {"name": "test", "version": "0"}})


@contextmanager
def http_server(peer: str, log: Any = None, timeout: float = 10, **options: Any
                ) -> Iterator[tuple[str, Any]]:
    """``serve PEER --http`` on a free port, served by a thread; yields (url, server). On the
    way out, streams and held requests end and the thread must finish within ``timeout``.
    ``options`` go to the endpoint (``allow_remote``, ``limits``, ``say``)."""
    from mcp_skew.serve._http import ServedEndpoint, make_http_server, server_url
    from mcp_skew.simulator import parse_peer

    say = options.pop("say", None) or (lambda t: None)
    endpoint = ServedEndpoint(parse_peer(peer, "server"), say=say, **options)
    server = make_http_server(endpoint, "127.0.0.1", 0, log=log)
    thread = serve_in_thread(server)
    try:
        yield server_url(server), server
    finally:
        server.stop_streams()
        server.shutdown()
        server.server_close()
        thread.join(timeout)
        assert not thread.is_alive()


def serve_in_thread(server: Any, poll_interval: float = 0.1) -> threading.Thread:
    """Start ``server.serve_forever`` in a daemon thread, its HTTP stack imported first.

    ``serve_forever`` imports Starlette and Uvicorn on first use. Done in the thread, that
    import compiles ``mcp_skew.serve._asgi`` through pytest's assertion rewriter (the
    package is a pytest plugin's, so all of it is rewritten) while the main thread may be
    compiling too, and CPython 3.11's parser can then fail with "SystemError: AST
    constructor recursion depth mismatch": the thread dies, and every request after waits
    unanswered. Imported here, in the calling thread, it cannot.
    """
    import mcp_skew.serve._asgi  # noqa: F401

    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": poll_interval},
                              daemon=True)
    thread.start()
    return thread


def raw_http(url: str, data: bytes, *, wait: float = 10, half_close: bool = False
             ) -> tuple[int | None, bytes]:
    """Send ``data`` as is to ``url``'s host and port (then half-close, if asked); the status
    of the answer (None: the connection closed unanswered) and its body."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=wait) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    if not got.startswith(b"HTTP/"):
        return None, b""
    head, _, body = got.partition(b"\r\n\r\n")
    return int(head.split()[1]), body

"""``serve --http`` under load, in this process: the connection and stream caps (503 with
``Retry-After``), a stream's queue cap for a client that does not read, the descriptor
limit, and the event loop's reports as one line. The ASGI app is called with its scope,
``receive`` and ``send``; no socket is opened (the real-socket tests are in
``tests/slow/unit/test_serve_http_load_slow.py``)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import initialize, request

from mcp_skew.serve import _asgi
from mcp_skew.serve._http import HttpLimits, HttpRequest, HttpServer, ServedEndpoint, StreamBox
from mcp_skew.serve._log import LogWriter, read_log
from mcp_skew.simulator import parse_peer

SSE = "legacy:2024-11-05"
NOTE = {"jsonrpc": "2.0", "method": "notifications/initialized"}


@pytest.fixture
def said() -> list[str]:
    return []


@contextmanager
def make_server(peer: str, limits: HttpLimits, said: list[str],
                log: LogWriter | None = None) -> Iterator[HttpServer]:
    endpoint = ServedEndpoint(parse_peer(peer, "server"), say=said.append, limits=limits)
    sock = socket.socket()  # never bound nor connected: the server's address only
    try:
        yield HttpServer(endpoint, sock, log, limits)
    finally:
        sock.close()


class FakeTransport:
    """The connection a request finds in its scope: ``close`` is what the app can do."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    def is_closing(self) -> bool:
        return self.closed.is_set()

    def close(self) -> None:
        self.closed.set()


def scope(method: str, path: str, body: bytes = b"", **extensions: Any) -> dict[str, Any]:
    target, _, query = path.partition("?")
    return {"type": "http", "method": method, "path": target, "raw_path": target.encode(),
            "query_string": query.encode(), "headers": [
                (b"host", b"127.0.0.1:1"), (b"content-length", str(len(body)).encode()),
                (b"content-type", b"application/json")],
            "extensions": extensions}


async def call(app: Any, method: str, path: str, body: bytes = b"",
               **extensions: Any) -> tuple[int, dict[str, str], bytes]:
    """One whole request through the app; its status, headers and body."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope(method, path, body, **extensions), receive, send)
    start = sent[0]
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


def post(app: Any, path: str, message: Any) -> Any:
    return call(app, "POST", path, json.dumps(message).encode())


# -- the caps: 503 with Retry-After --------------------------------------------------------------

def test_a_request_on_a_connection_past_the_cap_gets_503_with_retry_after(said: list[str]
                                                                          ) -> None:
    with make_server("legacy:2025-11-25", HttpLimits(max_connections=5), said) as server:
        app = _asgi._App(server)
        status, headers, body = asyncio.run(
            call(app, "POST", "/mcp", json.dumps(initialize()).encode(), **{_asgi.OVER: 5}))
        assert status == 503
        assert headers["retry-after"] == str(_asgi.RETRY_AFTER_S)
        assert headers["connection"] == "close"
        assert b"over 5 connections" in body
        assert server.endpoint.sessions == {}  # the request was not served
        status, _, _ = asyncio.run(call(app, "POST", "/mcp", json.dumps(initialize()).encode(),
                                        **{_asgi.OVER: 0}))
        assert status == 200
        assert any("HTTP 503" in line for line in said)


def test_a_stream_past_the_stream_cap_gets_503_and_its_server_is_gone(said: list[str]) -> None:
    limits = HttpLimits(max_connections=4)
    assert limits.max_streams == 2
    with make_server(SSE, limits, said) as server:
        app = _asgi._App(server)
        server.stream_opened()
        server.stream_opened()  # two streams held open
        status, headers, body = asyncio.run(call(app, "GET", "/mcp"))
        assert (status, headers["retry-after"]) == (503, "1")
        assert b"over 2 HTTP+SSE streams" in body
        assert server.endpoint.streams == {} and server.endpoint.queues == {}


# -- a stream's queue --------------------------------------------------------------------------

def test_a_box_holds_at_most_its_cap_and_overflows_once() -> None:
    box = StreamBox(10)
    calls: list[int] = []
    box.on_overflow = lambda: calls.append(1)
    assert box.put(b"x" * 25)  # an empty box takes any one event
    assert box.get() == b"x" * 25 and box.get() is None and box.size == 0
    assert box.put(b"abcd") and box.put(b"efgh")
    assert box.size == 8
    assert not box.put(b"ijk")  # 11 > 10: overflowed, what it held is dropped
    assert (box.overflowed, box.size, box.get(), calls) == (True, 0, None, [1])
    assert not box.put(b"a")
    assert calls == [1]


def open_stream(endpoint: ServedEndpoint) -> str:
    opened = endpoint.handle(HttpRequest("GET", "/mcp", {}))
    return dict(opened.events)["endpoint"]


def test_a_stream_whose_client_does_not_read_is_closed_at_the_cap(said: list[str]) -> None:
    limits = HttpLimits(stream_queue_bytes=4000)
    endpoint = ServedEndpoint(parse_peer(SSE, "server"), say=said.append, limits=limits)
    path = open_stream(endpoint)
    sid = path.partition("session_id=")[2]

    def send(message: Any) -> int:
        return endpoint.handle(HttpRequest("POST", path, {}, json.dumps(message).encode())).status

    assert send(initialize(rev="2024-11-05")) == 202
    assert send(NOTE) == 202
    box = endpoint.stream_queue(sid)
    assert box is not None
    statuses = []
    for n in range(2, 40):
        statuses.append(send(request(n, "tools/call", {"name": "echo",
                                                      "arguments": {"text": "y" * 500}})))
        assert box.size <= limits.stream_queue_bytes
        if statuses[-1] != 202:
            break
    assert box.overflowed
    assert statuses[-1] == 404  # the stream's server is gone: its client starts again
    assert 3 < len(statuses) < 15
    assert sid not in endpoint.streams
    assert any("over 4000 bytes waiting for a client that does not read" in s for s in said)


def test_the_app_closes_a_blocked_stream_when_its_queue_overflows(tmp_path: Path,
                                                                 said: list[str]) -> None:
    """The stream's writer is blocked on a client that does not read (its ``send`` never
    returns until the connection closes): the POSTs overflow the queue, the app closes the
    connection, and the stream ends with a log record that says why."""
    limits = HttpLimits(stream_queue_bytes=4000)
    log = LogWriter(str(tmp_path / "wire.jsonl"), source="serve")
    with make_server(SSE, limits, said, log) as server:
        app = _asgi._App(server)
        outcome = asyncio.run(_blocked_stream(app, server))
        log.close()
        assert outcome == "closed"
        assert server.open_streams == 0 and server.endpoint.streams == {}
        texts = [e.text for e in read_log(tmp_path / "wire.jsonl")[0] if e.kind == "http"]
        assert any("is closed: over 4000 bytes waiting for a client that does not read" in t
                   for t in texts), texts


async def _blocked_stream(app: Any, server: HttpServer) -> str:
    transport = FakeTransport()
    chunks: list[bytes] = []
    first = asyncio.Event()
    asked: list[int] = []

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await transport.closed.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            chunks.append(message["body"])
            first.set()
            if len(chunks) > 1:  # the client reads the endpoint event, then nothing
                await transport.closed.wait()

    stream = asyncio.ensure_future(app(scope("GET", "/mcp", **{_asgi.TRANSPORT: transport}),
                                       receive, send))
    await first.wait()
    path = chunks[0].decode().partition("data: ")[2].strip()
    for n, message in enumerate([initialize(rev="2024-11-05"), NOTE]
                                + [request(k, "tools/call", {"name": "echo", "arguments":
                                                             {"text": "y" * 500}})
                                   for k in range(2, 40)]):
        status, _, _ = await post(app, path, message)
        if status == 404:
            break
        assert n < 39, "the queue never overflowed"
    await asyncio.wait_for(stream, 60)
    return "closed" if transport.closed.is_set() else "open"


# -- descriptors and the event loop ------------------------------------------------------------

def test_the_cap_is_lowered_to_fit_the_descriptor_limit(monkeypatch: pytest.MonkeyPatch,
                                                        said: list[str]) -> None:
    with make_server("legacy:2025-11-25", HttpLimits(), said) as server:
        monkeypatch.setattr(_asgi.resource, "getrlimit", lambda _: (200, 4096))
        assert _asgi.connection_cap(512, server) == 200 - _asgi.SPARE_FDS
        assert said == [f"at most {200 - _asgi.SPARE_FDS} connections at once, not 512: the "
                        "descriptor limit is 200 (ulimit -n)"]
        assert _asgi.connection_cap(100, server) == 100
        monkeypatch.setattr(_asgi.resource, "getrlimit",
                            lambda _: (_asgi.resource.RLIM_INFINITY,) * 2)
        assert _asgi.connection_cap(512, server) == 512
        assert len(said) == 1


def test_what_the_event_loop_reports_is_one_line_at_most_once_a_second(said: list[str]) -> None:
    from uvicorn import Config

    with make_server("legacy:2025-11-25", HttpLimits(), said) as server:
        uv = _asgi._Uvicorn(Config(_asgi._App(server)), server)
        loop = asyncio.new_event_loop()
        try:
            error = OSError(24, "Too many open files")
            uv._loop_error(loop, {"message": "socket.accept() out of system resource\nmore",
                                  "exception": error})
            uv._loop_error(loop, {"message": "again", "exception": error})
        finally:
            loop.close()
        assert said == ["http: socket.accept() out of system resource "
                        "(OSError(24, 'Too many open files'))"]

"""``serve --http`` under load, over real sockets: a connection past the cap gets 503 with
``Retry-After`` (and a place frees when a connection closes); an HTTP+SSE client that stops
reading has its stream closed once the answers waiting for it pass the queue cap."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from _serve_helpers import http_server, initialize, request
from _waits import BOUND_S, until

from mcp_skew.serve._http import HttpLimits
from mcp_skew.serve._log import LogWriter, read_log

NOTE = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def connect(url: str, rcvbuf: int | None = None) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(BOUND_S)
    sock.connect((parts.hostname, parts.port))
    return sock


def send_post(sock: socket.socket, url: str, path: str, message: Any, close: bool = False
              ) -> None:
    data = json.dumps(message).encode()
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {urlsplit(url).netloc}\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                 f"Connection: {'close' if close else 'keep-alive'}\r\n\r\n".encode() + data)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole answer with a ``Content-Length`` (the connection stays open)."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed mid-answer: {raw!r}"
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk
        body += chunk
    return int(lines[0].split()[1]), headers, body


def post(url: str, path: str, message: Any) -> tuple[int, dict[str, str], bytes]:
    with connect(url) as sock:
        send_post(sock, url, path, message, close=True)
        return read_answer(sock)


@contextmanager
def kept_open(url: str, count: int) -> Iterator[list[socket.socket]]:
    """``count`` kept-alive connections, each answered once (so each is surely accepted)."""
    with ExitStack() as stack:
        socks = [stack.enter_context(connect(url)) for _ in range(count)]
        for sock in socks:
            send_post(sock, url, "/mcp", initialize())
            assert read_answer(sock)[0] == 200
        yield socks


def test_a_connection_past_the_cap_gets_503_until_one_closes() -> None:
    limits = HttpLimits(max_connections=3, idle_s=BOUND_S)
    with http_server("legacy:2025-11-25", None, BOUND_S, limits=limits) as (url, _), \
            kept_open(url, 3) as socks:
        status, headers, body = post(url, "/mcp", initialize())
        assert (status, headers["retry-after"], headers["connection"]) == (503, "1", "close")
        assert b"over 3 connections" in body
        socks[0].close()  # a place frees once the server sees it gone
        answers: list[int] = []
        until(lambda: answers.append(post(url, "/mcp", initialize())[0]) or answers[-1] == 200,
              "a request to be served after a connection closed")
        assert set(answers) <= {200, 503}


def open_stream(sock: socket.socket, url: str) -> str:
    """GET the HTTP+SSE stream; the path its ``endpoint`` event names."""
    sock.sendall(f"GET /mcp HTTP/1.1\r\nHost: {urlsplit(url).netloc}\r\n\r\n".encode())
    raw = b""
    while (found := re.search(rb"data: (/messages\S+)\n", raw)) is None:
        chunk = sock.recv(4096)
        assert chunk, raw
        raw += chunk
    return found.group(1).decode()


def test_a_stream_whose_client_does_not_read_is_closed_not_queued_without_bound(
        tmp_path: Path) -> None:
    cap = 64 << 10
    log = LogWriter(str(tmp_path / "wire.jsonl"), source="serve")
    said: list[str] = []
    text = "y" * 100_000
    with http_server("legacy:2024-11-05", log, BOUND_S, limits=HttpLimits(
            stream_queue_bytes=cap)) as (url, server), connect(url, rcvbuf=4096) as stream:
        server.say = said.append
        server.endpoint.say = said.append
        path = open_stream(stream, url)
        sid = path.partition("session_id=")[2]
        assert post(url, path, initialize(rev="2024-11-05"))[0] == 202
        assert post(url, path, NOTE)[0] == 202
        statuses: list[int] = []
        for n in range(2, 2000):  # the stream is not read from here on
            statuses.append(post(url, path, request(n, "tools/call", {
                "name": "echo", "arguments": {"text": text}}))[0])
            box = server.endpoint.queues.get(sid)
            assert box is None or box.size <= cap
            if statuses[-1] != 202:
                break
        assert statuses[-1] == 404, statuses[-5:]
        stream.settimeout(BOUND_S)
        while stream.recv(1 << 20):  # what was in flight, then the end of the stream
            pass
        until(lambda: server.open_streams == 0, "the stream to be closed")
    log.close()
    assert any(f"over {cap} bytes waiting for a client that does not read" in s for s in said)
    texts = [e.text for e in read_log(tmp_path / "wire.jsonl")[0] if e.kind == "http"]
    assert any(f"is closed: over {cap} bytes waiting" in t for t in texts), texts[-3:]

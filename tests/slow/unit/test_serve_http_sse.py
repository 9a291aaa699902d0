"""``mcp-skew serve PEER --http``: the HTTP+SSE transport of 2024-11-05, over a real socket.

A raw SSE client GETs ``/mcp``, reads the ``endpoint`` event, POSTs there (202) and reads
the answers as SSE ``message`` events on the held stream.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from _proctree import default_signals
from _serve_helpers import http_server, initialize, readline, request
from _waits import BOUND_S

from mcp_skew.serve._log import LogWriter, read_log
from mcp_skew.simulator.http._sse import SseEvent, SseParser

TIMEOUT = BOUND_S
NOTE = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def running(peer: str, log: LogWriter | None = None) -> Any:
    return http_server(peer, log, TIMEOUT)


def http(url: str, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection; the status, the headers and the body."""
    parts = urlsplit(url)
    data = b"" if body is None else json.dumps(body).encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                     "Connection: close\r\n\r\n".encode() + data)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, rest = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, rest


class Dechunk:
    """The body of a ``Transfer-Encoding: chunked`` response, as its bytes arrive."""

    def __init__(self) -> None:
        self.buf = b""
        self.left = 0  #: data bytes left in the current chunk
        self.crlf = False  #: the CRLF after a chunk's data is still to skip
        self.done = False

    def feed(self, data: bytes) -> bytes:
        self.buf += data
        out = b""
        while not self.done:
            if self.left:
                take = self.buf[:self.left]
                out, self.buf, self.left = out + take, self.buf[len(take):], self.left - len(take)
                if self.left:
                    break
                self.crlf = True
            if self.crlf:
                if len(self.buf) < 2:
                    break
                self.buf, self.crlf = self.buf[2:], False
            line, sep, rest = self.buf.partition(b"\r\n")
            if not sep:
                break
            size = int(line.split(b";")[0], 16)
            self.buf, self.left, self.done = rest, size, size == 0
        return out


class SseClient:
    """A GET held open, read event by event (its body chunked or not)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT)
        self.sock.sendall(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.parser = SseParser()
        self.events: list[SseEvent] = []
        raw = b""
        while b"\r\n\r\n" not in raw:
            chunk = self.sock.recv(4096)
            assert chunk, "the server closed the stream before its headers"
            raw += chunk
        head, _, rest = raw.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.lower(): v.strip()
                        for k, _, v in (line.partition(":") for line in lines[1:])}
        chunked = self.headers.get("transfer-encoding") == "chunked"
        self.body = Dechunk().feed if chunked else (lambda data: data)
        self.events += self.parser.feed(self.body(rest))

    def next(self) -> SseEvent:
        while not self.events:
            chunk = self.sock.recv(4096)
            assert chunk, "the stream ended"
            self.events += self.parser.feed(self.body(chunk))
        return self.events.pop(0)

    def message(self) -> Any:
        event = self.next()
        assert event.event == "message"
        return json.loads(event.data)

    def ended(self) -> bool:
        """Whether the server closes the stream within the timeout (with no more events)."""
        try:
            while chunk := self.sock.recv(4096):
                if self.parser.feed(self.body(chunk)):
                    return False
            return True
        except OSError:
            return True

    def close(self) -> None:
        self.sock.close()


@contextmanager
def stream(url: str) -> Iterator[SseClient]:
    client = SseClient(url)
    try:
        yield client
    finally:
        client.close()


def handshake(url: str, client: SseClient, rev: str = "2024-11-05") -> tuple[str, Any]:
    event = client.next()
    assert event.event == "endpoint"
    post = event.data
    status, _, body = http(url, "POST", post, initialize(1, rev))
    assert (status, body) == (202, b"")
    answer = client.message()
    assert http(url, "POST", post, NOTE)[0] == 202
    return post, answer


def test_the_stream_carries_initialize_and_tools_list(tmp_path: Path) -> None:
    log = LogWriter(tmp_path / "wire.jsonl", source="serve")
    with running("legacy:2024-11-05", log) as (url, _), stream(url) as client:
        assert client.status == 200
        assert client.headers["content-type"] == "text/event-stream"
        post, answer = handshake(url, client)
        assert post.startswith("/messages?session_id=")
        assert answer["id"] == 1 and answer["result"]["protocolVersion"] == "2024-11-05"
        assert http(url, "POST", post, request(2, "tools/list"))[0] == 202
        tools = client.message()
        assert tools["id"] == 2 and [t["name"] for t in tools["result"]["tools"]]
        # a stream id nobody opened is 404
        assert http(url, "POST", "/messages?session_id=nope", request(3, "ping"))[0] == 404
    log.close()
    entries, problems = read_log(tmp_path / "wire.jsonl")
    assert not problems
    sent = [e.message for e in entries if e.dir == "c2s"]
    said = [e for e in entries if e.dir == "s2c"]
    assert [m["method"] for m in sent] == ["initialize", "notifications/initialized",
                                            "tools/list", "ping"]
    assert [e.message["id"] for e in said if (e.http or {}).get("sse_event") == "message"] == [1, 2]
    assert all(e.http["stream"] == "/mcp" for e in said if e.http and "sse_event" in e.http)
    events = [e.text for e in entries if e.dir == "event"]
    assert any("event endpoint: /messages?session_id=" in t for t in events)
    assert any("HTTP+SSE stream" in t and "closed" in t for t in events)


def test_a_2024_11_05_only_server_refuses_post_on_the_mcp_endpoint() -> None:
    with running("legacy:2024-11-05") as (url, _):
        status, headers, _ = http(url, "POST", "/mcp", initialize(1, "2024-11-05"))
    assert status == 405 and headers["allow"] == "GET"


def test_a_dual_server_serves_both_transports_at_one_url() -> None:
    with running("legacy:2025-11-25,2024-11-05") as (url, _):
        status, headers, body = http(url, "POST", "/mcp", initialize(1, "2025-11-25"))
        assert status == 200 and headers["mcp-session-id"]
        assert json.loads(body)["result"]["protocolVersion"] == "2025-11-25"
        with stream(url) as client:
            _, answer = handshake(url, client)
            assert answer["result"]["protocolVersion"] == "2024-11-05"


def test_the_stream_ends_when_the_client_leaves_and_when_the_server_stops() -> None:
    with running("legacy:2024-11-05") as (url, server):
        with stream(url) as client:
            post, _ = handshake(url, client)
        deadline = time.monotonic() + TIMEOUT
        while server.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.open_streams == 0  # the client left: the stream's thread ended
        assert not server.endpoint.streams
        assert http(url, "POST", post, request(2, "ping"))[0] == 404
        held = SseClient(url)
        assert held.next().event == "endpoint"
    try:
        assert held.ended()  # the server stopped: the held stream is closed, not left open
    finally:
        held.close()


def test_the_command_exits_cleanly_with_a_stream_open() -> None:
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2024-11-05", "--http",
           "127.0.0.1:0"]
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True,
                          preexec_fn=default_signals) as proc:  # noqa: PLW1509 - dispositions only
        try:
            assert proc.stderr
            url = readline(proc.stderr, TIMEOUT).split(" on ")[-1].strip()
            with stream(url) as client:
                handshake(url, client)
                proc.send_signal(signal.SIGINT)
                # stopped as every command is (docs/serve-and-record.md): 128 + SIGINT, once
                # the held stream is closed
                assert proc.wait(TIMEOUT) == 128 + signal.SIGINT
                assert client.ended()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(TIMEOUT)

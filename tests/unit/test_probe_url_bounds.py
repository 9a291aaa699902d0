"""The pieces that keep ``probe --url`` safe from a hostile server, in this process: which
HTTP+SSE ``endpoint`` URIs are refused, the total deadline of an HTTP exchange (on a socket
pair), the one HTTP client speaks http(s) only, and authorization answers that are nested too deep
or name URLs that are no URLs (``tests/slow/unit/test_probe_url_hostile_slow.py`` runs the
same against a real hostile server)."""

from __future__ import annotations

import queue
import socket
import threading
import urllib.error
import urllib.request

import pytest
from _waits import BOUND_S

from mcp_skew.probe._auth import _bounded, _fetch
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.wire import Deadline, HttpLink, Limits, read_capped, send
from mcp_skew.wire.http import endpoint_refused

STREAM = "http://127.0.0.1:8000/sse"
DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(("endpoint", "why"), [
    ("http://127.0.0.1:8001/messages", "another origin"),
    ("https://127.0.0.1:8000/messages", "another origin"),
    ("http://localhost:8000/messages", "another origin"),
    ("http://127.0.0.1:8000@evil.example/messages", "another origin"),
    ("file:///etc/passwd", "not an http(s) URL"),
    ("data:text/plain,hello", "not an http(s) URL"),
    ("javascript:alert(1)", "not an http(s) URL"),
    ("http:///messages", "not an http(s) URL"),
    ("http://127.0.0.1:99999/messages", "its port is not a port"),
    ("http://127.0.0.1:x/messages", "its port is not a port"),
])
def test_an_endpoint_off_the_streams_origin_is_refused(endpoint: str, why: str) -> None:
    refused = endpoint_refused(STREAM, endpoint)
    assert refused is not None and why in refused


@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:8000/messages?session=1",
                                      "http://127.0.0.1:8000/", "HTTP://127.0.0.1:8000/m"])
def test_an_endpoint_on_the_streams_origin_is_followed(endpoint: str) -> None:
    assert endpoint_refused(STREAM, endpoint) is None
    assert endpoint_refused("http://127.0.0.1:80/sse", "http://127.0.0.1/m") is None


def test_a_deadline_ends_a_read_that_bytes_keep_alive() -> None:
    """A byte now and then keeps a per-read timeout from ever firing; the deadline shuts the
    socket down whatever comes."""
    ours, theirs = socket.socketpair()
    stop = threading.Event()

    def drip() -> None:
        while not stop.is_set():
            try:
                theirs.send(b"x")
            except OSError:
                return
            stop.wait(0.01)

    threading.Thread(target=drip, daemon=True).start()
    ours.settimeout(BOUND_S)
    try:
        with Deadline(0.2) as deadline:
            deadline.watch(ours)
            got = b""
            while chunk := ours.recv(1):
                got += chunk
                assert len(got) < 10_000_000
        assert deadline.expired and got
    finally:
        stop.set()
        ours.close()
        theirs.close()


def test_a_socket_watched_after_the_deadline_is_shut_at_once() -> None:
    ours, theirs = socket.socketpair()
    try:
        deadline = Deadline(0)
        deadline._timer.join(BOUND_S)  # the timer has fired: the deadline has passed
        assert deadline.expired
        deadline.watch(ours)
        ours.settimeout(BOUND_S)
        assert ours.recv(1) == b""
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("url", ["file:///etc/passwd", "data:text/plain,hi",
                                 "ftp://127.0.0.1/x"])
def test_the_http_client_speaks_http_only(url: str) -> None:
    with Deadline(BOUND_S) as deadline, pytest.raises(urllib.error.URLError,
                                                      match="unknown url type"):
        send(HttpRequest("GET", url), deadline, urllib.request.HTTPRedirectHandler())


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, n: int) -> bytes:
        return self.data[:n]


def test_a_body_over_its_cap_is_said_to_be() -> None:
    assert read_capped(_Body(b"abc"), 3) == (b"abc", False)
    assert read_capped(_Body(b"abcd"), 3) == (b"abc", True)


def test_nested_metadata_is_no_value_and_says_why() -> None:
    got = HttpResponse(200, DEEP)
    assert got.json() is None
    assert got.problem() == "the body is not JSON: nested deeper than 128 levels"
    assert HttpResponse(200, b"[1]").problem() == "the body is not a JSON object"
    assert HttpResponse(200, b"{}").problem() is None
    assert HttpResponse(404, b"").problem() is None


@pytest.mark.parametrize(("url", "said"), [
    ("http://127.0.0.1:port/prm", "port 'port'"),
    ("http://127.0.0.1:99999/as", "port '99999'"),
    ("http://[::1/as", "IPv6"),
    ("file:///etc/passwd", "not a http or https URL"),
    ("http://127.0.0.1:0x50/token", "port '0x50'"),
])
def test_a_metadata_url_that_is_no_url_is_not_asked(url: str, said: str) -> None:
    got = _fetch(url, HttpRequest("GET", url), {})  # no socket: refused before any connection
    assert got.status == 0 and got.error.startswith("not asked: not a valid http(s) URL")
    assert said in got.error


def test_the_discovery_asks_each_request_once_and_stops_when_its_time_is_spent() -> None:
    asked: list[str] = []

    def fetch(url: str, ask: HttpRequest, headers: object) -> HttpResponse:
        asked.append(url)
        return HttpResponse(404)

    bounded = _bounded(fetch, 60.0)
    assert bounded("http://a/x", HttpRequest("GET", "/x"), {}).status == 404
    assert bounded("http://a/x", HttpRequest("GET", "/x"), {}).status == 404
    assert asked == ["http://a/x"]
    spent = _bounded(fetch, 0.0)
    got = spent("http://a/y", HttpRequest("GET", "/y"), {})
    assert got.status == 0 and "are spent" in got.error and asked == ["http://a/x"]


class _Flood:
    """An SSE answer that never ends its event: 64 KiB of ``data:`` at a time, up to 64 MiB."""

    def __init__(self) -> None:
        self.given = 0

    def read1(self, n: int) -> bytes:
        if self.given >= 64 << 20:
            return b""
        chunk = b"data: " + b"x" * (min(n, 65536) - 7) + b"\n"
        self.given += len(chunk)
        return chunk


def test_an_sse_answer_is_read_up_to_its_cap() -> None:
    link = HttpLink("http://127.0.0.1:9/mcp", limits=Limits(output_bytes=1 << 20))
    flood = _Flood()
    link._read_sse_body(flood, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                        queue.Queue())
    assert flood.given <= (1 << 20) + 65536
    assert link.flooded is not None and "went past 1048576 bytes" in link.flooded

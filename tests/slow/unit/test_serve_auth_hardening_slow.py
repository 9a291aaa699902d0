"""Issue 33 over real sockets: ``serve --http ... +auth=LAYOUT`` against the attacks of
``tests/_auth_attacks.py`` (the sans-I/O side is ``tests/unit/test_auth_hardening.py``)."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from _serve_helpers import http_server, initialize, raw_http
from _waits import until

from mcp_skew.simulator.http.auth._server import AUTH_BODY_BYTES


def _post(target: str, body: bytes, extra: str = "") -> bytes:
    return (f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\n{extra}"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def _token(url: str, token_path: str = "/auth/token") -> str:
    form = urllib.parse.urlencode({"grant_type": "client_credentials",
                                   "client_id": "mcp-skew-preregistered",
                                   "client_secret": "mcp-skew-secret", "resource": url}).encode()
    data = (f"POST {token_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            "application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(form)}\r\nConnection: close\r\n\r\n").encode() + form
    status, body = raw_http(url, data)
    assert status == 200, body
    return str(json.loads(body)["access_token"])


@pytest.mark.parametrize("server", ["legacy:2025-11-25", "dual:2026-07-28,2025-11-25"])
def test_a_fragment_or_the_absolute_form_gets_no_unauthenticated_answer(server: str) -> None:
    """Before: 200 for ``/mcp#x`` and ``http://host/mcp`` without a token."""
    with http_server(f"{server}+auth=prm") as (url, srv):
        srv.endpoint.protect(url)
        body = json.dumps(initialize()).encode()
        host = url.removeprefix("http://").partition("/")[0]
        for target, want in (("/mcp#x", 400), ("/mcp?a=1#x", 400), (f"http://{host}/mcp", 401),
                             (f"http://{host}/mcp#x", 400), ("http://localhost/mcp", 401),
                             ("/mcp", 401)):
            status, _ = raw_http(url, _post(target, body))
            assert status == want, target
        status, _ = raw_http(url, _post("http://evil.example/mcp", body))
        assert status == 421  # an absolute-form host is checked as a Host header is
        token = _token(url)
        status, _ = raw_http(url, _post(f"http://{host}/mcp", body,
                                        f"Authorization: Bearer {token}\r\n"))
        assert status == 200


def test_a_token_of_one_serve_is_refused_by_another() -> None:
    """Before: both counted from 1, so the first token of one was the first of the other."""
    with http_server("legacy:2025-11-25+auth=prm") as (url_a, a), \
            http_server("legacy:2025-11-25+auth=prm") as (url_b, b):
        a.endpoint.protect(url_a)
        b.endpoint.protect(url_b)
        token_a = _token(url_a)
        _token(url_b)
        body = json.dumps(initialize()).encode()
        auth = f"Authorization: Bearer {token_a}\r\n"
        assert raw_http(url_a, _post("/mcp", body, auth))[0] == 200
        assert raw_http(url_b, _post("/mcp", body, auth))[0] == 401


def test_an_authorization_body_over_the_cap_is_413_before_it_is_sent() -> None:
    """Before: the token endpoint took 4 MiB and parsed it on the event loop (about 1.2 s of
    CPU each, every other client waiting); now its cap is read from Content-Length, and the
    answer comes without the body being sent at all."""
    with http_server("legacy:2025-11-25+auth=prm") as (url, srv):
        srv.endpoint.protect(url)
        head = ("POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                f"application/x-www-form-urlencoded\r\nContent-Length: {4 << 20}\r\n\r\n")
        status, _ = raw_http(url, head.encode())
        assert status == 413
        head = head.replace(str(4 << 20), str(AUTH_BODY_BYTES + 1)).encode()
        assert raw_http(url, head + b"a" * (AUTH_BODY_BYTES + 1))[0] == 413
        # the MCP endpoint keeps its own, larger cap
        big = json.dumps({**initialize(), "pad": "x" * (AUTH_BODY_BYTES * 2)}).encode()
        assert raw_http(url, _post("/mcp", big))[0] == 401


def test_serve_says_one_line_for_a_refused_request() -> None:
    """Before: ``POST /mcp -> HTTP 401 (authorization)`` and then ``POST -> HTTP 401``."""
    said: list[str] = []
    with http_server("legacy:2025-11-25+auth=prm", say=said.append) as (url, srv):
        srv.endpoint.protect(url)
        assert raw_http(url, _post("/mcp", json.dumps(initialize()).encode()))[0] == 401
        get = b"GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" \
              b"Connection: close\r\n\r\n"
        assert raw_http(url, get)[0] == 200
        until(lambda: len(said) >= 2, "the lines of both requests")
    assert said == ["POST /mcp -> HTTP 401",
                    "GET /.well-known/oauth-protected-resource/mcp -> HTTP 200"], said

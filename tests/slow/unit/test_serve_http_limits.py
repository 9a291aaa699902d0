"""``serve --http`` against hostile clients: malformed headers, big or slow bodies, DNS
rebinding, deep JSON, lone surrogates, idle and half-open connections, expired sessions."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from _serve_helpers import http_server, initialize, raw_http, readline, request

from mcp_skew.serve._http import HttpLimits

#: a bound on work that takes milliseconds: it only stops a hang, even on a loaded machine
TIMEOUT = 60
#: a small body cap; the deadlines are the defaults, far above what an answer takes
SMALL = HttpLimits(body_bytes=1000)
#: deadlines short enough to watch (the test about them waits for each, then checks the
#: whole took far less than TIMEOUT, which only a server that ignores them reaches)
SHORT = HttpLimits(body_bytes=1000, header_s=0.5, body_s=0.5)


def running(peer: str = "legacy:2025-11-25", limits: HttpLimits = SMALL,
            allow_remote: bool = False, **options: Any) -> Any:
    return http_server(peer, None, TIMEOUT, allow_remote=allow_remote, limits=limits, **options)


def raw(url: str, data: bytes, *, wait: float = TIMEOUT) -> tuple[int | None, bytes]:
    return raw_http(url, data, wait=wait)


def post(url: str, body: bytes, *headers: str) -> bytes:
    parts = urlsplit(url)
    head = [f"POST {parts.path} HTTP/1.1", f"Host: {parts.netloc}",
            "Content-Type: application/json", "Accept: application/json, text/event-stream",
            "Connection: close", *headers]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


INIT = json.dumps(initialize(1, "2025-11-25")).encode()


@pytest.mark.parametrize(("header", "status"), [
    ("Origin: http://[::1", 400),
    ("Origin: http://evil.example", 403),
    ("Origin: http://localhost:5173", 200),
    ("Content-Length: abc", 400),
    ("Content-Length: " + "9" * 23, 400),
    ("Content-Length: 5000", 413),
])
def test_malformed_and_refused_headers(header: str, status: int) -> None:
    with running() as (url, _):
        got, _ = raw(url, post(url, INIT, header))
        assert got == status
        assert raw(url, post(url, INIT))[0] == 200  # and the server goes on


@pytest.mark.parametrize(("host", "status"), [
    ("evil.example", 421), ("evil.example:80", 421), ("localhost:1", 200), ("[::1]:8", 200),
    ("127.0.0.1", 200), ("[::1", 400), ("a b", 400),
])
def test_the_host_header_guards_against_dns_rebinding(host: str, status: int) -> None:
    with running() as (url, _):
        path = urlsplit(url).path
        data = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(INIT)}\r\nConnection: close\r\n\r\n").encode() + INIT
        assert raw(url, data)[0] == status


def test_allow_remote_takes_any_host_and_origin() -> None:
    with running(allow_remote=True) as (url, _):
        path = urlsplit(url).path
        data = (f"POST {path} HTTP/1.1\r\nHost: mcp.example\r\nOrigin: https://app.example\r\n"
                f"Content-Length: {len(INIT)}\r\nConnection: close\r\n\r\n").encode() + INIT
        assert raw(url, data)[0] == 200


def test_a_chunked_body_over_the_cap_is_413() -> None:
    chunk = b"x" * 600
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(3)) + b"0\r\n\r\n"
    with running() as (url, _):
        assert raw(url, post(url, body, "Transfer-Encoding: chunked"))[0] == 413


def test_deep_json_and_huge_numbers_are_parse_errors() -> None:
    with running(limits=HttpLimits(body_bytes=1 << 20)) as (url, _):
        status, body = raw(url, post(url, b"[" * 100_000))
        assert status == 400 and json.loads(body)["error"]["code"] == -32700
        huge = b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}'
        status, body = raw(url, post(url, huge))
        assert status == 400 and json.loads(body)["error"]["code"] == -32700


def test_a_lone_surrogate_id_is_answered_with_the_same_escape() -> None:
    body = b'{"jsonrpc":"2.0","id":"\\ud800","method":"initialize","params":' + \
        json.dumps(initialize(1, "2025-11-25")["params"]).encode() + b"}"
    with running() as (url, _):
        status, answer = raw(url, post(url, body))
    assert status == 200
    assert b'"id":"\\ud800"' in answer
    assert json.loads(answer)["result"]["protocolVersion"] == "2025-11-25"


def test_slow_and_idle_connections_are_closed() -> None:
    with running(limits=SHORT) as (url, _):
        start = time.monotonic()
        assert raw(url, b"")[0] is None  # connects, says nothing: closed at the header deadline
        assert raw(url, b"POST /mcp HTTP/1.1\r\nHost: 127")[0] is None  # half a header
        assert time.monotonic() - start < TIMEOUT / 2  # not by raw()'s own wait running out
        # headers in, the body never: 408 at the body deadline
        assert raw(url, post(url, b"", "Content-Length: 10") + b"{}")[0] == 408


def test_an_unused_session_expires_and_gets_404() -> None:
    now = [0.0]  # the endpoint's clock, moved by the test: no race with a busy machine
    limits = HttpLimits(body_bytes=1000, session_idle_s=300)
    with running(limits=limits, clock=lambda: now[0]) as (url, server):
        first = raw(url, post(url, INIT))
        assert first[0] == 200
        (sid,) = server.endpoint.sessions
        ping = json.dumps(request(2, "ping")).encode()
        now[0] += 299
        assert raw(url, post(url, ping, f"Mcp-Session-Id: {sid}"))[0] == 200
        now[0] += 301
        assert raw(url, post(url, ping, f"Mcp-Session-Id: {sid}"))[0] == 404
        assert not server.endpoint.sessions


def test_sessions_over_the_cap_forget_the_longest_unused() -> None:
    limits = HttpLimits(max_sessions=3)
    with running(limits=limits) as (url, server):
        for _ in range(5):
            assert raw(url, post(url, INIT))[0] == 200
        assert len(server.endpoint.sessions) <= 4  # the cap, and the one just started


def test_no_traceback_from_a_barrage_of_bad_clients(tmp_path: Any) -> None:
    """The command itself, its standard error read: clients that give up mid-answer, reset
    connections, malformed requests; the server goes on answering and prints no traceback."""
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "legacy:2025-11-25+silent", "--http",
           "127.0.0.1:0", "--record", str(tmp_path / "wire.jsonl")]
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stderr
            url = readline(proc.stderr, TIMEOUT).split(" on ")[-1].strip()
            parts = urlsplit(url)
            bad = [post(url, INIT, "Origin: http://[::1"), post(url, b"[" * 50_000),
                   b"GARBAGE\r\n\r\n", b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
                   post(url, b'{"jsonrpc":"2.0","id":"\\udfff","method":"ping"}'),
                   post(url, json.dumps(request(5, "tools/list")).encode())]  # held: silent
            for data in bad:
                for linger in (False, True):
                    with socket.create_connection((parts.hostname, parts.port)) as sock:
                        if linger:  # a reset (RST) instead of a close, mid-answer
                            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                            b"\x01\x00\x00\x00\x00\x00\x00\x00")
                        sock.sendall(data)
            assert raw(url, post(url, INIT))[0] == 200
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=TIMEOUT)
    assert "Traceback" not in err
    assert "Error" not in err.replace("Parse error", "")


def test_help_version_and_the_other_commands_do_not_load_the_http_stack() -> None:
    code = ("import sys, contextlib, io\n"
            "from mcp_skew.cli import main\n"
            "import mcp_skew.serve\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--version'])\n"
            "    try:\n"
            "        main(['serve', '--help'])\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=TIMEOUT, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("params", "code"), [
    ([None], -32602),  # JSON-RPC allows an array; every MCP request's params is an object
    ("x", -32600), (3, -32600),  # JSON-RPC 2.0 §4.2: params MUST be a structured value
])
def test_params_that_are_not_an_object_are_refused(params: Any, code: int) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": params})
    with running() as (url, _):
        status, answer = raw(url, post(url, body.encode()))
    assert status == 400
    assert json.loads(answer)["error"]["code"] == code


def test_a_content_length_of_non_ascii_digits_is_malformed() -> None:
    # b"\xb2" is "²" in Latin-1 (how header bytes are read): "²".isdigit() is true, int()
    # raises; h11 refuses it first today, and the app's own check (ASCII digits) would too
    with running() as (url, _):
        data = post(url, INIT).replace(f"Content-Length: {len(INIT)}".encode(),
                                       b"Content-Length: \xb2")
        assert b"\xb2" in data
        assert raw(url, data)[0] == 400
        assert raw(url, post(url, INIT))[0] == 200

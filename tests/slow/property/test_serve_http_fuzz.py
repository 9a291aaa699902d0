"""``serve --http`` against random requests over a real socket: whatever the method, path,
headers and body (JSON-RPC or not, deep, huge numbers, lone surrogates, bytes that are not
UTF-8), the server answers with a status it documents, says no internal error, and goes on
answering."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from _fuzz_inputs import request_target
from _serve_helpers import http_server, initialize, raw_http
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_skew.serve._http import HttpLimits

#: Every status serve --http gives (docs/serve-and-record.md); None: closed unanswered, which
#: only a request h11 cannot frame at all may get (it is answered 400 where h11 can).
STATUSES = {200, 202, 400, 403, 404, 405, 408, 413, 421}
#: Deadlines far above what an answer takes (milliseconds): every request is whole and
#: half-closed, so none waits for one; under load a short one would answer 408 instead.
LIMITS = HttpLimits(body_bytes=64 << 10, header_s=60.0, body_s=60.0)
#: how long a read of the answer may wait, again far above what the work needs
WAIT_S = 60.0

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20)
methods = st.sampled_from(["initialize", "ping", "tools/list", "tools/call", "server/discover",
                           "resources/read", "notifications/initialized", ""])
messages = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "1.0"]), "method": methods},
    optional={"id": st.none() | st.integers() | st.text(max_size=10), "params": json_values})
bodies = st.one_of(
    messages.map(lambda m: json.dumps(m).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.integers(1, 20_000).map(lambda n: b"[" * n),
    st.integers(1, 6000).map(lambda n: b'{"jsonrpc":"2.0","id":' + b"9" * n + b',"method":"ping"}'),
    st.sampled_from([b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
                     b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}',
                     b'{"jsonrpc":"2.0","id":"\xed\xa0\x80","method":"ping"}']),
)
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
headers = st.dictionaries(
    st.sampled_from(["Origin", "Host", "Content-Type", "Accept", "Mcp-Session-Id",
                     "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Content-Length",
                     "Transfer-Encoding"]),
    header_text | st.sampled_from(["http://[::1", "http://localhost", "null", "abc",
                                   "9" * 23, "chunked", "localhost:1", "[::1]"]),
    max_size=4)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Any, list[str]]]:
    said: list[str] = []
    with http_server("dual:2026-07-28,2025-11-25,2024-11-05", limits=LIMITS) as (url, server):
        server.endpoint.say = said.append
        server.say = said.append
        yield url, server, said


def exchange(url: str, data: bytes) -> int | None:
    return raw_http(url, data, half_close=True, wait=WAIT_S)[0]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["POST", "GET", "DELETE", "PUT"]),
       st.one_of(st.sampled_from(["/mcp", "/", "/messages?session_id=x", "/nope", "/mcp?a=%ff"]),
                 request_target()),
       headers, bodies)
def test_any_request_gets_a_documented_status(served: tuple[str, Any, list[str]], method: str,
                                              path: str, extra: dict[str, str],
                                              body: bytes) -> None:
    url, server, said = served
    host = urlsplit(url).netloc
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in extra.items() if name != "Host"]
    if "Content-Length" not in extra and "Transfer-Encoding" not in extra:
        lines.append(f"Content-Length: {len(body)}")
    if "Host" in extra:
        lines[1] = f"Host: {extra['Host']}"
    status = exchange(url, ("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    assert status in STATUSES or status is None
    assert not [text for text in said if "internal error" in text or "Traceback" in text]
    # and it goes on answering
    ok = json.dumps(initialize(1, "2025-11-25")).encode()
    assert exchange(url, (f"POST /mcp HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
                          f"Content-Length: {len(ok)}\r\n\r\n").encode() + ok) == 200
    assert server.exit_code == 0

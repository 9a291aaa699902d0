"""Streamable HTTP in the simulator: the sans-I/O sides, the in-memory link, the rule, the CLI.

What is pinned, with where the spec says it:

- the headers a client of each revision sends, and how it reads a JSON body, an
  SSE body (the 2025-11-25 priming event is no message), a 400 with a JSON-RPC
  error body (that error), a bodiless 404/405 (an error it can read), and its
  session id (kept and sent): 2025-03-26..2025-11-25 ``basic/transports.mdx``,
  2026-07-28 ``basic/transports/streamable-http.mdx``;
- the dual-era client's HTTP rule (2026-07-28 ``streamable-http.mdx`` §Backward
  Compatibility): it reads the body of the 4xx, and a timeout is an error there,
  not a sign of a legacy server (stdio differs: ``stdio.mdx`` §Backward
  Compatibility); the path records the rule;
- the spec's era table (2026-07-28 ``basic/versioning.mdx`` §Compatibility
  Matrix) holds over HTTP, each row with its HTTP words;
- ``serve --http`` and the in-memory HTTP link answer the same requests the same
  way (one endpoint); runs are deterministic.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_http_sim.py``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from _serve_helpers import serve_in_thread

from mcp_skew.serve._http import ServedEndpoint, make_http_server
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator._scenario import SCENARIOS, play
from mcp_skew.simulator._transport import HTTP
from mcp_skew.simulator.http import HttpEndpoint, HttpMemoryLink, HttpRequest, HttpResponse
from mcp_skew.versions import REGISTRY, Era

LATEST = REGISTRY.of_era(Era.MODERN)[-1]  # 2026-07-28
DUAL = f"dual:{LATEST},2025-11-25"


# -- serve --http and the in-memory link: one endpoint ---------------------------------------------

@contextmanager
def serving(spec: str) -> Iterator[str]:
    endpoint = ServedEndpoint(parse_peer(spec, "server"), say=lambda t: None)
    server = make_http_server(endpoint, "127.0.0.1", 0)
    thread = serve_in_thread(server, 0.05)
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}/mcp"
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(10)


def _over_sockets(url: str, request: HttpRequest) -> tuple[int, Any, dict[str, str]]:
    req = urllib.request.Request(url, data=request.body or None, headers=dict(request.headers),
                                 method=request.method)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            status, headers, body = resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        status, headers, body = err.code, err.headers, err.read()
    kept = {k: headers[k] for k in ("Content-Type", "Mcp-Session-Id", "Allow") if k in headers}
    return status, json.loads(body) if body else None, kept


class _Recording(HttpEndpoint):
    """The simulator's endpoint, keeping each request and its response."""

    def __init__(self, spec: str) -> None:
        super().__init__(parse_peer(spec, "server"))
        self.seen: list[tuple[HttpRequest, HttpResponse]] = []

    def handle(self, request: HttpRequest) -> HttpResponse:
        response = super().handle(request)
        self.seen.append((request, response))
        return response


@pytest.mark.parametrize(("client", "server"), [
    (DUAL, "legacy:2025-11-25"),
    (DUAL, "legacy:2025-11-25+unknown-32602"),
    (DUAL, f"modern:{LATEST}"),
    (f"modern:{LATEST}", "legacy:2025-06-18"),
    ("legacy:2025-11-25,2025-06-18", "legacy:2025-06-18,2025-03-26"),
    ("2025-11-25", f"modern:{LATEST}"),
    ("2025-03-26", f"dual:{LATEST},2025-11-25,2025-03-26"),
])
def test_serve_http_and_the_in_memory_link_answer_the_same_requests_the_same_way(
        client: str, server: str) -> None:
    endpoint = _Recording(server)
    link = HttpMemoryLink(endpoint)
    sim = SimClient(parse_peer(client, "client"), transport=HTTP)
    session = sim.negotiate(link)
    if session.status == "ok":
        play(SCENARIOS["default"], sim, link, session)
    link.close()
    assert endpoint.seen
    sessions: dict[str, str] = {}  # the simulator's session id -> the one serve minted
    with serving(server) as url:
        for request, expected in endpoint.seen:
            headers = {k: sessions.get(v, v) for k, v in request.headers.items()}
            status, body, got = _over_sockets(url, HttpRequest(request.method, request.path,
                                                               headers, request.body))
            if "Mcp-Session-Id" in expected.headers:
                sessions.setdefault(expected.headers["Mcp-Session-Id"], got["Mcp-Session-Id"])
                got["Mcp-Session-Id"] = expected.headers["Mcp-Session-Id"]
            want = dict(expected.headers)
            if expected.content_type is not None:
                want["Content-Type"] = expected.content_type
            assert (status, body, got) == (expected.status, expected.body, want), request

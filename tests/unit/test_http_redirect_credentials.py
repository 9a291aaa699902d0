"""``probe --url`` sends the user's ``--header`` credentials to the probed origin only: a
redirect to another origin (another port here) is not followed, so the ``Authorization``
header never reaches it; a redirect within the origin is followed, the header with it."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from _waits import BOUND_S

from mcp_skew.wire import Deadline
from mcp_skew.wire.http import HttpLink

pytestmark = pytest.mark.slow

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


@contextmanager
def server(seen: list[dict[str, str]], redirect: str | None = None) -> Iterator[str]:
    """A loopback server: it keeps each request's headers; ``/mcp`` answers, every other
    path redirects (302) to ``redirect``, or to ``/mcp`` of itself."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append({"path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
            if self.path != "/mcp" or redirect is not None:
                self.send_response(302)
                self.send_header("Location", redirect or "/mcp")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST  # a redirect turns the POST into a GET

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_redirect_to_another_origin_is_not_followed_and_gets_no_credentials() -> None:
    elsewhere: list[dict[str, str]] = []
    probed: list[dict[str, str]] = []
    with server(elsewhere) as other, server(probed, redirect=f"{other}/mcp") as origin:
        link = HttpLink(f"{origin}/mcp", headers={"Authorization": "Bearer s3cret"})
        with Deadline(BOUND_S) as deadline:
            answer, resp = link._post(f"{origin}/mcp", PING, deadline)
            resp.close()
    assert answer.status == 302
    assert probed and probed[0]["authorization"] == "Bearer s3cret"
    assert elsewhere == []  # never asked, so never given the secret


def test_a_redirect_within_the_origin_is_followed_with_the_credentials() -> None:
    seen: list[dict[str, str]] = []
    with server(seen) as origin:
        link = HttpLink(f"{origin}/mcp", headers={"Authorization": "Bearer s3cret"})
        with Deadline(BOUND_S) as deadline:
            answer, resp = link._post(f"{origin}/old", PING, deadline)
            resp.close()
    assert answer.status == 200
    assert [s["path"] for s in seen] == ["/old", "/mcp"]
    assert all(s["authorization"] == "Bearer s3cret" for s in seen)

"""The probe follows an authorization server on another loopback port, over real HTTP: two
listeners on threads of the test (the MCP server's, the authorization server's), the
probe's discovery of each revision reaching the second one without the user's headers.
(The simulated twin is ``tests/unit/test_auth_remote_as.py``.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mcp_skew.probe._auth import discover
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.simulator.http.auth import AuthServer
from mcp_skew.simulator.http.auth._server import guard
from mcp_skew.versions import LAYOUTS, REGISTRY


def _handler(answer: Any, seen: list[tuple[str, dict[str, str]]]) -> type:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(size) if size else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            seen.append((self.path, headers))
            got: HttpResponse | None = answer(HttpRequest(self.command, self.path, headers, body))
            data = got.encoded() if got is not None else b""
            self.send_response(got.status if got is not None else 404)
            for name, value in (got.headers.items() if got is not None else ()):
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _serve

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def _listening(answer: Any, seen: list[tuple[str, dict[str, str]]]) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(answer, seen))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_the_probe_follows_an_authorization_server_on_another_loopback_port() -> None:
    box: list[AuthServer] = []
    at_mcp: list[tuple[str, dict[str, str]]] = []
    at_as: list[tuple[str, dict[str, str]]] = []
    with _listening(lambda r: box[0].handle(r, at_as=True), at_as) as as_origin, \
            _listening(lambda r: guard(box[0], r), at_mcp) as mcp_origin:
        box.append(AuthServer(mcp_origin, LAYOUTS["prm"], as_origin=as_origin))
        check = discover(mcp_origin + "/mcp", {"X-Api-Key": "secret"}, REGISTRY)
    assert check is not None and check.status == 401
    found = {e["revision"]: (e["found"], e["issuer"]) for e in check.revisions}
    for rev in ("2025-06-18", "2025-11-25", "2026-07-28"):
        assert found[rev] == (True, as_origin + "/auth"), check.revisions
    assert found["2025-03-26"][0] is False
    assert {p for p, _ in at_as} == {"/.well-known/oauth-authorization-server/auth"}
    assert all("x-api-key" not in headers for _, headers in at_as)
    assert all(headers.get("x-api-key") == "secret" for _, headers in at_mcp)

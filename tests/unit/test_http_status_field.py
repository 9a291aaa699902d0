"""An HTTP status is a field of the answer, never read back from a JSON-RPC error's data.

A response with an HTTP error status and no JSON-RPC answer reaches a client program as a
made-up JSON-RPC error (:func:`mcp_skew.simulator.http.synthesized_error`: its ``data``
says ``httpStatus``, which is what a client program would see). The client's rules read the
status from :attr:`Reply.status`, which the simulated HTTP link and the real one in
:mod:`mcp_skew.wire.http` set: the made-up error is only the client program's view. A static
check keeps ``httpStatus`` out of every module but the one that renders that view, and the
probe's readers of a recorded transcript, which are still to move (:data:`STILL_READ`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mcp_skew.simulator import SimClient, parse_peer, rule_for
from mcp_skew.simulator.http import HttpEndpoint, HttpMemoryLink, HttpRequest, HttpResponse, synthesized_error
from mcp_skew.simulator.machine import Reply

ROOT = Path(__file__).resolve().parents[2]
HTTP = rule_for("http")

#: The one module that writes ``httpStatus``: the client program's view of a bodiless error.
CLIENT_VIEW = "mcp_skew/simulator/http/_client.py"
#: Modules that still read it back, each with why (the list only shrinks).
STILL_READ = {
    "mcp_skew/probe/_compare.py": "the probe reads a recorded transcript, whose made-up "
                                  "answer does not carry the status beside it yet",
    "mcp_skew/probe/_peer.py": "the same: the inferred peer reads the recorded made-up answer",
}


def _mentions(path: Path, word: str) -> bool:
    return any(isinstance(node, ast.Constant) and node.value == word
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def test_httpstatus_is_written_by_the_client_view_alone() -> None:
    found = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mcp_skew").rglob("*.py")
             if _mentions(p, "httpStatus")}
    assert found - set(STILL_READ) == {CLIENT_VIEW}
    assert set(STILL_READ) <= found, "no longer read there: take it off STILL_READ"


def test_the_rule_reads_the_status_field_not_the_errors_data() -> None:
    made = synthesized_error(7, 401, "Unauthorized", "")
    assert made["error"]["data"]["httpStatus"] == 401  # the client program's view says it
    assert HTTP.outcome(Reply(made)) == "error"  # ... but the rule does not read it there
    plain = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32001, "message": "no"}}
    assert HTTP.outcome(Reply(plain, status=401)) == "auth"
    assert HTTP.outcome(Reply(plain, status=503)) == "server-error"
    assert HTTP.outcome(Reply(plain, status=404)) == "error"
    assert rule_for("stdio").outcome(Reply(plain, status=401)) == "error"


class _Refusing(HttpEndpoint):
    """A server whose every POST is answered with one status and a non-JSON-RPC body."""

    def __init__(self, status: int) -> None:
        super().__init__(parse_peer("legacy:2025-11-25", "server"))
        self.status = status

    def handle(self, request: HttpRequest) -> HttpResponse:
        return HttpResponse(self.status, {"error": "refused"})


@pytest.mark.parametrize("status", [401, 404, 500])
def test_the_http_link_gives_the_status_with_a_made_up_answer(status: int) -> None:
    link = HttpMemoryLink(_Refusing(status))
    event = link.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover"}, 1000)
    assert isinstance(event, Reply) and event.status == status
    assert event.error is not None and event.error["data"]["httpStatus"] == status
    # a dual-era client reads it by the status: an authorization failure, a server error, or
    # era evidence (the path of each: tests/unit/test_auth_cases.py)
    dual = parse_peer("dual:2026-07-28,2025-11-25", "client")
    session = SimClient(dual, transport=HTTP).negotiate(HttpMemoryLink(_Refusing(status)))
    said = {401: "HTTP 401 is an authorization failure", 500: "HTTP 500 is a server error",
            404: "no modern error in the answer, fall back"}[status]
    assert any(said in step for step in session.path), session.path


def test_an_answer_the_server_sent_has_no_status() -> None:
    class _Answering(HttpEndpoint):
        def handle(self, request: HttpRequest) -> HttpResponse:
            return HttpResponse(400, {"jsonrpc": "2.0", "id": 1,
                                      "error": {"code": -32601, "message": "Method not found"}})

    link = HttpMemoryLink(_Answering(parse_peer("legacy:2025-11-25", "server")))
    event = link.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover"}, 1000)
    assert isinstance(event, Reply) and event.code == -32601 and event.status is None

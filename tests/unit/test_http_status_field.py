"""An HTTP status is a field of the answer, never read back from a JSON-RPC error's data.

A response with an HTTP error status and no JSON-RPC answer reaches a client program as a
made-up JSON-RPC error (:func:`mcp_skew.simulator.http.synthesized_error`: its ``data``
says ``httpStatus``, which is what a client program would see). The client's rules read the
status from :attr:`Reply.status`, which the simulated HTTP link and the real one in
:mod:`mcp_skew.wire.http` set: the made-up error is only the client program's view. The
probe's readers of a recorded transcript read :attr:`Exchange.status`: the made-up answer's
record carries its status (``http``), and in a log written before it did, the link's note of
the status just before it says it. A static check keeps ``httpStatus`` out of every module
but the one that renders that view.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mcp_skew.probe._compare import answer_shape
from mcp_skew.probe._exchanges import exchanges
from mcp_skew.simulator import SimClient, parse_peer, rule_for
from mcp_skew.simulator.http import HttpEndpoint, HttpMemoryLink, HttpRequest, HttpResponse
from mcp_skew.simulator.http._client import synthesized_error
from mcp_skew.simulator.http._link import http_link
from mcp_skew.simulator.machine import Reply
from mcp_skew.transcript import Transcript
from mcp_skew.versions import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
HTTP = rule_for("http")

#: The one module that writes ``httpStatus``: the client program's view of a bodiless error.
CLIENT_VIEW = "mcp_skew/simulator/http/_client.py"


def _mentions(path: Path, word: str) -> bool:
    return any(isinstance(node, ast.Constant) and node.value == word
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def test_httpstatus_is_written_by_the_client_view_alone() -> None:
    found = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mcp_skew").rglob("*.py")
             if _mentions(p, "httpStatus")}
    assert found == {CLIENT_VIEW}


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


def _recorded(made_up_http: dict[str, int] | None) -> Transcript:
    """A real HTTP link's transcript of a 401 without a JSON-RPC body: the POST, the link's
    note, the made-up answer (with its status on the record, or, as logs written before it
    was, without)."""
    transcript = Transcript()
    transcript.add(0, "c2s", {"jsonrpc": "2.0", "id": 1, "method": "server/discover"})
    transcript.note(5, "HTTP 401 Unauthorized to id 1: b'no'", "http", http={"status": 401})
    made = synthesized_error(1, 401, "Unauthorized", "no")
    made["error"]["data"]["httpStatus"] = 999  # the client program's view is not read
    transcript.add(5, "s2c", made, made_up_http)
    return transcript


@pytest.mark.parametrize("made_up_http", [{"status": 401}, None])
def test_the_probe_reads_a_recorded_status_from_the_record_not_the_errors_data(
        made_up_http: dict[str, int] | None) -> None:
    (ex,) = exchanges(_recorded(made_up_http), REGISTRY)
    assert ex.synthesized and ex.status == 401
    assert answer_shape(ex) == "HTTP 401 without a JSON-RPC body (read as error -32600)"


def test_a_note_about_another_request_gives_no_status() -> None:
    transcript = Transcript()
    transcript.add(0, "c2s", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    transcript.note(5, "HTTP 401 Unauthorized to id 1: b'no'", "http", http={"status": 401})
    transcript.add(6, "s2c", {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}})
    (ex,) = exchanges(transcript, REGISTRY)
    assert ex.fate == "answered" and ex.status is None


def test_why_an_authorization_failed_is_a_field_not_the_errors_message() -> None:
    # case 0 of tests/_auth_cases.py: a 2025-03-26 client finds no registration endpoint
    client = parse_peer("legacy:2025-03-26", "client")
    server = parse_peer("legacy:2025-06-18,2025-03-26", "server")
    link = http_link(client, server, protected=True, latency_ms=5)
    asked = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"}}}
    event = link.request(asked, 10_000)
    assert isinstance(event, Reply) and event.status == 401
    assert event.reason.startswith("authorization failed: ")
    assert event.error is not None and event.error["message"] == "HTTP 401 Unauthorized"
    # the client says both, in the words it always did
    session = SimClient(client, transport=HTTP).negotiate(
        http_link(client, server, protected=True, latency_ms=5))
    assert f"-32600 HTTP 401 Unauthorized: {event.reason}" in str(session.reason)

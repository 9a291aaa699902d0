"""On Streamable HTTP an error body in a 4xx/5xx answer to a POST answers that POST, whatever
its id (null, the request's, or a constant such as "server-error", as Python mcp 1.x's
``mcp/server/streamable_http.py`` sends with its 400s), in the simulator's HTTP client, the
real HTTP link and the probe's reading of transcripts alike; a session id is adopted only
from a successful ``initialize`` (in process: no socket is opened)."""

from __future__ import annotations

import json
import queue
from typing import Any

import pytest

from mcp_skew.probe._exchanges import exchanges
from mcp_skew.simulator.http import HttpClient, HttpResponse
from mcp_skew.simulator.machine import Reply
from mcp_skew.transcript import Transcript
from mcp_skew.versions import REGISTRY
from mcp_skew.wire import HttpLink

DISCOVER = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
INIT = {"jsonrpc": "2.0", "id": 2, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}
ERROR = {"code": -32600, "message": "Bad Request: Missing session ID"}
#: (HTTP status, the error body's id, whether it answers the POST)
CASES = [
    (400, "server-error", True),
    (400, None, True),
    (400, 1, True),
    (404, "server-error", True),
    (500, 7, True),
    (200, "server-error", False),  # a 2xx body with another id answers another request
    (200, None, True),
]


@pytest.mark.parametrize(("status", "body_id", "answers"), CASES)
def test_the_simulated_client_binds_an_error_body_to_its_post(
        status: int, body_id: Any, answers: bool) -> None:
    client = HttpClient()
    body = json.dumps({"jsonrpc": "2.0", "id": body_id, "error": ERROR}).encode()
    reading = client.read(DISCOVER, HttpResponse(status, body, {"Content-Type": "application/json",
                                                                "Mcp-Session-Id": "abc"}))
    assert (reading.answer is not None) == answers
    if answers:
        assert reading.answer is not None and reading.answer["id"] == 1
        assert reading.answer["error"]["code"] == -32600
    assert client.session_id is None  # a session id with an error starts no session


def test_the_simulated_client_takes_the_session_of_a_successful_initialize_only() -> None:
    client = HttpClient()
    refused = json.dumps({"jsonrpc": "2.0", "id": "server-error", "error": ERROR}).encode()
    client.read(INIT, HttpResponse(400, refused, {"Content-Type": "application/json",
                                                  "Mcp-Session-Id": "bad"}))
    assert client.session_id is None
    ok = json.dumps({"jsonrpc": "2.0", "id": 2, "result": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}}}).encode()
    client.read(INIT, HttpResponse(200, ok, {"Content-Type": "application/json",
                                             "Mcp-Session-Id": "good"}))
    assert client.session_id == "good"


class _Resp:
    def __init__(self, body: dict[str, Any], sid: str | None) -> None:
        self._body = json.dumps(body).encode()
        self.headers = {"Content-Type": "application/json",
                        **({"Mcp-Session-Id": sid} if sid else {})}

    def read(self, _n: int = -1) -> bytes:
        body, self._body = self._body, b""
        return body


@pytest.mark.parametrize(("status", "body_id", "answers"), CASES)
def test_the_http_link_binds_an_error_body_to_its_post(
        status: int, body_id: Any, answers: bool) -> None:
    link = HttpLink("http://127.0.0.1:9/mcp")
    inbox: queue.Queue[Any] = queue.Queue()
    resp = _Resp({"jsonrpc": "2.0", "id": body_id, "error": ERROR}, "abc")
    answer = HttpResponse(status, headers={"content-type": "application/json",
                                           "mcp-session-id": "abc"}, reason="Bad Request")
    link._read_answer(DISCOVER, answer, resp, inbox, None)  # type: ignore[arg-type]
    items = [inbox.get_nowait() for _ in range(inbox.qsize())]
    bound = [i for i in items if hasattr(i, "event")]
    assert bool(bound) == answers
    if answers:
        event = bound[0].event
        assert isinstance(event, Reply) and event.message["id"] == 1
    assert link.session_id is None


def test_the_probe_reads_a_400_with_server_error_as_the_answer_to_its_post() -> None:
    transcript = Transcript()
    transcript.add(0, "c2s", DISCOVER)
    transcript.note(1, "HTTP 400 Bad Request to id 1, with a JSON-RPC error", "http")
    transcript.add(1, "s2c", {"jsonrpc": "2.0", "id": "server-error", "error": ERROR})
    transcript.add(2, "c2s", INIT)
    transcript.add(3, "s2c", {"jsonrpc": "2.0", "id": "server-error", "error": ERROR},
                   {"status": 400})  # the simulated link records the status on the message
    (discover, init) = exchanges(transcript, REGISTRY)
    assert (discover.fate, discover.code) == ("answered", -32600)
    assert (init.fate, init.code) == ("answered", -32600)

"""JSON-RPC 2.0 batches on ``serve`` (stdio) and ``serve --http``, as JSON-RPC 2.0 §6 says,
where a revision of the server allows them (the profile's ``batching`` setting: added in
2025-03-26, ``basic/index.mdx`` §Batching; removed in 2025-06-18), in this process.

The initialize request is kept out of batches (2025-03-26 ``basic/lifecycle.mdx``
§Initialization: "The initialize request MUST NOT be part of a JSON-RPC batch"; the
profile's ``unbatched_methods``): that element is answered -32600, the others are served.

§6: an empty array is one Invalid Request error; each invalid element gets an error of its
own in the answer's array; a batch of notifications only is answered with nothing (over
Streamable HTTP: 202 and no body, 2025-03-26 ``basic/transports.mdx`` §Sending Messages to
the Server).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _serve_helpers import initialize, request

from mcp_skew.serve._http import HttpRequest, HttpResponse, ServedEndpoint
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator._link import StdioServer
from mcp_skew.versions import profile_for

BATCHES = "legacy:2025-03-26"
NONE = "legacy:2025-06-18"
NOTE = {"jsonrpc": "2.0", "method": "notifications/initialized"}
PING = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
OLD = {"jsonrpc": "1.0", "id": 8, "method": "ping"}


def test_the_profiles_say_which_revisions_batch() -> None:
    assert profile_for("2025-03-26").settings["batching"] is True
    assert profile_for("2025-06-18").settings["batching"] is False
    assert profile_for("2024-11-05").settings["batching"] is False


def test_the_revision_with_batches_keeps_initialize_out_of_them() -> None:
    assert profile_for("2025-03-26").names("unbatched_methods") == {"initialize"}
    (change,) = [c for c in profile_for("2025-03-26").changes
                 if "unbatched_methods" in c.touches()]
    assert (change.cite.source, change.cite.section) == ("basic/lifecycle.mdx",
                                                         "Initialization")
    for rev in ("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"):
        assert profile_for(rev).names("unbatched_methods") == frozenset()


class Http:
    """An initialized legacy session of ``serve --http``'s endpoint."""

    def __init__(self, peer: str) -> None:
        self.endpoint = ServedEndpoint(parse_peer(peer, "server"), say=lambda _: None)
        rev = peer.partition(":")[2]
        opened = self.post(initialize(rev=rev), session=False)
        assert opened.status == 200
        self.sid = opened.headers["Mcp-Session-Id"]
        assert self.post(NOTE).status == 202

    def post(self, body: Any, session: bool = True) -> HttpResponse:
        headers = {"mcp-session-id": self.sid} if session else {}
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.endpoint.handle(HttpRequest("POST", "/mcp", headers, raw))


def stdio(peer: str, text: str) -> list[Any]:
    server = StdioServer(parse_peer(peer, "server"), say=lambda _: None)
    rev = peer.partition(":")[2]
    assert server.handle_line(json.dumps(initialize(rev=rev)))
    server.handle_line(json.dumps(NOTE))
    return server.handle_line(text)


def codes(replies: list[Any]) -> list[tuple[Any, int | None]]:
    return [(r.get("id"), r.get("error", {}).get("code")) for r in replies]


# -- over HTTP ---------------------------------------------------------------------------------

def test_http_an_empty_batch_is_one_invalid_request() -> None:
    answer = Http(BATCHES).post(b"[]")
    assert answer.status == 400
    assert isinstance(answer.body, dict) and answer.body["error"]["code"] == -32600
    assert answer.body["id"] is None


def test_http_each_invalid_element_gets_its_own_error_in_the_array() -> None:
    answer = Http(BATCHES).post([1, PING, {"jsonrpc": "2.0", "id": 5, "method": 7}, "x"])
    assert answer.status == 200
    assert codes(answer.body) == [(None, -32600), (7, None), (5, -32600), (None, -32600)]


def test_http_an_element_of_jsonrpc_1_0_is_invalid_not_served() -> None:
    answer = Http(BATCHES).post([OLD, PING])
    assert answer.status == 200
    assert codes(answer.body) == [(8, -32600), (7, None)]
    assert "jsonrpc" in answer.body[0]["error"]["message"]


def test_http_a_batch_of_invalid_elements_only_is_answered_not_202() -> None:
    answer = Http(BATCHES).post([1, 2])
    assert answer.status == 200 and codes(answer.body) == [(None, -32600)] * 2


def test_http_a_batch_of_notifications_only_is_202_without_a_body() -> None:
    answer = Http(BATCHES).post([NOTE, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                        "params": {"requestId": 1}}])
    assert (answer.status, answer.body) == (202, None)


def test_http_initialize_in_a_batch_is_invalid_the_rest_served() -> None:
    http = Http(BATCHES)
    answer = http.post([initialize(11, "2025-03-26"), PING])
    assert answer.status == 200
    assert codes(answer.body) == [(11, -32600), (7, None)]
    assert "MUST NOT be part of a JSON-RPC batch" in answer.body[0]["error"]["message"]
    assert http.post(request(12, "tools/list")).status == 200  # the session goes on


def test_http_a_revision_without_batches_refuses_the_batch() -> None:
    answer = Http(NONE).post([PING])
    assert answer.status == 400
    assert answer.body["error"]["code"] == -32600
    assert "no JSON-RPC batches" in answer.body["error"]["message"]


# -- on stdio ----------------------------------------------------------------------------------

def test_stdio_an_empty_batch_is_one_invalid_request() -> None:
    (error,) = stdio(BATCHES, "[]")
    assert (error["id"], error["error"]["code"]) == (None, -32600)


@pytest.mark.parametrize("batch, expected", [
    ([1, PING, {"jsonrpc": "2.0", "id": 5, "method": 7}], [(None, -32600), (7, None),
                                                          (5, -32600)]),
    ([OLD, PING], [(8, -32600), (7, None)]),
    ([1, 2], [(None, -32600), (None, -32600)]),
])
def test_stdio_each_invalid_element_gets_its_own_error(batch: list[Any],
                                                       expected: list[Any]) -> None:
    (replies,) = stdio(BATCHES, json.dumps(batch))
    assert codes(replies) == expected


def test_stdio_initialize_in_a_batch_is_invalid_the_rest_served() -> None:
    (replies,) = stdio(BATCHES, json.dumps([PING, initialize(11, "2025-03-26")]))
    assert codes(replies) == [(7, None), (11, -32600)]
    assert "initialize MUST NOT" in replies[1]["error"]["message"]


def test_stdio_a_batch_of_notifications_only_writes_nothing() -> None:
    assert stdio(BATCHES, json.dumps([NOTE, NOTE])) == []


def test_stdio_a_revision_without_batches_refuses_the_batch() -> None:
    (error,) = stdio(NONE, json.dumps([PING]))
    assert error["error"]["code"] == -32600 and "no JSON-RPC batches" in error["error"]["message"]


def test_a_batch_request_is_answered_like_the_same_request_alone() -> None:
    alone = request(9, "tools/list")
    (replies,) = stdio(BATCHES, json.dumps([alone]))
    assert replies == [stdio(BATCHES, json.dumps(alone))[0]]
    assert Http(BATCHES).post([alone]).body == [Http(BATCHES).post(alone).body]

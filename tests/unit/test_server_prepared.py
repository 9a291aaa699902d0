"""A simulated server's prepared answers (``_server._serve``, ``_wire.Prepared``): the same
replies as worked out afresh, each a message of its own that carries its JSON text.

- For every method a client asks and under both eras, the reply served from a prepared
  answer equals the one the server works out (``SimServer._answer``) with the request's id,
  and its text is ``json.dumps`` of it.
- Each prepared reply owns its result: changing one (nested objects too) changes neither
  the next reply nor its text.
- A reply changed on the way (copied, as a bridge copies one to give it the client's id) is
  a plain dict, encoded afresh.
- What the answer depends on beyond the prepared key is worked out every time: echo's text,
  a tool that asks the client, the app's tool to a client that declares MCP Apps or not.
- ``Prepared.of`` takes only a reply whose text it can vouch for.
- A server whose replies are read only as text (``text_replies``, set by a MemoryLink)
  sends a prepared answer as its text alone: the text of the message it sends otherwise;
  through a link, the client reads and the transcript records the same. A subclass of
  SimServer (which may change its replies) is not told so.
- ``initialize``'s result is prepared per server spec and revision chosen; what it does to
  the server (the client's capabilities, the revision) happens every time. ``server/discover``'s
  is prepared per spec and profile: each spec gets its own.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from mcp_skew.simulator import SimServer, parse_peer
from mcp_skew.simulator._link import MemoryLink
from mcp_skew.simulator.messages import _json, _wire
from mcp_skew.versions import REGISTRY

MODERN = REGISTRY.get("2026-07-28")
LEGACY = "2025-06-18"

#: what a client asks, by method and params (the sweep's requests and their neighbours)
ASKS: list[tuple[str, dict[str, Any] | None]] = [
    ("tools/list", None), ("tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
    ("tools/call", {"name": "fail", "arguments": {}}),
    ("tools/call", {"name": "no-such-tool", "arguments": {}}),
    ("resources/list", None), ("resources/read", {"uri": "mem://hello"}),
    ("resources/read", {"uri": "mem://missing"}), ("resources/templates/list", None),
    ("prompts/list", None), ("ping", None), ("completion/complete", None),
]
SERVERS = ["dual:2025-06-18,2026-07-28", "dual:2025-06-18,2026-07-28+no-result-type",
           "dual:2025-06-18,2026-07-28+ttl=5", "dual:2025-06-18,2026-07-28+not-found-code=0",
           "dual:2025-06-18,2026-07-28+draft-07-output-schema",
           "dual:2025-06-18,2026-07-28+untyped-input-schema"]


def _initialized(notation: str) -> SimServer:
    server = SimServer(parse_peer(notation, "server"))
    server.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": LEGACY, "capabilities": {},
                               "clientInfo": {"name": "c", "version": "1"}}})
    return server


def _request(modern: bool, msg_id: int, method: str, params: dict[str, Any] | None) -> Any:
    if modern:
        return _json.cross(_wire.request(MODERN, msg_id, method, params))
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = copy.deepcopy(params)
    return message


@pytest.mark.parametrize("notation", SERVERS)
@pytest.mark.parametrize("modern", [False, True])
def test_a_prepared_reply_is_the_reply_worked_out_and_its_text(notation: str,
                                                               modern: bool) -> None:
    server = _initialized(notation)
    profile = MODERN if modern else server.spec.profile(LEGACY)
    for n, (method, params) in enumerate(ASKS):
        first = server.receive(_request(modern, 10 + n, method, params)).replies
        again = server.receive(_request(modern, 100 + n, method, params)).replies
        afresh = server._answer(_request(modern, 100 + n, method, params), profile).replies
        assert again == afresh and len(again) == 1, method
        assert {**first[0], "id": 100 + n} == again[0]
        (reply,) = again
        # each method of the revision's table is prepared (the others are -32601, afresh)
        assert isinstance(reply, _json.Sealed) is (method in profile.methods), method
        assert not isinstance(reply, _json.Sealed) or reply.text == json.dumps(reply)


@pytest.mark.parametrize("msg_id", [7, "seven", -1, 2**70, True, None, 1.5])
def test_any_id_gets_its_own_text(msg_id: Any) -> None:
    server = _initialized(SERVERS[0])
    server.receive(_request(False, 1, "tools/list", None))
    (reply,) = server.receive(_request(False, msg_id, "tools/list", None)).replies
    assert reply["id"] == msg_id or msg_id is None
    assert isinstance(reply, _json.Sealed) and reply.text == json.dumps(reply)


@pytest.mark.parametrize("modern", [False, True])
def test_a_server_told_only_text_is_read_sends_the_same_text(modern: bool) -> None:
    """``text_replies`` (what a MemoryLink sets): a prepared answer comes as its text alone,
    the text of the message the server sends otherwise; what is not prepared comes as a
    message, as before."""
    texts, plain = _initialized(SERVERS[0]), _initialized(SERVERS[0])
    texts.text_replies = True
    sent_as_text = 0
    for n, (method, params) in enumerate(ASKS * 2):
        (want,) = plain.receive(_request(modern, 10 + n, method, params)).replies
        got = texts.receive(_request(modern, 10 + n, method, params))
        if got.text is None:  # worked out (the first of its key, or not prepared at all)
            assert got.replies == [want], method
        else:
            assert got.replies == [] and got.text == json.dumps(want), method
            sent_as_text += 1
    assert sent_as_text >= len(ASKS) - 1  # the second round: all but the unknown tool


def test_a_memory_link_reads_the_same_replies_from_texts() -> None:
    """Through a MemoryLink (its server's prepared answers come as text), the client reads
    and the transcript records what a server that sends messages gives."""
    def crossed(text_replies: bool) -> tuple[list[Any], list[dict[str, Any]]]:
        link = MemoryLink(lambda: SimServer(parse_peer(SERVERS[0], "server")))
        link.server.text_replies = text_replies
        events = [link.request(_wire.request(MODERN, n, method, params), 1000)
                  for n, (method, params) in enumerate(ASKS * 3)]
        return [getattr(event, "message", event) for event in events], link.transcript.records()

    assert crossed(True) == crossed(False)


def test_a_link_leaves_a_server_subclass_its_reply_messages() -> None:
    """A subclass may change its replies on the way (a test's hand server): a MemoryLink
    lets only a plain SimServer send its prepared answers as text."""
    class Loud(SimServer):
        def receive(self, message: dict[str, Any]) -> Any:
            reaction = SimServer.receive(self, message)
            reaction.replies = [{**reply, "loud": True} for reply in reaction.replies]
            return reaction

    link = MemoryLink(lambda: Loud(parse_peer(SERVERS[0], "server")))
    events = [link.request(_wire.request(MODERN, n, "tools/list"), 1000) for n in range(3)]
    assert all(getattr(event, "message", {}).get("loud") for event in events)


def test_a_link_reads_a_reply_a_server_subclass_changed_in_place_as_it_now_is() -> None:
    """A subclass that changes a prepared (sealed) reply in place: the link encodes it
    afresh, so the change crosses at every request, not only the first of its key."""
    class Tweaks(SimServer):
        def receive(self, message: dict[str, Any]) -> Any:
            reaction = SimServer.receive(self, message)
            for reply in reaction.replies:
                reply["result"]["tweaked"] = True
            return reaction

    link = MemoryLink(lambda: Tweaks(parse_peer(SERVERS[0], "server")))
    events = [link.request(_wire.request(MODERN, n, "tools/list"), 1000) for n in range(3)]
    assert [getattr(event, "message", {}).get("result", {}).get("tweaked") for event in events] \
        == [True, True, True]


def test_each_prepared_reply_owns_its_result() -> None:
    server = _initialized(SERVERS[0])
    (one,) = server.receive(_request(False, 1, "tools/list", None)).replies
    (two,) = server.receive(_request(False, 2, "tools/list", None)).replies
    two["result"]["tools"][0]["inputSchema"]["properties"].clear()
    two["result"]["added"] = True
    (three,) = server.receive(_request(False, 3, "tools/list", None)).replies
    assert three == {**one, "id": 3} and three.text == json.dumps(three)


def test_a_reply_changed_on_the_way_is_encoded_afresh() -> None:
    server = _initialized(SERVERS[0])
    server.receive(_request(False, 1, "tools/call", ASKS[1][1]))
    (reply,) = server.receive(_request(False, 2, "tools/call", ASKS[1][1])).replies
    assert isinstance(reply, _json.Sealed)
    for changed in (dict(reply), copy.copy(reply), copy.deepcopy(reply), reply.copy()):
        assert type(changed) is dict
        changed["id"] = "the-client's-id"  # what a bridge does with an upstream answer
        assert _json.cross(changed) == json.loads(json.dumps(changed))
        assert _json.cross(changed)["id"] == "the-client's-id"


def test_what_the_key_leaves_out_is_worked_out_every_time() -> None:
    server = _initialized(SERVERS[0])
    for text in ("hi", "ho", 5, "hi"):
        (reply,) = server.receive(_request(False, 1, "tools/call",
                                           {"name": "echo", "arguments": {"text": text}})
                                  ).replies
        assert reply["result"]["content"][0]["text"] == str(text)
    asks = server.receive(_request(False, 2, "tools/call", {"name": "ask-name"})).replies
    assert not isinstance(asks[0], _json.Sealed)


def test_a_server_with_extensions_answers_each_client_as_it_declares() -> None:
    ui = "io.modelcontextprotocol/ui"
    spec = parse_peer("dual:2025-06-18,2026-07-28+ext=ui", "server")
    listed = []
    for declares in (True, False, True):
        caps: dict[str, Any] = {"extensions": {ui: {}}} if declares else {}
        server = SimServer(spec)
        server.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"protocolVersion": LEGACY, "capabilities": caps,
                                   "clientInfo": {"name": "c", "version": "1"}}})
        (reply,) = server.receive(_request(False, 1, "tools/list", None)).replies
        listed.append([t["name"] for t in reply["result"]["tools"]])
    assert listed[0] == listed[2] != listed[1]


@pytest.mark.parametrize("reply", [
    {"id": 1, "jsonrpc": "2.0", "result": {}},  # another order
    {"jsonrpc": "2.0", "id": 1, "result": {}, "extra": 1},
    {"jsonrpc": "1.0", "id": 1, "result": {}},
    {"jsonrpc": "2.0", "id": 1, "method": "roots/list"},
    {"jsonrpc": "2.0", "id": 1, "result": {"list": (1, 2)}},  # a tuple decodes as a list
])
def test_prepared_only_where_its_text_is_the_replys(reply: dict[str, Any]) -> None:
    assert _wire.Prepared.of(reply) is None


def test_prepared_from_a_reply_gives_it_back() -> None:
    reply = {"jsonrpc": "2.0", "id": 3, "result": {"a": [1, {"b": None}], "c": "\u2603"}}
    prepared = _wire.Prepared.of(reply)
    assert prepared is not None
    made = prepared.reply(3)
    assert made == reply and made.text == json.dumps(reply)
    assert made["result"]["a"] is not reply["result"]["a"]


@pytest.mark.parametrize("notation", ["dual:2025-06-18,2026-07-28", "legacy:2025-06-18+echo",
                                      "legacy:2025-03-26,2025-06-18+logging",
                                      "dual:2025-06-18,2026-07-28+ext=ui"])
def test_initialize_is_prepared_per_spec_and_revision_chosen(notation: str) -> None:
    spec = parse_peer(notation, "server")
    for asked in ("2025-06-18", "2024-11-05", "2025-03-26", "2025-06-18"):
        replies = []
        for msg_id in (1, 2):  # worked out (or prepared by an earlier asked), then prepared
            server = SimServer(spec)
            caps = {"roots": {}} if msg_id == 2 else {}
            (reply,) = server.receive({"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
                                       "params": {"protocolVersion": asked, "capabilities": caps,
                                                  "clientInfo": {"name": "c", "version": "1"}}}
                                      ).replies
            replies.append(reply)
            assert server.client_roots is (msg_id == 2)  # the server's state, every time
            assert server.legacy_revision in spec.legacy
        assert {**replies[0], "id": 2} == replies[1]
        assert isinstance(replies[1], _json.Sealed) and replies[1].text == json.dumps(replies[1])


def test_discover_is_prepared_per_spec_and_profile() -> None:
    found = {}
    for notation in ("dual:2025-06-18,2026-07-28", "modern:2026-07-28",
                     "dual:2025-06-18,2026-07-28+discover-incomplete",
                     "dual:2025-06-18,2026-07-28+discover-legacy",
                     "dual:2025-06-18,2026-07-28+ext=ui"):
        spec = parse_peer(notation, "server")
        replies = [SimServer(spec).receive(_request(True, n, "server/discover", None)).replies[0]
                   for n in (1, 2)]
        assert {**replies[0], "id": 2} == replies[1]
        assert isinstance(replies[1], _json.Sealed) and replies[1].text == json.dumps(replies[1])
        found[notation] = replies[1]["result"]
    assert "capabilities" not in found["dual:2025-06-18,2026-07-28+discover-incomplete"]
    assert found["dual:2025-06-18,2026-07-28+discover-legacy"]["supportedVersions"] == ["2025-06-18"]
    assert found["modern:2026-07-28"] == found["dual:2025-06-18,2026-07-28"]
    assert "extensions" in found["dual:2025-06-18,2026-07-28+ext=ui"]["capabilities"]

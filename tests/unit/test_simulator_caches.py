"""What the simulator derives once and shares, and that sharing changes nothing it makes.

- The in-memory link's JSON (``_json``) is ``json.dumps`` / ``json.loads``: the same text,
  the same values.
- Path steps are shared between runs: equal arguments give the same step, arguments of
  another type (``1`` and ``True``) another one, and a value the wire sent that cannot be
  hashed still gets its step.
- What a profile derives once (capabilities, a request's ``_meta``) is copied into each
  message: changing one message's copy changes no other message.
- A sealed request (``_wire.sealed_request``: its text made once) is the request
  ``_wire.request`` makes, with ``json.dumps``'s text of it; params changed since, or other
  params at the same address, get their own text; a copy of one is a plain dict, encoded
  afresh; crossing one gives a fresh decode. So is a sealed ``initialize``
  (``_wire.sealed_initialize``): the request the client built before, with its text; each
  its own objects (changing one changes no other, nor the next one's text).
- The caches key on identity: a profile equal to another but not it gets its own answers.
- A peer's revisions of each era are derived once and follow :func:`dataclasses.replace`.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from mcp_skew._memo import by_identity
from mcp_skew.simulator import _path as steps
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.messages import _json, _wire
from mcp_skew.versions import REGISTRY, Change, Cite, Era, Impact

MODERN = REGISTRY.get("2026-07-28")
LEGACY = REGISTRY.get("2025-06-18")

MESSAGES: list[Any] = [
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
     "params": {"name": "echo", "arguments": {"text": "héllo \u2603 \"quoted\" \n"}}},
    {"jsonrpc": "2.0", "id": "a", "result": {"n": 1.5, "big": 10**20, "neg": -0.0, "t": True,
                                             "f": False, "none": None, "list": [1, [2, {}]]}},
    {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "", "data": {"x": []}}},
    _wire.request(MODERN, 7, "tools/list"),
    [], {}, "a bare string", 3,
]


@pytest.mark.parametrize("message", MESSAGES)
def test_the_link_json_is_json_dumps_and_loads(message: Any) -> None:
    text = _json.encode(message)
    assert text == json.dumps(message)
    assert _json.decode(text) == json.loads(text)
    assert _json.cross(message) == json.loads(json.dumps(message))


def test_crossing_makes_a_copy() -> None:
    message = _wire.request(MODERN, 1, "tools/list")
    crossed = _json.cross(message)
    assert crossed == message and crossed is not message
    assert crossed["params"]["_meta"] is not message["params"]["_meta"]


@pytest.mark.parametrize("profile", [MODERN, LEGACY])
@pytest.mark.parametrize("params", [None, {}, {"name": "echo", "arguments": {"text": "hi"}}])
def test_a_sealed_request_is_the_request_and_its_text(profile: Any, params: Any) -> None:
    for _ in range(2):  # made, then its text found again
        sealed = _wire.sealed_request(profile, 4, "tools/call", params)
        plain = _wire.request(profile, 4, "tools/call", params)
        assert sealed == plain and isinstance(sealed, _json.Sealed)
        assert sealed.text == json.dumps(plain)
        crossed = _json.cross(sealed)
        assert crossed == json.loads(json.dumps(plain)) and type(crossed) is dict


def test_a_sealed_request_follows_its_params() -> None:
    params: dict[str, Any] = {"name": "echo", "arguments": {"text": "hi"}}
    first = _wire.sealed_request(MODERN, 5, "tools/call", params)
    params["arguments"]["text"] = "changed"  # the same object, changed in place
    again = _wire.sealed_request(MODERN, 5, "tools/call", params)
    assert json.loads(first.text)["params"]["arguments"] == {"text": "hi"}
    assert again.text == json.dumps(_wire.request(MODERN, 5, "tools/call", params))
    assert _json.cross(again)["params"]["arguments"] == {"text": "changed"}


def test_a_copy_of_a_sealed_request_is_encoded_afresh() -> None:
    sealed = _wire.sealed_request(MODERN, 6, "tools/list")
    for made in (copy.copy(sealed), copy.deepcopy(sealed), sealed.copy(), dict(sealed)):
        assert type(made) is dict and made == sealed
    changed = copy.deepcopy(sealed)
    changed["params"]["_meta"]["extra"] = 1  # what a bridge does to a copy
    assert _json.cross(changed)["params"]["_meta"]["extra"] == 1


def _initialize(profile: Any, msg_id: int) -> Any:
    """The ``initialize`` request as the client built it before it was sealed."""
    params = {"protocolVersion": profile.revision,
              "capabilities": _wire.client_capabilities(profile),
              "clientInfo": _wire.implementation(_wire.CLIENT_NAME)}
    return _wire.request(profile, msg_id, "initialize", params)


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-06-18", "2025-11-25"])
def test_a_sealed_initialize_is_the_request_and_its_text(revision: str) -> None:
    profile = REGISTRY.get(revision)
    for msg_id in (1, 2, 1):  # made, another id, then its text found again
        sealed = _wire.sealed_initialize(profile, msg_id)
        plain = _initialize(profile, msg_id)
        assert sealed == plain and isinstance(sealed, _json.Sealed)
        assert sealed.text == json.dumps(plain)
        crossed = _json.cross(sealed)
        assert crossed == json.loads(json.dumps(plain)) and type(crossed) is dict


def test_a_sealed_initialize_owns_its_objects() -> None:
    first = _wire.sealed_initialize(LEGACY, 3)
    first["params"]["capabilities"]["changed"] = {}  # in place: no other message sees it
    again = _wire.sealed_initialize(LEGACY, 3)
    assert "changed" not in again["params"]["capabilities"]
    assert again.text == json.dumps(_initialize(LEGACY, 3))
    changed = copy.deepcopy(again)
    changed["params"]["clientInfo"]["name"] = "other"  # a copy changed on the way
    assert _json.cross(changed)["params"]["clientInfo"]["name"] == "other"


def test_decoding_refuses_what_follows_the_value() -> None:
    with pytest.raises(json.JSONDecodeError):
        _json.decode('{"a": 1} x')


def test_equal_steps_are_one_step() -> None:
    assert steps.request("initialize", "2025-06-18") is steps.request("initialize", "2025-06-18")
    assert steps.error(-32601) is steps.error(-32601)
    assert steps.result() is steps.result()


def test_steps_of_equal_values_of_other_types_differ() -> None:
    one, true = steps.error(1), steps.error(True)
    assert (str(one), one.code) == ("error 1", 1)
    assert (str(true), true.code) == ("error True", None)


def test_a_step_of_an_unhashable_wire_value() -> None:
    offer = steps.counter_offer({"not": "a revision"})
    assert str(offer) == "counter-offer {'not': 'a revision'}" and offer.revision is None
    assert offer.kind == "counter-offer"


def test_each_request_owns_its_meta() -> None:
    before = json.dumps(_wire.request_meta(MODERN))
    first = _wire.request(MODERN, 1, "tools/list")
    first["params"]["_meta"][_wire.CAPS_KEY]["roots"]["changed"] = True
    first["params"]["_meta"][_wire.CLIENT_INFO_KEY]["name"] = "changed"
    second = _wire.request(MODERN, 2, "tools/list")
    assert json.dumps(second["params"]["_meta"]) == json.dumps(_wire.request_meta(MODERN)) == before
    assert second["params"]["_meta"][_wire.CLIENT_INFO_KEY]["name"] == "mcp-skew-client"


def test_each_message_owns_its_capabilities() -> None:
    for build in (_wire.client_capabilities, _wire.server_capabilities):
        caps = build(MODERN)
        for value in caps.values():
            if isinstance(value, dict):
                value["changed"] = True
        caps["changed"] = {}
        assert "changed" not in json.dumps(build(MODERN))


def test_a_request_names_its_client() -> None:
    meta = _wire.request(MODERN, 1, "tools/list", client_name="other")["params"]["_meta"]
    assert meta[_wire.CLIENT_INFO_KEY] == {"name": "other", "version": "0.1.0"}
    assert _wire.request(LEGACY, 1, "tools/list", client_name="other") == {
        "jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def test_a_profile_equal_to_another_gets_its_own_answers() -> None:
    change = Change("test-drop-roots", "drop roots", Cite("test", "x"), Impact.BREAKING,
                    remove={"client_capabilities": ["roots"]})
    draft = MODERN.evolve(revision="2026-07-28", changes=(change,))  # the same name, not the same
    assert _wire.CAPS_KEY in _wire.request_meta(MODERN)
    assert "roots" in _wire.request_meta(MODERN)[_wire.CAPS_KEY]
    assert "roots" not in _wire.request_meta(draft)[_wire.CAPS_KEY]
    seen: list[object] = []
    count = by_identity(lambda p: seen.append(p) or len(seen))
    assert (count(MODERN), count(MODERN), count(draft), count(MODERN)) == (1, 1, 2, 1)


def test_a_peer_derives_its_eras_once_and_replace_derives_them_again() -> None:
    peer = parse_peer("dual:2026-07-28,2025-11-25,2025-06-18", "client")
    assert (peer.modern, peer.legacy) == (("2026-07-28",), ("2025-11-25", "2025-06-18"))
    assert peer.legacy is peer.legacy and peer.of_era(Era.LEGACY) is peer.legacy
    fewer = replace(peer, revisions=("2026-07-28", "2025-06-18"))
    assert (fewer.modern, fewer.legacy) == (("2026-07-28",), ("2025-06-18",))
    assert fewer == parse_peer("dual:2026-07-28,2025-06-18", "client")
    assert hash(fewer) == hash(parse_peer("dual:2026-07-28,2025-06-18", "client"))

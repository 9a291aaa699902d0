"""The one wire decoding path: limits, lone surrogates, and the JSON-RPC error of each junk."""

from __future__ import annotations

import json

import pytest

from mcp_skew._jsontext import (
    JsonLimits,
    JsonTextError,
    check_depth,
    dump_line,
    dumps,
    loads,
)
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator._link import StdioServer
from mcp_skew.simulator.messages._decode import INVALID_REQUEST, PARSE_ERROR, Junk, Parsed, decode_rpc

PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}'


@pytest.mark.parametrize(("text", "code", "reason"), [
    ("[" * 100_000, PARSE_ERROR, "nested deeper than 128 levels"),
    ('{"a":' * 200 + "1" + "}" * 200, PARSE_ERROR, "nested deeper than 128 levels"),
    ('{"jsonrpc":"2.0","id":' + "9" * 5000 + ',"method":"ping"}', PARSE_ERROR,
     "an integer of 5000 digits (at most 4300)"),
    ("NaN", PARSE_ERROR, "NaN is not JSON"),
    ('{"x":-Infinity}', PARSE_ERROR, "-Infinity is not JSON"),
    ("1e400", PARSE_ERROR, "a number too large for a float (1e400)"),
    ("{", PARSE_ERROR, "Expecting property name enclosed in double quotes"),
    (b"\xff\xfe", PARSE_ERROR, "Expecting value"),
    ("[]", INVALID_REQUEST, "an empty batch"),
    ("42", INVALID_REQUEST, "not an object but a number"),
    ('"ping"', INVALID_REQUEST, "not an object but a string"),
    ('{"id":1,"method":"ping"}', INVALID_REQUEST, 'no "jsonrpc": "2.0"'),
    ('{"jsonrpc":"2.0","id":1,"method":7}', INVALID_REQUEST, "the method is not a string"),
    ('{"jsonrpc":"2.0","method":"x","params":"bar"}', INVALID_REQUEST,
     "params is neither an object nor an array"),
    ('{"jsonrpc":"2.0","id":3}', INVALID_REQUEST,
     "neither a request, a notification nor a response"),
])
def test_junk_gets_the_error_json_rpc_gives_it(text: str | bytes, code: int, reason: str) -> None:
    decoded = decode_rpc(text)
    assert decoded == Junk(code, reason, decoded.id if isinstance(decoded, Junk) else None)
    assert isinstance(decoded, Junk)
    error = decoded.error()
    assert error["error"]["code"] == code and error["jsonrpc"] == "2.0"


def test_the_id_of_an_invalid_request_is_kept_where_it_can_be_read() -> None:
    assert decode_rpc('{"jsonrpc":"2.0","id":"a","method":7}') == Junk(
        INVALID_REQUEST, "the method is not a string", "a")
    assert decode_rpc('{"jsonrpc":"2.0","id":true,"method":7}').error()["id"] is None


def test_a_lone_surrogate_is_data_and_writes_back_as_valid_utf8() -> None:
    decoded = decode_rpc('{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')
    assert decoded == Parsed({"jsonrpc": "2.0", "id": "\ud800", "method": "ping"})
    line = dump_line(decoded.value)
    assert line == b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n'
    assert json.loads(line) == decoded.value
    assert dumps({"a": "é"}) == '{"a": "é"}'  # UTF-8 where it can be


def test_limits_are_the_callers() -> None:
    tight = JsonLimits(max_chars=10, max_depth=2, max_int_digits=3)
    with pytest.raises(JsonTextError, match="11 characters"):
        loads(" " * 11, tight)
    with pytest.raises(JsonTextError, match="deeper than 2"):
        loads("[[[1]]]", tight)
    with pytest.raises(JsonTextError, match="4 digits"):
        loads("-1234", tight)
    assert loads('["[[[["]', tight) == ["[[[["]  # brackets inside strings do not nest
    assert loads('[["\\"[["]]', tight) == [['"[[']]


def test_check_depth_measures_any_value_without_recursion() -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(JsonTextError, match="deeper than 128"):
        check_depth(deep)
    check_depth({"a": [1, {"b": []}]}, max_depth=4)  # the same count as the text check
    with pytest.raises(JsonTextError, match="deeper than 3"):
        check_depth({"a": [1, {"b": []}]}, max_depth=3)
    with pytest.raises(JsonTextError, match="deeper than 3"):
        loads('{"a": [1, {"b": []}]}', JsonLimits(max_depth=3))


def test_serve_goes_on_after_every_bad_line() -> None:
    said: list[str] = []
    loop = StdioServer(parse_peer("legacy:2025-11-25", "server"), say=said.append)
    bad = ["[" * 100_000, '{"jsonrpc":"2.0","id":' + "1" * 5000 + ',"method":"ping"}',
           "\udcff", "NaN"]
    for text in bad:
        (reply,) = loop.handle_line(text)
        assert reply["error"]["code"] == PARSE_ERROR
    (odd,) = loop.handle_line('{"jsonrpc":"2.0","id":"\\ud800","method":"initialize",'
                              '"params":{"protocolVersion":"2025-11-25","capabilities":{},'
                              '"clientInfo":{"name":"x","version":"1"}}}')
    assert odd["id"] == "\ud800" and "result" in odd
    assert dump_line(odd).startswith(b'{"jsonrpc":"2.0","id":"\\ud800"')
    assert len(said) >= len(bad)


def test_each_bad_element_of_an_allowed_batch_gets_its_own_error() -> None:
    loop = StdioServer(parse_peer("legacy:2025-03-26", "server"), say=lambda _: None)
    (replies,) = loop.handle_line('[1, {"jsonrpc":"2.0","id":5,"method":7}]')
    assert [(r["id"], r["error"]["code"]) for r in replies] == [
        (None, INVALID_REQUEST), (5, INVALID_REQUEST)]

"""The pure parts of the real transports: stdio line framing, SSE parsing, header values."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.simulator.http._sse import SseEvent, SseParser
from mcp_skew.simulator.http._words import encode_header_value
from mcp_skew.wire.stdio import Line, NdjsonDecoder, parse_line

# -- newline-delimited JSON -----------------------------------------------------------------


def _texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def test_decoder_keeps_a_partial_line_until_its_newline() -> None:
    dec = NdjsonDecoder()
    assert dec.feed(b'{"a": ') == []
    assert _texts(dec.feed(b'1}\n{"b"')) == ['{"a": 1}']
    assert _texts(dec.feed(b": 2}\n")) == ['{"b": 2}']


def test_decoder_drops_blank_lines_and_carriage_returns() -> None:
    dec = NdjsonDecoder()
    assert _texts(dec.feed(b'\n\r\n  \n{"x":1}\r\n')) == ['{"x":1}']


def test_decoder_flushes_a_last_line_without_newline() -> None:
    dec = NdjsonDecoder()
    assert dec.feed(b"bye") == []
    assert _texts(dec.flush()) == ["bye"]
    assert dec.flush() == []


def test_decoder_joins_utf8_split_across_chunks() -> None:
    data = '{"t": "héllo ✓"}\n'.encode()
    dec = NdjsonDecoder()
    out = [line for i in range(len(data)) for line in dec.feed(data[i:i + 1])]
    assert _texts(out) == ['{"t": "héllo ✓"}']


def test_decoder_cuts_an_oversized_line_and_resynchronises() -> None:
    dec = NdjsonDecoder(max_line=100)
    out = dec.feed(b"x" * 250)
    out += dec.feed(b"y" * 250 + b'\n{"ok": true}\n')
    assert [line.cut for line in out] == [True, False]
    assert out[0].size == 500
    assert out[0].text.startswith("x" * 100)
    assert out[1].text == '{"ok": true}'
    message = parse_line(out[0], 100)
    assert isinstance(message, str) and "over the 100-byte cap" in message


@settings(max_examples=40)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers(), max_size=3), max_size=8),
       st.integers(min_value=1, max_value=17))
def test_decoder_round_trips_any_chunking(messages: list[dict[str, int]], size: int) -> None:
    data = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    dec = NdjsonDecoder()
    lines = [line for i in range(0, len(data), size) for line in dec.feed(data[i:i + size])]
    lines += dec.flush()
    assert [parse_line(line, 1 << 20) for line in lines] == messages


def test_parse_line_keeps_non_json_as_text() -> None:
    assert parse_line(Line("Server starting...", 18), 1000) == "Server starting..."
    assert parse_line(Line('{"id": 1}', 9), 1000) == {"id": 1}
    long = parse_line(Line("z" * 5000, 5000), 10_000)
    assert isinstance(long, str) and len(long) < 2100 and long.endswith("[5000 chars]")


# -- server-sent events ---------------------------------------------------------------------


def test_sse_dispatches_on_blank_line_with_event_id_and_retry() -> None:
    parser = SseParser()
    events = parser.feed(b"event: endpoint\nid: 7\nretry: 3000\ndata: /messages?s=1\n\n")
    assert events == [SseEvent("endpoint", "/messages?s=1", "7", 3000)]


def test_sse_joins_data_lines_and_ignores_comments() -> None:
    parser = SseParser()
    assert parser.feed(": keep-alive\ndata: a\ndata:b\n\n") == [SseEvent("message", "a\nb")]


def test_sse_does_not_dispatch_an_event_without_data_but_keeps_its_id() -> None:
    parser = SseParser()
    assert parser.feed("id: prime\ndata:\n\n") == [SseEvent("message", "", "prime")]
    parser = SseParser()
    assert parser.feed("id: prime\n\n") == []
    assert parser.last_event_id == "prime"


@pytest.mark.parametrize("cut", range(1, 30))
def test_sse_crlf_split_anywhere(cut: int) -> None:
    raw = "\ufeffevent: message\r\ndata: {\"id\": 1}\r\n\r\ndata: x\r\r".encode()
    parser = SseParser()
    events = parser.feed(raw[:cut]) + parser.feed(raw[cut:])
    assert events == [SseEvent("message", '{"id": 1}'), SseEvent("message", "x")]


# -- header values (2026-07-28 Value Encoding) ------------------------------------------------


@pytest.mark.parametrize(("value", "encoded"), [
    ("get_weather", "get_weather"),
    ("file:///projects/a b.json", "file:///projects/a b.json"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
    ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
])
def test_header_values_follow_the_spec_examples(value: str, encoded: str) -> None:
    assert encode_header_value(value) == encoded


@settings(max_examples=60)
@given(st.text())
def test_header_values_are_safe_and_decode_back(value: str) -> None:
    encoded = encode_header_value(value)
    assert all(0x20 <= ord(ch) <= 0x7E for ch in encoded)
    if encoded.startswith("=?base64?") and encoded.endswith("?=") and encoded != value:
        assert base64.b64decode(encoded[9:-2]).decode() == value
    else:
        assert encoded == value

"""Fuzz: what a hostile server sends ``probe --url`` (``_fuzz_inputs.endpoint_event``,
``metadata_body``) never raises, and no ``endpoint`` off the stream's origin is followed."""

from __future__ import annotations

import urllib.parse

from _fuzz import examples
from _fuzz_inputs import endpoint_event, metadata_body
from hypothesis import given, settings

from mcp_skew._input import AddressError, parse_url
from mcp_skew.probe._auth import _fetch
from mcp_skew.simulator.http import HttpRequest, HttpResponse
from mcp_skew.wire.http import endpoint_refused

STREAM = "http://127.0.0.1:8000/sse"


@settings(max_examples=examples(200))
@given(data=endpoint_event())
def test_only_an_endpoint_on_the_streams_origin_is_followed(data: str) -> None:
    try:
        where = urllib.parse.urljoin(STREAM, data.strip())
    except ValueError:
        where = data
    refused = endpoint_refused(STREAM, where)
    if refused is None:  # followed: an http URL on 127.0.0.1:8000, nothing else
        parts = urllib.parse.urlsplit(where)
        assert (parts.scheme, parts.hostname, parts.port or 80) == ("http", "127.0.0.1", 8000)


@settings(max_examples=examples(200))
@given(body=metadata_body())
def test_a_metadata_body_is_a_json_object_or_a_reason(body: bytes) -> None:
    got = HttpResponse(200, body)
    value = got.json()
    assert (got.problem() is None) == isinstance(value, dict)


@settings(max_examples=examples(100))
@given(data=endpoint_event())
def test_a_url_that_is_no_url_is_not_asked(data: str) -> None:
    try:
        parse_url(data, ("http", "https"))
    except AddressError:
        got = _fetch(data, HttpRequest("GET", data), {})  # refused before any connection
        assert got.status == 0 and got.error.startswith("not asked: ")

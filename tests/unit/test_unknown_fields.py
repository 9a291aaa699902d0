"""The unknown-field check (``mcp_skew.versions.unknown_fields``) on real result shapes.

The table it reads is generated from the official schemas (``tests/generated/generate.py``;
``tests/schema/test_schema_fields.py`` checks it is current where the schemas are); these
tests hold everywhere. Each expectation is a schema fact of the revision named.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from generated import generate

from mcp_skew.versions import BUILTIN, REVISIONS, unknown_fields
from mcp_skew.versions import _schema_fields as table
from mcp_skew.versions._unknown_fields import format_loc

P = "io.modelcontextprotocol/"
#: A tool as a 2026-07-28 server lists it (schema/2026-07-28/schema.json#/$defs/Tool).
TOOL_2026 = {
    "name": "echo", "title": "Echo", "description": "Returns its text argument.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                    "$defs": {}, "additionalProperties": False, "x-vendor": 1},
    "outputSchema": {"type": "object", "x-vendor": 1},
    "annotations": {"readOnlyHint": True},
    "icons": [{"src": "https://example.com/echo.png", "mimeType": "image/png", "sizes": ["48x48"]}],
    "_meta": {"com.example/owner": "team-a"},
}  # fmt: skip
#: A 2026-07-28 tools/list result (ListToolsResult: a CacheableResult, resultType required).
TOOLS_2026 = {"tools": [TOOL_2026], "resultType": "complete", "ttlMs": 0, "cacheScope": "public",
              "_meta": {P + "serverInfo": {"name": "s", "version": "1"}}}


def test_a_2026_result_read_at_2025_06_18_reports_what_came_later() -> None:
    """Tool.icons is added in 2025-11-25; resultType, ttlMs and cacheScope in 2026-07-28.
    ``title``, ``outputSchema``, ``annotations`` and ``_meta`` are 2025-06-18's own."""
    assert unknown_fields("2025-06-18", "tools/list", TOOLS_2026) == [
        "tools[0].icons", "resultType", "ttlMs", "cacheScope"]
    assert unknown_fields("2025-11-25", "tools/list", TOOLS_2026) == ["resultType", "ttlMs", "cacheScope"]
    assert unknown_fields("2026-07-28", "tools/list", TOOLS_2026) == []


def test_each_older_revision_sees_more_of_the_tool_as_unknown() -> None:
    reported = {rev: unknown_fields(rev, "tools/list", TOOLS_2026) for rev in REVISIONS}
    assert reported["2024-11-05"][:5] == ["tools[0].title", "tools[0].outputSchema",
                                          "tools[0].annotations", "tools[0].icons", "tools[0]._meta"]
    assert reported["2025-03-26"][:4] == ["tools[0].title", "tools[0].outputSchema",
                                          "tools[0].icons", "tools[0]._meta"]  # annotations: 2025-03-26
    counts = [len(reported[rev]) for rev in REVISIONS]
    assert counts == sorted(counts, reverse=True) and counts[-1] == 0


def test_meta_and_json_schema_keys_are_never_reported() -> None:
    """``_meta`` and the JSON Schemas of a tool are open: their keys are data."""
    tool = {"name": "t", "inputSchema": {"type": "object", "$schema": "x", "anything": {"at": "all"}},
            "outputSchema": {"type": "object", "whatever": 1}, "_meta": {"vendor/x": {"deep": 1}}}
    result = {"tools": [tool], "_meta": {"vendor/y": 1, "progressToken": 3}}
    assert unknown_fields("2025-06-18", "tools/list", result) == []


def test_a_named_key_of_meta_is_still_looked_into() -> None:
    """2026-07-28's ResultMetaObject names serverInfo (an Implementation); its other keys are data."""
    result = {**TOOLS_2026, "_meta": {"vendor/z": 1, P + "serverInfo": {"name": "s", "version": "1",
                                                                         "build": "42"}}}
    assert unknown_fields("2026-07-28", "tools/list", result) == [f"_meta.{P}serverInfo.build"]


def test_nested_lists_and_unions_are_followed() -> None:
    """Content blocks are a union chosen by their ``type``; an embedded resource is text or blob."""
    result = {"content": [
        {"type": "text", "text": "hi", "x-first": 1},
        {"type": "resource", "resource": {"uri": "mem://a", "text": "a", "x-inner": 2}},
        {"type": "image", "data": "AA==", "mimeType": "image/png", "annotations": {"audience": ["user"],
                                                                                   "x-ann": 3}},
    ], "isError": False}
    assert unknown_fields("2025-06-18", "tools/call", result) == [
        "content[0].x-first", "content[1].resource.x-inner", "content[2].annotations.x-ann"]
    contents = {"contents": [{"uri": "mem://a", "blob": "AA==", "x-blob": 1}]}
    assert unknown_fields("2024-11-05", "resources/read", contents) == ["contents[0].x-blob"]


def test_the_initialize_result_and_its_capabilities() -> None:
    result = {"protocolVersion": "2024-11-05", "serverInfo": {"name": "s", "version": "1", "title": "S"},
              "capabilities": {"tools": {"listChanged": True, "x-tools": 1}, "experimental": {"a": {}},
                               "logging": {"anything": 1}}}
    assert unknown_fields("2024-11-05", "initialize", result) == [
        "capabilities.tools.x-tools", "serverInfo.title"]  # Implementation.title: 2025-06-18


def test_an_input_required_result_is_read_as_one_where_the_method_allows_it() -> None:
    """2026-07-28 tools/call may answer InputRequiredResult (resultType "input_required")."""
    interim = {"resultType": "input_required", "inputRequests": {"a": {"method": "roots/list"}},
               "requestState": "opaque", "content": []}
    assert unknown_fields("2026-07-28", "tools/call", interim) == ["content"]
    done = {"resultType": "complete", "content": [], "inputRequests": {}}
    assert unknown_fields("2026-07-28", "tools/call", done) == ["inputRequests"]


@pytest.mark.parametrize(("revision", "method", "result"), [
    ("2025-06-18", "tools/list", {"x": 1}),  # ListToolsResult.tools is required
    ("2025-06-18", "tools/list", {"tools": {"name": "t"}, "x": 1}),  # an object where a list belongs
    ("2025-06-18", "tools/list", {"tools": None, "x": 1}),
    ("2025-06-18", "tools/list", {"tools": ["echo"], "x": 1}),
    ("2024-11-05", "tools/call", {"content": [{"type": "audio", "data": "", "mimeType": "a"}], "x": 1}),
    ("2026-07-28", "tools/call", {"content": [], "x": 1}),  # resultType is required in 2026-07-28
])
def test_a_result_that_does_not_fit_its_definition_gives_none(
        revision: str, method: str, result: dict[str, Any]) -> None:
    """That is a schema failure, the schema check's to report: no unknown-field finding on top."""
    assert unknown_fields(revision, method, result) == []


def test_unknown_methods_and_revisions_give_nothing() -> None:
    assert unknown_fields("2025-06-18", "mcp-skew/no-such-method", {"x": 1}) == []
    assert unknown_fields("1999-01-01", "tools/list", {"tools": [], "x": 1}) == []
    assert unknown_fields("2026-07-28", "initialize", {"protocolVersion": "x", "y": 1}) == []  # gone
    assert unknown_fields("2025-06-18", "tools/list", ["not", "an", "object"]) == []


def test_an_open_result_reports_nothing() -> None:
    """``ping`` is answered by the plain Result, which allows any other key (additionalProperties)."""
    assert unknown_fields("2025-11-25", "ping", {"anything": 1, "_meta": {}}) == []


def test_paths_are_spelled_with_dots_and_indices() -> None:
    assert format_loc(("tools", 0, "annotations", "fooHint")) == "tools[0].annotations.fooHint"
    assert format_loc((0, "a")) == "[0].a"
    assert format_loc(()) == ""


# -- the table ----------------------------------------------------------------------------------

def test_every_builtin_revision_has_a_table_and_the_generator_uses_the_registry_list() -> None:
    builtin = tuple(profile.revision for profile in BUILTIN)
    assert tuple(table.SOURCES) == tuple(table.RESULTS) == tuple(table.TYPES) == builtin
    assert generate.REVISIONS == REVISIONS
    assert all(re.fullmatch("[0-9a-f]{64}", digest) for digest in table.SOURCES.values())


def _names(entry: str | tuple[str, ...]) -> list[str]:
    if isinstance(entry, tuple):
        return [alt.removesuffix("[]") for alt in entry]
    return [word.partition(":")[2].removesuffix("[]") for word in entry.split()
            if ":" in word and not word.partition(":")[2].startswith("=")]


@pytest.mark.parametrize("revision", REVISIONS)
def test_every_type_the_table_names_is_in_it(revision: str) -> None:
    types = table.TYPES[revision]
    named = [n for alts in table.RESULTS[revision].values() for n in alts]
    named += [n for entry in types.values() for n in _names(entry)]
    assert sorted(set(named) - set(types)) == []  # every name is defined
    assert sorted(set(types) - set(named)) == []  # and every type is used


def test_a_union_with_a_list_member_takes_a_list_or_an_object() -> None:
    """2025-11-25 CreateMessageResult.content is one block or a list of sampling blocks."""
    one = {"role": "assistant", "model": "m", "content": {"type": "text", "text": "a", "x": 1}}
    many = {**one, "content": [{"type": "text", "text": "a", "x": 1}, {"type": "tool_use", "id": "1",
                                                                        "name": "t", "input": {}}]}
    assert unknown_fields("2025-11-25", "sampling/createMessage", one) == ["content.x"]
    assert unknown_fields("2025-11-25", "sampling/createMessage", many) == ["content[0].x"]
    assert unknown_fields("2025-06-18", "sampling/createMessage", many) == []  # no list before

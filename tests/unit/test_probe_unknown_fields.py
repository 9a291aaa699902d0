"""The probe reads results against the fields their revision defines (the table generated from
the schemas) and reports the fields the revision lacks."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.probe._exchanges import Exchange
from mcp_skew.probe._findings import _unknown_fields
from mcp_skew.versions import REGISTRY

TOOL = {"name": "echo", "inputSchema": {"type": "object"}, "title": "Echo"}


def exchange(method: str, result: dict[str, Any], after: str | None,
             meta_version: str | None = None) -> Exchange:
    params: dict[str, Any] = {}
    if meta_version:
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": meta_version,
                           "io.modelcontextprotocol/clientCapabilities": {}}
    request = {"jsonrpc": "2.0", "id": 3, "method": method, "params": params}
    return Exchange(index=4, request=request, generation=0, after_initialize=after,
                    answer_index=5, answer={"jsonrpc": "2.0", "id": 3, "result": result})


@pytest.mark.parametrize(("revision", "leaks"), [
    ("2024-11-05", True),   # Tool.title is added in 2025-06-18
    ("2025-03-26", True),
    ("2025-06-18", False),
    ("2025-11-25", False),
])
def test_a_newer_tool_field_is_reported_under_an_older_revision(revision: str, leaks: bool) -> None:
    found = _unknown_fields(exchange("tools/list", {"tools": [TOOL]}, revision), REGISTRY)
    assert bool(found) is leaks
    if leaks:
        (finding,) = found
        assert finding.code == "unknown-field"
        assert finding.index == 5
        assert "tools[0].title" in finding.message
        assert finding.cite.startswith(revision)


def test_modern_results_are_read_at_the_meta_revision() -> None:
    result = {"tools": [TOOL], "resultType": "complete", "ttlMs": 0, "cacheScope": "public",
              "vendorHint": 1}
    (finding,) = _unknown_fields(exchange("tools/list", result, None, "2026-07-28"), REGISTRY)
    assert "vendorHint" in finding.message and "2026-07-28" in finding.message


def test_the_initialize_result_is_read_at_the_revision_it_names() -> None:
    result = {"protocolVersion": "2024-11-05", "capabilities": {},
              "serverInfo": {"name": "s", "version": "1", "title": "S"}}
    (finding,) = _unknown_fields(exchange("initialize", result, None), REGISTRY)
    assert "serverInfo.title" in finding.message


def test_unmodelled_methods_and_unknown_revisions_give_nothing() -> None:
    assert _unknown_fields(exchange("completion/complete", {"x": 1}, "2025-06-18"), REGISTRY) == []
    assert _unknown_fields(exchange("tools/list", {"tools": [TOOL]}, "1999-01-01"), REGISTRY) == []

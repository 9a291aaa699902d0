"""The MCP request headers are data (``mcp_skew.versions.HTTP_HEADERS``, selected per revision
by the profile's ``http_headers``): a draft that drops one changes the simulated client and
the simulated server with no code, and the lists of headers recorded, logged and shown are
read from the same table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.serve._annotate import HTTP_SHOWN
from mcp_skew.serve._log import LOGGED_HEADERS
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.http import HttpEndpoint, HttpRequest
from mcp_skew.simulator.http._client import request_headers
from mcp_skew.simulator.http._link import RECORDED_REQUEST_HEADERS
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import HTTP_HEADERS, REGISTRY, Registry, with_profile_files

NO_NAME_HEADER = """
revision = "2026-12-noname"
extends = "2026-07-28"

[[changes]]
id = "draft-no-mcp-name"
summary = "Drops the Mcp-Name header"
impact = "breaking"
cite = { revision = "2026-12-noname", source = "https://example.com/draft-noname" }
remove = { http_headers = ["Mcp-Name"] }
"""
#: The simulated server's echo tool mirrors its text argument in Mcp-Param-Text.
ECHO_HEADERS = {"echo": (("text", "Text"),)}


@pytest.fixture
def draft(tmp_path: Path) -> Registry:
    path = tmp_path / "draft.toml"
    path.write_text(NO_NAME_HEADER, encoding="utf-8")
    return with_profile_files([str(path)])


def _call(registry: Registry, revision: str) -> tuple[dict[str, str], dict[str, Any]]:
    """The headers and the body of a ``tools/call`` of echo by a client of ``revision``."""
    message = _wire.request(registry.get(revision), 1, "tools/call",
                            {"name": "echo", "arguments": {"text": "hi"}})
    return request_headers(message, registry=registry, tool_headers=ECHO_HEADERS), message


def _answer(registry: Registry, revision: str, headers: dict[str, str],
            message: dict[str, Any]) -> tuple[int, Any]:
    endpoint = HttpEndpoint(parse_peer(f"modern:{revision}", "server", registry))
    response = endpoint.handle(HttpRequest("POST", "/mcp", {k.lower(): v for k, v in headers.items()},
                                           json.dumps(message).encode()))
    return response.status, response.body


def test_the_drafts_client_sends_no_mcp_name_and_the_base_ones_does(draft: Registry) -> None:
    headers, _ = _call(draft, "2026-12-noname")
    assert "Mcp-Name" not in headers
    assert headers["Mcp-Method"] == "tools/call" and headers["Mcp-Param-Text"] == "hi"
    assert _call(draft, "2026-07-28")[0]["Mcp-Name"] == "echo"


def test_the_drafts_server_checks_no_mcp_name_and_the_base_one_does(draft: Registry) -> None:
    headers, message = _call(draft, "2026-12-noname")
    status, body = _answer(draft, "2026-12-noname", headers, message)
    assert status == 200 and "result" in body
    headers, message = _call(draft, "2026-07-28")
    del headers["Mcp-Name"]
    status, body = _answer(draft, "2026-07-28", headers, message)
    assert status == 400
    assert body["error"] == {"code": -32020,
                             "message": "Header mismatch: Mcp-Name must equal params.name"}


def test_what_is_recorded_logged_and_shown_comes_from_the_table() -> None:
    names = {h.key for h in HTTP_HEADERS}
    assert {"mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id"} <= names
    assert set(RECORDED_REQUEST_HEADERS) - names == {"authorization"}
    assert set(LOGGED_HEADERS) - names == {"accept", "content-type", "origin"}
    assert [key for key, _ in HTTP_SHOWN] == [h.key for h in HTTP_HEADERS if h.shown]
    assert all(h.name in REGISTRY.get("2026-07-28").names("http_headers")
               for h in HTTP_HEADERS if h.carries != "session")

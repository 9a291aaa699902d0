"""``mcp-skew serve PEER --http``: statuses and headers, driven with urllib."""

from __future__ import annotations

import json

import pytest
from _serve_helpers import MODERN, modern

from mcp_skew.commands.serve import parse_address
from mcp_skew.errors import UsageError
from mcp_skew.serve._http import HttpRequest, ServedEndpoint, check_host
from mcp_skew.simulator import parse_peer

# -- addresses and the command -----------------------------------------------------------------

def test_addresses_and_the_loopback_rule() -> None:
    assert parse_address("8808") == ("127.0.0.1", 8808)
    assert parse_address("localhost:0") == ("localhost", 0)
    assert parse_address("[::1]:9") == ("::1", 9)
    with pytest.raises(UsageError):
        parse_address("host:port")
    check_host("127.0.0.1", False)
    check_host("::1", False)
    with pytest.raises(UsageError, match="--allow-remote"):
        check_host("0.0.0.0", False)
    check_host("0.0.0.0", True)


def test_endpoint_without_sockets() -> None:
    endpoint = ServedEndpoint(parse_peer("dual:2026-07-28,2025-11-25", "server"),
                            say=lambda t: None)
    msg = modern(1, "tools/list")
    ok = endpoint.handle(HttpRequest("POST", "/mcp", {"mcp-protocol-version": MODERN,
                                                      "mcp-method": "tools/list"},
                                     json.dumps(msg).encode()))
    assert ok.status == 200 and ok.body["result"]["tools"]
    assert endpoint.handle(HttpRequest("PUT", "/mcp", {})).status == 405

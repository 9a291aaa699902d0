"""``mcp-skew serve PEER`` on stdio: a simulated server driven by a process writing lines."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from _serve_helpers import initialize, meta, request

from mcp_skew.serve._stdio import serve_stdio
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator._link import StdioServer

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def lines(*messages: Any) -> bytes:
    return b"".join((m if isinstance(m, str) else json.dumps(m)).encode() + b"\n"
                    for m in messages)


def in_process(peer: str, data: bytes) -> tuple[int, list[Any]]:
    out = io.BytesIO()
    code = serve_stdio(parse_peer(peer, "server"), io.BytesIO(data), out, say=lambda t: None,
                       sleep=lambda s: None)
    return code, [json.loads(x) for x in out.getvalue().decode().splitlines()]


# -- in process: the catalogue and the edge ------------------------------------------------

def test_catalogue_gives_each_scenario_step_its_error_layer() -> None:
    code, out = in_process("legacy:2025-11-25", lines(
        initialize(), INITIALIZED,
        request(2, "ping"),
        request(3, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
        request(4, "tools/call", {"name": "fail", "arguments": {}}),
        request(5, "tools/call", {"name": "no-such-tool", "arguments": {}}),
        request(6, "resources/read", {"uri": "mem://missing"}),
        request(7, "resources/read", {"uri": "mem://hello"}),
        request(8, "prompts/list"),
        request(9, "resources/templates/list"),
    ))
    by_id = {m["id"]: m for m in out}
    assert code == 0
    assert by_id[2]["result"] == {}
    assert by_id[3]["result"]["content"][0]["text"] == "hi"
    assert by_id[4]["result"]["isError"] is True
    assert by_id[5]["error"]["code"] == -32602
    assert by_id[6]["error"]["code"] == -32002
    assert by_id[7]["result"]["contents"][0]["text"] == "hello"
    assert by_id[8]["error"]["code"] == -32601  # no prompts: an undeclared capability
    assert by_id[9]["result"]["resourceTemplates"] == []


def test_modern_catalogue_uses_the_modern_not_found_code() -> None:
    _, out = in_process("modern:2026-07-28", lines(
        request(1, "resources/read", {"uri": "mem://missing", "_meta": meta()})))
    assert out[0]["error"]["code"] == -32602


def test_batches_only_where_a_revision_allows_them() -> None:
    batch = json.dumps([request(2, "ping"), request(3, "tools/list")])
    _, out = in_process("legacy:2025-03-26", lines(initialize(1, "2025-03-26"), INITIALIZED,
                                                 batch))
    assert isinstance(out[1], list) and [m["id"] for m in out[1]] == [2, 3]
    assert all("result" in m for m in out[1])
    _, out = in_process("legacy:2025-06-18", lines(batch))
    assert out[0]["error"]["code"] == -32600 and out[0]["id"] is None


def test_initialize_in_a_batch_is_refused_for_its_element() -> None:
    # 2025-03-26 basic/lifecycle.mdx §Initialization: "The initialize request MUST NOT be
    # part of a JSON-RPC batch"; JSON-RPC 2.0 §6 answers that element alone, -32600
    batch = json.dumps([initialize(1, "2025-03-26"), request(2, "ping")])
    _, out = in_process("legacy:2025-03-26", lines(batch))
    assert isinstance(out[0], list) and [m["id"] for m in out[0]] == [1, 2]
    assert out[0][0]["error"]["code"] == -32600 and "batch" in out[0][0]["error"]["message"]
    assert "result" not in out[0][0]


def test_a_message_the_simulator_cannot_read_gets_an_error_not_a_crash() -> None:
    loop = StdioServer(parse_peer("legacy:2025-11-25", "server"), say=lambda t: None)
    assert loop.handle_line("[]")[0]["error"]["code"] == -32600
    assert loop.handle_line("42")[0]["error"]["code"] == -32600
    assert loop.handle_line("   ") == []
    odd = loop.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": 7}))
    # JSON-RPC 2.0 §7: {"method": 1} is an Invalid Request; its readable id is kept
    assert (odd[0]["error"]["code"], odd[0]["id"]) == (-32600, 1)


@pytest.mark.parametrize("peer", ["legacy:2025-06-18+silent-exit", "dual:2026-07-28,2025-11-25+"
                                  "silent-exit"])
def test_silent_exit_in_process_returns_exit_code_1(peer: str) -> None:
    code, out = in_process(peer, lines(request(0, "tools/list"), initialize()))
    assert code == 1 and out == []


def test_drop_unparsable_drops_a_line_that_is_not_json_and_carries_on() -> None:
    data = lines("{not json", initialize())
    code, out = in_process("legacy:2025-11-25", data)
    assert out[0] == {"jsonrpc": "2.0", "id": None,
                      "error": {"code": -32700, "message": out[0]["error"]["message"]}}
    code, out = in_process("legacy:2025-11-25+drop-unparsable", data)
    assert code == 0 and len(out) == 1 and out[0]["result"]["protocolVersion"] == "2025-11-25"


class _Signalled(Exception):
    """What stands in for SIGTERM in the test below."""


def test_outlives_stdin_runs_on_after_stdin_closes_until_signalled() -> None:
    naps: list[float] = []

    def sleep(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 3:
            raise _Signalled

    out = io.BytesIO()
    with pytest.raises(_Signalled):
        serve_stdio(parse_peer("legacy:2025-11-25+outlives-stdin", "server"),
                    io.BytesIO(lines(initialize())), out, say=lambda t: None, sleep=sleep)
    assert json.loads(out.getvalue())["result"]["protocolVersion"] == "2025-11-25"
    assert len(naps) == 3  # it slept on after the end of stdin
    code, _ = in_process("legacy:2025-11-25", lines(initialize()))
    assert code == 0

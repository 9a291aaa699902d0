"""Bridges as a hop: client -> bridge -> server in the simulator (``run(..., via=)``), the
named bridges, and ``--via`` on simulate, matrix and rollout."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _fuzz import run_cli

from mcp_skew.errors import UsageError
from mcp_skew.peers import resolve_bridge, resolve_peer
from mcp_skew.peers._bridges import NAMED_BRIDGES
from mcp_skew.simulator import RunRecord, render_trace, run
from mcp_skew.simulator.bridges import parse_bridge
from mcp_skew.simulator.bridges._spec import BRIDGE_QUIRKS

DUAL = "dual:2026-07-28,2025-11-25"
LEGACY = "legacy:2025-11-25"


def _run(client: str, server: str, bridge: str, scenario: str = "default") -> RunRecord:
    return run(resolve_peer(client, "client"), resolve_peer(server, "server"), scenario,
               via=resolve_bridge(bridge))


def _upstream(record: RunRecord, side: str = "c2s") -> list[dict[str, Any]]:
    """The messages of the upstream leg, one way."""
    return [n.get("message") for n in record.transcript.notes
            if n.kind == "upstream" and n.get("side") == side and n.get("message") is not None]


def _errors(record: RunRecord) -> list[str]:
    """The messages of the errors the client got."""
    return [e.message["error"]["message"] for e in record.transcript.entries
            if e.dir == "s2c" and "error" in e.message]


def test_supergateway_starts_a_child_per_message_and_initializes_each_itself() -> None:
    record = _run("py-mcp@2.3", LEGACY, "supergateway@4")
    assert (record.status, record.revision) == ("ok", "2025-11-25")
    downstream = [e.message for e in record.transcript.entries if e.dir == "c2s"]
    children = [n for n in record.transcript.notes if n.kind == "bridge"
                and "starts server process" in n.text]
    assert len(children) == len(downstream)  # one process per message
    sent = _upstream(record)
    inits = [m for m in sent if m.get("method") == "initialize"]
    own = [m for m in inits if str(m["id"]).startswith("bridge-")]
    assert own and {m["params"]["protocolVersion"] for m in own} == {"2024-11-05"}
    assert all(m["params"]["capabilities"] == {} for m in inits)  # the client's too
    # the client's initialize declared capabilities; what reached the server did not
    client_init = next(m for m in downstream if m.get("method") == "initialize")
    assert client_init["params"]["capabilities"]
    # the modern probe went to a child of its own as it was, not initialized first
    first_child = record.upstream_path[0]
    assert first_child.startswith("#1 server/discover 2026-07-28")


def test_the_trace_and_the_json_show_both_legs() -> None:
    record = _run("py-mcp@2.3", LEGACY, "supergateway@4")
    trace = render_trace(record)
    assert "py-mcp@2.3  x  supergateway@4  x  legacy:2025-11-25" in trace
    assert "bridge -> server" in trace and "server -> bridge" in trace
    assert "upstream path (supergateway@4): #1 server/discover" in trace
    out = record.to_dict()
    assert out["via"] == "supergateway@4"
    assert out["upstream_path"] == record.upstream_path
    assert any(r.get("event") == "upstream" for r in out["transcript"])


def test_a_chain_is_deterministic() -> None:
    one = json.dumps(_run("py-mcp@2.3", DUAL, "supergateway@4").to_dict())
    two = json.dumps(_run("py-mcp@2.3", DUAL, "supergateway@4").to_dict())
    assert one == two


def test_a_terminating_bridge_hides_the_servers_era() -> None:
    direct = run(resolve_peer(DUAL, "client"), resolve_peer(DUAL, "server"))
    assert direct.revision == "2026-07-28"
    bridged = _run(DUAL, DUAL, "mcp-proxy-py@0.13")
    assert (bridged.status, bridged.revision) == ("ok", "2025-11-25")
    sent = _upstream(bridged)
    # one session of the bridge's own, opened before the client came, at 2025-11-25
    assert [m["params"]["protocolVersion"] for m in sent if m.get("method") == "initialize"] \
        == ["2025-11-25"]
    assert not any(m.get("method") == "server/discover" for m in sent)
    assert "the server's own era" in " ".join(resolve_bridge("mcp-proxy-py@0.13").hides())


def test_refuses_modern_answers_a_modern_request_itself_with_400() -> None:
    record = _run(DUAL, LEGACY, "mcp-proxy-js@6", "handshake")
    first = next(e.message for e in record.transcript.entries if e.dir == "s2c")
    assert first["error"]["code"] == -32000
    assert "Unsupported protocol version" in first["error"]["message"]
    # over HTTP a 400 with a non-modern error is a legacy server: the client falls back
    assert (record.status, record.revision) == ("ok", "2025-11-25")
    # with a modern server behind it, the modern request goes through
    assert _run(DUAL, DUAL, "mcp-proxy-js@6", "handshake").revision == "2026-07-28"


def test_forwarding_the_version_header_breaks_a_legacy_server_after_the_handshake() -> None:
    gateway = "bridge:2026-07-28,2025-11-25+initialize-at=2025-11-25"
    fine = _run(DUAL, LEGACY, gateway)
    assert (fine.status, fine.revision) == ("ok", "2026-07-28")  # the gateway serves modern
    broken = _run(DUAL, LEGACY, gateway + "+forwards-version-header")
    assert broken.session.status == "ok" and broken.status == "failed"
    assert broken.reason == "connected, then list tools failed: error -32000"
    assert "Unsupported protocol version: 2026-07-28" in _errors(broken)[0]
    assert broken.upstream_path[-1].endswith("(MCP-Protocol-Version: 2026-07-28) -> HTTP 400")


def test_modern_egress_with_empty_capabilities_drops_the_clients() -> None:
    record = _run("modern:2026-07-28", "modern:2026-07-28",
                  "bridge+modern-empty-capabilities", "handshake")
    sent = _upstream(record)
    assert sent and all(
        m["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {} for m in sent)
    plain = _upstream(_run("modern:2026-07-28", "modern:2026-07-28", "bridge", "handshake"))
    assert plain[0]["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]


def test_refusing_modern_upstreams_refuses_dual_era_ones_too() -> None:
    gate = "bridge:2025-11-25+initialize-at=2025-11-25+refuses-modern-upstream"
    assert _run(LEGACY, LEGACY, gate).status == "ok"
    refused = _run(LEGACY, DUAL, gate)
    assert refused.session.status == "ok" and refused.status == "failed"
    assert refused.reason == "connected, then list tools failed: error -32603"
    assert "refused its server" in _errors(refused)[0]


def test_a_bridge_answers_the_servers_requests_itself() -> None:
    client = "legacy:2025-11-25"
    server = "legacy:2025-11-25+asks-roots"
    kept = _run(client, server, "bridge")
    assert any(e.message.get("method") == "roots/list" for e in kept.transcript.entries
               if e.dir == "s2c")
    answered = _run(client, server, "bridge+refuses-server-requests")
    assert not any(e.message.get("method") == "roots/list"
                   for e in answered.transcript.entries if e.dir == "s2c")
    replies = [m for m in _upstream(answered) if "error" in m]
    assert replies and replies[0]["error"]["code"] == -32601


def test_named_bridges_resolve_and_cite_their_sources() -> None:
    for named in NAMED_BRIDGES:
        bridge = resolve_bridge(named.name)
        assert bridge.name == named.name and bridge.note
        for quirk, _ in bridge.quirks:
            assert quirk in BRIDGE_QUIRKS
    assert resolve_bridge("supergateway@4.0.0").name == "supergateway@4"
    extra = resolve_bridge("supergateway@4+initialize-at=2025-11-25")
    assert extra.value("initialize-at") == "2025-11-25"
    for quirk in BRIDGE_QUIRKS.values():  # every quirk says where it was seen
        assert quirk.seen_in
        assert quirk.reported == quirk.seen_in.startswith("reported")


@pytest.mark.parametrize("spec", ["nope@1", "bridge+nope", "bridge:2099-01-01", "gateway",
                                  "bridge+initialize-at", "bridge+child-per-request=3",
                                  "bridge:", "supergateway@9"])
def test_a_wrong_bridge_is_one_clear_line(spec: str) -> None:
    with pytest.raises(UsageError) as caught:
        resolve_bridge(spec)
    assert "\n" not in str(caught.value)
    code, out, err = run_cli(["simulate", "--client", DUAL, "--server", LEGACY, "--via", spec])
    assert code == 2 and not out and len(err.strip().splitlines()) == 1, err


def test_simulate_via_shows_both_legs() -> None:
    code, out, _ = run_cli(["simulate", "--client", "py-mcp@2.3", "--via", "supergateway@4",
                            "--server", "legacy:2025-11-25"])
    assert code == 0
    assert out.splitlines()[0].startswith("py-mcp@2.3  x  supergateway@4  x  legacy:2025-11-25")
    assert "upstream path (supergateway@4): #1 server/discover 2026-07-28" in out
    code, _, err = run_cli(["simulate", "--client", DUAL, "--server", LEGACY,
                            "--via", "supergateway@4", "--transport", "http"])
    assert code == 2 and "--via" in err


def test_matrix_and_rollout_via() -> None:
    code, out, _ = run_cli(["matrix", "--clients", DUAL, "--servers", LEGACY, DUAL,
                            "--via", "mcp-proxy-py@0.13", "--format", "json"])
    assert code == 0
    doc = json.loads(out)
    assert doc["via"] == "mcp-proxy-py@0.13"
    assert [c["revision"] for c in doc["cells"][0]] == ["2025-11-25", "2025-11-25"]
    code, out, _ = run_cli(["rollout", "--clients", f"{DUAL}*2", "--fleet", f"{DUAL}*1",
                            "--duration", "1m", "--via", "mcp-proxy-py@0.13", "--format", "json"])
    assert code == 0
    assert '"via": "mcp-proxy-py@0.13"' in out
    parse_bridge("bridge")  # the plain notation is a pass-through bridge


def _seen(entries: list[tuple[str, dict[str, Any]]], kind: str = "legacy") -> Any:
    """A real client run as the probe keeps it (what bridge_summary reads of it)."""
    from types import SimpleNamespace

    from mcp_skew.transcript import Entry

    record = SimpleNamespace(client=SimpleNamespace(kind=kind), transcript=SimpleNamespace(
        entries=[Entry(n, d, m) for n, (d, m) in enumerate(entries)]))
    return SimpleNamespace(real=True, record=record)


def _report(transport: str, *runs: Any) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(target=SimpleNamespace(transport=transport), runs=list(runs))


def test_the_probe_tells_a_bridge_by_its_signs() -> None:
    from mcp_skew.probe._bridge import bridge_lines, bridge_summary

    early = [("c2s", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
             ("s2c", {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})]
    refused = [early[0], ("s2c", {"jsonrpc": "2.0", "id": 1,
                                  "error": {"code": -32600, "message": "not initialized"}})]
    named = [("c2s", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
             ("s2c", {"jsonrpc": "2.0", "id": 1, "result": {
                 "protocolVersion": "2025-11-25", "serverInfo": {"name": "my-gateway"}}})]
    assert bridge_summary(_report("http", _seen(refused))) is None
    assert bridge_summary(_report("stdio", _seen(early))) is None  # a lenient stdio server
    auto = bridge_summary(_report("http", _seen(early)))
    assert auto is not None and "as if initialized" in auto["signs"][0]
    by_name = bridge_summary(_report("http", _seen(named)))
    assert by_name is not None and "my-gateway" in by_name["signs"][0]
    started = bridge_summary(_report("http", _seen(refused)), resolve_bridge("supergateway@4"))
    assert started is not None and started["name"] == "supergateway@4" and started["started"]
    lines = bridge_lines(started)
    assert lines[0].startswith("bridge: supergateway@4, started by the probe")
    assert any("initializes it at 2024-11-05" in line for line in lines)


def test_probe_via_needs_a_named_bridge_and_a_command() -> None:
    code, _, err = run_cli(["probe", "--via", "supergateway@4", "--url", "http://127.0.0.1:9/"])
    assert code == 2 and "--via" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(["probe", "--via", "bridge+child-per-request", "--", "true"])
    assert code == 2 and "simulated only" in err
    code, _, err = run_cli(["probe", "--via", "mcp-remote@0.1", "--", "true"])
    assert code == 2 and "not in front of a command" in err


def test_a_bridge_only_inferred_from_signs_is_said_as_inferred() -> None:
    """The card says a bridge the probe started hides things; one it only inferred from the
    server's answers is said as inferred, and what it may hide as a possibility."""
    from mcp_skew.probe._bridge import bridge_lines

    inferred = bridge_lines({"name": None, "started": False, "signs": ["the name says so"],
                             "hides": ["the server's era"]})
    assert "inferred" in inferred[0] and inferred[-1] == "  it may hide: the server's era"
    started = bridge_lines({"name": "supergateway@4", "started": True, "signs": [],
                            "hides": ["the server's era"]})
    assert started[0].startswith("bridge: supergateway@4, started by the probe")
    assert started[-1] == "  it hides: the server's era"

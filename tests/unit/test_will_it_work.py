"""Will it work, not only will they negotiate: what a pair meets after connecting.

- a request without ``_meta`` to a modern-only server gets -32602 on stdio as over HTTP
  (2026-07-28 ``basic/index.mdx`` §_meta: a missing required field MUST get -32602);
- a pair that connects and then fails a list or a call its scenario needs is a failure
  (``connects, then fails``), with the step that failed, not "ok".
"""

from __future__ import annotations

from mcp_skew.peers import resolve_peer
from mcp_skew.simulator import SimServer, parse_peer, run


def test_modern_only_server_on_stdio_answers_a_request_without_meta_with_32602() -> None:
    server = SimServer(parse_peer("modern:2026-07-28", "server"))
    reaction = server.receive({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    error = reaction.replies[0]["error"]
    assert error["code"] == -32602
    assert error["data"] == {"supported": ["2026-07-28"]}
    assert "_meta" in error["message"]


def test_modern_only_server_still_refuses_initialize_as_an_unknown_method() -> None:
    server = SimServer(parse_peer("modern:2026-07-28", "server"))
    reaction = server.receive({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"protocolVersion": "2025-11-25"}})
    assert reaction.replies[0]["error"]["code"] == -32601


def test_a_pair_whose_list_fails_on_the_result_is_a_failure() -> None:
    record = run(resolve_peer("ts-client@2.4:auto", "client"),
                 parse_peer("modern:2026-07-28+no-cache-hints", "server"))
    assert record.session.status == "ok"  # it negotiated ...
    assert record.status == "failed"  # ... and then could not list tools
    assert record.failed_step == "list tools"
    assert record.revision == "2026-07-28"
    data = record.to_dict(transcript=False)
    assert data["status"] == "failed"
    assert data["failed_step"] == "list tools"
    assert "list tools" in data["reason"]


def test_a_pair_whose_error_steps_differ_still_works() -> None:
    """A step that expects an error and gets another is a deviation (``!``), not a failure."""
    record = run(parse_peer("legacy:2025-11-25", "client"),
                 parse_peer("legacy:2025-11-25+not-found-code=0", "server"))
    assert any(not s.ok for s in record.steps)
    assert record.status == "ok" and record.failed_step is None
    assert "failed_step" not in record.to_dict(transcript=False)


def test_a_plain_pair_has_no_failed_step() -> None:
    record = run(parse_peer("dual:2026-07-28,2025-11-25", "client"),
                 parse_peer("modern:2026-07-28", "server"))
    assert record.status == "ok" and record.failed_step is None


# -- a DiscoverResult with no modern revision in common -------------------------------------
GO_STATEFUL = "dual:2026-07-28,2025-11-25,2025-06-18+discover-legacy"


def test_the_go_stateful_server_lists_only_legacy_revisions_in_discover() -> None:
    record = run(parse_peer("dual:2026-07-28,2025-11-25", "client"), parse_peer(GO_STATEFUL, "server"),
                 "handshake")
    answers = [e.message for e in record.transcript.entries if e.dir == "s2c"]
    assert answers[0]["result"]["supportedVersions"] == ["2025-11-25", "2025-06-18"]


def test_spec_rule_a_listed_legacy_revision_is_spoken_through_initialize() -> None:
    """2026-07-28 basic/versioning.mdx: select a mutually supported version from the list."""
    record = run(parse_peer("dual:2026-07-28,2025-06-18", "client"), parse_peer(GO_STATEFUL, "server"))
    assert record.status == "ok" and record.revision == "2025-06-18"
    assert list(record.session.path) == ["discover 2026-07-28", "choose 2025-06-18",
                                         "initialize 2025-06-18", "accepted 2025-06-18"]
    assert record.mark == "era-fallback"


def test_spec_rule_nothing_listed_in_common_fails() -> None:
    record = run(parse_peer("dual:2026-07-28,2025-03-26", "client"), parse_peer(GO_STATEFUL, "server"),
                 "handshake")
    assert record.status == "failed"
    assert "no revision in common" in record.reason


def test_discover_fallback_initializes_with_its_newest_whatever_is_listed() -> None:
    client = parse_peer("dual:2026-07-28,2025-11-25,2025-03-26+discover-fallback", "client")
    server = parse_peer("dual:2026-07-28,2025-11-25+discover-legacy", "server")
    record = run(client, server, "handshake")
    assert record.status == "ok" and record.revision == "2025-11-25"
    assert "no modern revision offered: fall back" in record.session.path


def test_sdk_clients_fall_back_on_a_legacy_advertisement() -> None:
    """go-sdk issue 1025; TypeScript client 2.4 classifyResult; mcp 2.x _probe.py."""
    for name in ("ts-client@2.4:auto", "inspector@2.12:auto"):
        record = run(resolve_peer(name, "client"), parse_peer(GO_STATEFUL, "server"), "handshake")
        assert record.status == "ok" and record.revision == "2025-11-25", name
        assert record.session.fell_back, name


def test_a_modern_only_client_still_fails_on_a_legacy_advertisement() -> None:
    record = run(parse_peer("modern:2026-07-28+discover", "client"), parse_peer(GO_STATEFUL, "server"),
                 "handshake")
    assert record.status == "failed"


def test_the_matrix_shows_and_counts_connects_then_fails() -> None:
    from mcp_skew.matrix import build_matrix
    from mcp_skew.matrix._render_text import render_text

    clients = [resolve_peer("ts-client@2.4:auto", "client"),
               parse_peer("dual:2026-07-28,2025-11-25", "client")]
    servers = [parse_peer("modern:2026-07-28+no-cache-hints", "server")]
    matrix = build_matrix(clients, servers)
    cell = matrix.cells[0][0]
    assert (cell.status, cell.failure, cell.failed_step) == ("failed", "result", "list tools")
    assert cell.revision == "2026-07-28"
    text = render_text(matrix)
    assert "✗ result" in text
    assert "1 work directly, 0 work after a fallback (downgrade, era fallback or retry), 1 fail." \
        in text
    assert "Of those, 1 connects, then fails a list or call (✗ result)." in text
    again = type(matrix).from_dict(matrix.to_dict())
    assert again.cells[0][0].failed_step == "list tools"

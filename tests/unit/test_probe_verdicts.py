"""A probe a server's CI can trust, against a hand-written legacy server (tests/servers/legacy_lenient.py).

- each client's verdict comes from its own transcript: ``--client THAT`` and the full
  probe agree, in the progress line, the card, JSON and JUnit, and ``--require`` gives
  the same exit code whatever else runs;
- a server that exits is blamed on the request in flight, with its stderr in the card;
  one that exits whatever it is sent gets no ``crash-on-unknown``;
- the card counts what it lists, and ends with what the author should change, in
  order, for 2026-07-28 clients;
- the simulator's prediction is compared by code, not only by status.
"""

from __future__ import annotations


def test_a_server_that_stops_answering_is_blamed_on_the_request_in_flight() -> None:
    from mcp_skew.probe._exchanges import exchanges
    from mcp_skew.probe._findings import culprit_finding
    from mcp_skew.probe._peer import RunView, gather
    from mcp_skew.probe._verdict import settle
    from mcp_skew.simulator import PeerSpec, RunRecord, Session, parse_peer
    from mcp_skew.transcript import Transcript
    from mcp_skew.versions import REGISTRY, Era

    t = Transcript()
    t.add(0, "c2s", {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18"}})
    t.add(5, "s2c", {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}})
    t.add(6, "c2s", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    t.note(5006, "no answer to id 2 within 5000 ms")
    session = Session().accept("2025-06-18", Era.LEGACY)
    record = RunRecord(parse_peer("legacy:2025-06-18", "client"),
                       PeerSpec(kind="legacy", revisions=()), "lists", session, t)
    blamed = settle(record)
    assert blamed is not None and blamed.how == "stopped answering"
    assert record.session.status == "failed"
    assert record.session.reason == "the server stopped answering on tools/list (id 2)"
    ev = gather([RunView("c", False, t, exchanges(t, REGISTRY))], REGISTRY)
    finding = culprit_finding(blamed, ev)
    assert finding is not None and finding.code == "stopped-answering" and finding.index == 2
    assert finding.cite == "2025-06-18: basic/index.mdx §Responses; JSON-RPC 2.0 §5"

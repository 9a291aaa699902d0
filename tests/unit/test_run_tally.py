"""A run that keeps no transcript records (``run(..., keep_transcript=False)``, what
``build_matrix(keep_transcripts=False)`` runs) is the same run: the same verdict, path,
steps, findings (their message indexes too), message count and cell, and the events its
verdict reads (their ``after`` too); only the records nobody reads are not made."""

from __future__ import annotations

import pytest

from mcp_skew.matrix import build_matrix
from mcp_skew.matrix._cell import Cell
from mcp_skew.peers._sets import sweep_peers
from mcp_skew.simulator import SCENARIOS, RunRecord, StepResult, parse_peer, run
from mcp_skew.simulator._client import Session
from mcp_skew.simulator._link import VERDICT_EVENTS, Tally
from mcp_skew.simulator._run import NEEDS_RESULT
from mcp_skew.transcript import Transcript

#: A sample of the sweep: every kind of peer, and the quirks that time out, exit, restart,
#: re-probe or draw a finding on a message (each makes events or findings a tally must keep
#: as the records do).
CLIENTS = sweep_peers("client", ("discover", "restart", "fallback-32601"))[1::5]
_SERVERS = sweep_peers("server", ("unknown-32602", "silent", "silent-exit", "lenient",
                                  "no-result-type", "no-cache-hints"))
SERVERS = (*_SERVERS[3::13], *(s for s in _SERVERS if s.kind == "modern"))


def _same_run(full: RunRecord, lean: RunRecord) -> None:
    assert isinstance(lean.transcript, Tally) and not isinstance(full.transcript, Tally)
    assert lean.to_dict(transcript=False) == full.to_dict(transcript=False)
    assert lean.reason == full.reason
    # the events a verdict reads, ``after`` and all
    assert lean.transcript.notes == [n for n in full.transcript.notes if n.kind in VERDICT_EVENTS]
    assert lean.transcript.count() == len(full.transcript.entries) == full.transcript.count()
    assert lean.transcript.entries == []


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_a_run_without_records_is_the_same_run(scenario: str) -> None:
    pairs = 0
    for client in CLIENTS:
        for server in SERVERS:
            full = run(client, server, scenario)
            lean = run(client, server, scenario, keep_transcript=False)
            _same_run(full, lean)
            assert Cell.of(lean, transcript=False) == Cell.of(full, transcript=False)
            pairs += 1
    assert pairs > 20


def test_the_sample_meets_events_and_findings() -> None:
    """The pairs above are not all quiet ones: timeouts, exits and indexed findings occur."""
    runs = [run(c, s, sc) for c in CLIENTS for s in SERVERS for sc in ("default", "cache")]
    kinds = {note.kind for r in runs for note in r.transcript.notes}
    assert {"timeout", "exit", "restart", "cache", "client-eof"} <= kinds
    assert any(f.index for r in runs for f in (*r.session.findings, *r.findings))


@pytest.mark.parametrize("peers", [("2025-06-18", "2024-11-05"), ("2026-07-28", "2026-07-28")])
def test_over_http_the_flag_keeps_the_records(peers: tuple[str, str]) -> None:
    """Only the stdio link counts: over HTTP the records are kept whatever the flag says."""
    client, server = parse_peer(peers[0], "client"), parse_peer(peers[1], "server")
    lean = run(client, server, "auth", transport="http", keep_transcript=False)
    full = run(client, server, "auth", transport="http")
    assert type(lean.transcript) is Transcript
    assert lean.to_dict() == full.to_dict()


def test_a_tally_gives_no_records_it_did_not_keep() -> None:
    tally = Tally()
    tally.add(0, "c2s", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    tally.note(5, "no answer", "timeout")  # no verdict reads it
    tally.note(6, "refused: no token", "auth", refused=True)
    assert tally.count() == 1
    assert [(n.kind, n.after, n.get("refused")) for n in tally.notes] == [("auth", 1, True)]
    with pytest.raises(ValueError, match="kept none"):
        tally.records()
    with pytest.raises(ValueError, match="kept none"):
        tally.timeline()


def test_a_sweep_without_transcripts_is_the_sweep_with_them() -> None:
    lean = build_matrix(CLIENTS, SERVERS, "lists", keep_transcripts=False)
    full = build_matrix(CLIENTS, SERVERS, "lists")
    assert [[cell.replace(transcript=None) for cell in row]
            for row in full.cells] == [list(row) for row in lean.cells]


def test_a_refusal_a_reason_reads_is_kept() -> None:
    """RunRecord.reason names an authorization's refusal from the run's events: a Tally keeps
    the events of VERDICT_EVENTS, so a run that keeps no records gives the same reason."""
    tally = Tally()
    tally.note(1, "auth: the server refused the token", "auth", refused=True)
    tally.note(2, "client restarts the server process", "restart")
    client, server = parse_peer("2026-07-28", "client"), parse_peer("2026-07-28", "server")
    record = RunRecord(client, server, "lists", Session(status="ok"), tally,
                       steps=[StepResult("list tools", False, NEEDS_RESULT, "error -32603")])
    assert record.reason == ("connected, then list tools failed: error -32603 "
                             "(auth: the server refused the token)")
    assert [n.kind for n in tally.notes] == ["auth"]

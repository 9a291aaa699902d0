"""The cold start's pure parts: which clients calibrate, the allowance, a run that was still
starting, and the clients whose discovery wait a cold start exceeds (no processes)."""

from __future__ import annotations

from typing import Any

from mcp_skew.probe._clients import builtin_clients
from mcp_skew.probe._runner import ClientRun
from mcp_skew.probe._startup import allowance, calibrators, slow_for, started_late
from mcp_skew.simulator import PeerSpec, RunRecord, Session, parse_peer
from mcp_skew.transcript import Transcript
from mcp_skew.versions import REGISTRY

CLIENT = parse_peer("dual:2026-07-28,2025-11-25", "client")
SERVER = PeerSpec(kind="legacy", revisions=(), label="test")


def _request(msg_id: int, method: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {}}


def _answer(msg_id: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": "no"}}


def _run(transcript: Transcript) -> ClientRun:
    return ClientRun(1, RunRecord(CLIENT, SERVER, "lists", Session(), transcript), False)


def test_the_calibrating_clients_are_the_newest_plain_legacy_and_modern_ones() -> None:
    specs = list(builtin_clients())
    names = [specs[i].name for i in calibrators(specs, REGISTRY)]
    assert names == ["legacy:2025-11-25", "modern:2026-07-28"]
    only_dual = [CLIENT]
    assert calibrators(only_dual, REGISTRY) == [0]


def test_the_allowance_scales_with_the_cold_start_and_stays_under_the_bound() -> None:
    assert allowance(None, 4, 60_000) == 0
    small, large = allowance(500, 1, 60_000), allowance(5_000, 1, 60_000)
    assert 2_000 < small < large
    assert allowance(50_000, 64, 60_000) == 60_000


def test_a_late_answer_to_the_first_request_is_a_server_still_starting() -> None:
    t = Transcript()
    t.add(0, "c2s", _request(1, "server/discover"))
    t.note(3000, "no answer to id 1 within 3000 ms", "timeout")
    t.add(3001, "c2s", _request(2, "initialize"))
    t.add(4200, "s2c", _answer(1))  # the discover answered late: the server was starting
    t.add(4300, "s2c", _answer(2))
    assert started_late(_run(t), REGISTRY)


def test_silence_to_the_first_request_then_an_answer_is_not_a_slow_start() -> None:
    t = Transcript()
    t.add(0, "c2s", _request(1, "server/discover"))
    t.note(3000, "no answer to id 1 within 3000 ms", "timeout")
    t.add(3001, "c2s", _request(2, "initialize"))
    t.add(3100, "s2c", _answer(2))  # it answers initialize: silent to discover, and up
    assert not started_late(_run(t), REGISTRY)


def test_a_process_that_said_nothing_and_did_not_exit_was_still_starting() -> None:
    t = Transcript()
    t.add(0, "c2s", _request(1, "initialize"))
    t.note(5000, "no answer to id 1 within 5000 ms", "timeout")
    assert started_late(_run(t), REGISTRY)
    t.note(5100, "the server process exited (code 1)", "exit")
    t2 = Transcript()
    t2.add(0, "c2s", _request(1, "initialize"))
    t2.note(100, "the server process exited (code 1)", "exit")
    assert not started_late(_run(t2), REGISTRY)


def test_slow_for_names_the_clients_whose_discovery_wait_a_cold_start_exceeds() -> None:
    quick = parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=1000", "client")
    patient = parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=20000", "client")
    bounded = parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=20000+connect-timeout=1500",
                         "client")
    legacy = parse_peer("legacy:2025-11-25", "client")
    found = slow_for(2_000, [quick, patient, bounded, legacy])
    assert found == [{"client": quick.name, "probe_timeout_ms": 1000},
                     {"client": bounded.name, "probe_timeout_ms": 1500}]
    assert slow_for(None, [quick]) == []

"""probe-client and time (issue 37), without a process: the default deadline outlasts every
named client's waits; a client still waiting for an answer when its run ends is reported
as waiting, not as a hang; the waits measured from the wire, for the card and the saved peer.

The logs are the simulator's own runs as records (as ``show-log`` reads them), cut where a
run would have reached its deadline.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from pathlib import Path

import pytest

from mcp_skew.cli import _parser as build_parser
from mcp_skew.errors import UsageError
from mcp_skew.peers import named_peer_names, resolve_peer
from mcp_skew.probe_client import render
from mcp_skew.probe_client._expect import CONNECT, RESULT, predict
from mcp_skew.probe_client._findings import Row, client_findings
from mcp_skew.probe_client._infer import infer
from mcp_skew.probe_client._launch import RealClientRun
from mcp_skew.probe_client._observe import Observation, measured_waits, observe
from mcp_skew.probe_client._runner import DEFAULT_DEADLINE_S, ClientReport
from mcp_skew.probe_client._save import save_client_peer
from mcp_skew.serve import LogEntry
from mcp_skew.serve._log import NO_MESSAGE, LogWriter, entry_of
from mcp_skew.serve._stdio import serve_stdio
from mcp_skew.simulator import PeerSpec, run
from mcp_skew.transcript import records_of
from mcp_skew.versions import REGISTRY

SILENT = "legacy:2025-11-25+silent"


def _named_clients() -> list[PeerSpec]:
    out = []
    for name in named_peer_names():
        m = re.fullmatch(r"(.*?)(?:\[:(.*)\])?", name)
        assert m is not None
        heads = [m[1]] + [f"{m[1]}:{mode}" for mode in (m[2] or "").split("|") if mode]
        for head in heads:
            try:
                out.append(resolve_peer(head, "client"))
            except UsageError:
                continue  # a server only
    return out


def test_the_default_deadline_outlasts_every_named_clients_waits() -> None:
    clients = _named_clients()
    assert len(clients) > 10
    waits = {(c.label or c.notation, f.name): getattr(c.client_policy, f.name)
             for c in clients for f in dataclasses.fields(c.client_policy)
             if f.name.endswith("_ms") and isinstance(getattr(c.client_policy, f.name), int)}
    longest = max(waits.values())
    assert longest >= 60_000  # the TypeScript v2 client's probe wait is among them
    # room after the longest wait for the fallback it leads to, and at least 90 s
    assert max(90.0, longest / 1000 + 20) <= DEFAULT_DEADLINE_S
    args = build_parser().parse_args(["probe-client", "--", "client", "{server}"])
    assert float(args.timeout) == DEFAULT_DEADLINE_S


def _entries(client: str, server: str, cut_ms: float | None = None) -> tuple[list[LogEntry], int]:
    """The simulated run as a wire log, cut at ``cut_ms`` as a deadline would (the client's
    end logged there, as the served server logs it), and the client's exit code."""
    record = run(resolve_peer(client, "client"), resolve_peer(server, "server"), CONNECT)
    entries = [entry_of(i, r) for i, r in enumerate(records_of(record.transcript))]
    works = record.session.status == "ok" and all(s.got in RESULT for s in record.steps)
    if cut_ms is None:
        return entries, 0 if works else 1
    kept = [e for e in entries if e.t_ms <= cut_ms]
    end = dataclasses.replace(kept[-1], index=len(kept), dir="event", kind="client-eof",
                              t_ms=cut_ms, message=NO_MESSAGE, line=None)
    return [*kept, end], -15


def _observe(client: str, server: str, cut_ms: float | None = None) -> Observation:
    entries, code = _entries(client, server, cut_ms)
    return observe(server, entries, [], code, cut_ms is not None, registry=REGISTRY)


def test_a_wait_longer_than_the_run_is_still_waiting_not_a_hang() -> None:
    # a client waiting 60 s for its probe, its run cut at 20 s
    o = _observe("dual:2026-07-28,2025-11-25+probe-timeout=60000", SILENT, cut_ms=20_000)
    assert o.timed_out and o.waiting == "server/discover 2026-07-28"
    assert o.waiting_ms is not None and 19_000 <= o.waiting_ms <= 20_000
    assert o.waits == [{"request": "server/discover 2026-07-28", "waited_ms": o.waiting_ms,
                        "then": "still waiting at the deadline"}]
    inferred = infer([o], REGISTRY)
    assert inferred.traits.hangs == []
    assert inferred.traits.waits_beyond_ms == o.waiting_ms
    assert any(f"longer than {o.waiting_ms} ms" in u for u in inferred.unknown)
    row = Row(1, SILENT, "legacy", "", o, None, None, None)
    codes = {f.code for f in client_findings([row], "dual")}
    assert not codes & {"client-hangs", "client-no-fallback-on-timeout",
                        "client-fails-where-spec-works"}


def test_a_client_that_hangs_after_its_answer_is_still_a_hang() -> None:
    # the same cut, but the client had its answer: the wait it shows is none of the server's
    o = _observe("dual:2026-07-28,2025-11-25", "modern:2026-07-28", cut_ms=10_000)
    assert o.timed_out and not o.waiting
    row = Row(1, "modern:2026-07-28", "modern", "", o, None, None, None)
    assert "client-hangs" in {f.code for f in client_findings([row], "dual")}


def test_the_waits_measured_are_the_gaps_before_the_clients_next_move() -> None:
    o = _observe("dual:2026-07-28,2025-11-25+probe-timeout=1000", SILENT)
    (wait,) = o.waits
    assert wait["request"] == "server/discover 2026-07-28"
    assert wait["then"].startswith("initialize 2025-11-25")
    assert wait["waited_ms"] == 1000  # the virtual clock: exactly the client's wait
    answered = _observe("dual:2026-07-28,2025-11-25", "modern:2026-07-28")
    assert answered.waits == []
    assert measured_waits([], timed_out=True) == []


def _report(client: str, cut_ms: float | None = None) -> ClientReport:
    servers = [SILENT, "modern:2026-07-28"]
    obs = [_observe(client, s, cut_ms if s == SILENT else None) for s in servers]
    inferred = infer(obs, REGISTRY)
    rows = [Row(i, s, s.partition(":")[0], "", o, None, None, None)
            for i, (s, o) in enumerate(zip(servers, obs, strict=True), 1)]
    runs = [RealClientRun(s, ("client", "{server}"), Path("x.jsonl"), exit_code=o.exit_code,
                          timed_out=o.timed_out) for s, o in zip(servers, obs, strict=True)]
    return ClientReport(("client", "{server}"), "stdio", rows, runs, inferred,
                        client_findings(rows, inferred.spec.kind if inferred.spec else None))


def test_the_saved_peer_carries_the_waits_measured(tmp_path: Path) -> None:
    report = _report("dual:2026-07-28,2025-11-25+probe-timeout=1000")
    path = tmp_path / "client.json"
    save_client_peer(report, path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert "+probe-timeout=1000" in doc["peer"]
    assert doc["waits"] == [{"server": SILENT, "request": "server/discover 2026-07-28",
                             "waited_ms": 1000, "then": "initialize 2025-11-25"}]


def test_the_card_says_still_waiting(tmp_path: Path) -> None:
    report = _report("dual:2026-07-28,2025-11-25+probe-timeout=60000", cut_ms=20_000)
    text = render(report, "text")
    assert "still waiting for an answer to server/discover 2026-07-28 after" in text
    assert "client-hangs" not in text
    doc = json.loads(render(report, "json"))
    assert doc["rows"][0]["observed"]["waiting"] == "server/discover 2026-07-28"


@pytest.mark.parametrize("cut_ms", [5_000.0, 30_000.0])
def test_still_waiting_whatever_the_deadline(cut_ms: float) -> None:
    o = _observe("dual:2026-07-28,2025-11-25+probe-timeout=60000", SILENT, cut_ms=cut_ms)
    assert o.waiting and o.waits[-1]["then"] == "still waiting at the deadline"


def test_the_served_server_answers_after_its_cold_start_and_its_latency() -> None:
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}}}
    slept: list[float] = []
    out, logged = io.BytesIO(), io.StringIO()
    log = LogWriter(logged, source="serve")
    peer = resolve_peer("modern:2026-07-28+slow=4000+latency=250", "server")
    code = serve_stdio(peer, io.BytesIO((json.dumps(discover) + "\n").encode()), out,
                       say=lambda _t: None, log=log, sleep=slept.append, logs_input=False)
    assert code == 0 and slept == [4.0, 0.25]
    assert json.loads(out.getvalue())["id"] == 1
    dirs = [json.loads(line).get("dir") for line in logged.getvalue().splitlines()[1:]]
    assert "c2s" not in dirs and "s2c" in dirs  # its caller logs the input, as it arrives


INCOMPLETE_SERVER = "dual:2026-07-28,2025-11-25+discover-incomplete"


def test_a_client_that_stops_at_an_incomplete_discover_answer_never_connected() -> None:
    # the real Inspector in modern mode sends server/discover, gets a result without the
    # required capabilities, and exits 1: the log's annotation reads the result as accepted,
    # but the client refused it, as its model (+strict-discover) predicts: it fails
    o = _observe("modern:2026-07-28+discover+strict-discover", INCOMPLETE_SERVER)
    assert o.requests == ["server/discover 2026-07-28"] and o.exit_code == 1
    assert o.outcome == "fails" and "lacks the required capabilities" in o.reason
    assert (o.status, o.revision, o.era) == ("failed", None, None)  # as the model says
    assert predict(resolve_peer("modern:2026-07-28+discover+strict-discover", "client"),
                   resolve_peer(INCOMPLETE_SERVER, "server")).outcome == "fails"


def test_a_client_that_takes_the_incomplete_answer_and_goes_on_connects() -> None:
    o = _observe("modern:2026-07-28+discover", INCOMPLETE_SERVER)
    assert o.outcome == "works" and "tools/list 2026-07-28" in o.requests


def test_a_complete_discover_answer_then_an_exit_still_connects_then_fails() -> None:
    # the rule is about the served incomplete answer only: a client that stops after a
    # complete DiscoverResult did connect
    entries, _ = _entries("modern:2026-07-28+discover", "dual:2026-07-28,2025-11-25")
    first = [e for e in entries if not (e.dir == "c2s" and isinstance(e.message, dict)
                                        and e.message.get("method") == "tools/list")]
    o = observe("dual:2026-07-28,2025-11-25", first, [], 1, False, registry=REGISTRY)
    assert o.outcome == "connects, then fails"

"""probe-client's reading of a client, from recorded logs (no process): the simulator's own
clients, run against the default servers in memory, are read back as the peers they are.

Each log is a simulated run's transcript as records (the format ``show-log`` reads), so the
inference sees what it sees on a real wire: the messages, the events, the times.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _era_table import ERA_TABLE as SPEC_ERA_TABLE

from mcp_skew.peers import resolve_peer
from mcp_skew.probe_client import render
from mcp_skew.probe_client._expect import (
    CONNECT,
    ERA_TABLE,
    RESULT,
    UPGRADED,
    era_table_says,
    plain,
    predict,
    same_model,
)
from mcp_skew.probe_client._findings import Row, client_findings
from mcp_skew.probe_client._infer import infer, round_ms
from mcp_skew.probe_client._launch import RealClientRun
from mcp_skew.probe_client._observe import Observation, observe, rebase
from mcp_skew.probe_client._runner import ClientReport, cases
from mcp_skew.probe_client._servers import default_servers
from mcp_skew.serve import LogEntry
from mcp_skew.serve._log import entry_of
from mcp_skew.simulator import ClientCache, PeerSpec, parse_peer, run
from mcp_skew.transcript._jsonl import records_of
from mcp_skew.versions import REGISTRY

SERVERS = cases(default_servers(REGISTRY), lambda s: resolve_peer(s, "server"))


def _log(client: PeerSpec, server: PeerSpec,
         before: PeerSpec | None = None) -> tuple[list[LogEntry], int]:
    """The run as a wire log, and the exit code a client program would give; for an upgrade
    case the second of two runs, the client's caches kept as its quirks say."""
    cache, key = (ClientCache(), UPGRADED) if before is not None else (None, None)
    if before is not None:
        run(client, before, CONNECT, cache=cache, server_id=key)
    record = run(client, server, CONNECT, cache=cache, server_id=key)
    entries = [entry_of(i, r) for i, r in enumerate(records_of(record.transcript))]
    works = record.session.status == "ok" and all(s.got in RESULT for s in record.steps)
    return entries, 0 if works else 1


def _observations(client: PeerSpec) -> list[Observation]:
    out = []
    for s in SERVERS:
        entries, code = _log(client, s.peer, s.before)
        out.append(observe(s.spec, entries, [], code, False, registry=REGISTRY))
    return out


#: Client specs the default servers tell apart, each read back as itself.
READ_BACK = [
    "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05",
    "legacy:2025-11-25",
    "legacy:2025-06-18,2025-03-26",
    "modern:2026-07-28",
    "modern:2026-07-28+discover",
    "modern:2026-07-28+discover+strict-results",
    "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05",
    "dual:2026-07-28,2025-11-25+fallback-32601",
    "dual:2026-07-28,2025-11-25+probe-timeout=10000",
    "dual:2026-07-28,2025-11-25+restart",
    "dual:2026-07-28,2025-11-25+restart+probe-timeout=60000+strict-results",
    "dual:2026-07-28,2025-11-25+strict",
    "dual:2026-07-28,2025-11-25+strict-discover",
    "dual:2026-07-28,2025-11-25+restart+probe-timeout=1000+strict-discover",
    "modern:2026-07-28+discover+strict-discover",
    "dual:2026-07-28,2025-11-25+keeps-era",
    "dual:2026-07-28,2025-11-25+restart+keeps-era",
    "py-mcp@2.3:legacy",
    "ts-client@2.4:auto",
]


@pytest.mark.parametrize("spec", READ_BACK)
def test_a_simulated_client_is_read_back_as_itself(spec: str) -> None:
    client = resolve_peer(spec, "client")
    inferred = infer(_observations(client), REGISTRY)
    assert inferred.spec is not None, inferred.sentence
    # fallback-denylist, discover-fallback and strict-tools are what no default server shows:
    # the named TS clients have them (strict-discover shows: the default servers include one
    # whose DiscoverResult is incomplete, discover-incomplete, issue 37)
    # nor the call quirks (docs/calls.md): no default server lists an outputSchema
    unseen = ("+fallback-denylist", "+discover-fallback", "+strict-tools",
              "+declared-dialects", "+needs-structured-content", "+checks-structured-content")
    notation = client.notation
    for quirk in unseen:
        notation = notation.replace(quirk, "")
    expected = parse_peer(notation, "client") if notation != client.notation else client
    assert same_model(inferred.spec, expected), (inferred.notation, expected.notation)


def _rows(spec: PeerSpec, obs: list[Observation]) -> list[Row]:
    """The card's rows, as probe_client() builds them."""
    return [Row(i, s.spec, s.peer.kind, "", o, predict(plain(spec), s.peer, before=s.before),
                predict(spec, s.peer, before=s.before), None)
            for i, (s, o) in enumerate(zip(SERVERS, obs, strict=True), 1)]


def test_the_denylist_is_said_to_be_unseen() -> None:
    inferred = infer(_observations(resolve_peer("ts-client@2.4:auto", "client")), REGISTRY)
    assert any("fallback-denylist" in u for u in inferred.unknown)


def test_a_fallback_keyed_to_32601_is_a_finding_on_the_32602_server() -> None:
    client = parse_peer("dual:2026-07-28,2025-11-25+fallback-32601", "client")
    obs = _observations(client)
    inferred = infer(obs, REGISTRY)
    assert inferred.spec is not None
    rows = _rows(inferred.spec, obs)
    codes = {(f.code, rows[f.index - 1].server) for f in client_findings(rows, "dual")
             if f.index is not None}
    assert ("client-fallback-keyed-to-code", "legacy:2025-11-25+unknown-32602") in codes
    assert ("client-no-fallback-on-timeout", "legacy:2025-11-25+silent") in codes
    # the model predicts every run: the inference saw all it needed
    assert all(r.model_agrees for r in rows)


def test_the_spec_client_of_a_kind_follows_the_era_table() -> None:
    """For a server without quirks the plain client's prediction is the era table's row."""
    assert ERA_TABLE == SPEC_ERA_TABLE
    for kind, revs in (("legacy", "2025-11-25"), ("modern", "2026-07-28"),
                       ("dual", "2026-07-28,2025-11-25")):
        client = parse_peer(f"{kind}:{revs}", "client")
        for s in SERVERS:
            server = s.peer
            if server.quirks or s.before is not None:
                continue
            works = predict(plain(client), server).outcome == "works"
            assert works == era_table_says(client, server), (client.notation, server.notation)


def test_a_probe_wait_is_rounded_up_to_a_round_number() -> None:
    assert [round_ms(ms) for ms in (2_950, 3_020, 9_400, 10_050, 59_000, 61_000)] == [
        3_000, 3_000, 10_000, 10_000, 60_000, 60_000]
    # a fallback on a fresh process, stamped after its start-up on a loaded machine
    assert [round_ms(ms) for ms in (3_342, 3_400, 3_600)] == [3_000, 3_000, 5_000]


def _wall(index: int, t: str, direction: str, **fields: object) -> LogEntry:
    return LogEntry(index=index, t_ms=0.0, dir=direction, t=t, **fields)  # type: ignore[arg-type]


def test_rebase_times_a_process_first_line_from_its_start() -> None:
    """The server read the probe a second after the client started it: the probe was sent at
    the start, so its wait is measured from there."""
    entries = [
        _wall(0, "2026-01-01T00:00:01.000Z", "event", kind="start", text="start"),
        _wall(1, "2026-01-01T00:00:01.010Z", "c2s", line="{}", message={}),
        _wall(2, "2026-01-01T00:00:04.000Z", "c2s", line="{}", message={}),
    ]
    spawned = [1767225600.0]  # 2026-01-01T00:00:00Z
    out = rebase(entries, spawned)
    assert [e.t_ms for e in out] == [0.0, 0.0, 4000.0]


def test_a_log_without_wall_times_is_left_as_it_is() -> None:
    entries, _ = _log(parse_peer("legacy:2025-11-25", "client"),
                      parse_peer("legacy:2025-11-25", "server"))
    assert rebase(entries, [0.0]) == entries


def test_a_client_that_sent_nothing_infers_nothing(tmp_path: Path) -> None:
    obs = [observe(s.spec, [], [], 1, False, registry=REGISTRY) for s in SERVERS]
    inferred = infer(obs, REGISTRY)
    assert inferred.spec is None and "no revision" in inferred.sentence
    assert all(o.outcome == "fails" and o.failed_on == "no request was sent" for o in obs)


def _report(client_spec: str) -> ClientReport:
    """A whole card from simulated logs, as probe_client() builds it (no process)."""
    client = parse_peer(client_spec, "client")
    obs = _observations(client)
    inferred = infer(obs, REGISTRY)
    assert inferred.spec is not None
    rows = _rows(inferred.spec, obs)
    runs = [RealClientRun(s.spec, ("client", "<b>&"), Path(f"{i}.jsonl"), exit_code=o.exit_code,
                      stderr="scripted: could not connect\n" if o.outcome != "works" else "")
            for i, (s, o) in enumerate(zip(SERVERS, obs, strict=True), 1)]
    report = ClientReport(("client", "<b>&", "{server}"), "stdio", rows, runs, inferred,
                          required=("2025-11-25", "1999-01-01"))
    report.findings = client_findings(rows, inferred.spec.kind)
    return report


def test_every_format_renders_the_same_card() -> None:
    report = _report("dual:2026-07-28,2025-11-25+fallback-32601")
    text = render(report, "text")
    assert "client-fallback-keyed-to-code" in text and "+fallback-32601" in text
    assert "1999-01-01: NOT reached" in text and "2025-11-25: reached" in text
    doc = json.loads(render(report, "json"))
    assert doc["inferred"]["spec"] == "dual:2026-07-28,2025-11-25+fallback-32601"
    assert [f["code"] for f in doc["findings"]].count("client-fallback-keyed-to-code") == 1
    root = ET.fromstring(render(report, "junit"))
    suites = root.findall("testsuite")
    assert suites[0].get("tests") == str(len(SERVERS))
    failed = [c.get("name") for c in suites[0].iter("testcase") if c.find("failure") is not None]
    assert "legacy:2025-11-25+unknown-32602" in failed
    assert suites[1].get("failures") == "1"  # 1999-01-01 is reached by no server
    page = render(report, "html")
    assert "'<b>&'" not in page and "&#x27;&lt;b&gt;&amp;&#x27;" in page  # the words, escaped
    summary = [line.split("|") for line in render(report, "summary").splitlines()
               if "`legacy:2025-11-25+unknown-32602`" in line and line.startswith("|")]
    assert [cell.strip() for cell in summary[0][3:5]] == ["❌ fails", "-"]
    assert report.required_failures() == ["1999-01-01: no server of 1999-01-01 was reached"]


def test_the_spec_dual_client_is_told_it_falls_back_on_a_dead_process() -> None:
    report = _report("dual:2026-07-28,2025-11-25")
    found = {(f.code, report.rows[f.index - 1].server) for f in report.findings
             if f.index is not None}
    assert found == {("client-no-fresh-process", "legacy:2025-11-25+silent-exit")}
    assert _report("dual:2026-07-28,2025-11-25+restart").findings == []


UPGRADE_ROW = "legacy:2025-11-25->dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"


@pytest.mark.parametrize("spec", ["dual:2026-07-28,2025-11-25+keeps-era",
                                  "dual:2026-07-28,2025-11-25+restart+keeps-era"])
def test_a_client_that_keeps_the_era_is_found_on_the_upgrade_row(spec: str) -> None:
    report = _report(spec)
    found = [(f.code, f.severity, report.rows[f.index - 1].server) for f in report.findings
             if f.code == "client-keeps-legacy-after-upgrade" and f.index is not None]
    assert found == [("client-keeps-legacy-after-upgrade", "warning", UPGRADE_ROW)]
    row = next(r for r in report.rows if r.server == UPGRADE_ROW)
    assert (row.observed.first, row.observed.era) == ("initialize", "legacy")
    assert row.spec is not None and row.spec.era == "modern"  # the plain client probes again
    assert row.model_agrees  # the inferred +keeps-era predicts it
    fresh = next(r for r in report.rows if r.server == UPGRADE_ROW.split("->")[1])
    assert fresh.observed.era == "modern"
    assert not any(f.code == "client-prefers-legacy" for f in report.findings)
    assert "keeps the legacy era after its server was upgraded" in report.inferred.sentence


@pytest.mark.parametrize("spec", ["dual:2026-07-28,2025-11-25", "ts-client@2.4:auto",
                                  "py-mcp@2.3", "legacy:2025-11-25"])
def test_a_client_that_probes_again_is_not_found_on_the_upgrade_row(spec: str) -> None:
    client = resolve_peer(spec, "client")
    obs = _observations(client)
    inferred = infer(obs, REGISTRY)
    assert inferred.spec is not None and not inferred.spec.has("keeps-era")
    rows = _rows(inferred.spec, obs)
    codes = {f.code for f in client_findings(rows, inferred.spec.kind)}
    assert "client-keeps-legacy-after-upgrade" not in codes
    row = next(r for r in rows if r.server == UPGRADE_ROW)
    expected = "legacy" if client.kind == "legacy" else "modern"
    assert row.observed.era == expected and row.model_agrees


def test_same_model_leaves_out_only_what_probe_client_cannot_see() -> None:
    """The call quirks (what a client does with a tool call's result) are not served to the
    client under test, so a named model that carries them is the same model as one inferred
    without them (the real-peer step saw ts-client@2.4 differ by these alone); any other
    quirk still makes a difference."""
    plain = parse_peer("legacy:2025-11-25,2025-06-18", "client")
    calls = parse_peer("legacy:2025-11-25,2025-06-18+declared-dialects+needs-structured-content"
                       "+checks-structured-content", "client")
    assert same_model(plain, calls) and same_model(calls, plain)
    assert not same_model(plain, parse_peer("legacy:2025-11-25,2025-06-18+strict-results",
                                            "client"))

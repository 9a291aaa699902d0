"""Issue 37: the races of time, predicted on the simulator's virtual clock.

A server peer saved by ``probe --save-peer`` carries the cold start the probe measured
(``cold_start.ms``, read as its quirk ``slow``); the matrix then predicts each race of the
issue for the named clients whose waits cause it, marks the cell ``⏱`` and says in the
legend how the race goes. Nothing sleeps: every time here is simulated.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from _fuzz import run_cli

from mcp_skew.matrix import build_matrix
from mcp_skew.peers import load_probe_peer, resolve_peer
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.probe._peer import Evidence, InferredPeer, save_peer
from mcp_skew.probe._report import risk_line
from mcp_skew.probe._startup import at_risk, first_wait
from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.versions import REGISTRY

#: the real Python mcp 2.3 server as a probe infers it (dual-era, sticky era)
PY_SERVER = ("dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05+sticky-era"
             "+early-32602")
PLAIN_DUAL_SERVER = "dual:2026-07-28,2025-11-25"


def saved_peer(tmp_path: Path, notation: str, cold_ms: int, name: str = "peer.json") -> Path:
    """A server peer file as ``probe --save-peer`` writes it, with a measured cold start."""
    path = tmp_path / name
    startup = {"cold_start_ms": cold_ms}
    inferred = InferredPeer(parse_peer(notation, "server"), "behaves like it",
                            Evidence(registry=REGISTRY))
    save_peer(inferred, path, "python server.py", "slow-server", startup=startup,
              first_answers=[cold_ms, cold_ms + 400, None])
    return path


def cell(client: str, server: PeerSpec) -> tuple[str, str | None, str, str | None]:
    spec = resolve_peer(client, "client")
    matrix = build_matrix([spec], [server])
    only = matrix.cells[0][0]
    return only.status, only.revision, only.mark, only.race


# -- the saved peer carries its cold start ---------------------------------------------------

def test_a_saved_server_peer_carries_its_measured_cold_start(tmp_path: Path) -> None:
    path = saved_peer(tmp_path, PY_SERVER, 2600)
    doc = json.loads(path.read_text())
    assert doc["cold_start"]["ms"] == 2600
    assert doc["cold_start"]["samples"] == 2  # the runs whose server answered
    assert (doc["cold_start"]["min_ms"], doc["cold_start"]["max_ms"]) == (2600, 3000)
    assert doc["cold_start"]["cpus"] and "load_1m" in doc["cold_start"]
    peer = load_probe_peer(path)
    assert dict(peer.quirks)["slow"] == "2600"
    assert peer.server_policy.startup_ms == 2600
    assert "measured cold start 2600 ms" in peer.note


def test_a_peer_saved_without_a_measured_start_has_none(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    inferred = InferredPeer(parse_peer(PY_SERVER, "server"), "s", Evidence(registry=REGISTRY))
    save_peer(inferred, path, "python server.py", "old")
    assert "cold_start" not in json.loads(path.read_text())
    assert load_probe_peer(path).server_policy.startup_ms == 0


def test_a_bad_cold_start_in_a_peer_file_is_one_clear_error(tmp_path: Path) -> None:
    path = saved_peer(tmp_path, PY_SERVER, 100)
    doc = json.loads(path.read_text())
    doc["cold_start"]["ms"] = "soon"
    path.write_text(json.dumps(doc))
    code, _, err = run_cli(["matrix", "--clients", "py-mcp@2.3", "--servers", f"@{path}"])
    assert code == 2 and "cold_start.ms must be a whole number" in err
    assert "Traceback" not in err


# -- the races of the issue, one test each ---------------------------------------------------

def test_race_a_one_second_probe_wait_against_a_sticky_server_that_starts_in_2_s(
        tmp_path: Path) -> None:
    """First race: the client gives up on its probe after 1 s, sends initialize on the same
    process, gets -32022 (the late probe fixed the modern era) and does not probe again."""
    server = load_probe_peer(saved_peer(tmp_path, PY_SERVER, 2000))
    client = "dual:2026-07-28,2025-11-25+probe-timeout=1000+no-reprobe"
    status, revision, _, race = cell(client, server)
    assert (status, revision) == ("failed", None)
    assert race == ("works (2026-07-28) if the server answers within 1 s (the client's "
                    "server/discover wait); its cold start is 2 s: fails")
    record = run(parse_peer(client, "client"), server)
    assert record.session.path[-1] == "error -32022"
    # the plain dual client probes again, and the Python mcp 2.3 client waits 10 s
    assert cell("dual:2026-07-28,2025-11-25+probe-timeout=1000", server)[2] == "re-probe"
    assert cell("py-mcp@2.3", server)[:3] == ("ok", "2026-07-28", "direct")


@pytest.mark.parametrize(("cold", "expected"), [
    (2000, ("ok", "2026-07-28", "direct",
            "works (2026-07-28) if the server answers within 3 s (the client's server/discover "
            "wait), as with its cold start of 2 s; later: works (2025-11-25, era-fallback)")),
    (4000, ("ok", "2025-11-25", "era-fallback",
            "works (2026-07-28) if the server answers within 3 s (the client's server/discover "
            "wait); its cold start is 4 s: works (2025-11-25, era-fallback)")),
    (6000, ("failed", None, "failed",
            "works (2026-07-28) if the server answers within 3 s (the client's server/discover "
            "wait); its cold start is 6 s: fails")),
])
def test_race_one_5_s_timeout_over_probe_and_initialize(tmp_path: Path, cold: int,
                                                        expected: tuple[object, ...]) -> None:
    """Second race: one 5 s timeout covers the probe and initialize; a server slower than
    the probe wait goes legacy while initialize still fits, and fails once it does not."""
    server = load_probe_peer(saved_peer(tmp_path, PLAIN_DUAL_SERVER, cold))
    assert cell("dual:2026-07-28,2025-11-25+connect-timeout=5000", server) == expected


def test_race_the_inspector_legacy_connect_timeout_is_15_s(tmp_path: Path) -> None:
    """Third race: the Inspector CLI in legacy mode waits 15 s (its connect timeout), not the
    10 s the model waited; a Python mcp 2.3 server answering at 12 s works, at 20 s fails."""
    at_12 = load_probe_peer(saved_peer(tmp_path, PY_SERVER, 12_000, "twelve.json"))
    status, revision, _, race = cell("inspector@2.12:legacy", at_12)
    assert (status, revision) == ("ok", "2025-11-25")
    assert race == ("works (2025-11-25) if the server answers within 15 s (the client's "
                    "connect timeout), as with its cold start of 12 s; later: fails")
    at_20 = load_probe_peer(saved_peer(tmp_path, PY_SERVER, 20_000, "twenty.json"))
    assert cell("inspector@2.12:legacy", at_20)[:2] == ("failed", None)
    assert cell("inspector@2.12:legacy+connect-timeout=15000", at_20)[:2] == ("failed", None)


@pytest.mark.parametrize("mode", ["legacy", "auto", "modern"])
def test_every_named_inspector_model_waits_15_s(mode: str) -> None:
    client = resolve_peer(f"inspector@2.12:{mode}", "client")
    silent = parse_peer("legacy:2025-11-25+silent" if mode != "legacy"
                        else "legacy:2025-11-25+slow=60000", "server")
    record = run(client, silent)
    assert record.status == "failed"
    assert "timeout after 15000 ms" in record.session.path
    assert "connect timed out after 15000 ms" in record.session.reason


def test_an_incomplete_discover_answer_is_predicted_for_the_clients_that_refuse_it() -> None:
    server = parse_peer(f"{PLAIN_DUAL_SERVER}+discover-incomplete", "server")
    assert cell("py-mcp@2.3", server)[:3] == ("ok", "2025-11-25", "era-fallback")
    assert cell("ts-client@2.4:auto", server)[:3] == ("ok", "2025-11-25", "era-fallback")
    assert cell("ts-client@2.4:pin", server)[0] == "failed"
    assert cell("dual:2026-07-28,2025-11-25", server)[:2] == ("ok", "2026-07-28")


# -- the matrix command: the mark, the legend, --cold-start ----------------------------------

def test_matrix_cold_start_asks_what_if_the_server_starts_in_8_s(tmp_path: Path) -> None:
    path = saved_peer(tmp_path, PY_SERVER, 300)
    args = ["matrix", "--clients", "py-mcp@2.3", "--servers", f"@{path}", "--wide"]
    code, out, _ = run_cli(args)
    assert code == 0 and "⏱" not in out  # 0.3 s races none of its waits
    code, out, _ = run_cli([*args, "--cold-start", "8000"])
    assert code == 0 and "2026 ⏱" in out
    assert ("works (2026-07-28) if the server answers within 10 s (the client's "
            "server/discover wait), as with its cold start of 8 s; later: works (2026-07-28, "
            "re-probe)") in " ".join(out.split())
    code, out, _ = run_cli([*args, "--cold-start", "12000", "--format", "json"])
    race = json.loads(out)["cells"][0][0]["race"]
    assert race.startswith("works (2026-07-28) if the server answers within 10 s")
    code, _, err = run_cli([*args, "--cold-start", "-1"])
    assert code == 2 and err.startswith("mcp-skew: error: --cold-start")


def test_a_race_is_decided_the_same_way_every_time(tmp_path: Path) -> None:
    server = load_probe_peer(saved_peer(tmp_path, PY_SERVER, 2000))
    clients = [resolve_peer(c, "client") for c in
               ("dual:2026-07-28,2025-11-25+probe-timeout=1000+no-reprobe",
                "inspector@2.12:legacy", "py-mcp@2.3")]
    first = build_matrix(clients, [server]).to_dict()
    assert build_matrix(clients, [server]).to_dict() == first


# -- the probe names the real clients a cold start endangers ---------------------------------

def test_first_wait_is_the_probe_the_first_request_or_the_connect_timeout() -> None:
    assert first_wait(resolve_peer("py-mcp@2.3", "client")) == ("server/discover wait", 10_000)
    assert first_wait(resolve_peer("inspector@2.12:legacy", "client")) == ("connect timeout",
                                                                           15_000)
    assert first_wait(resolve_peer("inspector@2.12:auto", "client")) == ("connect timeout",
                                                                         15_000)
    assert first_wait(resolve_peer("ts-client@2.4:auto", "client")) == ("server/discover wait",
                                                                        60_000)
    assert first_wait(parse_peer("legacy:2025-11-25+request-timeout=60000", "client")) == (
        "initialize wait", 60_000)
    # no stated wait: the simulator's default is not a real client's
    assert first_wait(parse_peer("legacy:2025-11-25", "client")) is None
    assert first_wait(resolve_peer("py-mcp@1.22", "client")) is None


def test_at_risk_names_the_clients_a_cold_start_and_its_spread_endanger() -> None:
    clients = [resolve_peer(n, "client") for n in
               ("py-mcp@2.3", "inspector@2.12:legacy", "ts-client@2.4:auto")]
    assert at_risk(12_000, [12_000, 13_000], clients) == [
        {"client": "py-mcp@2.3", "wait": "server/discover wait", "wait_ms": 10_000,
         "risk": "gives up"},
        {"client": "inspector@2.12:legacy", "wait": "connect timeout", "wait_ms": 15_000,
         "risk": "at risk"},
    ]
    assert at_risk(1_400, [900, 2_800], clients) == []  # 2 x 2.8 s is below every wait
    assert at_risk(None, [], clients) == []


def test_the_card_names_the_endangered_clients_with_their_numbers() -> None:
    clients = [resolve_peer(n, "client") for n in ("py-mcp@2.3", "inspector@2.12:legacy")]
    startup = {"cold_start_ms": 12_000, "spread_ms": [11_000, 13_000],
               "at_risk": at_risk(12_000, [11_000, 13_000], clients)}
    line = risk_line(SimpleNamespace(startup=startup))  # type: ignore[arg-type]
    assert line == ("named clients this cold start endangers (12000 ms; 11000-13000 ms over the "
                    "probe's starts): give up before it answers: py-mcp@2.3 (server/discover "
                    "wait 10000 ms); at risk on a busier machine (within twice the slowest "
                    "start): inspector@2.12:legacy (connect timeout 15000 ms)")
    assert risk_line(SimpleNamespace(startup={"cold_start_ms": 300})) is None  # type: ignore[arg-type]


def test_the_probe_infers_an_incomplete_discover_answer_and_the_matrix_predicts_it() -> None:
    spec = parse_peer(f"{PLAIN_DUAL_SERVER}+discover-incomplete", "server")
    report = probe(Target(simulated=spec), ProbeOptions())
    assert report.peer.spec is not None
    assert report.peer.spec.notation == f"{PLAIN_DUAL_SERVER}+discover-incomplete"
    assert "server/discover result without capabilities" in report.peer.sentence
    assert cell("py-mcp@2.3", report.peer.spec)[:3] == ("ok", "2025-11-25", "era-fallback")
    plain = probe(Target(simulated=parse_peer(PLAIN_DUAL_SERVER, "server")), ProbeOptions())
    assert plain.peer.spec is not None and not plain.peer.spec.has("discover-incomplete")

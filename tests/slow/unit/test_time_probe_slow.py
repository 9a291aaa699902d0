"""Issue 37 over real processes: a slow-starting server's saved peer carries its measured
cold start, the matrix from it predicts the races, and the card names the clients at risk."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.matrix import build_matrix
from mcp_skew.peers import load_probe_peer
from mcp_skew.simulator import parse_peer

SERVERS = Path(__file__).resolve().parents[2] / "servers"
SIM = (sys.executable, str(SERVERS / "sim_stdio_server.py"))
#: a Python-mcp-2.3-like server (sticky era) that takes 2.5 s before it reads anything
SLOW = "dual:2026-07-28,2025-11-25+sticky-era+slow=2500"


def test_a_slow_servers_saved_peer_predicts_its_races(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    peer, report = tmp_path / "peer.json", tmp_path / "report.json"
    code = main(["probe", "--quiet", "--format", "json", "--out", str(report),
                 "--save-peer", str(peer), "--", *SIM, SLOW])
    assert code == 0, capsys.readouterr().err
    saved = json.loads(peer.read_text())
    cold = saved["cold_start"]
    assert cold["ms"] >= 2500  # load only makes a start slower
    assert cold["samples"] >= 1 and cold["min_ms"] <= cold["median_ms"] <= cold["max_ms"]
    assert cold["cpus"] >= 1
    server = load_probe_peer(peer)
    assert server.server_policy.startup_ms == cold["ms"]
    # a 1 s probe wait without a re-probe fails against it, whatever the load
    quick = parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=1000+no-reprobe", "client")
    patient = parse_peer("dual:2026-07-28,2025-11-25+probe-timeout=60000", "client")
    matrix = build_matrix([quick, patient], [server])
    failed, works = matrix.cells[0][0], matrix.cells[1][0]
    assert failed.status == "failed" and failed.race is not None
    assert failed.race.startswith("works (2026-07-28) if the server answers within 1 s")
    assert (works.status, works.revision, works.mark) == ("ok", "2026-07-28", "direct")
    # the card's clients at risk follow its numbers: gives up below the cold start, at risk
    # within twice the slowest start the probe saw
    startup = json.loads(report.read_text())["startup"]
    low, high = startup["spread_ms"]
    assert low <= startup["cold_start_ms"] <= high
    for row in startup["at_risk"]:
        if row["risk"] == "gives up":
            assert row["wait_ms"] < startup["cold_start_ms"]
        else:
            assert startup["cold_start_ms"] <= row["wait_ms"] < 2 * high

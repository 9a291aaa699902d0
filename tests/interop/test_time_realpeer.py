"""Issue 37 against the real Inspector CLI: a real slow-starting server's saved peer carries
its measured cold start, and the matrix from that peer predicts the Inspector's 15 s connect
timeout both ways: a server made to start in 20 s fails, one made to start in 2 s works.

The server is a real process (``tests/servers/sim_stdio_server.py``: a simulated server
behind real stdio, which sleeps its ``slow`` before it reads anything); ``probe --save-peer``
measures it, and the real ``inspector --cli --protocol-era legacy`` is run against the same
command through the drift checks' driver.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.matrix import build_matrix
from mcp_skew.peers import load_probe_peer, resolve, resolve_peer
from mcp_skew.realpeers._client_drift import run_driver
from mcp_skew.realpeers._envs import EnvironmentUnavailable
from mcp_skew.realpeers._installs import client_command, install

SERVERS = Path(__file__).resolve().parents[1] / "servers"
SIM = (sys.executable, str(SERVERS / "sim_stdio_server.py"))
SERVER = "dual:2026-07-28,2025-11-25+sticky-era"


@pytest.mark.parametrize(("start_ms", "works"), [(20_000, False), (2_000, True)])
def test_the_matrix_from_a_saved_slow_peer_predicts_the_real_inspector(
        tmp_path: Path, start_ms: int, works: bool) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    inspector = resolve("inspector@2.12:legacy", "client")
    assert inspector is not None and inspector.line.installs is not None
    try:
        env = install(inspector.line.installs)
    except EnvironmentUnavailable as exc:
        pytest.skip(str(exc))
    command = [*SIM, f"{SERVER}+slow={start_ms}"]
    peer_file = tmp_path / "peer.json"
    assert main(["probe", "--quiet", "--format", "json", "--out", str(tmp_path / "r.json"),
                 "--save-peer", str(peer_file), "--", *command]) == 0
    cold = json.loads(peer_file.read_text())["cold_start"]["ms"]
    assert cold >= start_ms  # measured: the sleep, and the process's own start on top
    server = load_probe_peer(peer_file)
    cell = build_matrix([resolve_peer("inspector@2.12:legacy", "client")], [server]).cells[0][0]
    assert (cell.status == "ok") is works, cell.reason
    if not works:
        assert cell.race is not None and "within 15 s (the client's connect timeout)" in cell.race
    real = run_driver(client_command(inspector.family, inspector.model, env, command),
                      timeout_s=120)
    assert real.result, real.stderr[-600:]
    assert real.result["ok"] is works, real.result
    if not works:
        assert "15000" in real.result["error"] or "timed out" in real.result["error"].lower()

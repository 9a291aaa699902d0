"""``mcp-skew replay``: a log's client side sent again; where the answers differ.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_record_replay.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _serve_helpers import C, V, request
from _waits import BOUND_S

from mcp_skew.serve._log import read_log
from mcp_skew.serve._replay import outcome, replay_command, replay_simulated
from mcp_skew.simulator import parse_peer
from mcp_skew.versions import REGISTRY

TIMEOUT = BOUND_S


CLIENT = [
    request(0, "server/discover", {"_meta": {V: "2026-07-28", C: {}}}),
    request(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}}),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    request(2, "tools/list"),
    request(3, "tools/call", {"name": "fail", "arguments": {}}),
    request(4, "resources/read", {"uri": "mem://missing"}),
]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log recorded through `record` in front of `serve legacy:2025-06-18+silent`."""
    log = tmp_path_factory.mktemp("replay") / "wire.jsonl"
    data = b"".join(json.dumps(m).encode() + b"\n" for m in CLIENT)
    subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
                    sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-06-18+silent"],
                   input=data, capture_output=True, timeout=TIMEOUT, check=True)
    return log


def test_same_server_same_answers(recorded: Path) -> None:
    entries, _ = read_log(recorded)
    report = replay_simulated(entries, parse_peer("legacy:2025-06-18+silent", "server"))
    assert report.ok and report.counts() == {"same": 5, "differs": 0, "missing": 0}
    assert report.recorded.path == report.replayed.path


def test_another_revision_differs_with_a_json_diff(recorded: Path) -> None:
    entries, _ = read_log(recorded)
    report = replay_simulated(entries, parse_peer("legacy:2025-11-25", "server"))
    by_method = {x.method: x for x in report.exchanges}
    assert by_method["server/discover"].verdict == "missing"  # now answered -32601
    assert outcome(by_method["server/discover"].replayed) == "error -32601"
    init = by_method["initialize"]
    assert init.verdict == "differs"
    assert init.diff == ['result.protocolVersion: "2025-06-18" -> "2025-11-25"']
    assert report.replayed.path[:2] == ["discover 2026-07-28", "error -32601"]
    assert not report.ok


def test_a_modern_server_refuses_the_handshake(recorded: Path) -> None:
    entries, _ = read_log(recorded)
    report = replay_simulated(entries, parse_peer("modern:2026-07-28", "server"))
    init = next(x for x in report.exchanges if x.method == "initialize")
    assert (outcome(init.recorded), outcome(init.replayed)) == ("result", "error -32601")
    # the probe now succeeds; the client (which did not wait) initializes anyway, refused
    assert report.replayed.path == ["discover 2026-07-28", "accepted 2026-07-28",
                                    "initialize 2025-11-25", "error -32601"]


def test_a_server_that_exits_leaves_the_rest_missing(recorded: Path) -> None:
    entries, _ = read_log(recorded)
    report = replay_simulated(entries, parse_peer("legacy:2025-06-18+silent-exit", "server"))
    assert [x.verdict for x in report.exchanges] == ["same", "missing", "missing", "missing",
                                                     "missing"]
    assert report.replayed.path[-1] == "server exited"


def test_replay_against_a_real_process(recorded: Path) -> None:
    entries, _ = read_log(recorded)
    argv = [sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-06-18+silent"]
    # each answer: a bound far above the work
    report = replay_command(entries, argv, registry=REGISTRY, timeout_s=BOUND_S)
    assert report.ok, [x.to_dict() for x in report.exchanges]
    sent = [e.line for e in report.replayed_entries if e.dir == "c2s"]
    assert sent == [e.line for e in entries if e.dir == "c2s"]  # the exact lines again
    assert report.replayed_entries[-1].kind == "exit"


def test_replay_command_line(recorded: Path) -> None:
    same = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(recorded),
                           "--server", "legacy:2025-06-18+silent"], capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)
    assert same.returncode == 0 and "5 requests: 5 same, 0 differ, 0 missing" in same.stdout
    other = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(recorded),
                            "--server", "legacy:2025-11-25", "--json"], capture_output=True,
                           text=True, timeout=TIMEOUT, check=False)
    data = json.loads(other.stdout)
    assert other.returncode == 1 and data["counts"] == {"same": 3, "differs": 1, "missing": 1}
    ignored = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(recorded),
                              "--server", "legacy:2025-11-25", "--ignore",
                              "result.protocolVersion", "--json"], capture_output=True,
                             text=True, timeout=TIMEOUT, check=False)
    assert json.loads(ignored.stdout)["counts"]["differs"] == 0
    real = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(recorded), "--",
                           sys.executable, "-m", "mcp_skew", "serve", "-q",
                           "legacy:2025-06-18+silent"], capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    assert real.returncode == 0, real.stdout + real.stderr
    both = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(recorded),
                           "--server", "legacy:2025-06-18", "--", "true"], capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)
    assert both.returncode == 2 and "either --server PEER or -- COMMAND" in both.stderr

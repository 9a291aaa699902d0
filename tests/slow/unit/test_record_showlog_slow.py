"""``mcp-skew show-log``: a wire log read as a person reads it, with the negotiation explained.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_record_showlog.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from _waits import BOUND_S

TIMEOUT = BOUND_S


def test_show_log_command_on_a_simulate_json_run(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    sim = subprocess.run([sys.executable, "-m", "mcp_skew", "simulate", "--client",
                          "dual:2026-07-28,2025-11-25", "--server", "legacy:2025-06-18", "--json"],
                         capture_output=True, text=True, timeout=TIMEOUT, check=True)
    path.write_text(sim.stdout)
    shown = subprocess.run([sys.executable, "-m", "mcp_skew", "show-log", str(path)],
                           capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert shown.returncode == 0
    expected = json.loads(sim.stdout)["path"]
    assert expected[:2] == ["discover 2026-07-28", "error -32601"]
    assert "path: " + " -> ".join(expected) in shown.stdout
    as_json = subprocess.run([sys.executable, "-m", "mcp_skew", "show-log", "--json",
                              str(path)], capture_output=True, text=True, timeout=TIMEOUT,
                             check=True)
    data = json.loads(as_json.stdout)
    assert data["path"] == expected and data["status"] == json.loads(sim.stdout)["status"]


def test_show_log_of_a_missing_or_empty_file(tmp_path: Path) -> None:
    for path, what in ((tmp_path / "nope.jsonl", "cannot read"), (tmp_path / "empty.jsonl",
                                                                  "is empty")):
        if what == "is empty":
            path.write_text("")
        proc = subprocess.run([sys.executable, "-m", "mcp_skew", "show-log", str(path)],
                              capture_output=True, text=True, timeout=TIMEOUT, check=False)
        assert proc.returncode == 2 and what in proc.stderr

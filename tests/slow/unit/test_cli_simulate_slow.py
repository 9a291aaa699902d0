"""``mcp-skew simulate``: the JSON shape, the wire log, exit codes, and the user guide's trace.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_cli_simulate.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

from _paths import ROOT


def test_as_a_process() -> None:
    """The installed entry point: exit 0 with JSON for a failed run, 2 with one line for a bad spec."""
    cmd = [sys.executable, "-m", "mcp_skew", "simulate"]
    failed = subprocess.run([*cmd, "--client", "2025-06-18", "--server", "modern:2026-07-28",
                             "--json"], capture_output=True, text=True, check=False, cwd=ROOT)
    assert failed.returncode == 0 and json.loads(failed.stdout)["status"] == "failed"
    bad = subprocess.run([*cmd, "--client", "dual:2026-07-28", "--server", "2025-06-18"],
                         capture_output=True, text=True, check=False, cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


# -- docs/simulator.md -------------------------------------------------------------------------------




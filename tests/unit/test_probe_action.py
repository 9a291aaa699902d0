"""The GitHub Action (action.yml) and its script, run with the environment a runner gives a step.

The script runs in a subprocess, as the action's step runs it, against the
hand-written legacy server; the runner's files (job summary, step outputs) are
files under tmp_path that already hold what earlier steps wrote.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
MODULE = "mcp_skew.commands.probe_action"


def test_action_yml_runs_the_script_with_every_input_it_reads() -> None:
    text = ACTION.read_text(encoding="utf-8")
    assert "using: composite" in text
    assert f"run: python -m {MODULE}" in text
    script = (ROOT / "mcp_skew" / "commands" / "probe_action.py").read_text(encoding="utf-8")
    read = set(re.findall(r'"(INPUT_[A-Z_]+)"', script))
    passed = set(re.findall(r"^\s+(INPUT_[A-Z_]+): \$\{\{ inputs\.([a-z-]+) \}\}", text, re.M))
    assert read == {name for name, _ in passed}
    declared = set(re.findall(r"^  ([a-z-]+):\n    description:", text, re.M))
    assert {inp for _, inp in passed} <= declared
    for step in ("actions/setup-python@", "actions/upload-artifact@",
                 'exit "${{ steps.probe.outputs.exit-code || 2 }}"'):
        assert step in text

"""The GitHub Action (action.yml) and its script, run with the environment a runner gives a step.

The script runs in a subprocess, as the action's step runs it, against the
hand-written legacy server; the runner's files (job summary, step outputs) are
files under tmp_path that already hold what earlier steps wrote.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_probe_action.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

from _paths import ROOT

SERVER = ROOT / "tests" / "servers" / "legacy_lenient.py"
MODULE = "mcp_skew.commands.probe_action"


def _runner_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """What a GitHub runner sets for a step, plus the action's inputs as INPUT_*."""
    (tmp_path / "summary.md").write_text("# earlier step\n", encoding="utf-8")
    (tmp_path / "output.txt").write_text("earlier=1\n", encoding="utf-8")
    (tmp_path / "temp").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
    env.update({
        "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"), "RUNNER_TEMP": str(tmp_path / "temp"),
        "RUNNER_OS": "Linux", "GITHUB_ACTION_PATH": str(ROOT),
    })
    env.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    return env


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", MODULE], env=env, capture_output=True,
                          text=True, timeout=120, check=False, cwd=env["GITHUB_WORKSPACE"])


def _outputs(tmp_path: Path) -> dict[str, str]:
    lines = (tmp_path / "output.txt").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines)


def test_the_action_script_writes_reports_summary_and_outputs(tmp_path: Path) -> None:
    env = _runner_env(tmp_path, command=f"{sys.executable} {SERVER}",
                      require="2025-06-18,2026-07-28", args="--no-prober --timeout 5")
    done = _run(env)
    assert done.returncode == 0, done.stderr  # the upload step must still run
    assert "required revision failed: 2026-07-28: modern:2026-07-28 incompatible" in done.stderr
    assert "what to change:" in done.stdout
    outputs = _outputs(tmp_path)
    assert outputs["earlier"] == "1" and outputs["exit-code"] == "1"
    assert outputs["peer"] == "legacy:2025-06-18,2025-03-26+lenient"
    out = Path(outputs["dir"])
    assert out == tmp_path / "temp" / "mcp-skew-probe"
    assert sorted(p.name for p in out.iterdir()) == ["probe.html", "probe.json", "probe.txt",
                                                      "probe.xml"]
    doc = json.loads(Path(outputs["json"]).read_text(encoding="utf-8"))
    assert doc["required"]["2025-06-18"]["ok"] and not doc["required"]["2026-07-28"]["ok"]
    suites = ET.parse(outputs["junit"]).getroot().findall("testsuite")
    assert len(suites[0].findall("testcase")) == 10
    assert [c.get("name") for c in suites[1].findall("testcase")] == [
        "serves 2025-06-18 clients", "serves 2026-07-28 clients"]
    assert Path(outputs["html"]).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# earlier step\n## mcp-skew probe: `")
    assert "| 2026-07-28 | ❌ failed" in summary


def test_bad_input_is_one_line_exit_2_and_an_exit_code_output(tmp_path: Path) -> None:
    env = _runner_env(tmp_path, command=f"{sys.executable} {SERVER}", args="--timeout -1")
    done = _run(env)
    assert done.returncode == 2
    # one line naming the option (its wording is the CLI's own: tests/unit/test_probe_cli.py)
    assert done.stderr.startswith("mcp-skew: error: --timeout") and done.stderr.count("\n") == 1
    assert _outputs(tmp_path)["exit-code"] == "2"
    assert not (tmp_path / "temp" / "mcp-skew-probe").exists()


CLIENT = ROOT / "tests" / "clients" / "scripted_client.py"


def test_client_mode_runs_probe_client_and_gates_on_require(tmp_path: Path) -> None:
    env = _runner_env(tmp_path, client=f"{sys.executable} {CLIENT} --era legacy -- {{server}}",
                      require="2025-11-25,2026-07-28",
                      args="--server legacy:2025-11-25 --server modern:2026-07-28 --timeout 60")
    done = _run(env)
    assert done.returncode == 0, done.stderr  # the upload step must still run
    assert "required revision not reached: 2026-07-28" in done.stderr
    outputs = _outputs(tmp_path)
    assert outputs["earlier"] == "1" and outputs["exit-code"] == "1"
    assert outputs["peer"].startswith("legacy:2025-11-25")
    out = Path(outputs["dir"])
    assert out == tmp_path / "temp" / "mcp-skew-probe-client"
    assert sorted(p.name for p in out.iterdir()) == [
        "probe-client.html", "probe-client.json", "probe-client.txt", "probe-client.xml"]
    doc = json.loads(Path(outputs["json"]).read_text(encoding="utf-8"))
    assert [r["observed"]["outcome"] for r in doc["rows"]] == ["works", "fails"]
    suites = ET.parse(outputs["junit"]).getroot().findall("testsuite")
    assert len(suites[0].findall("testcase")) == 2
    assert Path(outputs["html"]).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# earlier step\n## mcp-skew probe-client: `")
    assert "| 2026-07-28 | ❌ not reached" in summary

"""The GitHub Action (action.yml) and its script, run with the environment a runner gives a step.

The script runs in a subprocess, as the action's step runs it, against the
hand-written legacy server; the runner's files (job summary, step outputs) are
files under tmp_path that already hold what earlier steps wrote.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

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


def _env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    env = {"GITHUB_OUTPUT": str(tmp_path / "output.txt"), "RUNNER_TEMP": str(tmp_path / "temp"),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    env.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    return env


def test_client_mode_runs_probe_client_with_the_same_gate_inputs(tmp_path: Path) -> None:
    from mcp_skew.commands.probe_action import _argv

    env = _env(tmp_path, client="node 'my client.mjs' --server-command {server}",
               require="2025-11-25,2026-07-28", args="--server legacy:2025-11-25 --timeout 20",
               working_directory="clients")
    assert _argv(env) == ["probe-client", "--server", "legacy:2025-11-25", "--timeout", "20",
                          "--require", "2025-11-25,2026-07-28", "--cwd", "clients", "--",
                          "node", "my client.mjs", "--server-command", "{server}"]
    # without a client input, the server mode is unchanged
    assert _argv(_env(tmp_path, command="python -m srv", require="2025-06-18"))[:1] == ["probe"]


@pytest.mark.parametrize(("inputs", "message"), [
    ({"client": "./client {server}", "command": "python -m srv"}, "not both"),
    ({"client": "./client {server}", "url": "http://127.0.0.1:1/mcp"}, "not both"),
    ({"client": "./client --no-placeholder"}, "no {server}"),
    ({"client": "./client {server}", "require": "1999-01-01"}, "--require"),
    ({"client": "./client {server}", "args": "--timeout -1"}, "--timeout"),
    ({"client": "./client '{server}"}, "cannot split"),
])
def test_client_mode_bad_input_is_one_line_and_exit_2_before_any_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], inputs: dict[str, str],
        message: str) -> None:
    from mcp_skew.commands.probe_action import main

    assert main(_env(tmp_path, **inputs)) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert (tmp_path / "output.txt").read_text(encoding="utf-8") == "exit-code=2\n"
    assert not (tmp_path / "temp").exists()


@pytest.mark.parametrize("case", [
    ({"client": "./client {server}"}, "mcp_skew.probe_client", "probe_client",
     "mcp-skew probe-client: running the client against legacy:2025-11-25"),
    ({"command": "python -m srv"}, "mcp_skew.probe", "probe",
     "mcp-skew probe: running the client against legacy:2025-11-25"),
], ids=["client-mode", "server-mode"])
def test_progress_lines_name_the_command_the_step_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        case: tuple[dict[str, str], str, str, str]) -> None:
    import importlib

    from mcp_skew.commands import probe_action
    from mcp_skew.errors import UsageError

    def run(_target: object, _opts: object, progress: Any) -> None:  # stands in: no process
        progress("running the client against legacy:2025-11-25\x1b[2J")
        raise UsageError("stopped here by the test")

    inputs, module, name, said = case
    monkeypatch.setattr(importlib.import_module(module), name, run)
    assert probe_action.main(_env(tmp_path, **inputs)) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(said) and "\x1b" not in err[0]
    assert err[1] == "mcp-skew: error: stopped here by the test"

"""What a terminal user expects of any command: ``--version``, and an optional dependency named.

- ``mcp-skew --version`` prints ``mcp-skew X.Y.Z`` from the package metadata (else the
  source tree's pyproject.toml), exits 0, and imports neither pydantic nor a command;
  ``--help`` and ``versions`` import neither pydantic nor the unknown-field table;
- ``probe --schemas`` needs ``jsonschema``, the ``schemas`` extra: ``--help`` says so, and
  without it the command is one line on stderr and exit code 2.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_cli_basics.py``.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import SERVERS

from mcp_skew.cli import main

SIM = [sys.executable, str(SERVERS / "sim_stdio_server.py")]
FEW = ["--client", "legacy:2025-06-18", "--no-prober"]
HINT = "pip install 'mcp-skew[schemas]'"


def test_version_in_a_fresh_process_imports_no_command_and_no_pydantic() -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcp_skew.cli", "--version"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"mcp-skew {importlib.metadata.version('mcp-skew')}\n"
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "mcp_skew" in imported  # the -X importtime listing is there to read
    heavy = sorted(m for m in imported if m.split(".")[0] == "pydantic"
                   or m.startswith(("mcp_skew.versions", "mcp_skew.commands", "mcp_skew.simulator")))
    assert heavy == []


@pytest.mark.parametrize("argv", [["--help"], ["versions"], ["matrix", "--help"],
                                  ["probe", "--help"], ["show-log", "--help"]])
def test_help_and_versions_import_neither_pydantic_nor_the_field_table(argv: list[str]) -> None:
    """pydantic and the unknown-field table (``mcp_skew.versions._schema_fields``) are imported
    where a command reads a profile file, a log, a real server: not to list the commands."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcp_skew", *argv],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "mcp_skew.cli" in imported  # the -X importtime listing is there to read
    heavy = sorted(m for m in imported if m.split(".")[0] in ("pydantic", "pydantic_core")
                   or m == "mcp_skew.versions._schema_fields")
    assert heavy == []


def test_probe_schemas_with_jsonschema_runs(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The same command with jsonschema importable probes (the directory just has no schemas)."""
    code = main(["probe", "--quiet", *FEW, "--format", "json", "--schemas", str(tmp_path),
                 "--", *SIM, "legacy:2025-06-18"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schemas"] == f"no <revision>/schema.json under {tmp_path}; schema checks skipped"


def test_the_environment_variable_without_jsonschema_only_skips(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """$MCP_SKEW_SCHEMAS is ambient (set once for every probe): without jsonschema it is a note."""
    (tmp_path / "2025-06-18").mkdir()
    (tmp_path / "2025-06-18" / "schema.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("MCP_SKEW_SCHEMAS", str(tmp_path))
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    code = main(["probe", "--quiet", *FEW, "--format", "json", "--", *SIM, "legacy:2025-06-18"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schemas"] == (f"the jsonschema package is not installed ({HINT}); "
                                 "schema checks skipped")

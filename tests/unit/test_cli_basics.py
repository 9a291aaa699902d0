"""What a terminal user expects of any command: ``--version``, and an optional dependency named.

- ``mcp-skew --version`` prints ``mcp-skew X.Y.Z`` (a literal in ``mcp_skew/_version.py``,
  equal to pyproject.toml's and the installed metadata's), exits 0, and imports neither
  pydantic nor a command;
  ``--help`` and ``versions`` import neither pydantic nor the unknown-field table;
- ``probe --schemas`` needs ``jsonschema``, the ``schemas`` extra: ``--help`` says so, and
  without it the command is one line on stderr and exit code 2;
- a command's modules load with the cyclic garbage collector paused, which is then as the
  caller had it (on, or off).
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import sys
import tomllib
from pathlib import Path

import pytest
from _paths import SERVERS

import mcp_skew
from mcp_skew import _version
from mcp_skew.cli import main

ROOT = Path(__file__).resolve().parents[2]
SIM = [sys.executable, str(SERVERS / "sim_stdio_server.py")]
FEW = ["--client", "legacy:2025-06-18", "--no-prober"]
HINT = "pip install 'mcp-skew[schemas]'"


def _pyproject() -> dict[str, object]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


# -- --version ---------------------------------------------------------------------------------

def test_version_is_the_installed_metadata() -> None:
    assert mcp_skew.__version__ == importlib.metadata.version("mcp-skew")


@pytest.mark.parametrize("argv", [
    ["--version"],
    ["--profile", "no-such-profile.toml", "--version"],  # argparse acts on --version first too
    ["--profile=no-such-profile.toml", "--version", "matrix"],
])
def test_version_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == f"mcp-skew {mcp_skew.__version__}\n" and err == ""


def test_an_abbreviated_version_goes_through_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--vers"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"mcp-skew {mcp_skew.__version__}\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["matrix", "--version"], "unrecognized arguments: --version"),  # a command's, not ours
    (["--profile", "--version"], "expected one argument"),  # --version is the profile's value
])
def test_version_after_the_command_or_as_a_value_is_not_the_option(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert "mcp-skew 0" not in out and message in err


def test_help_lists_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help", "--version"])  # help comes first, as argparse reads left to right
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mcp-skew") and "--version" in out


def test_version_is_the_literal_kept_equal_to_pyproject() -> None:
    # the version is a literal (reading it imports nothing, not importlib.metadata): this keeps
    # it equal to the project's; a release that bumps pyproject.toml bumps mcp_skew/_version.py
    assert mcp_skew.__version__ == _version.__version__ == _pyproject()["version"]


# -- jsonschema, the `schemas` extra --------------------------------------------------------------

def test_the_schemas_extra_is_declared() -> None:
    extras = _pyproject()["optional-dependencies"]
    assert isinstance(extras, dict)
    assert [d for d in extras["schemas"] if d.startswith("jsonschema")] == ["jsonschema>=4.21"]
    test = extras["test"]
    assert "mcp-skew[schemas]" in test or any(d.startswith("jsonschema") for d in test)


def test_probe_help_names_the_extra(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["probe", "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps at the terminal width
    start = text.index("--schemas DIR the official schemas")
    assert f"needs jsonschema: {HINT}" in text[start:start + 300]


def test_probe_schemas_without_jsonschema_is_one_line_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # `import jsonschema` fails from here on
    code = main(["probe", "--quiet", *FEW, "--schemas", str(tmp_path), "--", *SIM, "legacy:2025-06-18"])
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was probed
    assert err == (f"mcp-skew: error: --schemas: the jsonschema package is not installed; "
                   f"install it with: {HINT}\n")


def test_a_broken_jsonschema_is_named_as_such(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema.validators", None)  # installed, but broken
    assert main(["probe", "--quiet", *FEW, "--schemas", "schemas", "--", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "the jsonschema package cannot be imported (" in err and HINT in err


# -- the collector while a command loads -------------------------------------------------------

SMALL = ["matrix", "--clients", "2025-06-18", "--servers", "2025-06-18"]


@pytest.mark.parametrize("enabled", [True, False])
def test_a_command_loads_with_the_collector_paused_then_leaves_it_as_it_was(
        enabled: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.import_module
    loads: list[tuple[str, bool]] = []

    def spy(name: str, package: str | None = None) -> object:
        loads.append((name, gc.isenabled()))
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", spy)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert main(SMALL) == 0
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert "2025-06-18" in capsys.readouterr().out
    assert ("mcp_skew.commands.matrix", False) in loads  # the implementation, collector paused

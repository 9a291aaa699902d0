"""The commands' parsers (``mcp_skew.commands.parsers``) stand for their implementations.

- ``--help`` of ``mcp-skew`` and of every command is byte for byte what it was when each
  command module built its own parser (``data/cli_help.txt``, written on main before the
  parsers moved; after an intended change of a help text, rewrite it:
  ``.venv/bin/python tests/unit/test_parsers.py``);
- each choice the parsers write as a literal equals the vocabulary it copies (the packages
  that define them are not imported to build the parser);
- each command's ``func`` names a function of its implementation module.

That building the parser imports no implementation is checked in a fresh interpreter:
``tests/slow/unit/test_startup_imports.py``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

import pytest

from mcp_skew import peers, simulator, versions
from mcp_skew.cli import _parser
from mcp_skew.commands import parsers
from mcp_skew.commands.parsers import COMMANDS, Commands, Later
from mcp_skew.matrix import _render as matrix
from mcp_skew.migrate import _format as migrate_format
from mcp_skew.migrate import _guide as migrate
from mcp_skew.probe import _report as probe_report
from mcp_skew.probe import _schemas as probe_schemas
from mcp_skew.rollout import _fleet as rollout
from mcp_skew.versions import _render as versions_render

GOLDEN = Path(__file__).resolve().parent / "data" / "cli_help.txt"
#: The width the help is formatted at (argparse reads COLUMNS).
COLUMNS = "100"


def _commands(parser: argparse.ArgumentParser) -> Commands:
    return next(a for a in parser._actions if isinstance(a, Commands))


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command's parser (each built now)."""
    commands = _commands(parser)
    return {name: commands.built(name) for name in commands.choices}


def help_text() -> str:
    """``mcp-skew --help`` and each command's ``--help``, one after the other, as printed."""
    parser = _parser()
    parts = [("mcp-skew", parser.format_help())]
    parts += [(name, sub.format_help()) for name, sub in _subparsers(parser).items()]
    return "".join(f"=== {name} --help\n{text}" for name, text in parts)


def test_every_help_is_what_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", COLUMNS)
    assert help_text() == GOLDEN.read_text(encoding="utf-8")


def test_the_golden_help_names_every_command() -> None:
    names = [line.split()[1] for line in GOLDEN.read_text(encoding="utf-8").splitlines()
             if line.startswith("=== ")]
    assert names == ["mcp-skew", *_subparsers(_parser())]


@pytest.mark.parametrize(("literal", "source"), [
    (parsers.SCENARIOS, tuple(sorted(simulator.SCENARIOS))),
    (parsers.TRANSPORTS, simulator.TRANSPORTS),
    (parsers.MATRIX_FORMATS, matrix.FORMATS),
    (parsers.VIEWS, matrix.VIEWS),
    (parsers.MIGRATE_ROLES, migrate.CHOICES),
    (parsers.MIGRATE_FORMATS, migrate_format.FORMATS),
    (parsers.PROBE_FORMATS, tuple(sorted(probe_report.FORMATS))),
    (parsers.TRANSPORTS, migrate.TRANSPORTS),
    (parsers.INSTALL_HINT, probe_schemas.INSTALL_HINT),
    (parsers.BALANCERS, rollout.BALANCERS),
    (parsers.ROLES, peers.ROLES),
    (parsers.VERSIONS_FORMATS, versions_render.FORMATS),
], ids=lambda value: str(value)[:30])
def test_each_literal_choice_is_its_vocabulary(literal: object, source: object) -> None:
    assert literal == source


def test_every_command_runs_a_function_of_its_implementation() -> None:
    funcs = {name: sub.get_default("func") for name, sub in _subparsers(_parser()).items()}
    assert all(isinstance(func, Later) for func in funcs.values()), funcs
    for name, func in funcs.items():
        module = importlib.import_module(func.path)
        target = getattr(module, func.function, None)
        assert callable(target), f"{name}: {func!r} names nothing"
        assert list(inspect.signature(target).parameters) == ["args"], name


def test_a_command_s_parser_is_built_when_it_is_parsed_and_no_other() -> None:
    parser = _parser()
    commands = _commands(parser)
    assert list(commands.choices) == list(COMMANDS)
    assert set(commands.choices.values()) == {None}  # the names and help lines only
    args = parser.parse_args(["show", "2025-06-18"])
    assert args.revision == "2025-06-18" and args.func == Later("versions", "run_show")
    # versions registers versions, show and diff: its three are built, no other
    assert {name for name, sub in commands.choices.items() if sub is not None} == {
        "versions", "show", "diff"}


def test_a_command_its_module_does_not_list_is_refused() -> None:
    commands = _commands(_parser())
    with pytest.raises(ValueError, match="'nope' is not in"):
        commands.add_parser("nope", help="a command the help would not list")


def test_a_later_func_runs_the_implementation_and_gives_its_code(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["versions", "--format", "json"])
    args.registry = versions.REGISTRY
    assert args.func(args) == 0
    assert '"2025-06-18"' in capsys.readouterr().out
    assert repr(args.func) == "Later('versions', 'run_versions')"


if __name__ == "__main__":  # rewrite the golden file after an intended change of a help text
    import os

    os.environ["COLUMNS"] = COLUMNS
    GOLDEN.write_text(help_text(), encoding="utf-8")
    sys.exit(0)

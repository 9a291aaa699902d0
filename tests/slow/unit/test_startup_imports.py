"""A command imports only its own room: what a fresh interpreter has loaded after a command.

- ``mcp-skew --help``, every command's ``--help`` and a bad argument (exit 2) build the
  parser from ``mcp_skew.commands.parsers``: no command's implementation, no package of
  the layers behind them (profiles, simulator, features), not ``importlib.metadata``;
- the default ``mcp-skew matrix`` (stdio) loads neither the simulator's HTTP nor its
  authorization, nor the real links (``wire``), nor another command's implementation;
  the same matrix over HTTP does load them (so the rule names modules that exist), nor the
  probe's steps of advice (no module it loads defines ``Advice``); nor
  tabulate (the terminal table is the matrix's own), which a ruled matrix does load; nor
  pathlib, base64 or the decoder of raw lines, which a matrix written to a file and one over
  HTTP load;
- nor what the faces read on first use for the other commands and options: any bridge (the
  simulator's, the named ones), the client's caches, the catalogue of real implementations
  and saved peers, the profiles as plain data, their diffs, the built-in drafts and the
  schemas' required fields; the command lines that need each do load it.

The modules are read from ``sys.modules`` in the child (``-X importtime`` does not list
what ``importlib.import_module`` loads). Forbidden modules are named by rule, not by a
hand list. Start-up times are figures, not tests: ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_skew
from mcp_skew.cli import _parser
from mcp_skew.commands.parsers import Commands, Later

PACKAGE = Path(mcp_skew.__file__).resolve().parent

#: Runs ``mcp-skew`` once per command line given (a JSON list of argv lists), in this
#: process, then prints the modules loaded (as JSON) on a line of its own.
CHILD = """
import contextlib, io, json, sys
from mcp_skew.cli import main
for argv in json.loads(sys.argv[1]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    print(json.dumps({"argv": argv, "code": code}))
print("MODULES " + json.dumps(sorted(sys.modules)))
"""


def loaded_by(*argvs: list[str]) -> tuple[list[int], set[str]]:
    """(exit codes, modules loaded) of the command lines, run one after the other in one
    fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(argvs)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    codes = [json.loads(line)["code"] for line in lines if line.startswith("{")]
    modules = next(line for line in lines if line.startswith("MODULES "))
    return codes, set(json.loads(modules.removeprefix("MODULES ")))


#: Runs ``mcp-skew`` with the command line given (a JSON argv list), then prints the names
#: of the classes the modules of mcp-skew it loaded define (as JSON) on a line of its own.
CLASSES = """
import contextlib, io, json, sys
from mcp_skew.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(json.loads(sys.argv[1]))
names = {k for m, mod in list(sys.modules.items()) if m.startswith("mcp_skew")
         for k, v in vars(mod).items() if isinstance(v, type) and v.__module__ == m}
print("CLASSES " + json.dumps(sorted(names)))
"""


def classes_defined(argv: list[str]) -> set[str]:
    """The names of the classes the modules of mcp-skew that ``argv`` loads define."""
    done = subprocess.run([sys.executable, "-c", CLASSES, json.dumps(argv)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("CLASSES "))
    return set(json.loads(line.removeprefix("CLASSES ")))


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser (each built now)."""
    commands = next(a for a in _parser()._actions if isinstance(a, Commands))
    return {name: commands.built(name) for name in commands.choices}


def implementations() -> set[str]:
    """The modules the commands' ``func`` run: ``mcp_skew.commands.<module>`` of each, or the
    feature's module that holds it."""
    funcs = [sub.get_default("func") for sub in _commands().values()]
    assert all(isinstance(func, Later) for func in funcs)
    return {func.path for func in funcs}


def parser_may_load(module: str) -> bool:
    """What building the parser may load of mcp-skew: the package's face, the command line,
    its parsers, and the leaf modules (a top-level module file: the version, the errors,
    the output and stopping helpers), none of the packages behind the commands."""
    parts = module.split(".")
    if parts[0] != "mcp_skew" or len(parts) == 1:
        return True
    if parts[1] == "commands":
        return parts[2:3] in ([], ["parsers"])
    return len(parts) == 2 and (PACKAGE / f"{parts[1]}.py").is_file()


def http_or_auth(module: str) -> bool:
    """The simulator's HTTP and authorization (``_http_*``, ``_auth_*`` modules, or ``http``
    and ``auth`` subpackages), and the real links (``wire``)."""
    parts = module.split(".")
    if parts[:2] == ["mcp_skew", "wire"]:
        return True
    # the room (or, before the rooms, the module) under the simulator: the findings about
    # authorization (simulator.findings._auth) are a table every run reads, not authorization
    return parts[:2] == ["mcp_skew", "simulator"] and len(parts) > 2 and \
        parts[2].lstrip("_").startswith(("http", "auth"))


def test_the_rules_name_real_modules() -> None:
    assert implementations() >= {"mcp_skew.commands.matrix", "mcp_skew.commands.probe",
                                 "mcp_skew.census"}
    assert not any(parser_may_load(m) for m in implementations())
    assert not parser_may_load("mcp_skew.versions") and not parser_may_load("mcp_skew.peers")
    assert parser_may_load("mcp_skew.commands.parsers.matrix") and parser_may_load("mcp_skew.cli")
    assert http_or_auth("mcp_skew.simulator._auth_client")
    assert http_or_auth("mcp_skew.simulator.http.endpoint")
    assert not http_or_auth("mcp_skew.simulator._client")
    assert not http_or_auth("mcp_skew.simulator.findings._auth")
    assert http_or_auth("mcp_skew.simulator.http.auth._server")


def test_the_commands_list_builds_no_command_s_parser() -> None:
    codes, modules = loaded_by(["--help"], ["matrx"])
    assert codes == [0, 2]
    assert sorted(m for m in modules if m.startswith("mcp_skew.commands.parsers.")) == []


def test_help_and_a_parse_error_load_no_implementation() -> None:
    argvs = [["--help"], *([name, "--help"] for name in _commands()),
             ["matrx"], ["matrix", "--format", "nope"], ["--fromm", "x", "matrix"]]
    codes, modules = loaded_by(*argvs)
    assert codes == [0] * (1 + len(_commands())) + [2, 2, 2]
    assert "mcp_skew.commands.parsers.census" in modules  # the parsers were built
    assert sorted(m for m in modules if not parser_may_load(m)) == []
    assert implementations() & modules == set()
    assert "importlib.metadata" not in modules  # the version is a literal
    assert not {"pydantic", "email"} & modules


def test_a_default_matrix_loads_no_http_no_authorization_and_no_other_command() -> None:
    codes, modules = loaded_by(["matrix"])
    assert codes == [0]
    assert "mcp_skew.simulator._run" in modules and "mcp_skew.commands.matrix" in modules
    assert sorted(m for m in modules if http_or_auth(m)) == []
    assert sorted(implementations() & modules) == ["mcp_skew.commands.matrix"]
    # nor the probe's steps of advice (the probe alone reads them): no module loaded defines them
    assert sorted(m for m in modules if m.split(".")[:2] == ["mcp_skew", "probe"]) == []
    assert not {"Advice", "AdviceItem"} & classes_defined(["matrix"])


#: What the default matrix printed to a terminal does not need: tabulate (its import reads
#: every installed distribution's metadata), the HTML escaper, a temporary file, difflib;
#: paths (pathlib, with urllib.parse and ipaddress: only a file read or written, an address
#: or a URL given needs them) and base64 (a server that asks for input).
NOT_FOR_THE_TERMINAL = ("tabulate", "email", "html", "tempfile", "difflib", "pathlib", "urllib",
                        "ipaddress", "base64")


def test_a_default_matrix_loads_no_tabulate_and_a_ruled_one_does() -> None:
    codes, modules = loaded_by(["matrix"])
    assert codes == [0]
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_THE_TERMINAL
                  or m == "importlib.metadata") == []
    codes, modules = loaded_by(["matrix", "--format", "grid"])
    assert codes == [0]
    assert "tabulate" in modules


def test_a_matrix_written_to_a_file_loads_pathlib(tmp_path: Path) -> None:
    """The paths the default matrix does without are loaded where a file is written."""
    out = tmp_path / "m.txt"
    codes, modules = loaded_by(["matrix", "--clients", "2025-06-18", "--servers", "2025-06-18",
                                "--out", str(out)])
    assert codes == [0]
    assert out.read_text(encoding="utf-8").strip()
    assert "pathlib" in modules


@pytest.mark.parametrize("argv", [
    ["matrix", "--transport", "http", "--clients", "2025-06-18", "--servers", "2025-06-18"],
    ["matrix", "--transport", "http", "--scenario", "auth", "--clients", "2025-06-18",
     "--servers", "2025-06-18"],
])
def test_a_matrix_over_http_loads_them_when_it_needs_them(argv: list[str]) -> None:
    codes, modules = loaded_by(argv)
    assert codes == [0]
    assert any(http_or_auth(m) and "http" in m for m in modules)
    if "auth" in argv:
        assert any(http_or_auth(m) and "auth" in m for m in modules)


def later_only(module: str) -> bool:
    """What the default matrix does not need, read on first use by the command lines that do:
    any bridge (``simulator._bridge*``, a bridge room, ``peers._bridges``), the client's caches
    (``simulator._cache``), the catalogue of real implementations and the saved peers (in
    ``peers``), the profiles as plain data, their diffs and documents, the built-in drafts
    and the schemas' fields (in ``versions``)."""
    parts = module.split(".")
    if parts[0] != "mcp_skew" or len(parts) < 3:
        return False
    leaf = parts[-1].lstrip("_")
    if "bridge" in module:
        return True
    if parts[1] == "simulator":
        return leaf == "cache"
    if parts[1] == "peers":
        return leaf in {"catalogue", "lookup", "family", "saved", "apps", "python_sdk",
                        "typescript_sdk", "typescript_apps"}
    if parts[1] == "versions":
        return leaf in {"plain", "diff", "seps", "unknown_fields", "schema_fields", "render",
                        "profile_file"}
    return False


def decoder(module: str) -> bool:
    """The decoder of a raw line (``simulator.messages._decode``): the simulated links cross
    decoded messages; a real peer's lines (``serve``) and HTTP bodies need it."""
    return module.endswith("._decode") and ".messages." in module


def test_a_default_matrix_decodes_no_raw_line_and_http_does() -> None:
    codes, modules = loaded_by(["matrix"])
    assert codes == [0]
    assert sorted(m for m in modules if decoder(m)) == []
    codes, modules = loaded_by(["matrix", "--transport", "http", "--clients", "2025-06-18",
                                "--servers", "2025-06-18"])
    assert codes == [0]
    assert any(decoder(m) for m in modules)


def test_a_default_matrix_loads_nothing_read_on_first_use() -> None:
    codes, modules = loaded_by(["matrix"])
    assert codes == [0]
    assert sorted(m for m in modules if later_only(m)) == []


@pytest.mark.parametrize(("argv", "needed"), [
    (["matrix", "--via", "supergateway@4", "--clients", "2025-06-18", "--servers", "2025-06-18"],
     "bridge"),
    (["simulate", "--client", "dual:2026-07-28,2025-11-25", "--server", "2026-07-28",
      "--scenario", "cache"], "cache"),
    (["matrix", "--clients", "py-mcp@2.3", "--servers", "2025-06-18"], "catalogue"),
    (["versions", "--format", "json"], "plain"),
    (["diff", "2026-07-28", "next"], "seps"),
])
def test_the_command_lines_that_need_them_load_them(argv: list[str], needed: str) -> None:
    codes, modules = loaded_by(argv)
    assert codes == [0]
    assert any(later_only(m) and needed in m for m in modules)


#: What the default matrix does not read: the limits of JSON text from outside (a profile
#: file, a ``--from`` document: ``_jsontext``), the argument parsers of numbers, addresses
#: and files (``_args``, ``_input``: ``--cold-start``, ``--from``).
NOT_READ = ("mcp_skew._jsontext", "mcp_skew._args", "mcp_skew._input")


def test_a_default_matrix_loads_no_json_limits_nor_argument_parsers(tmp_path: Path) -> None:
    codes, modules = loaded_by(["matrix"])
    assert codes == [0]
    assert sorted(set(NOT_READ) & modules) == []
    saved = tmp_path / "m.json"
    codes, modules = loaded_by(
        ["matrix", "--clients", "2025-06-18", "--servers", "2025-06-18", "--cold-start", "5",
         "--format", "json", "--out", str(saved)],
        ["matrix", "--from", str(saved)])
    assert codes == [0, 0]
    assert set(NOT_READ) <= modules

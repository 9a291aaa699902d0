"""Typed mutations of the inputs a person gives mcp-skew: no traceback, one line and exit 2.

Each test draws a valid document broken the way its schema can be (:mod:`_fuzz_inputs`:
a value of another type, a key dropped or unknown, a row its era needs removed) and runs
``mcp_skew.cli.main`` in this process on every command that reads it. A document that
loads must be one every command can run with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fuzz import check_outcome, run_cli
from _fuzz_inputs import profile_file
from hypothesis import HealthCheck, given, settings

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

REV = "2099-01-01"
#: Every command that reads the registry, with the fuzzed revision where it takes one.
PROFILE_COMMANDS = [
    ["versions", "--format", "json"],
    ["show", REV],
    ["diff", "2026-07-28", REV],
    ["matrix", "--clients", f"modern:{REV}", f"dual:{REV},2025-11-25", "legacy:2025-06-18",
     "--servers", f"modern:{REV}", "dual:2026-07-28,2025-06-18", "--format", "json"],
    ["simulate", "--client", f"dual:{REV},2025-11-25", "--server", f"modern:{REV}"],
    ["simulate", "--client", f"modern:{REV}", "--server", f"modern:{REV}", "--scenario", "cache"],
    ["migrate", "2025-11-25", REV],
    ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
     "--to", f"dual:{REV},2025-11-25", "--duration", "2m", "--format", "json"],
]
SERVE_LINES = (
    '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":'
    '{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}\n'
    '{"jsonrpc":"2.0","id":2,"method":"x/search","params":{}}\n'
)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-inputs")


@SETTINGS
@given(drawn=profile_file())
def test_typed_profile_mutations_in_every_command(work: Path, drawn: tuple[str, str]) -> None:
    suffix, text = drawn
    path = work / f"profile{suffix}"
    path.write_text(text, encoding="utf-8")
    loads = None
    for command in PROFILE_COMMANDS:
        argv = ["--profile", str(path), *command]
        outcome = run_cli(argv)
        check_outcome(argv, outcome)
        code, _, err = outcome
        if code == 2 and err.startswith(f"mcp-skew: error: {path}: "):
            assert loads in (None, False), (argv, err)  # refused at load, or never
            loads = False
            break  # the same line for every command: the file is read before the command
        loads = True
    if loads:
        argv = ["--profile", str(path), "serve", f"modern:{REV}"]
        code, out, err = run_cli(argv, SERVE_LINES.encode())
        check_outcome(argv, (code, out, err))
        assert all(isinstance(json.loads(line), dict) for line in out.splitlines())

"""Every input surface of the command line, fuzzed: no traceback, a documented exit code.

The command line's promise: no input makes mcp-skew print a Python traceback or hang; a bad one
is one line on stderr and exit code 2 (``probe`` may say 1: a required revision failed).
Each test draws one kind of input (peer specs with quirks and junk values, named peers,
``@FILE`` peers, every numeric option of every command, ``--profile`` files, wire logs for
``show-log``/``replay``, mutated ``matrix --from`` documents, JSON-RPC lines to ``serve``)
and runs ``mcp_skew.cli.main`` in this process (:mod:`_fuzz`). The larger corpus is
``benchmarks/fuzz_corpus.py``.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/property/test_fuzz_cli.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from _fuzz import (
    check_outcome,
    examples,
    file_text,
    junk_json,
    recorded_log,
    run_cli,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def wire_log(work: Path) -> list[str]:
    """The lines of a log ``serve --record`` wrote for a short conversation."""
    return recorded_log(work / "good.jsonl")


@settings(max_examples=examples(8), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), timeout=st.sampled_from(["1", "nan", "0", "0.5", "²"]))
def test_wire_logs_for_replay(work: Path, wire_log: list[str], data: st.DataObject,
                              timeout: str) -> None:
    lines = list(wire_log)
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = data.draw(st.one_of(file_text(), junk_json().map(json.dumps)))
    log = work / "replay.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    argv = ["replay", str(log), "--timeout", timeout, "--", sys.executable, "-c",
            "import sys\nfor _ in sys.stdin: pass"]
    check_outcome(argv, run_cli(argv), frozenset({0, 1, 2}))

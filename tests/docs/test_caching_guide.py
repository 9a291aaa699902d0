"""Golden: every marked trace in docs/caching.md is what the command prints today.

To rewrite the blocks after a change that alters them::

    PYTHONPATH=tests .venv/bin/python tests/docs/test_caching_guide.py
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

import pytest

from mcp_skew.cli import main

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "caching.md"
BLOCK = re.compile(r"<!-- trace: (.+?) -->\n```text\n\$ mcp-skew simulate (.+?)\n(.*?)\n```", re.S)
REGENERATE = "PYTHONPATH=tests .venv/bin/python tests/docs/test_caching_guide.py"


def _blocks() -> list[tuple[str, str, str]]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def test_every_marked_trace_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _blocks()
    assert len(blocks) >= 3
    for args, shown, block in blocks:
        assert shown == f"{args} --trace"
        assert main(["simulate", *args.split(), "--trace"]) == 0
        out, _ = capsys.readouterr()
        assert block == out.rstrip("\n"), f"{args}: stale; regenerate with: {REGENERATE}"


def _block(scenario: str) -> str:
    return next(block for args, _, block in _blocks() if f"--scenario {scenario}" in args)


def test_the_cache_example_shows_two_lists_on_the_wire_and_the_hits() -> None:
    block = _block("cache")
    assert len(re.findall(r'->  \{"jsonrpc": "2.0", "id": \d+, "method": "tools/list"', block)) == 2
    assert len(re.findall(r"\.\.  cache hit: tools/list", block)) == 2
    assert re.search(r"^90000 ms  \.\.  cache: tools/list expired at 60010 ms", block, re.M)


def test_the_listen_example_shows_the_invalidation() -> None:
    block = _block("listen")
    assert '"method": "subscriptions/listen"' in block
    assert "notifications/tools/list_changed (arrived at 10005 ms) invalidates tools/list" in block


def test_the_server_change_example_shows_the_stale_era_and_the_new_probe() -> None:
    block = _block("long")
    assert "the server changes: " in block
    assert re.search(r"^path: .* -> cached era modern failed on tools/list -> discover ", block,
                     re.M)


def _rewrite() -> None:
    text = GUIDE.read_text(encoding="utf-8")

    def fresh(found: re.Match[str]) -> str:
        args = found.group(1)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["simulate", *args.split(), "--trace"]) == 0
        body = out.getvalue().rstrip("\n")
        return f"<!-- trace: {args} -->\n```text\n$ mcp-skew simulate {args} --trace\n{body}\n```"

    GUIDE.write_text(BLOCK.sub(fresh, text), encoding="utf-8")
    sys.stdout.write(f"wrote {GUIDE.relative_to(ROOT)}\n")


if __name__ == "__main__":
    _rewrite()

"""Golden: docs/simulator.md shows real output and documents the run vocabulary."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from mcp_skew.cli import main
from mcp_skew.simulator import SCENARIOS, parse_peer, run
from mcp_skew.simulator._client import Mark
from mcp_skew.simulator._peers import KINDS

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "simulator.md"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_guides_trace_is_real_output(capsys: pytest.CaptureFixture[str]) -> None:
    """The trace in the guide is what the command prints today (regenerate it if not)."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(r"<!-- trace: (.+?) -->\n```text\n\$ mcp-skew simulate (.+?)\n(.*?)\n```",
                      text, re.S)
    assert found, "docs/simulator.md has no marked trace block"
    args, shown, block = found.groups()
    assert shown == f"{args} --trace"
    code, out, _ = cli(capsys, *args.split(), "--trace")
    assert code == 0
    assert block == out.rstrip("\n")
    assert re.search(r"^path: discover .* -> initialize ", block, re.M)  # the fallback is in it


def test_the_guide_documents_the_vocabulary() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    record = run(parse_peer("2025-11-25", "client"), parse_peer("2025-11-25", "server"))
    for key in record.to_dict():
        assert f"`{key}`" in text, f"the JSON key {key!r} is not in docs/simulator.md"
    for mark in get_args(Mark):
        assert f"`{mark}`" in text, f"the mark {mark!r} is not in docs/simulator.md"
    for name in (*KINDS, *SCENARIOS):
        assert f"`{name}`" in text or f"*{name}*" in text, name


"""Golden: every marked trace in docs/simulator.md is real output, the HTTP one included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcp_skew.cli import main

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "simulator.md"
BLOCK = re.compile(r"<!-- trace: (.+?) -->\n```text\n\$ mcp-skew simulate (.+?)\n(.*?)\n```", re.S)


def test_every_marked_trace_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert any("--transport http" in args for args, _, _ in blocks), "no HTTP trace in the guide"
    for args, shown, block in blocks:
        assert shown == f"{args} --trace"
        assert main(["simulate", *args.split(), "--trace"]) == 0
        out, _ = capsys.readouterr()
        assert block == out.rstrip("\n"), args


def test_the_http_trace_shows_the_exchanges_and_the_rule() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    http = next(block for args, _, block in BLOCK.findall(text) if "--transport http" in args)
    assert "->  POST /mcp  MCP-Protocol-Version: 2026-07-28  Mcp-Method: server/discover" in http
    assert "<-  HTTP 400 Bad Request" in http
    assert re.search(r"^path: discover .* -> http: no modern error in the answer, fall back -> "
                     r"initialize ", http, re.M)

"""The golden file ``docs/matrix.md``: the generated matrix of the built-in set, current."""

from __future__ import annotations

from pathlib import Path

from mcp_skew.commands.matrix import REGENERATE
from mcp_skew.matrix import build_matrix, render
from mcp_skew.peers import builtin_peers

DOC = Path(__file__).resolve().parents[2] / "docs" / "matrix.md"


def test_docs_matrix_md_is_current() -> None:
    expected = render(build_matrix(builtin_peers("client"), builtin_peers("server")), "markdown")
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    assert current == expected, f"docs/matrix.md is stale; regenerate it with: {REGENERATE}"

"""The text table of a large matrix is laid out a chunk of rows at a time: the same text."""

from __future__ import annotations

import pytest

from mcp_skew.matrix import Matrix, _render_text, build_matrix, render_text, shown, sweep_peers
from mcp_skew.peers import resolve_peer


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    clients = [*sweep_peers("client", ("restart",))[::7], resolve_peer("2025-06-18", "client")]
    servers = [*sweep_peers("server", ("silent",))[::9],
               resolve_peer("legacy:2025-11-25+unknown-32602", "server")]
    return shown(build_matrix(clients, servers, keep_transcripts=False))


@pytest.mark.parametrize("chunk", [1, 2, 3, 7])
@pytest.mark.parametrize("layout", [
    ("pairs", False, None), ("features", False, None), ("pairs", True, None),
    ("pairs", False, 80), ("features", True, 60)])
def test_chunks_lay_out_the_same_text(matrix: Matrix, monkeypatch: pytest.MonkeyPatch,
                                      chunk: int, layout: tuple[str, bool, int | None]) -> None:
    view, color, width = layout
    assert len(matrix.clients) > 7
    whole = render_text(matrix, view, color=color, width=width)  # type: ignore[arg-type]
    monkeypatch.setattr(_render_text, "CHUNK_CELLS", chunk * (len(matrix.servers) + 1))
    assert render_text(matrix, view, color=color, width=width) == whole  # type: ignore[arg-type]


def test_a_label_of_several_lines_is_laid_out_in_one_call() -> None:
    headers = ["client \\ server", "a\nbb", "x"]
    rows = [["one", "v", "w"], ["two\nlines", "vv", "ww ↓"], ["three", "", "\x1b[31mw\x1b[0m"]]
    assert _render_text._simple(headers, rows, 1) == _render_text._simple(headers, rows, 10)

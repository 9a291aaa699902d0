"""The terminal view's own ``simple`` table is tabulate's, byte for byte, on the cells the
matrix writes (strings with ``\\n`` line breaks, colour codes, the marks ``✗ ↓ ↩``, empty
cells), so the default matrix need not import tabulate."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tabulate import SEPARATING_LINE, tabulate

from mcp_skew.matrix._simple_table import simple_table

#: Pieces of cells as the matrix writes them: words, marks, spaces, line breaks, colours.
_PIECES = st.sampled_from(["25-11", "legacy", "✗ rev", "↓", "↩", " ", "  ", "\n", "",
                           "\x1b[32m", "\x1b[0m", "\x1b[1;31m", "client \\ server", "x"])
_CELLS = st.lists(_PIECES, max_size=6).map("".join)


def _tabulate(header: list[str], rows: list[list[str]]) -> str:
    return tabulate([header, SEPARATING_LINE, *rows], tablefmt="simple", disable_numparse=True)


@given(st.integers(1, 5).flatmap(lambda n: st.lists(st.lists(_CELLS, min_size=n, max_size=n),
                                                    min_size=1, max_size=5)))
def test_the_table_is_tabulates_simple_table(table: list[list[str]]) -> None:
    header, *rows = table
    assert simple_table(header, rows) == _tabulate(header, rows)


def test_a_wide_and_tall_table() -> None:
    header = ["client \\ server", "legacy\n25-11..\n24-11", "dual\n2026\n+25-11", ""]
    rows = [["2024-11-05", "\x1b[32m24-11\x1b[0m", "✗ rev", "x"],
            ["dual 2026+25-11", "25-11 ↩", "", "  padded  "]]
    text = simple_table(header, rows)
    assert text == _tabulate(header, rows)
    assert text.splitlines()[0].startswith("---------------  -------  ------")

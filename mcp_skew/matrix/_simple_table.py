"""The terminal view's table, laid out as ``tabulate``'s ``simple`` format, without tabulate.

The default ``mcp-skew matrix`` prints one such table, and importing ``tabulate`` costs more
than the rest of the matrix's start-up together (it reads every installed distribution's
metadata for its own version at import). This module lays out the same table, byte for
byte, for the cells the matrix writes: strings, lines broken by ``\\n``, colour codes (CSI
escape sequences, which take no width); ``tests/unit/test_simple_table.py`` compares the two
on such cells. The other formats (``grid``, markdown) still come from tabulate.

The layout: a rule of dashes over each column, the header row, a rule, the rows, a rule;
columns two spaces apart, each as wide as its widest line; cells stripped of surrounding
white space and flush left; a row as tall as its tallest cell; each line without trailing
spaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Final

__all__ = ["simple_table", "simple_table_lines", "stack"]

try:  # tabulate measures a line with wcwidth when it is installed: so does this
    from wcwidth import wcswidth as _measure  # type: ignore[import-not-found, unused-ignore]
except ImportError:
    _measure = len

_WIDTH: Final[Callable[[str], int]] = _measure
#: A CSI escape sequence (ECMA-48 5.4: parameter, intermediate and final bytes): invisible.
_CSI: Final = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]")
_GAP: Final = "  "


def _width(line: str) -> int:
    return _WIDTH(_CSI.sub("", line))


def simple_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The table with ``header`` as its first row, ruled above, below it and at the end."""
    return "\n".join(simple_table_lines(header, rows))


def simple_table_lines(header: Sequence[str], rows: Sequence[Sequence[str]]) -> Iterator[str]:
    """:func:`simple_table`'s lines, one at a time (each made when it is asked for)."""
    tall = any("\n" in cell or "\r" in cell for row in (header, *rows) for cell in row)
    table = [[cell.strip() for cell in row] for row in (header, *rows)]
    widths = [max(_width(line) for cell in column for line in cell.split("\n"))
              for column in zip(*table, strict=True)]
    rule = _GAP.join("-" * width for width in widths).rstrip()
    yield rule
    for index, row in enumerate(table):
        cells = [[line + " " * (width - _width(line)) for line in
                  (cell.split("\n") if cell or not tall else [])]
                 for cell, width in zip(row, widths, strict=True)]
        height = max(len(cell) for cell in cells)
        for at in range(height):
            yield _GAP.join(cell[at] if at < len(cell) else " " * width
                            for cell, width in zip(cells, widths, strict=True)).rstrip()
        if index == 0:
            yield rule
    yield rule


# -- A column label on short lines --------------------------------------------------
_DATE_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}")


#: Where a label word longer than the stack width may break: wide layout, fitted layout.
_BREAKS: Final = (re.compile(r"(?=\+)|(?<=\.\.)|(?<=[a-z]-)"), re.compile(r"(?=\+)|(?<=\.\.)"))


def stack(label: str, width: int = 7, *, whole_words: bool = False) -> str:
    """A column label on several short lines: ``legacy\n25-06\n+25-03``.

    Words split at spaces; a longer word splits before ``+``, after ``..`` or
    after ``-`` (a full date stays whole). With ``whole_words`` it splits only
    between the revisions it lists (before ``+``, after ``..``), so a quirk name
    such as ``silent-exit`` stays whole.
    """
    breaks = _BREAKS[whole_words]
    lines: list[str] = []
    for word in label.split(" "):
        if len(word) <= width or _DATE_LIKE.fullmatch(word):
            lines.append(word)
            continue
        line = ""
        for piece in (p for p in breaks.split(word) if p):
            if line and len(line) + len(piece) > width:
                lines.append(line)
                line = ""
            line += piece
        lines.append(line)
    return "\n".join(lines)

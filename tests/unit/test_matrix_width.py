"""The text matrix fits the terminal: ``COLUMNS`` or the real width, blocks of columns.

The fitted layout puts the server columns in blocks that each repeat the client
labels; column labels break only between words; the prose under the table wraps.
``--wide`` (and output to a file or a pipe when ``COLUMNS`` is unset) keeps the
one wide table of before, byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.cli import main
from mcp_skew.matrix import Matrix, build_matrix, render
from mcp_skew.matrix import _command as command
from mcp_skew.matrix._render import VIEWS
from mcp_skew.matrix._render_text import (
    cell_text,
    column_blocks,
    example_command,
    render_text,
    revision_context,
    stack,
)
from mcp_skew.peers import builtin_peers
from mcp_skew.peers._sets import sweep_peers

WIDTHS = (80, 100, 200)
_RULE = re.compile(r"-+(?: +-+)*")
_ANSI = re.compile(r"\x1b\[\d+m")


# -- Helpers -------------------------------------------------------------------------------
def display_width(line: str) -> int:
    """Terminal cells a line takes: wide and full-width characters 2, combining marks 0,
    the rest 1 (``✗ ↓ ↩ ↪ ↻ →`` are narrow)."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in line)


def rejoin(pieces: list[str]) -> str:
    """A stacked column label back on one line: a space between lines, none at a joint."""
    label = pieces[0]
    for piece in pieces[1:]:
        label += piece if piece.startswith("+") or label.endswith("..") else f" {piece}"
    return label


def words(label: str) -> list[str]:
    """The words of a label: split at spaces and at the joints of a revision list."""
    return [w for w in re.split(r" |(?=\+)|(?<=\.\.)", label) if w]


Table = tuple[list[list[str]], list[list[str]]]


def tables(text: str) -> list[Table]:
    """Every table of a terminal view as (header pieces per column, rows of cells).

    Columns are read off the ``-----`` rule above each table, so this reads what
    a person sees, not what the renderer meant; a cell on several lines is read as its
    lines joined by spaces.
    """
    lines = text.splitlines()
    rules = [i for i, line in enumerate(lines) if _RULE.fullmatch(line)]
    assert len(rules) % 3 == 0, rules
    out = []
    for top, middle, bottom in zip(rules[0::3], rules[1::3], rules[2::3], strict=True):
        spans = [m.span() for m in re.finditer(r"-+", lines[top])]

        def cut(line: str, spans: list[tuple[int, int]] = spans) -> list[str]:
            return [line[a:b].strip() for a, b in spans]

        heads = [cut(line) for line in lines[top + 1:middle]]
        columns = [[h[j] for h in heads if h[j]] for j in range(len(spans))]
        rows: list[list[str]] = []
        for cells in map(cut, lines[middle + 1:bottom]):
            if cells[0] or not rows:
                rows.append(cells)
            else:  # a tall row's next line (the features view breaks long cells)
                rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        out.append((columns, rows))
    return out


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str,
        columns: str | None = None) -> str:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert main(["matrix", *argv]) == 0
    return capsys.readouterr().out


@cache
def default_matrix() -> Matrix:
    return build_matrix(builtin_peers("client"), builtin_peers("server"))


def expected_cells(matrix: Matrix, view: str) -> list[list[str]]:
    """Each row of the matrix as the terminal writes it, from the JSON document's cells."""
    data = Matrix.from_dict(json.loads(render(matrix, "json")))
    context = revision_context(data)
    return [[client.label, *(cell_text(cell, view, context) for cell in row)]  # type: ignore[arg-type]
            for client, row in zip(data.clients, data.cells, strict=True)]


def assert_complete(text: str, matrix: Matrix, view: str) -> list[Table]:
    """Every block repeats the client labels; together the blocks hold every server column
    once, in order, with its label whole, and every cell of the matrix."""
    found = tables(text)
    expected = expected_cells(matrix, view)
    labels: list[str] = []
    rows: list[list[str]] = [[row[0]] for row in expected]
    for columns, block in found:
        assert rejoin(columns[0]) == "client \\ server"
        assert [row[0] for row in block] == [row[0] for row in expected]
        labels += [rejoin(pieces) for pieces in columns[1:]]
        for whole, part in zip(rows, block, strict=True):
            whole.extend(part[1:])
    assert labels == [server.label for server in matrix.servers]
    assert rows == expected
    return found


# -- The rule for the width ------------------------------------------------------------------
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_line_fits_columns(width: int, view: str, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = run(monkeypatch, capsys, "--view", view, columns=str(width))
    assert "\t" not in text and "\x1b" not in text
    too_wide = [line for line in text.splitlines() if display_width(line) > width]
    assert too_wide == []
    assert_complete(text, default_matrix(), view)


@pytest.mark.parametrize("width", WIDTHS)
def test_header_words_are_never_cut(width: int, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    found = tables(run(monkeypatch, capsys, columns=str(width)))
    servers = [server.label for server in default_matrix().servers]
    columns = [pieces for heads, _ in found for pieces in heads[1:]]
    assert len(columns) == len(servers)
    for label, pieces in zip(servers, columns, strict=True):
        assert [w for piece in pieces for w in words(piece)] == words(label)
    assert ["legacy", "25-11", "silent-exit"] in columns  # a hyphenated quirk stays whole


@pytest.mark.parametrize(("width", "blocks"), [(80, 3), (100, 2)])
def test_the_legend_states_the_block_rule(width: int, blocks: int,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = run(monkeypatch, capsys, columns=str(width))
    assert len(tables(text)) == blocks
    legend = " ".join(text.split("\nLegend:\n", 1)[1].split("\n\n", 1)[0].split())
    assert (f"blocks the 13 servers come in {blocks} blocks of columns, each repeating the "
            f"client labels, to fit a width of {width} (COLUMNS, else the terminal's); a column "
            "label breaks only at a space, before + or after '..', never inside a word; --wide "
            "prints one table") in legend


def test_a_table_that_fits_is_one_block_and_needs_no_rule(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    text = run(monkeypatch, capsys, columns="200")
    assert len(tables(text)) == 1 and "  blocks  " not in text
    assert text.splitlines()[0].startswith("MCP compatibility matrix. Rows are clients")


def test_the_example_command_still_pastes(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(monkeypatch, capsys, columns="80").splitlines()
    start = lines.index("One pair in detail:") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].endswith(" \\")) + 1
    pasted = " ".join(line.removesuffix(" \\").strip() for line in lines[start:end])
    assert pasted == example_command(default_matrix())
    assert all(line.startswith("  ") for line in lines[start:end])


# -- Where the width comes from ------------------------------------------------------------
TODAY_HEADER = "\n".join([  # the wide table's header, as it was before fitting
    "---------------------------  ----------  ----------  ----------  ----------  "
    "-------  -------  ------  ------  -------  -------  -------  -------  -------",
    "client \\ server              2024-11-05  2025-03-26  2025-06-18  2025-11-25  "
    "legacy   legacy   modern  dual    legacy   legacy   legacy   legacy   legacy",
    "                                                                             "
    "25-06    25-11..  2026    2026    25-11    25-11    25-11    25-11    25-11",
    "                                                                             "
    "+25-03   24-11            +25-11  -32601   -32602   silent   silent-  lenient",
    "                                                                             "
    "                                                             exit",
    "---------------------------  ----------  ----------  ----------  ----------  "
    "-------  -------  ------  ------  -------  -------  -------  -------  -------",
]) + "\n"


@pytest.mark.parametrize("view", VIEWS)
def test_wide_keeps_the_one_table_layout(view: str, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    wide = run(monkeypatch, capsys, "--wide", "--view", view, columns="80")
    assert wide == render(default_matrix(), "text", view)
    assert wide == run(monkeypatch, capsys, "--view", view)  # not a terminal, no COLUMNS
    assert len(tables(wide)) == 1 and "blocks" not in wide
    assert max(display_width(line) for line in wide.splitlines()) > 150
    if view == "pairs":
        assert f"\n\n{TODAY_HEADER}" in wide
        assert [row for _, rows in tables(wide) for row in rows] == expected_cells(
            default_matrix(), view)


@pytest.mark.parametrize("value", ["", "abc", "0", "-3", "80x", "1.5"])
def test_a_bad_columns_is_ignored(value: str, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, capsys, columns=value) == render(default_matrix(), "text")


def as_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdout is a 90-column terminal (called in the test: capsys swaps stdout per phase)."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(command.shutil, "get_terminal_size", lambda: os.terminal_size((90, 24)))
    monkeypatch.setenv("NO_COLOR", "1")


def test_on_a_terminal_the_real_width_counts(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    as_terminal(monkeypatch)
    text = run(monkeypatch, capsys)
    assert max(display_width(line) for line in text.splitlines()) <= 90
    assert len(tables(text)) == 3
    assert "to fit a width of 90" in " ".join(text.split())
    assert_complete(text, default_matrix(), "pairs")
    assert run(monkeypatch, capsys, "--wide") == render(default_matrix(), "text")


def test_columns_wins_over_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    as_terminal(monkeypatch)
    text = run(monkeypatch, capsys, columns="120")
    assert 90 < max(display_width(line) for line in text.splitlines()) <= 120
    assert run(monkeypatch, capsys, columns="nonsense") == run(monkeypatch, capsys)


def test_a_file_is_wide_unless_columns_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    as_terminal(monkeypatch)
    target = tmp_path / "matrix.txt"
    assert run(monkeypatch, capsys, "--out", str(target)) == ""
    assert target.read_text(encoding="utf-8") == render(default_matrix(), "text")
    run(monkeypatch, capsys, "--out", str(target), columns="80")
    fitted = target.read_text(encoding="utf-8")
    assert max(display_width(line) for line in fitted.splitlines()) <= 80
    assert_complete(fitted, default_matrix(), "pairs")


@pytest.mark.parametrize("fmt", ["markdown", "grid", "csv"])
def test_other_formats_ignore_the_width(fmt: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, capsys, "--format", fmt, columns="80") == render(default_matrix(),
                                                                             fmt)


# -- The renderer ---------------------------------------------------------------------------
def test_colour_codes_do_not_count_toward_the_width() -> None:
    plain = render_text(default_matrix(), width=80)
    coloured = render_text(default_matrix(), color=True, width=80)
    assert "\x1b[31m" in coloured and _ANSI.sub("", coloured) == plain


def test_only_the_simple_table_is_fitted() -> None:
    with pytest.raises(ValueError, match="simple table only"):
        render_text(default_matrix(), tablefmt="grid", width=80)


@pytest.mark.parametrize(("widths", "width", "blocks"), [
    ([10, 5, 5, 5], 80, [[1, 2, 3]]),            # all fit: one block
    ([10, 5, 5, 5], 24, [[1, 2], [3]]),          # 10+2+5+2+5 = 24 fits; a third would not
    ([10, 5, 5, 5], 23, [[1], [2], [3]]),
    ([10, 30, 5, 5], 24, [[1], [2, 3]]),         # too wide even alone: a block of its own
])
def test_column_blocks_pack_in_order(widths: list[int], width: int,
                                     blocks: list[list[int]]) -> None:
    assert column_blocks(widths, width) == blocks


@pytest.mark.parametrize(("label", "stacked"), [
    ("legacy 25-11 silent-exit", "legacy\n25-11\nsilent-exit"),
    ("legacy 25-06+25-03", "legacy\n25-06\n+25-03"),
    ("legacy 25-11..24-11", "legacy\n25-11..\n24-11"),
    ("dual 2026+25-11+25-03+24-11 restart", "dual\n2026\n+25-11\n+25-03\n+24-11\nrestart"),
    ("2025-06-18", "2025-06-18"),
])
def test_fitted_labels_break_only_between_words(label: str, stacked: str) -> None:
    assert stack(label, whole_words=True) == stacked


SWEEP_CLIENTS = sweep_peers("client", ("restart",))
SWEEP_SERVERS = sweep_peers("server", ("silent", "silent-exit", "lenient"))


@settings(max_examples=20, deadline=None)
@given(clients=st.lists(st.sampled_from(SWEEP_CLIENTS), min_size=1, max_size=4),
       servers=st.lists(st.sampled_from(SWEEP_SERVERS), min_size=1, max_size=12),
       view=st.sampled_from(VIEWS),
       width=st.integers(min_value=90, max_value=200))
def test_any_matrix_fits_and_keeps_every_cell(clients: list[Any], servers: list[Any],
                                              view: str, width: int) -> None:
    """From 90 columns on, even the longest sweep peer's example command fits."""
    matrix = build_matrix(clients, servers)
    text = render_text(matrix, view, width=width)  # type: ignore[arg-type]
    assert max(display_width(line) for line in text.splitlines()) <= width
    assert_complete(text, matrix, view)

"""The matrix for people: terminal text, tabulate grid, markdown and GitHub markdown.

Every view is a table (rows clients, columns servers) followed by a legend and a
summary line, so the output reads without the docs. The ``pairs`` view puts the
negotiated revision in each cell with a mark for the path; the ``features``
view names, in each cell, the capability-gated features the pair loses from each
side (``ok, loses url-elicitation; server loses ping``), then lists by revision
what is lost of all the client's features. Pure functions of a :class:`~mcp_skew.matrix.Matrix`: they read
its cells, never the simulator, so a matrix read back from JSON renders
the same.

The terminal view has two layouts. Wide (``width=None``): one table, however
wide. Fitted (``width=N``): the server columns come in blocks that each fit N
columns beside the repeated client labels, column labels break only between
words, and the prose under the table wraps at N; the legend states the rule.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, Literal

from .._markup import code_span, markdown_cell
from ..peers import QUIRK_LABELS, short_revision
from ..simulator import split_notation
from ..simulator.quirks import QUIRKS
from ._build import Matrix, outcome, steps_failed
from ._cell import Cell
from ._race import MARK as RACE_MARK
from ._simple_table import simple_table, simple_table_lines, stack

__all__ = [
    "FAILURE_MEANINGS",
    "FAILURE_WORDS",
    "LOSSES_HEADING",
    "SYMBOLS",
    "View",
    "cell_text",
    "column_blocks",
    "example_command",
    "features_groups",
    "legend_lines",
    "losses_groups",
    "losses_line",
    "losses_text",
    "notation_quirks",
    "notation_revisions",
    "render_grid",
    "render_markdown",
    "render_text",
    "render_text_pieces",
    "revision_context",
    "revision_key",
    "short",
    "summary_line",
    "title_line",
]

View = Literal["pairs", "features"]

#: The mark after a revision, by the simulator's ``mark``.
SYMBOLS: Final[dict[str, str]] = {
    "direct": "", "downgraded": "↓", "era-fallback": "↩", "re-probe": "↪", "retry-32022": "↻",
}
#: The word after ✗, by the cell's ``failure``.
FAILURE_WORDS: Final[dict[str, str]] = {
    "era": "era", "revision": "rev", "quirk": "quirk", "negotiation": "nego", "auth": "auth",
    "result": "result",
}
_MARK_LEGEND: Final = (
    ("direct", "25-11", "the revision the pair speaks; no mark: the server took the client's "
                        "first offer"),
    ("downgraded", "↓", "downgraded: the server counter-offered an older revision the client "
                        "also supports"),
    ("era-fallback", "↩", "era fallback: the dual-era client's server/discover probe failed, "
                          "so it fell back to initialize"),
    ("re-probe", "↪", "re-probe: the probe timed out and the fallback initialize was refused, "
                      "so the client probed server/discover again, and that worked"),
    ("retry-32022", "↻", "retry: the server answered -32022 (unsupported version) and the "
                         "client retried with a revision the server named"),
)
FAILURE_MEANINGS: Final[dict[str, str]] = {
    "era": "fails: no era in common (a modern-only peer meets a legacy-only one; the spec's "
           "era table says this fails)",
    "revision": "fails: no revision in common",
    "quirk": "fails because of a quirk named in a label; without quirks the pair works",
    "negotiation": "fails: they share a revision, but one offer and one counter-offer do not "
                   "reach it",
    "auth": "fails at authorization (scenario auth): the client found no way to a token it "
            "can use; its path says where (docs/auth.md)",
    "result": "connects, then fails: the pair negotiates, but a list or call the scenario "
              "needs gets no usable result (the cell's reason names the step)",
}
_ANSI: Final = {"works": "\x1b[32m", "fallback": "\x1b[33m", "fails": "\x1b[31m"}
_EMOJI: Final = {"works": "🟢", "fallback": "🟡", "fails": "🔴"}
_WIDTH: Final = 100
#: The space tabulate's ``simple`` table puts between two columns.
_GAP: Final = 2
_ANSI_CODE: Final = re.compile(r"\x1b\[\d+m")
#: The colour codes the text matrix writes itself (kept when the output is made terminal-safe).
COLOUR_CODES: Final = (*_ANSI.values(), "\x1b[0m")


# -- Reading notations (no registry needed: a matrix may come from JSON) ---------------
def notation_revisions(notation: str) -> list[str]:
    """``dual:2026-07-28,2025-11-25+restart`` -> ``["2026-07-28", "2025-11-25"]``."""
    return list(split_notation(notation).revisions)


def notation_quirks(notation: str) -> list[str]:
    """``legacy:2025-11-25+silent+fixed=2025-03-26`` -> ``["silent", "fixed"]``."""
    return list(split_notation(notation).quirk_names)


def revision_context(matrix: Matrix) -> set[str]:
    revisions = set(matrix.registry.revisions())
    for axis in (*matrix.clients, *matrix.servers):
        revisions.update(notation_revisions(axis.notation))
    revisions.update(c.revision for _, _, c in matrix.pairs() if c.revision)
    return revisions


def _era(matrix: Matrix, revision: str) -> str | None:
    """The era of a revision: from a cell that negotiated it, else from the registry."""
    for _, _, cell in matrix.pairs():
        if cell.revision == revision:
            return str(cell.era)
    registry = matrix.registry
    return registry.get(revision).era.value if revision in registry else None


def short(matrix: Matrix, revision: str) -> str:
    """``revision`` abbreviated as the matrix's labels and cells abbreviate it."""
    return short_revision(revision, _era(matrix, revision), revision_context(matrix))


def revision_key(matrix: Matrix) -> list[tuple[str, str]]:
    """(short, full) for every revision a label or a cell names, oldest first."""
    context = revision_context(matrix)
    eras = {c.revision: c.era for _, _, c in matrix.pairs() if c.revision}
    for revision in context:
        if revision in matrix.registry:
            eras.setdefault(revision, matrix.registry.get(revision).era.value)
    named = {r for a in (*matrix.clients, *matrix.servers) for r in notation_revisions(a.notation)}
    named.update(eras.keys() & {c.revision for _, _, c in matrix.pairs()})
    order = [r for r in matrix.registry.revisions() if r in named]
    order += sorted(named - set(order))
    return [(short_revision(r, eras.get(r), context), r) for r in order]


# -- Cells ----------------------------------------------------------------------------
def losses_text(cell: Cell) -> str:
    """What a working pair loses, by side: ``ok``, ``ok, loses elicitation, sampling``,
    ``ok, server loses ping``, ``ok, loses a; server loses b``."""
    said = []
    if cell.client_loses:
        said.append("loses " + ", ".join(cell.client_loses))
    if cell.server_loses:
        said.append("server loses " + ", ".join(cell.server_loses))
    return "ok, " + "; ".join(said) if said else "ok"


def cell_text(cell: Cell, view: View = "pairs",
              context: Iterable[str] | None = None) -> str:
    """``25-11``, ``25-03 ↓``, ``✗ era``; in the features view ``ok, loses tasks``."""
    raced = f" {RACE_MARK}" if cell.race is not None else ""
    if cell.status != "ok":
        return f"✗ {FAILURE_WORDS.get(cell.failure or '', '')}".rstrip() + raced
    broken = (" !" if steps_failed(cell) else "") + raced
    if view == "features":
        return losses_text(cell) + broken
    short = short_revision(cell.revision or "", cell.era, context)
    symbol = SYMBOLS.get(cell.mark, "?")
    return f"{short} {symbol}".rstrip() + broken


#: The terminal tables break a features-view cell into lines of at most this many columns
#: (between the names it lists; a longer name keeps its line).
CELL_LINES: Final = 20


def _lines(text: str, decorate: Callable[[str], str]) -> str:
    """A features-view cell on lines of at most :data:`CELL_LINES` (never inside a name),
    each line decorated on its own (a colour code never spans a line break)."""
    lines = textwrap.wrap(text, CELL_LINES, break_on_hyphens=False, break_long_words=False)
    return "\n".join(decorate(line) for line in lines)


def _grid(matrix: Matrix, view: View, decorate: Any, header: Any,
          tall: bool = False) -> tuple[list[Any], list[Any]]:
    """Headers and rows; ``tall`` (the terminal tables) puts a long features-view cell on
    several lines (:func:`_lines`)."""
    context = revision_context(matrix)
    headers = ["client \\ server", *(header(a.label) for a in matrix.servers)]
    # a large matrix has a few texts in many cells: each kept once, not once a cell
    texts: dict[str, str] = {}
    if tall and view == "features":
        def show(cell: Cell) -> str:
            return _lines(cell_text(cell, view, context), lambda line: decorate(cell, line))
    else:
        def show(cell: Cell) -> str:
            return str(decorate(cell, cell_text(cell, view, context)))
    rows = [[client.label, *(texts.setdefault(text, text) for text in map(show, row))]
            for client, row in zip(matrix.clients, matrix.cells, strict=True)]
    return headers, rows


# -- Legend and summary ---------------------------------------------------------------
def title_line(matrix: Matrix, view: View = "pairs") -> str:
    """What the table shows, in one sentence."""
    what = ("the revision the pair speaks" if view == "pairs" else
            "the named features the pair loses, the client's and the server's")
    return (f"Rows are clients, columns are servers, each cell {what} "
            f"({_scenario_words(matrix)}).")


def _scenario_words(matrix: Matrix) -> str:
    """``scenario default``, and the transport when it is not stdio."""
    over = "" if matrix.transport == "stdio" else (
        ", over Streamable HTTP" if matrix.transport == "http" else f", over {matrix.transport}")
    via = f", via {matrix.via}" if matrix.via else ""
    return f"scenario {matrix.scenario}{via}{over}"


def summary_line(matrix: Matrix) -> str:
    s = matrix.summary()
    line = (f"{s.pairs} pairs ({len(matrix.clients)} clients × {len(matrix.servers)} servers, "
            f"{_scenario_words(matrix)}): {s.works} work directly, {s.fallback} work after a "
            f"fallback (downgrade, era fallback or retry), {s.fails} fail.")
    after = sum(1 for _, _, c in matrix.pairs() if c.failure == "result")
    if after:
        line += (f" Of those, {after} connect{'s' * (after == 1)}, then fail{'s' * (after == 1)} "
                 "a list or call (✗ result).")
    if s.steps_failed:
        line += f" {s.steps_failed} negotiate but fail a scenario step (!)."
    return line


def _quirk_lines(matrix: Matrix) -> list[tuple[str, str]]:
    names: dict[str, None] = {}
    for axis in (*matrix.clients, *matrix.servers):
        names.update(dict.fromkeys(notation_quirks(axis.notation)))
    out = []
    for name in names:
        quirk = QUIRKS.get(name)
        if quirk is not None:
            out.append((QUIRK_LABELS.get(name, name), f"({quirk.role}) {quirk.summary}"))
    return out


def legend_lines(matrix: Matrix, view: View = "pairs") -> list[tuple[str, str]]:
    """(key, meaning) pairs: the marks, the failure words, the revisions, the quirks."""
    cells = [c for _, _, c in matrix.pairs()]
    lines: list[tuple[str, str]] = []
    if view == "features":
        lines += [
            ("ok", "the pair works and loses no named feature of either side's newest revision"),
            ("loses …", "named features (elicitation, sampling, roots, ping, …) of the client's "
                        "newest revision that the negotiated revision cannot carry: the "
                        "client's users never get them from this server"),
            ("server loses …", "named features of the server's newest revision that the "
                               "negotiated revision cannot carry: they never reach this "
                               "client"),
        ]
    else:
        marks = {c.mark for c in cells} | {"direct"}
        lines += [(key, text) for mark, key, text in _MARK_LEGEND if mark in marks]
    if any(c.status == "ok" and steps_failed(c) for c in cells):
        lines.append(("!", "negotiated, but a scenario step did not get the answer its "
                           "revision calls for"))
    failures = Counter(c.failure for c in cells if c.status != "ok")
    lines += [(f"✗ {FAILURE_WORDS[k]}", text) for k, text in FAILURE_MEANINGS.items()
              if failures[k]]
    if failures[None]:
        lines.append(("✗", "fails"))
    key = revision_key(matrix)
    if key:
        lines.append(("revisions", ", ".join(f"{s}\u00a0=\u00a0{full}" for s, full in key
                                             if s != full)
                      or ", ".join(full for _, full in key)))
    lines += _quirk_lines(matrix)
    lines += race_lines(matrix)
    return lines


def race_lines(matrix: Matrix) -> list[tuple[str, str]]:
    """One legend line per cell that is a race of time (:mod:`._race`), with its sentence."""
    out = []
    for i, j, cell in matrix.pairs():
        if cell.race is not None:
            out.append((RACE_MARK, f"{matrix.clients[i].label} × {matrix.servers[j].label}: "
                                   f"{cell.race}"))
    return out


def features_groups(matrix: Matrix) -> list[tuple[str, str, int, list[str]]]:
    """(client's newest, negotiated, pairs, lost features) for every loss, most pairs first."""
    groups: dict[tuple[str, str, tuple[str, ...]], int] = defaultdict(int)
    for i, _, cell in matrix.pairs():
        lost = cell.features_lost
        if cell.status == "ok" and lost:
            newest = notation_revisions(matrix.clients[i].notation)[0]
            groups[(newest, cell.revision or "", lost)] += 1
    ordered = sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(new, got, n, list(lost)) for (new, got, lost), n in ordered]


def losses_groups(matrix: Matrix) -> list[tuple[str, str, str, int, list[str]]]:
    """(side, that side's newest revision, negotiated, pairs, named features lost) for every
    loss of a working pair, clients first, then most pairs first: what a client's users never
    get, and what of a server never reaches the clients that negotiate an older revision."""
    groups: dict[tuple[str, str, str, tuple[str, ...]], int] = defaultdict(int)
    for i, j, cell in matrix.pairs():
        if cell.status != "ok":
            continue
        for side, axis, lost in (("client", matrix.clients[i], cell.client_loses),
                                 ("server", matrix.servers[j], cell.server_loses)):
            if lost:
                newest = notation_revisions(axis.notation)[0]
                groups[(side, newest, cell.revision or "", lost)] += 1
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1:]))
    return [(side, new, got, n, list(lost)) for (side, new, got, lost), n in ordered]


def losses_line(matrix: Matrix, group: tuple[str, str, str, int, list[str]]) -> tuple[str, str]:
    """One by-side loss (a :func:`losses_groups` entry) as (key, text): ``server 25-11 →
    25-03``, ``elicitation, tasks never reach a client that negotiates 25-03 (2 pairs)``."""
    side, new, got, n, lost = group
    head = f"{side} {short(matrix, new)} → {short(matrix, got)}"
    pairs = f"{n} pair{'s' * (n != 1)}"
    if side == "server":
        return head, (f"{', '.join(lost)} never reach{'es' * (len(lost) == 1)} a client that "
                      f"negotiates {short(matrix, got)} ({pairs})")
    return head, f"its users never get {', '.join(lost)} ({pairs})"


#: The heading of the by-side list of the features view.
LOSSES_HEADING: Final = ("Named features lost, by side (that side's newest revision → "
                         "negotiated revision):")


def example_command(matrix: Matrix) -> str:
    """A ``simulate --trace`` command for the most telling pair: a quirk failure, else any."""
    cells = list(matrix.pairs())
    rank = {"quirk": 0, "fallback": 1, "fails": 2, "works": 3}
    i, j, _ = min(cells, key=lambda p: rank.get(p[2].failure or outcome(p[2]), 4))
    return (f"mcp-skew simulate --client '{matrix.clients[i].notation}' "
            f"--server '{matrix.servers[j].notation}'{_transport_option(matrix)} --trace")


def _wrap(key: str, text: str, width: int, line_width: int = _WIDTH) -> list[str]:
    wrapped = textwrap.wrap(text, line_width, initial_indent=f"  {key:<{width}}  ",
                            subsequent_indent=" " * (width + 4), break_on_hyphens=False,
                            break_long_words=False)
    return [line.replace("\u00a0", " ") for line in wrapped]


def _footer(matrix: Matrix, view: View, width: int | None = None,
            layout: tuple[str, str] | None = None) -> list[str]:
    """The legend, the features lost, the summary and the next commands.

    ``width`` (fitted layout) wraps every line at it; ``layout`` is a legend
    entry that states how the table was fitted.
    """
    legend = legend_lines(matrix, view) + ([layout] if layout else [])
    keys = max(len(k) for k, _ in legend)
    prose = _WIDTH if width is None else min(width, _WIDTH)
    lines = ["", "Legend:"]
    for key, text in legend:
        lines += _wrap(key, text, keys, prose)
    if view == "features":
        groups = features_groups(matrix)
        if groups:
            lines += ["", *_prose("Features lost (client's newest revision → negotiated "
                                  "revision):", width)]
            for new, got, n, lost in groups:
                head = f"{short(matrix, new)} → {short(matrix, got)}"
                lines += _wrap(head, f"{n} pair{'s' * (n != 1)}: {', '.join(lost)}", 15, prose)
        sides = losses_groups(matrix)
        if sides:
            lines += ["", *_prose(LOSSES_HEADING, width)]
            for key, text in (losses_line(matrix, g) for g in sides):
                lines += _wrap(key, text, 21, prose)
    return [*lines, "", *_prose(summary_line(matrix), width),
            *_command("One pair in detail:", example_command(matrix), width),
            *_command("Every pair with its transcript:",
                      "mcp-skew matrix" + _transport_option(matrix)
                      + " --format html --out matrix.html", width)]


def _transport_option(matrix: Matrix) -> str:
    """`` --transport http`` for a matrix run over HTTP; nothing for stdio, the default;
    `` --via BRIDGE`` for one through a bridge (which sets the transport)."""
    if matrix.via:
        return f" --via '{matrix.via}'"
    return "" if matrix.transport == "stdio" else f" --transport {matrix.transport}"


def _prose(text: str, width: int | None) -> list[str]:
    """``text`` as one line (wide layout) or wrapped at ``width`` (never inside a word)."""
    if width is None:
        return [text]
    return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)


def _command(intro: str, command: str, width: int | None) -> list[str]:
    """``intro command`` on one line if it fits; else the command on lines of its own,
    broken before an option with a shell line continuation (`` \\``), so it still pastes."""
    line = f"{intro} {command}"
    if width is None or len(line) <= width:
        return [line]
    first, *options = re.split(r" (?=--)", command)
    lines, current = [intro], f"  {first}"
    for option in options:
        if len(current) + len(f" {option} \\") > width:
            lines.append(f"{current} \\")
            current = "   "
        current += f" {option}"
    return [*lines, current]


# -- Renderers ------------------------------------------------------------------------
def column_blocks(widths: Sequence[int], width: int) -> list[list[int]]:
    """Server columns packed in order into blocks that fit ``width``.

    ``widths`` are the table's column widths, the client labels first; each
    block is the indexes (from 1) of its columns, and its table is the labels
    plus those columns. A block takes columns while they fit; a column too wide
    to fit beside the labels even alone gets a block of its own.
    """
    blocks: list[list[int]] = []
    used = 0
    for index, column in enumerate(widths[1:], start=1):
        if blocks and used + _GAP + column <= width:
            blocks[-1].append(index)
            used += _GAP + column
        else:
            blocks.append([index])
            used = widths[0] + _GAP + column
    return blocks


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width as tabulate lays it out: its longest line, colour codes aside."""
    return [max(len(_ANSI_CODE.sub("", line)) for text in column for line in text.split("\n"))
            for column in zip(headers, *rows, strict=True)]


def _simple(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A ``simple`` table with the header as a row: tabulate pads real headers by two (laid
    out without importing tabulate, which the default matrix would wait for)."""
    return simple_table(headers, rows)


def _blocks_legend(servers: int, blocks: int, width: int) -> tuple[str, str]:
    return ("blocks", f"the {servers} servers come in {blocks} blocks of columns, each repeating "
                      f"the client labels, to fit a width of {width} (COLUMNS, else the "
                      "terminal's); a column label breaks only at a space, before + or after "
                      "'..', never inside a word; --wide prints one table")


def _fitted(matrix: Matrix, view: View, decorate: Callable[[Cell, str], str],
            title: str, width: int) -> str:
    """The fitted layout: blocks of columns, each within ``width``; prose wrapped at it."""
    headers, rows = _grid(matrix, view, decorate, lambda label: stack(label, whole_words=True),
                          tall=True)
    blocks = column_blocks(_widths(headers, rows), width)
    tables = [_simple([headers[0], *(headers[j] for j in block)],
                      [[row[0], *(row[j] for j in block)] for row in rows]) for block in blocks]
    legend = _blocks_legend(len(matrix.servers), len(blocks), width) if len(blocks) > 1 else None
    return "\n".join([*_prose(title, width), "", "\n\n".join(tables),
                      *_footer(matrix, view, width, legend)]) + "\n"


def render_text(matrix: Matrix, view: View = "pairs", *, color: bool = False,
                tablefmt: str = "simple", width: int | None = None) -> str:
    """The terminal view: a table with stacked column labels, the legend, the summary.

    ``width`` fits it into that many columns (the module's fitted layout, for the
    ``simple`` table); ``None`` gives one wide table.
    """
    return "".join(render_text_pieces(matrix, view, color=color, tablefmt=tablefmt,
                                      width=width))


def render_text_pieces(matrix: Matrix, view: View = "pairs", *, color: bool = False,
                       tablefmt: str = "simple", width: int | None = None) -> Iterator[str]:
    """:func:`render_text` in pieces, each made when it is asked for: the title, the wide
    ``simple`` table a line at a time, then each line under it (the fitted layout and the
    ruled table come in one piece). A caller that writes each piece as it comes keeps
    none it has written: the text of a million cells is tens of MB, held several times
    over while one string is joined, made terminal-safe and encoded."""
    def decorate(cell: Cell, text: str) -> str:
        return f"{_ANSI[outcome(cell)]}{text}\x1b[0m" if color else text

    heading = "MCP compatibility matrix" if view == "pairs" else "MCP feature matrix"
    title = f"{heading}. {title_line(matrix, view)}"
    if width is not None:
        if tablefmt != "simple":
            raise ValueError(f"width fits the simple table only, not {tablefmt!r}")
        yield _fitted(matrix, view, decorate, title, width)
        return
    headers, rows = _grid(matrix, view, decorate, stack, tall=True)
    yield f"{title}\n\n"
    if tablefmt == "simple":
        yield from (f"{line}\n" for line in simple_table_lines(headers, rows))
    else:
        from tabulate import tabulate  # noqa: PLC0415 - the ruled formats only (_simple_table)

        yield tabulate(rows, headers, tablefmt=tablefmt, disable_numparse=True) + "\n"
    del headers, rows  # the cells' texts: what is left to write needs none of them
    yield from (f"{line}\n" for line in _footer(matrix, view))


def render_grid(matrix: Matrix, view: View = "pairs", *, color: bool = False) -> str:
    """The same as :func:`render_text`, ruled (tabulate's ``grid``)."""
    return render_text(matrix, view, color=color, tablefmt="grid")


def render_markdown(matrix: Matrix, view: View = "pairs", *, github: bool = False) -> str:
    """Markdown (a pipe table); ``github`` adds colour marks and a list of failures."""
    def decorate(cell: Cell, text: str) -> str:
        return f"{_EMOJI[outcome(cell)]} {markdown_cell(text)}" if github else markdown_cell(text)

    from tabulate import tabulate  # noqa: PLC0415 - markdown only (see _simple_table)

    headers, rows = _grid(matrix, view, decorate, markdown_cell)
    rows = [[markdown_cell(row[0]), *row[1:]] for row in rows]
    table = tabulate(rows, headers, tablefmt="github" if github else "pipe",
                     disable_numparse=True)
    title = "Compatibility matrix" + (": features" if view == "features" else "")
    lines = [f"# {title}", "",
             f"{title_line(matrix, view)} Generated by `mcp-skew matrix`.", "", table, ""]
    lines += [f"- {code_span(markdown_cell(k, code=True))}: {markdown_cell(t)}"
              for k, t in legend_lines(matrix, view)]
    if view == "features":
        lines += ["", "Features lost (client's newest revision → negotiated revision):", ""]
        lines += [f"- {short(matrix, new)} → {short(matrix, got)} ({n} pair{'s' * (n != 1)}): "
                  f"{', '.join(lost)}"
                  for new, got, n, lost in features_groups(matrix)]
        sides = losses_groups(matrix)
        if sides:
            lines += ["", LOSSES_HEADING, ""]
            lines += [f"- {k}: {markdown_cell(t)}" for k, t in
                      (losses_line(matrix, g) for g in sides)]
    peers = [[role, code_span(markdown_cell(a.label, code=True)),
              code_span(markdown_cell(a.notation, code=True))]
             for role, axes in (("client", matrix.clients), ("server", matrix.servers))
             for a in axes]
    lines += ["", f"**Summary:** {summary_line(matrix)}", "",
              tabulate(peers, ["peer", "label", "spec"], tablefmt="github" if github else "pipe",
                       disable_numparse=True)]
    if github:
        lines += _github_failures(matrix)
    lines += ["", f"One pair in detail: {code_span(example_command(matrix))}"]
    return "\n".join(lines) + "\n"


def _github_failures(matrix: Matrix) -> list[str]:
    failed = [(i, j, c) for i, j, c in matrix.pairs() if c.status != "ok" or steps_failed(c)]
    if not failed:
        return []
    lines = ["", f"<details><summary>Failing pairs ({len(failed)})</summary>", ""]
    for i, j, cell in failed:
        why = cell.reason or "; ".join(f"{s.name}: got {s.got}" for s in steps_failed(cell))
        pair = f"{markdown_cell(matrix.clients[i].label)} × {markdown_cell(matrix.servers[j].label)}"
        path = markdown_cell(" -> ".join(cell.path), code=True)
        lines.append(f"- **{pair}**: {markdown_cell(why)} ({code_span(path)})")
    return [*lines, "", "</details>"]

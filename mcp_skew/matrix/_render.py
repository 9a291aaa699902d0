"""One entry point for every output format: :func:`render` ``(matrix, format, view)``.

Formats for people: ``text`` (the terminal default), ``grid``, ``markdown``,
``github``, ``html``; for machines: ``json`` (reads back with
:meth:`~mcp_skew.matrix.Matrix.from_dict`), ``csv``, ``junit``. The ``view``
(``pairs`` or ``features``) changes what the cells of the people's formats show;
the machine formats always carry everything. Every format but ``json`` shows text from
outside with its control characters escaped (:mod:`._shown`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, get_args

from ..errors import UsageError
from ._build import Matrix
from ._render_text import View, render_grid, render_markdown, render_text
from ._shown import shown

__all__ = ["FORMATS", "TRANSCRIPT_FORMATS", "VIEWS", "Format", "render", "shown"]

Format = Literal["text", "markdown", "github", "grid", "html", "json", "csv", "junit"]
FORMATS: Final[tuple[str, ...]] = get_args(Format)
VIEWS: Final[tuple[str, ...]] = get_args(View)
#: The formats that show the cells' transcripts (html's wire logs, json's records, junit's
#: system-out); the others need none, so a matrix built for them keeps none
#: (``build_matrix(..., keep_transcripts=False)``).
TRANSCRIPT_FORMATS: Final[frozenset[str]] = frozenset({"html", "json", "junit"})


def _html(matrix: Matrix, view: View) -> str:
    from ._render_html import render_html  # noqa: PLC0415 - html: loaded when it is asked for

    return render_html(matrix, view)


def _data(matrix: Matrix, fmt: str) -> str:
    # json, csv and junit (csv, xml.etree): loaded when one of them is asked for
    from ._render_data import render_csv, render_json, render_junit  # noqa: PLC0415

    return {"json": render_json, "csv": render_csv, "junit": render_junit}[fmt](matrix)


_RENDERERS: Final[dict[str, Callable[[Matrix, View, bool], str]]] = {
    "text": lambda m, v, c: render_text(m, v, color=c),
    "grid": lambda m, v, c: render_grid(m, v, color=c),
    "markdown": lambda m, v, c: render_markdown(m, v),
    "github": lambda m, v, c: render_markdown(m, v, github=True),
    "html": lambda m, v, c: _html(m, v),
    "json": lambda m, v, c: _data(m, "json"),
    "csv": lambda m, v, c: _data(m, "csv"),
    "junit": lambda m, v, c: _data(m, "junit"),
}


def render(matrix: Matrix, fmt: str = "text", view: str = "pairs", *,
           color: bool = False) -> str:
    """``matrix`` as text in ``fmt``; ``color`` adds ANSI colours to ``text`` and ``grid``.

    Every format but ``json`` renders :func:`shown` ``(matrix)``: text from outside (labels,
    server names, a ``--from`` document's strings) with its controls shown, not obeyed."""
    renderer = _RENDERERS.get(fmt)
    if renderer is None:
        raise UsageError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if view not in VIEWS:
        raise UsageError(f"unknown view {view!r}; use one of {', '.join(VIEWS)}")
    return renderer(matrix if fmt == "json" else shown(matrix), view, color)  # type: ignore[arg-type]  # checked just above

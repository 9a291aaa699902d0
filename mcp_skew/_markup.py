"""The one HTML page shell and the one escaper of each markup every report is written in.

Every HTML report (the matrix, the probe's card, probe-client's card, the rollout, the
migration guide, the census report) is one self-contained page made by :func:`page`:
the doctype, ``<html>``, a head with the charset, the title (escaped) and the report's
own style sheet, then the body the report wrote. Every text a report puts in a page
goes through :func:`escape` (markup escaped, control characters shown); every text it
puts in a Markdown table cell goes through :func:`markdown_cell`.

Every page is spelled the same way (the reports' shells were once written one by one,
with five spellings of the same page).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["code_span", "escape", "markdown_cell", "page"]

#: A ``<`` that GFM reads as the start of an HTML tag, comment or declaration.
_TAG_OPEN: Final = re.compile(r"<(?=[A-Za-z/!?])")
#: A code span (a run of backticks, text, the same run); captured, so ``split`` keeps it.
_CODE_SPAN: Final = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)


#: What a terminal acts on rather than shows, as ``mcp_skew._output`` has it (this module is
#: pure: the profiles import it): C0 controls but tab and newline, DEL, C1 controls, lone
#: surrogates, the bidirectional overrides and isolates (a test keeps the two the same).
_CONTROLS: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def escape(text: object) -> str:
    """``text`` (any value, as ``str``) safe in HTML text and in a quoted attribute; its
    control characters (ESC, C0, C1, DEL), lone surrogates and bidirectional overrides
    written ``\\uXXXX``, shown as the terminal shows them (``_output.terminal_safe``)."""
    import html  # noqa: PLC0415 - the HTML reports only: the terminal matrix needs none

    shown = _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", str(text))
    return html.escape(shown, quote=True)


def markdown_cell(text: str, *, backslash: bool = True, newline: bool = True,
                  code: bool = False) -> str:
    """``text`` safe in a cell of a Markdown (GFM) table: each ``|`` escaped as ``\\|``, and
    a ``<`` that would open an HTML tag (``<authorization base URL>``, ``<img ...>``)
    written ``&lt;`` outside the text's code spans (GitHub would drop it, or take it as
    HTML); ``code=True`` when the caller puts the whole text in a code span, where an
    entity is shown as it is written.

    By default a backslash is doubled first (so a ``\\`` in the text does not escape
    what follows it) and a line break becomes a space (a table row is one line); a
    report whose cells never held either and that has always written them as they
    are says ``backslash=False`` or ``newline=False``.
    """
    if backslash:
        text = text.replace("\\", "\\\\")
    text = text.replace("|", "\\|")
    if not code:
        text = _outside_code_spans(text, lambda part: _TAG_OPEN.sub("&lt;", part))
    return text.replace("\n", " ") if newline else text


def code_span(text: str) -> str:
    """``text`` as one Markdown code span whatever backticks it holds (CommonMark 0.31,
    "Code spans": the fence is a run of backticks longer than any run inside, and a space
    pads each side when the text starts or ends with a backtick or a space), so a backtick
    from outside cannot close the span and put the rest (``<img ...>``) outside it."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _outside_code_spans(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to each stretch outside its code spans."""
    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [change(text[at:span.start()]), span.group(0)]
        at = span.end()
    return "".join([*out, change(text[at:])])


def page(title: str, body: str, *, style: str | None = None, head: Sequence[str] = ()) -> str:
    """One self-contained HTML page: ``body`` (HTML the report wrote) in the shell, with
    ``title`` escaped, the report's ``style`` sheet (none: no ``<style>``) and ``head``
    (more head elements, as HTML, a line each) after the charset."""
    extra = "".join(f"{line}\n" for line in head)
    styled = "" if style is None else f"<style>{style}</style>"
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n{extra}'
            f"<title>{escape(title)}</title>{styled}</head><body>\n{body}\n</body></html>\n")

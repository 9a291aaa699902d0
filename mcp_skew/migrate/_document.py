"""The migration guide's document model, and its two renderings: markdown and HTML.

A guide is built (:func:`~._format.document`) as blocks of a small model:
headings, paragraphs, lists, tables, preformatted blocks and comments, with
inline text that may hold `code spans` in backticks; links, links within the page
and bold text are separate parts. :func:`to_markdown` and :func:`to_html` render the
same blocks, so the two say the same thing. HTML escapes every piece of text and every
attribute, and carries its own stylesheet: no script, no external resource. In HTML,
every section and subsection heading has an id, and a contents list with a link to
each follows the title; a :class:`Ref` links to a heading's id (markdown shows its text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, TypeAlias

from .._markup import escape, markdown_cell, page

__all__ = [
    "Block",
    "Bullets",
    "Comment",
    "DocLink",
    "Heading",
    "Inline",
    "Para",
    "Part",
    "Pre",
    "Ref",
    "Strong",
    "Table",
    "to_html",
    "to_markdown",
]


@dataclass(frozen=True, slots=True)
class DocLink:
    text: str
    url: str


@dataclass(frozen=True, slots=True)
class Strong:
    text: str


@dataclass(frozen=True, slots=True)
class Ref:
    """A link to a heading of the same page (its :attr:`Heading.anchor`); plain text in markdown."""

    text: str
    anchor: str


Part: TypeAlias = str | DocLink | Strong | Ref
Inline: TypeAlias = tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: Inline
    anchor: str = ""  #: the HTML id; empty: made from the text (as GitHub makes its anchors)


@dataclass(frozen=True, slots=True)
class Para:
    text: Inline


@dataclass(frozen=True, slots=True)
class Bullets:
    items: tuple[Inline, ...]
    numbered: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]


@dataclass(frozen=True, slots=True)
class Pre:
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Comment:
    text: str


Block: TypeAlias = Heading | Para | Bullets | Table | Pre | Comment


# -- markdown ------------------------------------------------------------------------------

_CODE = re.compile(r"(`[^`]*`)")


def _md_text(text: str, table: bool) -> str:
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        text = part if i % 2 else part.replace("<", "&lt;")
        out.append(markdown_cell(text, backslash=False, newline=False) if table else text)
    return "".join(out)


def _md(inline: Inline, table: bool = False) -> str:
    out: list[str] = []
    for part in inline:
        if isinstance(part, DocLink):
            out.append(f"[{_md_text(part.text, table)}]({part.url})")
        elif isinstance(part, Strong):
            out.append(f"**{_md_text(part.text, table)}**")
        elif isinstance(part, Ref):
            out.append(_md_text(part.text, table))
        else:
            out.append(_md_text(part, table))
    return "".join(out)


def _md_block(block: Block) -> list[str]:
    if isinstance(block, Comment):
        return [f"<!-- {block.text} -->"]
    if isinstance(block, Heading):
        return ["#" * block.level + " " + _md(block.text)]
    if isinstance(block, Para):
        return [_md(block.text)]
    if isinstance(block, Bullets):
        return [f"{i}. " + _md(item) if block.numbered else "- " + _md(item)
                for i, item in enumerate(block.items, 1)]
    if isinstance(block, Table):
        lines = ["| " + " | ".join(block.headers) + " |", "|" + "---|" * len(block.headers)]
        lines += ["| " + " | ".join(_md(cell, table=True) for cell in row) + " |"
                  for row in block.rows]
        return lines
    return ["```text", *block.lines, "```"]


def to_markdown(blocks: Iterable[Block]) -> str:
    """The blocks as GitHub markdown, ending in a newline."""
    out: list[str] = []
    for block in blocks:
        out += [*_md_block(block), ""]
    return "\n".join(out).rstrip("\n") + "\n"


# -- html ------------------------------------------------------------------------------------

_STYLE: Final = """
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;
color:#1b1f24}
table{border-collapse:collapse;margin:1rem 0;font-size:13px}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
code{font:13px ui-monospace,monospace;background:#f6f8fa;padding:0 .2rem}
pre{background:#f6f8fa;padding:.75rem;overflow-x:auto;font:12px/1.4 ui-monospace,monospace}
h3{margin-top:2rem}
""".strip()


def _html_text(text: str) -> str:
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{escape(part[1:-1])}</code>")
        else:
            out.append(escape(part))
    return "".join(out)


def _html(inline: Inline) -> str:
    out: list[str] = []
    for part in inline:
        if isinstance(part, DocLink):
            out.append(f'<a href="{escape(part.url)}">'
                       f"{_html_text(part.text)}</a>")
        elif isinstance(part, Strong):
            out.append(f"<strong>{_html_text(part.text)}</strong>")
        elif isinstance(part, Ref):
            out.append(f'<a href="#{escape(part.anchor)}">{_html_text(part.text)}</a>')
        else:
            out.append(_html_text(part))
    return "".join(out)


_SLUG_DROP = re.compile(r"[^a-z0-9 _-]")


def slug(text: Inline) -> str:
    """A heading's anchor made from its text: lower case, punctuation dropped, spaces as -."""
    words = "".join(p if isinstance(p, str) else p.text for p in text).lower()
    return _SLUG_DROP.sub("", words).strip().replace(" ", "-") or "section"


def _anchors(blocks: tuple[Block, ...]) -> dict[int, str]:
    """The id of each heading of level 2 or 3 (by position), made unique with -2, -3, ..."""
    seen: dict[str, int] = {}
    out: dict[int, str] = {}
    for i, block in enumerate(blocks):
        if isinstance(block, Heading) and block.level in (2, 3):
            base = block.anchor or slug(block.text)
            seen[base] = seen.get(base, 0) + 1
            out[i] = base if seen[base] == 1 else f"{base}-{seen[base]}"
    return out


def _contents(blocks: tuple[Block, ...], anchors: dict[int, str]) -> str:
    """The contents list: each section, with its subsections nested under it."""
    out: list[str] = []
    open_sub = False
    for i, anchor in anchors.items():
        block = blocks[i]
        assert isinstance(block, Heading)
        link = f'<a href="#{escape(anchor)}">{_html(block.text)}</a>'
        if block.level == 2:
            out.append("</ul></li>" if open_sub else "</li>" if out else "")
            out.append(f"<li>{link}")
            open_sub = False
        else:
            out.append(f"<li>{link}</li>" if open_sub else f"<ul><li>{link}</li>")
            open_sub = True
    if out:
        out.append("</ul></li>" if open_sub else "</li>")
    return '<nav><h2>Contents</h2><ul>' + "".join(out) + "</ul></nav>"


def _html_block(block: Block, anchor: str = "") -> str:
    if isinstance(block, Comment):
        return f"<!-- {escape(block.text).replace('--', '- -')} -->"
    if isinstance(block, Heading):
        ident = f' id="{escape(anchor)}"' if anchor else ""
        return f"<h{block.level}{ident}>{_html(block.text)}</h{block.level}>"
    if isinstance(block, Para):
        return f"<p>{_html(block.text)}</p>"
    if isinstance(block, Bullets):
        tag = "ol" if block.numbered else "ul"
        items = "".join(f"<li>{_html(item)}</li>" for item in block.items)
        return f"<{tag}>{items}</{tag}>"
    if isinstance(block, Table):
        head = "".join(f"<th>{escape(h)}</th>" for h in block.headers)
        rows = "".join("<tr>" + "".join(f"<td>{_html(cell)}</td>" for cell in row) + "</tr>"
                       for row in block.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    return "<pre>" + escape("\n".join(block.lines)) + "</pre>"


def to_html(title: str, blocks: Iterable[Block]) -> str:
    """The blocks as one self-contained HTML page (inline style, no script, all text escaped),
    with a contents list after the title when the page has sections."""
    blocks = tuple(blocks)
    anchors = _anchors(blocks)
    parts = [_html_block(block, anchors.get(i, "")) for i, block in enumerate(blocks)]
    if anchors:
        first = next((i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.level == 1),
                     -1)
        parts.insert(first + 1, _contents(blocks, anchors))
    return page(title, "\n".join(parts), style=_STYLE)

"""The one HTML page shell and the escapers every report uses (``mcp_skew._markup``)."""

from __future__ import annotations

import pytest

from mcp_skew._markup import escape, markdown_cell, page


def test_escape_makes_text_and_attributes_safe() -> None:
    assert escape('<a href="x">&\'</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&#x27;&lt;/a&gt;"
    assert escape(42) == "42"


@pytest.mark.parametrize(("text", "options", "cell"), [
    ("a|b", {}, "a\\|b"),
    ("a\\|b", {}, "a\\\\\\|b"),
    ("one\ntwo", {}, "one two"),
    ("a\\|b\nc", {"backslash": False}, "a\\\\|b c"),
    ("a|b\nc", {"backslash": False, "newline": False}, "a\\|b\nc"),
])
def test_a_markdown_cell_escapes_the_pipe_and_by_default_backslashes_and_breaks(
        text: str, options: dict[str, bool], cell: str) -> None:
    assert markdown_cell(text, **options) == cell


def test_the_default_page_puts_the_body_in_the_shell_with_the_title_escaped() -> None:
    assert page("a<b", "<p>x</p>", style="p{}", head=("<meta name=v>",)) == (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<meta name=v>\n'
        "<title>a&lt;b</title><style>p{}</style></head><body>\n<p>x</p>\n</body></html>\n")


def test_a_page_without_a_style_has_no_style_element() -> None:
    assert page("t", "B") == ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
                              "<title>t</title></head><body>\nB\n</body></html>\n")


@pytest.mark.parametrize(("text", "cell"), [
    ("at <authorization base URL>/x", "at &lt;authorization base URL>/x"),  # a tag to GitHub
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"),
    ("</details> <!-- x --> <?x?>", "&lt;/details> &lt;!-- x --> &lt;?x?>"),
    ("a < b and 1<2", "a < b and 1<2"),  # no tag opens: as it is
    ("a `x<y>` b", "a `x<y>` b"),  # a code span shows its text as written
    ("``a`<z>`` <q", "``a`<z>`` &lt;q"),
    ("an `unclosed <b>", "an `unclosed &lt;b>"),
])
def test_a_markdown_cell_keeps_html_tags_from_opening_outside_code(text: str, cell: str) -> None:
    assert markdown_cell(text) == cell


def test_a_markdown_cell_in_a_code_span_keeps_its_angle_brackets() -> None:
    assert markdown_cell("<label>|x", code=True) == "<label>\\|x"

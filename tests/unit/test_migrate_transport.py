"""Guides cut to the reader: ``migrate --transport`` and the HTML contents list.

A change says which transport it is about (``Change.transport``: ``any``, ``http`` or
``stdio``); authorization is HTTP-only because the spec defines it for HTTP transports
(2025-03-26 ``basic/authorization.mdx`` §Protocol Requirements: "Implementations using an
STDIO transport SHOULD NOT follow this specification"). A guide for one transport keeps
the changes, checklist items and proof rows of that transport and of every transport,
and names each change it leaves out, so nothing is dropped unsaid. The HTML guide has a
contents list after its title with a link to each section and each change, and its
checklist links each change to its section.
"""

from __future__ import annotations

import itertools
import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.migrate import build_guide
from mcp_skew.migrate._format import guide_to_dict, render_html, render_markdown
from mcp_skew.migrate._guide import Guide
from mcp_skew.versions import BUILTIN, Era, profile_for, with_profile_files

PAIRS = [(a.revision, b.revision) for a, b in itertools.permutations(BUILTIN, 2)]
LEGACY_TO_MODERN = [(a.revision, b.revision) for a, b in itertools.product(BUILTIN, BUILTIN)
                    if a.era is Era.LEGACY and b.era is Era.MODERN]
#: Pages whose changes are about HTTP only: the transport page of Streamable HTTP and the
#: authorization pages (authorization is defined for HTTP transports only).
HTTP_PAGES = re.compile(r"^basic/(transports/streamable-http\.mdx|authorization)")


@cache
def guide(a: str, b: str, role: str = "both", transport: str | None = None,
          proof: bool = False) -> Guide:
    return build_guide(profile_for(a), profile_for(b), role,  # type: ignore[arg-type]
                       proof=proof, transport=transport)  # type: ignore[arg-type]


def all_changes() -> list[tuple[str, str, str]]:
    return [(p.revision, c.id, c.transport) for p in BUILTIN for c in p.changes]


def test_every_change_citing_an_http_only_page_is_marked_http() -> None:
    for profile in BUILTIN:
        for change in profile.changes:
            if HTTP_PAGES.match(change.cite.source) or change.touches() in (
                    ("auth",), ("http_headers",), ("version_header_absent",)):
                assert change.transport == "http", change.id


def test_some_changes_of_every_later_revision_are_http_only() -> None:
    http = {rev for rev, _, transport in all_changes() if transport == "http"}
    assert http == {p.revision for p in BUILTIN[1:]}


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_a_transport_guide_keeps_or_names_every_change(a: str, b: str) -> None:
    whole = guide(a, b).ids
    for transport in ("stdio", "http"):
        cut = guide(a, b, transport=transport)
        kept = set(cut.ids)
        named = {c.id for c in cut.left_out}
        assert kept | named == set(whole) and not kept & named
        assert [i for i in whole if i in kept] == list(cut.ids)  # order kept
        assert all(c.transport not in ("any", transport) for c in cut.left_out)
        assert all(c.change.transport in ("any", transport) for c in cut.changes)


def test_the_stdio_server_guide_leaves_out_the_http_steps() -> None:
    whole = render_markdown(guide("2025-06-18", "2026-07-28", "server", proof=True))
    stdio = render_markdown(guide("2025-06-18", "2026-07-28", "server", "stdio", proof=True))
    assert len(stdio.splitlines()) < 0.8 * len(whole.splitlines())
    for gone in ("sessions-removed", "method-name-headers", "auth-iss-validation",
                 "unknown-method-404"):
        assert f"### `{gone}`" in whole and f"### `{gone}`" not in stdio
        assert f"`{gone}`" in stdio.split("## Summary")[0]  # named in the intro
    assert "On Streamable HTTP, read the version header per era" in whole
    assert "On Streamable HTTP, read the version header per era" not in stdio
    assert "--transport stdio" in stdio.splitlines()[2]
    assert "### `handshake-removed`" in stdio and "## Serve both eras" in stdio


def test_the_http_client_guide_keeps_only_http_proof_rows_and_items() -> None:
    both = guide("2025-11-25", "2026-07-28", "client", proof=True).talk_eras
    http = guide("2025-11-25", "2026-07-28", "client", "http", proof=True).talk_eras
    stdio = guide("2025-11-25", "2026-07-28", "client", "stdio", proof=True).talk_eras
    assert both is not None and http is not None and stdio is not None
    assert {r.transport for r in both.rows} == {"stdio", "http"}
    assert {r.transport for r in http.rows} == {"http"}
    assert {r.transport for r in stdio.rows} == {"stdio"}
    titles = {i.title for i in both.checklist}
    assert {i.title for i in http.checklist} == titles - {
        i.title for i in both.checklist if i.transport == "stdio"}
    assert any(i.transport == "stdio" for i in both.checklist)
    assert any(i.transport == "http" for i in both.checklist)
    text = render_markdown(guide("2025-11-25", "2026-07-28", "client", "stdio", proof=True))
    assert "over stdio, scenario" in text and "over Streamable HTTP" not in text


def test_every_transport_guide_is_the_old_guide() -> None:
    a, b = "2025-06-18", "2026-07-28"
    assert guide(a, b).transport is None and guide(a, b).left_out == ()
    whole = render_markdown(guide(a, b, "client", proof=True))
    assert "over stdio and over Streamable HTTP" in whole and "left out" not in whole


def test_json_says_the_transport_and_what_it_left_out() -> None:
    data = guide_to_dict(guide("2024-11-05", "2026-07-28", "server", "stdio"))
    assert data["transport"] == "stdio"
    left = {x["id"]: x for x in data["left_out"]}
    assert left["streamable-http"]["transport"] == "http"
    assert left["streamable-http"]["revision"] == "2025-03-26"
    assert not left.keys() & {c["id"] for c in data["changes"]}
    assert guide_to_dict(guide("2024-11-05", "2026-07-28"))["transport"] is None


def test_the_cli_takes_transport_and_refuses_another(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert main(["migrate", "2025-11-25", "2026-07-28", "--role", "server",
                 "--transport", "stdio", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["transport"] == "stdio" and data["left_out"]
    with pytest.raises(SystemExit) as stop:
        main(["migrate", "2025-11-25", "2026-07-28", "--transport", "pigeon"])
    assert stop.value.code == 2
    assert "invalid choice: 'pigeon'" in capsys.readouterr().err


def test_a_profile_file_change_can_say_its_transport(tmp_path: Path) -> None:
    path = tmp_path / "draft.toml"
    path.write_text(
        'revision = "2026-12-hdr"\nextends = "2026-07-28"\n[[changes]]\n'
        'id = "draft-hdr"\nsummary = "A new header"\nimpact = "additive"\n'
        'transport = "http"\n'
        'cite = { revision = "2026-12-hdr", source = "https://example.com/hdr" }\n'
        'add = { http_headers = ["Mcp-Tenant"] }\n', encoding="utf-8")
    registry = with_profile_files([str(path)])
    draft = registry.get("2026-12-hdr")
    assert draft.changes[-1].transport == "http"
    cut = build_guide(registry.get("2026-07-28"), draft, "server", proof=False,
                      transport="stdio")
    assert [c.id for c in cut.left_out] == ["draft-hdr"] and cut.changes == ()


def test_a_profile_file_change_with_another_transport_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "draft.toml"
    path.write_text(
        'revision = "2026-12-x"\nextends = "2026-07-28"\n[[changes]]\n'
        'id = "draft-x"\nsummary = "x"\nimpact = "clarification"\ntransport = "pigeon"\n'
        'cite = { revision = "2026-12-x", source = "https://example.com/x" }\n',
        encoding="utf-8")
    code = main(["--profile", str(path), "migrate", "2026-07-28", "2026-12-x"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "transport" in err


class _Page(HTMLParser):
    """The ids, in-page links and the contents list's links of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.contents: list[str] = []
        self.heading_ids: list[str] = []
        self._in_nav = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "nav":
            self._in_nav = True
        if values.get("id"):
            self.ids.append(str(values["id"]))
            if tag in ("h2", "h3"):
                self.heading_ids.append(str(values["id"]))
        href = values.get("href") or ""
        if href.startswith("#"):
            (self.contents if self._in_nav else self.links).append(href[1:])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = False


@pytest.mark.parametrize(("a", "b"), [("2025-06-18", "2026-07-28"), ("2026-07-28", "2024-11-05"),
                                      ("2025-03-26", "2025-06-18")])
def test_the_html_guide_has_contents_linking_each_section(a: str, b: str) -> None:
    g = guide(a, b, "both", proof=True)
    page = _Page()
    page.feed(render_html(g))
    assert len(page.ids) == len(set(page.ids))  # unique
    assert page.contents == page.heading_ids  # every section and change, in order
    assert set(page.links) <= set(page.ids)  # every in-page link lands
    changes = {f"change-{i}" for i in g.ids}
    assert changes <= set(page.heading_ids)
    checklist = [x for x in page.links if x.startswith("change-")]
    assert checklist and set(checklist) <= changes


def test_markdown_shows_the_checklist_ids_as_before() -> None:
    text = render_markdown(guide("2025-11-25", "2026-07-28", "server"))
    assert re.search(r"^\d+\. `server-discover` \(MUST\): ", text, re.M)
    assert "](#change-" not in text


@pytest.mark.parametrize(("a", "b"), LEGACY_TO_MODERN)
def test_the_server_proof_stays_whole_for_http(a: str, b: str) -> None:
    # the serve-both-eras proof runs over stdio only: it shows the era logic, which no
    # transport changes, so an HTTP guide keeps it
    whole = guide(a, b, "server", proof=True).both_eras
    http = guide(a, b, "server", "http", proof=True).both_eras
    assert whole is not None and http is not None and http.rows == whole.rows
    assert len(http.checklist) == len(whole.checklist)
    stdio = guide(a, b, "server", "stdio", proof=True).both_eras
    assert stdio is not None and len(stdio.checklist) == len(whole.checklist) - 1

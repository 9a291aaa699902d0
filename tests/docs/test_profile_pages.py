"""Golden: docs/generated/profiles/<rev>.md is current and holds each revision's flattened table."""

from __future__ import annotations

from pathlib import Path

from mcp_skew.commands import versions as command
from mcp_skew.versions import BUILTIN, REVISIONS, reference_pages
from mcp_skew.versions._profile import SETTINGS, TABLES

PAGES = Path(__file__).resolve().parents[2] / "docs" / "generated" / "profiles"


def test_reference_pages_are_up_to_date() -> None:
    """docs/generated/profiles/<rev>.md is the flattened table of each built-in revision."""
    pages = reference_pages(BUILTIN)
    assert sorted(pages) == sorted(f"{r}.md" for r in REVISIONS)
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in PAGES.glob("*.md")}
    stale = sorted(name for name in pages.keys() | on_disk.keys()
                   if pages.get(name) != on_disk.get(name))
    assert not stale, f"out of date: {', '.join(stale)}; regenerate with: {command.REGENERATE}"


def test_reference_pages_hold_the_flattened_tables() -> None:
    for profile in BUILTIN:
        page = (PAGES / f"{profile.revision}.md").read_text(encoding="utf-8")
        for name in profile.methods:
            assert f"| `{name}` |" in page
        for table in TABLES:
            missing = sorted(name for name in profile.names(table) if name not in page)
            assert missing == [], (profile.revision, table)
        for setting in SETTINGS:
            assert f"| `{setting}` |" in page


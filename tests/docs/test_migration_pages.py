"""Golden: the generated migration guides in docs/migrations/ are current and complete."""

from __future__ import annotations

import itertools
from pathlib import Path

from mcp_skew.migrate._pages import REGENERATE, write_pages
from mcp_skew.versions import (
    BUILTIN,
    Era,
)

PAGES = Path(__file__).resolve().parents[2] / "docs" / "migrations"
LEGACY = [p.revision for p in BUILTIN if p.era is Era.LEGACY]
LATEST = BUILTIN[-1].revision


def test_generated_guides_are_current() -> None:
    stale = write_pages(PAGES, check=True)
    assert not stale, f"out of date: {', '.join(stale)}; regenerate with: {REGENERATE}"


def test_generated_guides_cover_adjacent_pairs_and_legacy_to_latest() -> None:
    names = {p.name for p in PAGES.glob("*.md")}
    for a, b in itertools.pairwise(BUILTIN):
        assert f"{a.revision}_to_{b.revision}.md" in names
    for rev in LEGACY:
        assert f"{rev}_to_{LATEST}.md" in names
    index = (PAGES / "README.md").read_text(encoding="utf-8")
    assert REGENERATE in index
    assert all(f"({name})" in index for name in names - {"README.md"})


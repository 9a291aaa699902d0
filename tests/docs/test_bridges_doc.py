"""Golden: docs/bridges.md names every named bridge, its package and every bridge quirk."""

from __future__ import annotations

from pathlib import Path

from mcp_skew.peers._bridges import NAMED_BRIDGES
from mcp_skew.simulator.bridges._spec import BRIDGE_QUIRKS

ROOT = Path(__file__).resolve().parents[2]


def test_the_bridges_page_names_every_bridge_and_quirk() -> None:
    doc = (ROOT / "docs" / "bridges.md").read_text(encoding="utf-8")
    for bridge in NAMED_BRIDGES:
        assert f"`{bridge.name}`" in doc, bridge.name
        assert bridge.package.version in doc, bridge.name
    for quirk in BRIDGE_QUIRKS.values():
        assert f"`{quirk.name}" in doc, quirk.name
        if quirk.reported:
            assert f"reported: {quirk.seen_in.split(':', 1)[1].split('(')[0].strip()}"[:30] \
                in doc, quirk.name
    for page in ("simulator.md", "named-peers.md"):
        assert "(bridges.md)" in (ROOT / "docs" / page).read_text(encoding="utf-8"), page

"""Golden: docs/named-peers.md names every named peer model and the real sets."""

from __future__ import annotations

import re
from pathlib import Path

from mcp_skew.peers import REAL_CLIENTS, REAL_SERVERS, ROLES
from mcp_skew.peers._lookup import iter_models

ROOT = Path(__file__).resolve().parents[2]


def test_docs_name_every_named_peer_and_the_real_sets() -> None:
    doc = (ROOT / "docs" / "named-peers.md").read_text()
    for family, line, role, mode, model in iter_models():
        first = ".".join(map(str, line.first if line.first[2] else line.first[:2]))
        assert f"`{family.name}@{first}" in doc, (family.name, first)
        assert model.notation in doc, (family.name, line.span, role, mode)
    assert "## What will happen between X and Y" in doc
    for name in (*REAL_CLIENTS, *REAL_SERVERS):
        assert re.search(rf"\b{re.escape(name)}\b", doc), name
    assert all(role in ("server", "client") for role in ROLES)


"""The HTTP endpoint serves a modern request at the revision the stdio server serves it at:
both read the asked wire string through ``PeerSpec.modern_identity`` (the newest modern
revision with that wire string; a draft such as ``next`` shares its base's 2026-07-28), and
fall back to the newest modern revision's profile where none matches. One reading, so the
two transports cannot drift apart on a spec whose revisions share a wire string."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.simulator.http import HttpEndpoint
from mcp_skew.versions import REGISTRY
from mcp_skew.versions._seps import with_drafts

DRAFTS = with_drafts(["next+sep-2663"], REGISTRY)
SPECS = ["modern:2026-07-28", "dual:2026-07-28,2025-11-25", "modern:next,2026-07-28",
         "modern:2026-07-28,next"]
ASKED: list[Any] = ["2026-07-28", "next", "2025-11-25", "1999-01-01", None, 20260728,
                    ["2026-07-28"], {"v": 1}]


def _spec(text: str) -> PeerSpec:
    return parse_peer(text, "server", DRAFTS)


@pytest.mark.parametrize("text", SPECS)
@pytest.mark.parametrize("asked", ASKED, ids=repr)
def test_the_endpoint_reads_the_asked_revision_as_the_stdio_server_does(
        text: str, asked: Any) -> None:
    spec = _spec(text)
    served = spec.modern_identity(asked)  # what SimServer._modern serves
    want = spec.profile(served if served is not None else spec.modern[0])
    assert HttpEndpoint(spec)._profile(asked) is want


def test_a_shared_wire_string_is_served_at_the_newest_revision_having_it() -> None:
    for text in ("modern:next,2026-07-28", "modern:2026-07-28,next"):
        spec = _spec(text)
        assert HttpEndpoint(spec)._profile("2026-07-28").revision == spec.modern[0]

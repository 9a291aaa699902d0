"""Hypothesis strategies shared by the property and schema tests: peers drawn from the registry."""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.simulator._peers import KINDS
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import REGISTRY, Era, Role
from mcp_skew.versions._auth import LAYOUTS

__all__ = ["VALUES", "peers"]

LEGACY = REGISTRY.of_era(Era.LEGACY)
MODERN = REGISTRY.of_era(Era.MODERN)
ERROR_CODES = sorted({e.code for p in REGISTRY for e in p.errors.values()} | {0})

#: How a quirk's value is drawn, by the kind of value it takes.
VALUES: dict[str, st.SearchStrategy[str | None]] = {
    "none": st.none(),
    "revision": st.sampled_from(REGISTRY.revisions()),
    "ms": st.integers(0, 15_000).map(str),
    "code": st.sampled_from(ERROR_CODES).map(str),
    "count": st.integers(1, 5).map(str),
    "layout": st.sampled_from(sorted(LAYOUTS)),
}


@st.composite
def peers(draw: st.DrawFn, role: Role, *, quirks: bool = True,
          kinds: tuple[str, ...] = KINDS, exclude: frozenset[str] = frozenset()) -> PeerSpec:
    """A peer spec in the notation, parsed: a kind, revisions of its era(s), quirks."""
    kind = draw(st.sampled_from(kinds))
    revisions: list[str] = []
    if kind in ("legacy", "dual"):
        revisions += draw(st.lists(st.sampled_from(LEGACY), min_size=1, unique=True))
    if kind in ("modern", "dual"):
        revisions += draw(st.lists(st.sampled_from(MODERN), min_size=1, unique=True))
    spec = f"{kind}:{','.join(draw(st.permutations(revisions)))}"
    if quirks:
        fitting = sorted(q.name for q in QUIRKS.values()
                         if q.role == role and kind in q.kinds and q.name not in exclude)
        for name in draw(st.lists(st.sampled_from(fitting), max_size=3, unique=True)):
            value = draw(VALUES[QUIRKS[name].value])
            spec += f"+{name}" + (f"={value}" if value is not None else "")
    return parse_peer(spec, role)

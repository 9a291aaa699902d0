"""A named quirk: one way a real client or server departs from the plain spec behaviour
(the table of them is :data:`~._table.QUIRKS`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...versions import Role
from ._policy import Effect

__all__ = ["Quirk"]


@dataclass(frozen=True, slots=True)
class Quirk:
    """One named behaviour."""

    name: str
    role: Role
    summary: str
    seen_in: str
    value: Literal["none", "revision", "ms", "code", "count", "layout"] = "none"
    #: Peer kinds it makes sense for.
    kinds: tuple[str, ...] = ("legacy", "modern", "dual")
    #: The policy fields it sets (:mod:`._policy`): this is what the simulator reads.
    effects: tuple[Effect, ...] = ()
    #: The transports it shows on: an ``http``-only quirk does nothing over stdio.
    transports: tuple[str, ...] = ("stdio", "http")
    #: It shows only in scenarios that keep a client cache (``cache``, ``listen``, ``long``).
    caching_only: bool = False
    #: A behaviour the spec forbids, seen in a released client (a bug of one release line):
    #: the migration guides, which prove what the spec promises, leave it out.
    against_spec: bool = False
    #: It shows only on a peer with extensions (``+ext=...``): without them it does nothing.
    extensions_only: bool = False

"""Bridges: a peer with two sides between a client and a server (client -> bridge -> server).

A bridge's notation and spec (:class:`BridgeSpec`, read by :func:`parse_bridge`; its quirks
are ``_spec.BRIDGE_QUIRKS``) and the link that plays both its legs on one virtual clock
(:class:`BridgeLink`; ``run(..., via=bridge)``). Named bridges are resolved by
:func:`mcp_skew.peers.resolve_bridge`.
"""

from __future__ import annotations

from ._link import BridgeLink
from ._spec import BridgeSpec, parse_bridge

__all__ = ["BridgeLink", "BridgeSpec", "parse_bridge"]

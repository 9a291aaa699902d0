"""Bridges: a peer with two sides between a client and a server (client -> bridge -> server).

A bridge's notation and spec (``_spec``: ``BridgeSpec``, ``parse_bridge``, the bridge
quirks ``BRIDGE_QUIRKS``) and the link that plays both its legs on one virtual clock
(``_link.BridgeLink``; ``run(..., via=bridge)``).
"""

from __future__ import annotations

__all__: list[str] = []

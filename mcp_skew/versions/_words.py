"""The words every layer shares, defined once (DESIGN.md "The words").

- :data:`Message`: a JSON-RPC message as parsed JSON (request, notification,
  response); messages are plain dicts so a transcript serialises the same way
  every time.
- :data:`Role`: which side a peer plays.
- :data:`PeerKind`: a peer's era kind: ``legacy`` (``initialize`` only),
  ``modern`` (per-request ``_meta`` only) or ``dual`` (both).
- :data:`WireDirection`: which way a message crossed.

The era of a revision is :class:`~mcp_skew.versions.Era`, the kind of a method
(request or notification) :class:`~mcp_skew.versions.Kind`.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

__all__ = ["Message", "PeerKind", "Role", "WireDirection"]

Message: TypeAlias = dict[str, Any]
Role: TypeAlias = Literal["client", "server"]
PeerKind: TypeAlias = Literal["legacy", "modern", "dual"]
WireDirection: TypeAlias = Literal["c2s", "s2c"]

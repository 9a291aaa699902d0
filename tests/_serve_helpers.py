"""Shared setup of the serve and record tests: messages to send, and a line read that never hangs."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["MODERN", "C", "V", "initialize", "meta", "modern", "readline", "request"]

V = "io.modelcontextprotocol/protocolVersion"
C = "io.modelcontextprotocol/clientCapabilities"
MODERN = "2026-07-28"


def readline(stream: Any, timeout: float) -> Any:
    """One line from a child's pipe, or fail after ``timeout`` (a test never hangs)."""
    box: list[Any] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert box, f"no line within {timeout} s"
    return box[0]


def meta(rev: str = MODERN) -> dict[str, Any]:
    """A modern request's ``_meta``: its revision and no client capabilities."""
    return {V: rev, C: {}}


def request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        out["params"] = params
    return out


def modern(msg_id: int, method: str, params: dict[str, Any] | None = None,
           rev: str = MODERN) -> dict[str, Any]:
    """A request with ``params._meta`` naming ``rev``."""
    return request(msg_id, method, {**(params or {}), "_meta": meta(rev)})


def initialize(msg_id: int = 1, rev: str = "2025-11-25") -> dict[str, Any]:
    return request(msg_id, "initialize", {"protocolVersion": rev, "capabilities": {},
                                          "clientInfo": {"name": "test", "version": "0"}})

"""The spec's era table, shared by the matrix and rollout tests.

2026-07-28 basic/versioning.mdx §Compatibility Matrix: (client kind, server kind) -> works.
The table names a dual-era server only against a legacy client; against a modern
or dual-era client it serves the modern request ("A request carrying modern _meta
is served statelessly", same page, Dual-era server), which is the Modern row.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ERA_TABLE"]

ERA_TABLE: Final = {
    ("modern", "modern"): True,
    ("modern", "legacy"): False,
    ("dual", "modern"): True,
    ("dual", "legacy"): True,
    ("legacy", "modern"): False,
    ("legacy", "dual"): True,
    ("legacy", "legacy"): True,
    ("modern", "dual"): True,
    ("dual", "dual"): True,
}

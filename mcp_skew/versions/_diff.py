"""Differences between any two revisions: the changelog entries and the table deltas.

``changes_between(a, b)`` walks the lineage: upgrading applies each revision's
changes in order; downgrading lists the same changes, newest first, undone.
``table_delta(a, b)`` compares the derived tables directly; a test proves the two
agree, so the migration guides (built from changes) never drift from the tables.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ._profile import MAPPING_TABLES, SETTINGS, TABLES, Change, Profile

__all__ = ["DiffStep", "TableDelta", "changes_between", "plain_value", "table_delta"]


@dataclass(frozen=True, slots=True)
class DiffStep:
    """A change as it applies on the way from one revision to another."""

    change: Change
    undo: bool  #: True when going back past the revision that made this change


@dataclass(frozen=True, slots=True)
class TableDelta:
    """What differs in one table or setting between two profiles."""

    name: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    before: Any = None  #: for settings
    after: Any = None

    def to_dict(self) -> dict[str, Any]:
        """As plain data; ``kind`` tells a table from a setting."""
        return {
            "name": self.name,
            "kind": "setting" if self.name in SETTINGS else "table",
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": list(self.changed),
            "before": plain_value(self.before),
            "after": plain_value(self.after),
        }


def plain_value(value: Any) -> Any:
    """A JSON-ready form of a setting value (enums by value, tuples as lists)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list | frozenset | set):
        return [plain_value(v) for v in value]
    return value


def _common_ancestor(a: Profile, b: Profile) -> Profile:
    chain = {p.revision for p in a.lineage()}
    for node in reversed(b.lineage()):
        if node.revision in chain:
            return node
    raise ValueError(f"{a.revision} and {b.revision} share no base revision")


def changes_between(a: Profile, b: Profile) -> tuple[DiffStep, ...]:
    """Every change on the way from ``a`` to ``b`` (either may be the older)."""
    shared = {p.revision for p in _common_ancestor(a, b).lineage()}
    steps: list[DiffStep] = []
    for profile in reversed(a.lineage()):
        if profile.revision in shared:
            break
        steps += [DiffStep(c, undo=True) for c in reversed(profile.changes)]
    for profile in b.lineage():
        if profile.revision not in shared:
            steps += [DiffStep(c, undo=False) for c in profile.changes]
    return tuple(steps)


def table_delta(a: Profile, b: Profile) -> tuple[TableDelta, ...]:
    """The tables and settings that differ between ``a`` and ``b``."""
    deltas: list[TableDelta] = []
    for name in TABLES:
        old, new = a.names(name), b.names(name)
        changed: tuple[str, ...] = ()
        if name in MAPPING_TABLES:
            rows_a, rows_b = a.tables[name], b.tables[name]
            assert not isinstance(rows_a, frozenset) and not isinstance(rows_b, frozenset)
            changed = tuple(sorted(k for k in old & new if rows_a[k] != rows_b[k]))
        if old != new or changed:
            deltas.append(
                TableDelta(name, tuple(sorted(new - old)), tuple(sorted(old - new)), changed)
            )
    for name in SETTINGS:
        if a.settings[name] != b.settings[name]:
            deltas.append(TableDelta(name, before=a.settings[name], after=b.settings[name]))
    return tuple(deltas)

"""Profiles, changes, deltas and diffs as plain data: the JSON view, pure functions, no I/O.

:func:`profile_to_dict`, :func:`diff_to_dict` and :func:`versions_to_dict` return plain
``dict`` values whose shape is stable (``versions --format json``, ``show``, ``diff``, the
migration guides' JSON); dump them with :func:`mcp_skew._jsontext.to_json` (sorted keys). The documents for
people (:mod:`._render`) are built from the same deltas.

A change's *delta* is what it does to the tables on one path: upgrading applies
its edits, downgrading (``undo``) swaps added with removed and before with after.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ._auth import AuthRule
from ._diff import DiffStep, TableDelta, changes_between, plain_value, table_delta
from ._profile import (
    MAPPING_TABLES,
    SETTINGS,
    TABLES,
    Change,
    Deprecation,
    Direction,
    ErrorCode,
    Impact,
    Invalidation,
    Kind,
    Method,
    Profile,
)

__all__ = [
    "Deltas",
    "change_delta",
    "deltas_between",
    "diff_to_dict",
    "method_counts",
    "path_direction",
    "profile_to_dict",
    "row_to_dict",
    "settings_before",
    "step_deltas",
    "versions_to_dict",
]


# -- plain values --------------------------------------------------------------------


def row_to_dict(value: Any) -> Any:
    """A row of a mapping table (method, error code, deprecation) as plain data."""
    if isinstance(value, Method):
        return {
            "kind": value.kind.value,
            "direction": value.direction.value,
            "capability": value.capability,
            **({"answer": dict(value.answer)} if value.answer is not None else {}),
        }
    if isinstance(value, ErrorCode):
        return {
            "code": value.code,
            "message": value.message,
            "data": list(value.data),
            "note": value.note,
        }
    if isinstance(value, Invalidation):
        return {"methods": list(value.methods), "match": value.match, "listen": value.listen}
    if isinstance(value, AuthRule):
        return {"role": value.role, "level": value.level.value, "values": list(value.values),
                "rule": value.rule, "cite": value.cite.to_dict()}
    if isinstance(value, Deprecation):
        return {
            "since": value.since,
            "removal": value.removal,
            "migration": value.migration,
            "cite": value.cite.to_dict(),
        }
    return plain_value(value)


def _names(rows: Any) -> tuple[str, ...]:
    """The row names of an edit: a name, a list of names, or a mapping of name to row."""
    if isinstance(rows, str):
        return (rows,)
    return tuple(sorted(rows))


def _table_json(profile: Profile, table: str) -> Any:
    rows = profile.tables[table]
    if isinstance(rows, frozenset):
        return sorted(rows)
    return {name: row_to_dict(value) for name, value in rows.items()}


# -- deltas --------------------------------------------------------------------------


def change_delta(
    change: Change, settings_before: Mapping[str, Any], *, undo: bool = False
) -> tuple[TableDelta, ...]:
    """What ``change`` does to the tables and settings, in the direction travelled."""
    deltas: list[TableDelta] = []
    for table in TABLES:
        added = _names(change.add.get(table, ()))
        removed = _names(change.remove.get(table, ()))
        changed = _names(change.replace.get(table, ()))
        if undo:
            added, removed = removed, added
        if added or removed or changed:
            deltas.append(TableDelta(table, added, removed, changed))
    for name in SETTINGS:
        if name in change.settings:
            before, after = settings_before[name], change.settings[name]
            if undo:
                before, after = after, before
            deltas.append(TableDelta(name, before=before, after=after))
    return tuple(deltas)


def settings_before(profile: Profile) -> dict[str, Mapping[str, Any]]:
    """For each change of ``profile``: the settings just before it was applied."""
    state = dict((profile.previous or profile).settings)
    before: dict[str, Mapping[str, Any]] = {}
    for change in profile.changes:
        before[change.id] = dict(state)
        state.update(change.settings)
    return before


def step_deltas(a: Profile, b: Profile) -> tuple[tuple[DiffStep, tuple[TableDelta, ...]], ...]:
    """Each step from ``a`` to ``b`` with its table delta."""
    by_revision = {p.revision: p for p in (*a.lineage(), *b.lineage())}
    out: list[tuple[DiffStep, tuple[TableDelta, ...]]] = []
    for step in changes_between(a, b):
        before = settings_before(by_revision[step.change.revision])[step.change.id]
        out.append((step, change_delta(step.change, before, undo=step.undo)))
    return tuple(out)


class Deltas(NamedTuple):
    """The way from one profile to another in table deltas: each step with its own
    (:func:`step_deltas`) and the whole way's (:func:`~._diff.table_delta`)."""

    steps: tuple[tuple[DiffStep, tuple[TableDelta, ...]], ...]
    net: tuple[TableDelta, ...]


def deltas_between(a: Profile, b: Profile) -> Deltas:
    """The way from ``a`` to ``b`` in table deltas, by step and in all (what a migration
    guide reads)."""
    return Deltas(step_deltas(a, b), table_delta(a, b))


# -- profiles ------------------------------------------------------------------------


def _edits_to_dict(change: Change) -> dict[str, Any]:
    def rows(table: str, value: Any) -> Any:
        if table in MAPPING_TABLES and isinstance(value, Mapping):
            return {name: row_to_dict(row) for name, row in value.items()}
        return list(_names(value))

    return {
        "add": {t: rows(t, v) for t, v in change.add.items()},
        "remove": {t: list(_names(v)) for t, v in change.remove.items()},
        "replace": {t: rows(t, v) for t, v in change.replace.items()},
        "settings": {k: plain_value(v) for k, v in change.settings.items()},
    }


def _change_to_dict(change: Change) -> dict[str, Any]:
    return {
        "id": change.id,
        "revision": change.revision,
        "summary": change.summary,
        "impact": change.impact.value,
        "cite": change.cite.to_dict(),
        "steps": list(change.steps),
        "severity": {
            role: {"level": b.level.value, "rule": b.rule,
                   "cite": (b.cite or change.cite).to_dict()}
            for role, b in sorted(change.severity.items())
        },
        "edits": _edits_to_dict(change),
    }


def profile_to_dict(profile: Profile) -> dict[str, Any]:
    """The full derived profile as plain data (dump with :func:`~mcp_skew._jsontext.to_json`)."""
    found = {
        "revision": profile.revision,
        "title": profile.title,
        "era": profile.era.value,
        "extends": profile.previous.revision if profile.previous else None,
        "lineage": [p.revision for p in profile.lineage()],
        "settings": {name: plain_value(profile.settings[name]) for name in SETTINGS},
        "tables": {name: _table_json(profile, name) for name in TABLES},
        "changes": [_change_to_dict(c) for c in profile.changes],
    }
    if profile.wire:  # a draft whose wire string is not its name (next: 2026-07-28)
        found["wire"] = profile.wire
    return found


def method_counts(profile: Profile) -> tuple[int, int, int, int]:
    """Requests client->server, server->client, then notifications the same way."""
    return (
        len(profile.method_names(Kind.REQUEST, Direction.C2S)),
        len(profile.method_names(Kind.REQUEST, Direction.S2C)),
        len(profile.method_names(Kind.NOTIFICATION, Direction.C2S)),
        len(profile.method_names(Kind.NOTIFICATION, Direction.S2C)),
    )


# -- diffs ---------------------------------------------------------------------------


def path_direction(steps: Iterable[DiffStep]) -> str:
    steps = tuple(steps)
    if not steps:
        return "same"
    if all(s.undo for s in steps):
        return "downgrade"
    return "upgrade" if not any(s.undo for s in steps) else "sideways"


def diff_to_dict(a: Profile, b: Profile) -> dict[str, Any]:
    """Every change from ``a`` to ``b`` (either may be the older) as plain data."""
    pairs = step_deltas(a, b)
    changes = [
        {
            **_change_to_dict(step.change),
            "undo": step.undo,
            "delta": [d.to_dict() for d in deltas],
        }
        for step, deltas in pairs
    ]
    return {
        "from": a.revision,
        "to": b.revision,
        "direction": path_direction(s for s, _ in pairs),
        "changes": changes,
        "table_delta": [d.to_dict() for d in table_delta(a, b)],
    }


# -- the versions table --------------------------------------------------------------


def _headline(profile: Profile) -> str:
    if profile.title:
        return profile.title
    breaking = [c.id for c in profile.changes if c.impact is Impact.BREAKING]
    return ", ".join((breaking or [c.id for c in profile.changes])[:4]) or "-"


def _source(profile: Profile, builtin: frozenset[str]) -> str:
    if profile.revision in builtin or profile.previous is None:
        return "built-in"
    return f"extends {profile.previous.revision}"


def versions_to_dict(profiles: Iterable[Profile], builtin: Iterable[str]) -> dict[str, Any]:
    """One record per revision: era, method counts each way, changes, headline."""
    known = frozenset(builtin)
    records = []
    for p in profiles:
        req_c2s, req_s2c, note_c2s, note_s2c = method_counts(p)
        records.append({
            "revision": p.revision,
            "era": p.era.value,
            "requests_c2s": req_c2s,
            "requests_s2c": req_s2c,
            "notifications_c2s": note_c2s,
            "notifications_s2c": note_s2c,
            "changes": len(p.changes),
            "source": _source(p, known),
            "headline": _headline(p),
        })
    return {"revisions": records}

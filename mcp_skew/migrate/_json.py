"""A :class:`~._guide.Guide` as plain data, for ``--format json``.

:func:`guide_to_dict` is the machine-readable view; its ``changes`` are in the
order of ``changes_between``, with the citation in the shape of ``mcp-skew diff
--format json`` (:meth:`~mcp_skew.versions.Cite.to_dict`). A both-eras
proof names its columns by role: ``servers`` in a server guide's, ``clients``
in a client guide's, and each row by the other role.
"""

from __future__ import annotations

from typing import Any

from .._jsontext import to_json
from ._eras import BothEras
from ._guide import Guide, GuideChange, Lost

__all__ = ["guide_to_dict", "render_json"]



def _change_to_dict(item: GuideChange) -> dict[str, Any]:
    change = item.change
    shown = item.illustration
    return {
        "id": change.id,
        "revision": change.revision,
        "undo": item.undo,
        "impact": change.impact.value,
        "cancelled": item.cancelled,
        "summary": change.summary,
        "cite": change.cite.to_dict(),
        "effects": {
            "breaks_old_clients": list(item.effects.old_clients),
            "breaks_old_servers": list(item.effects.old_servers),
        },
        "severity": {
            role: {"labels": [label.value for label in sev.labels], "notes": list(sev.notes)}
            for role, sev in item.severity.items()
        },
        "steps": {role: list(steps) for role, steps in item.steps.items()},
        "deprecations": [
            {"feature": name, "since": dep.since, "removal": dep.removal,
             "migration": dep.migration, "cite": dep.cite.to_dict()}
            for name, dep in item.deprecations
        ],
        "delta": [d.to_dict() for d in item.deltas],
        "illustration": None if shown is None else {
            "title": shown.title,
            "before": {"revision": shown.before.revision, "command": shown.before.command,
                       "lines": list(shown.before.lines)},
            "after": {"revision": shown.after.revision, "command": shown.after.command,
                      "lines": list(shown.after.lines)},
        },
    }


def _lost_to_dict(lost: Lost) -> dict[str, Any]:
    return {"table": lost.table, "name": lost.name, "rule": lost.rule,
            "cite": lost.cite.to_dict()}


def _both_to_dict(both: BothEras) -> dict[str, Any]:
    column = both.role
    return {
        "checklist": [
            {"title": item.title, "text": item.text, "transport": item.transport,
             "cites": [c.to_dict() for c in item.cites]}
            for item in both.checklist
        ],
        "proof": {
            "scenario": both.scenario,
            "cites": [c.to_dict() for c in both.cites],
            f"{column}s": [{"label": label, "spec": spec} for label, spec in both.columns],
            "rows": [
                {both.row_role: row.peer, "transport": row.transport, "cells": [
                    {column: c.column, "expected": c.expected, "works": c.works,
                     "as_expected": c.as_expected, "text": c.text} for c in row.cells]}
                for row in both.rows
            ],
            "ok": both.ok,
        },
    }


def guide_to_dict(guide: Guide) -> dict[str, Any]:
    """The guide as plain data (dump with :func:`render_json`)."""
    return {
        "from": guide.source.revision,
        "to": guide.target.revision,
        "role": guide.role,
        "direction": guide.direction,
        "eras": {"from": guide.source.era.value, "to": guide.target.era.value},
        "transport": guide.transport,  # null: every transport
        "left_out": [{"id": c.id, "revision": c.revision, "transport": c.transport}
                     for c in guide.left_out],
        "changes": [_change_to_dict(c) for c in guide.changes],
        "lost": [_lost_to_dict(x) for x in guide.lost],
        "serve_both_eras": None if guide.both_eras is None else _both_to_dict(guide.both_eras),
        "talk_to_both_eras": None if guide.talk_eras is None else _both_to_dict(guide.talk_eras),
    }


def render_json(guide: Guide) -> str:
    return to_json(guide_to_dict(guide))

"""The schema of a third-party profile file, and its conversion to changes (pydantic).

:func:`~._plugins.load_profile_file` imports this module when it reads a file,
so that importing :mod:`mcp_skew.versions` (every command, ``--help``) does
not import pydantic. What a file holds is described in :mod:`._plugins`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ._auth import AUTH_RULES, AuthRule
from ._profile import (
    MAPPING_TABLES,
    Binding,
    Change,
    Cite,
    Deprecation,
    Direction,
    Era,
    ErrorCode,
    Impact,
    Invalidation,
    Kind,
    Method,
    Obligation,
)

__all__ = ["ProfileIn", "ValidationError", "changes", "first_error"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _CiteIn(_Strict):
    revision: str
    source: str
    section: str = ""


class _BindingIn(_Strict):
    level: Literal["MUST", "SHOULD", "MAY", "none"]
    rule: str = ""  #: the spec's words, with their keyword
    cite: _CiteIn | None = None


class _MethodIn(_Strict):
    kind: Literal["request", "notification"]
    direction: Literal["client->server", "server->client", "both"]
    capability: str | None = None
    answer: dict[str, Any] | None = None  #: the result a simulated server gives (requests)


class _ErrorIn(_Strict):
    code: int
    message: str
    data: list[str] = Field(default_factory=list)
    note: str = ""


class _DeprecationIn(_Strict):
    since: str
    removal: str
    migration: str
    cite: _CiteIn


class _InvalidationIn(_Strict):
    methods: list[str] = Field(min_length=1)
    match: str | None = None
    listen: str | None = None


class _AuthIn(_Strict):
    role: Literal["server", "client"]
    level: Literal["MUST", "SHOULD", "MAY", "none"]
    values: list[str] = Field(default_factory=list)  #: in order
    rule: str
    cite: _CiteIn


class _ChangeIn(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.+-]*$")
    summary: str
    impact: Literal["breaking", "additive", "behaviour", "deprecation", "clarification"]
    cite: _CiteIn
    add: dict[str, Any] = Field(default_factory=dict)
    remove: dict[str, list[str]] = Field(default_factory=dict)
    replace: dict[str, dict[str, Any]] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)
    steps: list[str] = Field(default_factory=list)
    severity: dict[Literal["server", "client"], _BindingIn] = Field(default_factory=dict)


class ProfileIn(_Strict):
    """A profile file, checked."""

    revision: str = Field(min_length=1)
    extends: str
    title: str = ""
    changes: list[_ChangeIn] = Field(min_length=1)


def _cite(c: _CiteIn) -> Cite:
    return Cite(c.revision, c.source, c.section)


_ROW_MODELS: dict[str, type[_Strict]] = {
    "methods": _MethodIn,
    "errors": _ErrorIn,
    "deprecations": _DeprecationIn,
    "cache_invalidations": _InvalidationIn,
    "auth": _AuthIn,
}


def _row(table: str, raw: Any) -> Method | ErrorCode | Deprecation | Invalidation | AuthRule:
    model = _ROW_MODELS[table].model_validate(raw)
    if isinstance(model, _AuthIn):
        return AuthRule(model.role, Obligation(model.level), tuple(model.values), model.rule,
                        _cite(model.cite))
    if isinstance(model, _MethodIn):
        kind = Kind(model.kind)
        if kind is Kind.NOTIFICATION and model.answer is not None:
            raise ValueError("a notification has no answer")
        answer = model.answer if model.answer is not None or kind is Kind.NOTIFICATION else {}
        return Method(kind, Direction(model.direction), model.capability, answer)
    if isinstance(model, _ErrorIn):
        return ErrorCode(model.code, model.message, tuple(model.data), model.note)
    if isinstance(model, _InvalidationIn):
        return Invalidation(tuple(model.methods), model.match, model.listen)
    assert isinstance(model, _DeprecationIn)
    return Deprecation(model.since, model.removal, model.migration, _cite(model.cite))


class _FieldError(ValueError):
    """A value inside a change that does not convert; the message names its field."""


def _rows(field: str, table: str, rows: Any) -> Any:
    if table not in MAPPING_TABLES:
        return rows
    if not isinstance(rows, Mapping):
        raise _FieldError(f"field {field}: table {table!r} takes a mapping of name to row")
    converted = {}
    for name, raw in rows.items():
        if table == "auth" and name not in AUTH_RULES:
            raise _FieldError(f"field {field}.{name}: not an authorization rule; known: "
                              f"{', '.join(AUTH_RULES)}")
        try:
            converted[name] = _row(table, raw)
        except ValidationError as exc:
            raise _FieldError(first_error(exc, f"{field}.{name}")) from None
        except ValueError as exc:
            raise _FieldError(f"field {field}.{name}: {exc}") from None
    return converted


def _setting(field: str, name: str, value: Any) -> Any:
    if name != "era":
        return value
    try:
        return Era(value)
    except ValueError:
        known = ", ".join(e.value for e in Era)
        raise _FieldError(f"field {field}.era: {value!r} is not one of {known}") from None


def _change(index: int, c: _ChangeIn) -> Change:
    field = f"changes.{index}"
    return Change(
        id=c.id,
        summary=c.summary,
        cite=_cite(c.cite),
        impact=Impact(c.impact),
        add={t: _rows(f"{field}.add.{t}", t, rows) for t, rows in c.add.items()},
        remove=c.remove,
        replace={t: _rows(f"{field}.replace.{t}", t, rows) for t, rows in c.replace.items()},
        settings={k: _setting(f"{field}.settings", k, v) for k, v in c.settings.items()},
        steps=tuple(c.steps),
        severity={role: Binding(Obligation(b.level), b.rule,
                                None if b.cite is None else _cite(b.cite))
                  for role, b in c.severity.items()},
    )


def changes(spec: ProfileIn) -> tuple[Change, ...]:
    """The file's changes, converted (a bad value raises ValueError naming its field)."""
    return tuple(_change(i, c) for i, c in enumerate(spec.changes))


def first_error(exc: ValidationError, prefix: str = "") -> str:
    err = exc.errors()[0]
    where = ".".join([prefix] * bool(prefix) + [str(p) for p in err["loc"]]) or "(top level)"
    return f"field {where}: {err['msg']}"

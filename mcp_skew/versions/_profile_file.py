"""The schema of a third-party profile file, and its conversion to changes (pydantic).

:func:`~._plugins.load_profile_file` imports this module when it reads a file,
so that importing :mod:`mcp_skew.versions` (every command, ``--help``) does
not import pydantic. What a file holds is described in :mod:`._plugins` and
``docs/profiles.md``.

The schema is typed all the way down: every table a change edits has its own
field, with the row type of that table (a name for a set table, a method, error,
deprecation or invalidation row for a mapping table), and every setting its own
type. Values are validated strictly: a number where a name goes, a list where a
flag goes, or a string where a number goes is an error, never converted. A bad
file is one message naming the change (by its ``id``) and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    create_model,
    model_validator,
)

from ._auth import AUTH_RULES, AuthRule
from ._profile import (
    MAPPING_TABLES,
    SET_TABLES,
    SETTINGS,
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

__all__ = ["ProfileIn", "ValidationError", "changes", "describe"]

#: A name in a table, a method, a key: text, one line, not empty.
Name = Annotated[str, Field(min_length=1, max_length=512, pattern=r"^[^\x00-\x1f\x7f]*$")]
#: A JSON-RPC error code: an integer (JSON-RPC 2.0 §5.1), within 32 bits as every SDK keeps it.
Code = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]


class _Strict(BaseModel):
    """No unknown keys, no conversion between types (``"5"`` is not a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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
    capability: Name | None = None
    answer: dict[str, JsonValue] | None = None  #: the result a simulated server gives (requests)

    @model_validator(mode="after")
    def _answers_requests_only(self) -> _MethodIn:
        if self.kind == "notification" and self.answer is not None:
            raise ValueError("a notification has no answer")
        return self


class _ErrorIn(_Strict):
    code: Code
    message: str
    data: list[Name] = Field(default_factory=list)
    note: str = ""


class _DeprecationIn(_Strict):
    since: str
    removal: str
    migration: str
    cite: _CiteIn


class _InvalidationIn(_Strict):
    methods: list[Name] = Field(min_length=1)
    match: Name | None = None
    listen: Name | None = None


class _AuthIn(_Strict):
    role: Literal["server", "client"]
    level: Literal["MUST", "SHOULD", "MAY", "none"]
    values: list[str] = Field(default_factory=list)  #: in order
    rule: str
    cite: _CiteIn


def _auth_rule_name(name: str) -> str:
    """An ``auth`` row's name must be one of the rules the simulator reads."""
    if name not in AUTH_RULES:
        raise ValueError(f"not an authorization rule; known: {', '.join(AUTH_RULES)}")
    return name


_AuthName = Annotated[str, AfterValidator(_auth_rule_name)]

_ROW_MODELS: dict[str, type[_Strict]] = {
    "methods": _MethodIn,
    "errors": _ErrorIn,
    "deprecations": _DeprecationIn,
    "cache_invalidations": _InvalidationIn,
    "auth": _AuthIn,
}
assert set(_ROW_MODELS) == set(MAPPING_TABLES)


def _tables_model(name: str, *, sets: bool, rows: bool) -> type[_Strict]:
    """A model with one optional field per table: a list of names (a set table, or any
    table for ``remove``), or a mapping of name to row (``rows``: the mapping tables)."""
    fields: dict[str, Any] = {}
    for table in (*SET_TABLES, *MAPPING_TABLES):
        if table in SET_TABLES and not sets:
            continue
        key: Any = _AuthName if table == "auth" else Name
        typ: Any = (dict[key, _ROW_MODELS[table]]  # type: ignore[valid-type]
                    if rows and table in MAPPING_TABLES else list[key])
        fields[table] = (typ, None)  # absent: not edited; null is not a table (one line)
    return create_model(name, __base__=_Strict, **fields)


_AddIn = _tables_model("_AddIn", sets=True, rows=True)
_RemoveIn = _tables_model("_RemoveIn", sets=True, rows=False)
_ReplaceIn = _tables_model("_ReplaceIn", sets=False, rows=True)


class _SettingsIn(_Strict):
    """Each setting a change may set, with the type the simulator reads it as."""

    era: Literal["legacy", "modern"] | None = None
    batching: bool | None = None
    http_transport: Literal["http+sse", "streamable-http", "streamable-http (POST only)"] | None = None
    sessions: bool | None = None
    version_header_absent: str | None = None
    stdio_framing: str | None = None
    resource_not_found: Name | None = None  #: the name of an error in the profile's table
    tool_input_errors: Literal["protocol error", "tool execution error (isError)"] | None = None
    tool_schema_dialect: str | None = None
    structured_content: Literal["object", "any JSON value"] | None = None


assert set(_SettingsIn.model_fields) == set(SETTINGS)


class _ChangeIn(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.+-]*$", max_length=200)
    summary: str
    impact: Literal["breaking", "additive", "behaviour", "deprecation", "clarification"]
    cite: _CiteIn
    add: _AddIn = Field(default_factory=_AddIn)  # type: ignore[valid-type]
    remove: _RemoveIn = Field(default_factory=_RemoveIn)  # type: ignore[valid-type]
    replace: _ReplaceIn = Field(default_factory=_ReplaceIn)  # type: ignore[valid-type]
    settings: _SettingsIn = Field(default_factory=_SettingsIn)
    steps: list[str] = Field(default_factory=list)
    severity: dict[Literal["server", "client"], _BindingIn] = Field(default_factory=dict)
    transport: Literal["any", "http", "stdio"] = "any"


class ProfileIn(_Strict):
    """A profile file, checked."""

    revision: Name
    extends: Name
    title: str = ""
    #: the version string it puts on the wire, where that is not ``revision`` (a draft
    #: that declares its base's, as the spec's draft does); default: ``revision``
    wire: Name | None = None
    changes: list[_ChangeIn] = Field(min_length=1)


# -- conversion ------------------------------------------------------------------------------


def _cite(c: _CiteIn) -> Cite:
    return Cite(c.revision, c.source, c.section)


def _row(model: BaseModel) -> Method | ErrorCode | Deprecation | Invalidation | AuthRule:
    if isinstance(model, _AuthIn):
        return AuthRule(model.role, Obligation(model.level), tuple(model.values), model.rule,
                        _cite(model.cite))
    if isinstance(model, _MethodIn):
        kind = Kind(model.kind)
        answer = model.answer if model.answer is not None or kind is Kind.NOTIFICATION else {}
        return Method(kind, Direction(model.direction), model.capability, answer)
    if isinstance(model, _ErrorIn):
        return ErrorCode(model.code, model.message, tuple(model.data), model.note)
    if isinstance(model, _InvalidationIn):
        return Invalidation(tuple(model.methods), model.match, model.listen)
    assert isinstance(model, _DeprecationIn)
    return Deprecation(model.since, model.removal, model.migration, _cite(model.cite))


def _given(model: BaseModel) -> dict[str, Any]:
    """The fields the file wrote (a table it does not name is not edited)."""
    return {name: getattr(model, name) for name in model.model_fields_set}


def _edits(model: BaseModel) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for table, rows in _given(model).items():
        if isinstance(rows, Mapping):
            out[table] = {name: _row(row) for name, row in rows.items()}
        else:
            out[table] = list(rows)
    return out


def _change(c: _ChangeIn) -> Change:
    settings = _given(c.settings)
    if "era" in settings:
        settings["era"] = Era(settings["era"])
    return Change(
        id=c.id,
        summary=c.summary,
        cite=_cite(c.cite),
        impact=Impact(c.impact),
        add=_edits(c.add),
        remove=_edits(c.remove),
        replace=_edits(c.replace),
        settings=settings,
        steps=tuple(c.steps),
        severity={role: Binding(Obligation(b.level), b.rule,
                                None if b.cite is None else _cite(b.cite))
                  for role, b in c.severity.items()},
        transport=c.transport,
    )


def changes(spec: ProfileIn) -> tuple[Change, ...]:
    """The file's changes, converted."""
    return tuple(_change(c) for c in spec.changes)


# -- messages ----------------------------------------------------------------------------------

_TABLE_MODELS = ("add", "remove", "replace")


def _change_id(document: Any, index: int) -> str | None:
    """The ``id`` the file gives its change number ``index``, when it gives one."""
    if isinstance(document, Mapping):
        items = document.get("changes")
        if isinstance(items, list) and 0 <= index < len(items) and isinstance(items[index], Mapping):
            value = items[index].get("id")
            if isinstance(value, str):
                return value
    return None


def _problem(err: Any) -> str:
    loc = err["loc"]
    if err["type"] == "extra_forbidden" and len(loc) == 4 and loc[0] == "changes":
        if loc[2] in _TABLE_MODELS:
            allowed = MAPPING_TABLES if loc[2] == "replace" else (*SET_TABLES, *MAPPING_TABLES)
            return f"no such table {loc[3]!r} (tables: {', '.join(allowed)})"
        if loc[2] == "settings":
            return f"no such setting {loc[3]!r} (settings: {', '.join(SETTINGS)})"
    message: str = err["msg"]
    if err["type"] == "literal_error" and "input" in err:
        message += f", not {_short(err['input'])}"
    return message


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def describe(exc: ValidationError, document: Any) -> str:
    """One line for the first error: the change it is in (by id) and the field."""
    err = exc.errors()[0]
    loc = [str(p) for p in err["loc"]]
    where = ".".join(loc) or "(top level)"
    head = ""
    if len(err["loc"]) >= 2 and err["loc"][0] == "changes" and isinstance(err["loc"][1], int):
        change_id = _change_id(document, err["loc"][1])
        head = f"change {change_id!r}, " if change_id else f"change #{err['loc'][1] + 1}, "
    return f"{head}field {where}: {_problem(err)}"

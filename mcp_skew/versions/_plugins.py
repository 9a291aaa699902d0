"""Third-party profiles: from an entry-point group, or from a TOML/JSON file.

A profile file extends a registered revision with changes written the same way
the built-in revision modules write theirs::

    revision = "2026-12-vendor"
    extends = "2026-07-28"
    title = "Vendor X's variant"

    [[changes]]
    id = "vendor-x-search"
    summary = "Adds vendor/search"
    impact = "additive"
    cite = { revision = "2026-12-vendor", source = "https://example.com/spec" }
    add = { methods = { "vendor/search" = { kind = "request", direction = "client->server" } } }

A request method a file adds is served by the simulated servers of its revision:
they answer it with the row's ``answer`` table (default: an empty result), plus
the fields the revision requires on every result.

A bad file raises :class:`ProfileFileError`, whose message is one line naming
the file, the field and the problem.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ._profile import (
    MAPPING_TABLES,
    Change,
    Cite,
    Deprecation,
    Direction,
    Era,
    ErrorCode,
    Impact,
    Kind,
    Method,
    Profile,
    ProfileDefinitionError,
)
from ._registry import REGISTRY, Registry, UnknownRevision

__all__ = [
    "ENTRY_POINT_GROUP",
    "ProfileFileError",
    "load_entry_points",
    "load_profile_file",
    "with_profile_files",
]

ENTRY_POINT_GROUP = "mcp_skew.profiles"


class ProfileFileError(ValueError):
    """A third-party profile that cannot be loaded; the message is one line."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _CiteIn(_Strict):
    revision: str
    source: str
    section: str = ""


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


class _ProfileIn(_Strict):
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
}


def _row(table: str, raw: Any) -> Method | ErrorCode | Deprecation:
    model = _ROW_MODELS[table].model_validate(raw)
    if isinstance(model, _MethodIn):
        kind = Kind(model.kind)
        if kind is Kind.NOTIFICATION and model.answer is not None:
            raise ValueError("a notification has no answer")
        answer = model.answer if model.answer is not None or kind is Kind.NOTIFICATION else {}
        return Method(kind, Direction(model.direction), model.capability, answer)
    if isinstance(model, _ErrorIn):
        return ErrorCode(model.code, model.message, tuple(model.data), model.note)
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
        try:
            converted[name] = _row(table, raw)
        except ValidationError as exc:
            raise _FieldError(_first_error(exc, f"{field}.{name}")) from None
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
    )


def _read(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        return json.loads(text)
    return tomllib.loads(text)


def _first_error(exc: ValidationError, prefix: str = "") -> str:
    err = exc.errors()[0]
    where = ".".join([prefix] * bool(prefix) + [str(p) for p in err["loc"]]) or "(top level)"
    return f"field {where}: {err['msg']}"


def load_profile_file(path: str | Path, registry: Registry = REGISTRY) -> Profile:
    """Load and check the profile in ``path``, which extends a revision of ``registry``.

    Nothing is registered: ``registry.with_profile(profile)`` is the registry that
    holds it (:func:`with_profile_files` does both for several files).
    """
    path = Path(path)
    try:
        spec = _ProfileIn.model_validate(_read(path))
        base = registry.get(spec.extends)
        profile = base.evolve(
            revision=spec.revision,
            title=spec.title,
            changes=tuple(_change(i, c) for i, c in enumerate(spec.changes)),
        )
        registry.with_profile(profile)  # the revision must be new to the registry
    except OSError as exc:
        raise ProfileFileError(f"{path}: cannot read: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ProfileFileError(f"{path}: not valid TOML or JSON: {exc}") from None
    except ValidationError as exc:
        raise ProfileFileError(f"{path}: {_first_error(exc)}") from None
    except UnknownRevision as exc:
        raise ProfileFileError(f"{path}: field extends: {exc}") from None
    except (ProfileDefinitionError, ValueError) as exc:
        raise ProfileFileError(f"{path}: {exc}") from None
    return profile


def with_profile_files(paths: list[str] | tuple[str, ...], registry: Registry = REGISTRY) -> Registry:
    """``registry`` with the profile of each file added, in order (a file may extend the one before)."""
    for path in paths:
        registry = registry.with_profile(load_profile_file(path, registry))
    return registry


def load_entry_points(registry: Registry = REGISTRY) -> Registry:
    """``registry`` with the profiles of installed packages (group ``mcp_skew.profiles``).

    Each entry point names a :class:`Profile` or a callable returning one; one
    whose revision the registry already has is skipped.
    """
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = entry.load()
        profile = loaded() if callable(loaded) and not isinstance(loaded, Profile) else loaded
        if not isinstance(profile, Profile):
            raise ProfileFileError(f"entry point {entry.name!r}: does not give a Profile")
        if profile.revision not in registry:
            registry = registry.with_profile(profile)
    return registry

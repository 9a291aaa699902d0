"""Test oracle: validate JSON instances against the official MCP schema of a revision.

The official ``schema.json`` of every revision (and the 2026-07-28 examples) live
outside the project, at ``../shared/spec`` from its root, on developer and CI
machines only; they are never copied into the project. :data:`requires_spec`
skips a test, with a stated reason, where that folder is absent.

Each schema is validated with the jsonschema class its ``$schema`` names
(draft-07 up to 2025-06-18, 2020-12 from 2025-11-25). A named definition is
reached through a ``referencing`` registry holding the whole document under a
private URN, so ``#/definitions/X`` and ``#/$defs/X`` references resolve inside
the same document. Compiled validators are cached per (revision, definition).
"""

import functools
import json
from pathlib import Path
from typing import Any, Final

import pytest
from jsonschema import validators
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry, Resource

__all__ = [
    "SKIP_REASON",
    "SPEC_DIR",
    "definition",
    "definition_names",
    "example_files",
    "first_defined",
    "requires_spec",
    "schema_for",
    "validate",
    "validator_for",
]

#: ``../shared/spec`` from the project root.
SPEC_DIR: Final = Path(__file__).resolve().parents[1].parent / "shared" / "spec"

SKIP_REASON: Final = "../shared/spec is absent: the official schemas are only on developer and CI machines"

#: Marks a test that needs the official schemas or examples.
requires_spec = pytest.mark.skipif(not SPEC_DIR.is_dir(), reason=SKIP_REASON)


@functools.cache
def schema_for(revision: str) -> dict[str, Any] | None:
    """The parsed official ``schema.json`` of ``revision``, or None if it is not on disk."""
    path = SPEC_DIR / "schemas" / revision / "schema.json"
    if not path.is_file():
        return None
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def _require_schema(revision: str) -> dict[str, Any]:
    """Return the schema of ``revision`` or skip the calling test with the stated reason."""
    schema = schema_for(revision)
    if schema is None:
        pytest.skip(SKIP_REASON if not SPEC_DIR.is_dir() else f"no schema.json for {revision}")
    return schema


def _defs_key(schema: dict[str, Any]) -> str:
    """``$defs`` (2020-12 schemas) or ``definitions`` (draft-07 schemas)."""
    return "$defs" if "$defs" in schema else "definitions"


def definition_names(revision: str) -> frozenset[str]:
    """Names of the definitions in the schema of ``revision`` (skips if absent)."""
    schema = _require_schema(revision)
    return frozenset(schema[_defs_key(schema)])


def definition(revision: str, name: str) -> dict[str, Any]:
    """The raw definition ``name`` of ``revision``'s schema (skips if absent)."""
    schema = _require_schema(revision)
    defs: dict[str, Any] = schema[_defs_key(schema)]
    if name not in defs:
        raise AssertionError(f"{name!r} is not defined in the {revision} schema")
    found: dict[str, Any] = defs[name]
    return found


def first_defined(revision: str, *names: str) -> str:
    """The first of ``names`` the schema of ``revision`` defines (names change across revisions)."""
    defined = definition_names(revision)
    for name in names:
        if name in defined:
            return name
    raise AssertionError(f"none of {names} is defined in the {revision} schema")


@functools.cache
def _registry(revision: str) -> tuple[str, Registry[Any], type[Validator]]:
    """The URN, registry and validator class for ``revision``'s whole schema document."""
    schema = _require_schema(revision)
    cls: type[Validator] = validators.validator_for(schema)
    cls.check_schema(schema)
    urn = f"urn:mcp-skew:official-schema:{revision}"
    registry: Registry[Any] = Registry().with_resource(urn, Resource.from_contents(schema))
    return urn, registry, cls


@functools.cache
def validator_for(revision: str, name: str) -> Validator:
    """A compiled validator for definition ``name`` of ``revision`` (cached)."""
    schema = _require_schema(revision)
    if name not in schema[_defs_key(schema)]:
        raise AssertionError(f"{name!r} is not defined in the {revision} schema")
    urn, registry, cls = _registry(revision)
    return cls({"$ref": f"{urn}#/{_defs_key(schema)}/{name}"}, registry=registry)


def _describe(error: ValidationError) -> str:
    """One line per error: where, what, and for ``anyOf``/``oneOf`` the closest branch."""
    where = "$" + "".join(f"[{part!r}]" for part in error.absolute_path)
    line = f"  at {where}: {error.message[:300]} (schema path: {list(error.schema_path)})"
    if error.context:
        closest = best_match(error.context)
        line += f"\n    closest branch: {closest.message[:300]}"
    return line


def validate(revision: str, definition_name: str, instance: Any) -> None:
    """Assert ``instance`` is valid against ``definition_name`` of ``revision``'s schema.

    Raises AssertionError listing every jsonschema error; skips if the schema
    is not on this machine.
    """
    validator = validator_for(revision, definition_name)
    errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.path])
    if errors:
        listing = "\n".join(_describe(error) for error in errors)
        raise AssertionError(f"{len(errors)} schema error(s) for {definition_name} ({revision}):\n{listing}")


def example_files(revision: str = "2026-07-28") -> list[tuple[str, Path]]:
    """``(type name, path)`` of every official example of ``revision``, sorted; [] if absent."""
    root = SPEC_DIR / "examples" / revision
    if not root.is_dir():
        return []
    return sorted((path.parent.name, path) for path in root.glob("*/*.json"))

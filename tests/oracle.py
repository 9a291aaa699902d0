"""Test oracle: the official MCP schema of each revision, through what was generated from it.

The official ``schema.json`` files are not part of the project (they live at
``../shared/spec`` on developer and CI machines). ``tests/generated/generate.py``
derives from them, into ``tests/generated/``, pydantic models of every definition
(``r<revision>.py``) and the facts the tests compare against
(``r<revision>.facts.json``), so every test here runs on any machine.
``tests/schema/test_generated.py`` proves, where the schemas are, that the generated
files are current and that the generated models accept and reject exactly what a
JSON Schema validator does on a corpus of messages.

:func:`validate` checks an instance against a named definition; :func:`definition`
gives that definition's facts (property and required names, ``method`` const,
error code, inline ``params`` shape).
"""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from pydantic import BaseModel, ValidationError

__all__ = [
    "GENERATED",
    "SPEC_DIR",
    "definition",
    "definition_names",
    "example_facts",
    "example_files",
    "facts",
    "first_defined",
    "spec_present",
    "validate",
]

#: ``../shared/spec`` from the project root (developer and CI machines only).
SPEC_DIR: Final = Path(__file__).resolve().parents[1].parent / "shared" / "spec"
#: What ``tests/generated/generate.py`` wrote.
GENERATED: Final = Path(__file__).resolve().parent / "generated"


def spec_present() -> bool:
    return (SPEC_DIR / "schemas").is_dir()


def _module_name(revision: str) -> str:
    return "r" + revision.replace("-", "_")


@functools.cache
def facts(revision: str) -> dict[str, Any]:
    """The generated facts of ``revision``'s schema (see ``tests/generated/generate.py``)."""
    path = GENERATED / f"{_module_name(revision)}.facts.json"
    if not path.is_file():
        raise AssertionError(f"no generated facts for {revision}: run tests/generated/generate.py")
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


@functools.cache
def models(revision: str) -> ModuleType:
    """The generated pydantic models of ``revision``'s schema."""
    return importlib.import_module(f"generated.{_module_name(revision)}")


def definition_names(revision: str) -> frozenset[str]:
    return frozenset(facts(revision)["definitions"])


def definition(revision: str, name: str) -> dict[str, Any]:
    """The facts of definition ``name``: ``properties``, ``required``, ``method``, ``code``,
    ``whole_response`` (an error definition that is a whole response) and ``params``."""
    defs: dict[str, Any] = facts(revision)["definitions"]
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


def _describe(error: Any) -> str:
    where = "$" + "".join(f"[{part!r}]" for part in error["loc"])
    return f"  at {where}: {error['msg'][:300]}"


def validate(revision: str, definition_name: str, instance: Any) -> None:
    """Assert ``instance`` is valid against ``definition_name`` of ``revision``'s schema.

    Raises AssertionError listing every error with where it is.
    """
    definition(revision, definition_name)
    cls: type[BaseModel] = models(revision).DEFINITIONS[definition_name]
    try:
        cls.model_validate_json(json.dumps(instance))
    except ValidationError as exc:
        listing = "\n".join(_describe(error) for error in exc.errors())
        raise AssertionError(
            f"{exc.error_count()} schema error(s) for {definition_name} ({revision}):\n{listing}"
        ) from None


@functools.cache
def example_facts(revision: str = "2026-07-28") -> tuple[dict[str, Any], ...]:
    """For each official example of ``revision``: its type, file, digest and key paths."""
    path = GENERATED / f"examples-{revision}.json"
    return tuple(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else ()


def example_files(revision: str = "2026-07-28") -> list[tuple[str, Path]]:
    """``(type name, path)`` of every official example file of ``revision``; [] where absent."""
    root = SPEC_DIR / "examples" / revision
    if not root.is_dir():
        return []
    return sorted((path.parent.name, path) for path in root.glob("*/*.json"))

"""Facts of the official MCP schemas, for checking the profiles against them.

Each function reads the facts ``tests/generated/generate.py`` derived from a
revision's ``schema.json`` (the four method unions, the capability objects, the
content unions, the ``_meta`` objects, the error definitions); how each fact is
read from a schema is written down there.
"""

from __future__ import annotations

from typing import Any

from oracle import SPEC_DIR, facts

__all__ = [
    "SPEC_DIR",
    "cacheable_methods",
    "capability_keys",
    "content_types",
    "error_codes",
    "properties",
    "request_meta_keys",
    "result_fields_required",
    "result_meta_keys",
    "schema_facts",
    "union_methods",
]


def schema_facts(revision: str) -> dict[str, Any]:
    """The generated facts of ``revision``'s schema."""
    return facts(revision)


def union_methods(found: dict[str, Any], union: str) -> set[str]:
    """``method`` consts of each member of a union (empty when the schema lacks it)."""
    return set(found["unions"][union])


def capability_keys(found: dict[str, Any], name: str) -> set[str]:
    """Dotted keys of a capability object; open maps (``experimental``) count as one key."""
    return set(found["capability_keys"][name])


def content_types(found: dict[str, Any], type_name: str) -> set[str]:
    """The ``type`` consts of the content blocks a definition's ``content`` may hold."""
    return set(found["content_types"][type_name])


def properties(found: dict[str, Any], type_name: str) -> set[str]:
    return set(found["definitions"][type_name]["properties"])


def request_meta_keys(found: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(required, optional) keys of every request's ``params._meta``."""
    return set(found["request_meta"]["required"]), set(found["request_meta"]["optional"])


def result_meta_keys(found: dict[str, Any]) -> set[str]:
    return set(found["result_meta"])


def result_fields_required(found: dict[str, Any]) -> set[str]:
    return set(found["result_required"])


def cacheable_methods(found: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(methods whose result carries the caching hints, the hints themselves)."""
    return set(found["cacheable"]["methods"]), set(found["cacheable"]["hints"])


def error_codes(found: dict[str, Any]) -> dict[int, set[str]]:
    """Code -> keys of ``data`` for every error definition with a ``code`` const."""
    return {int(code): set(keys) for code, keys in found["error_codes"].items()}

"""Facts read from the official MCP schemas, for checking the profiles against them.

Where the schemas are, and the skip mark for tests that need them, come from
``tests/oracle.py`` (:data:`SPEC_DIR`, :data:`requires_spec`). Every function here
reads a schema the way a person would: the four method unions, the capability
objects, the content unions, the ``_meta`` objects and the error definitions.
"""

from __future__ import annotations

from typing import Any

from oracle import SKIP_REASON, SPEC_DIR, requires_spec, schema_for

__all__ = [
    "SKIP_REASON",
    "SPEC_DIR",
    "cacheable_methods",
    "capability_keys",
    "content_types",
    "definitions",
    "error_codes",
    "load_schema",
    "properties",
    "request_meta_keys",
    "requires_spec",
    "result_fields_required",
    "result_meta_keys",
    "union_methods",
]


def load_schema(revision: str) -> dict[str, Any]:
    """The parsed ``schema.json`` of ``revision``; call only under :data:`requires_spec`."""
    schema = schema_for(revision)
    assert schema is not None, f"no schema.json for {revision} under {SPEC_DIR}"
    return schema


def definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """The named types: ``$defs`` (2020-12 schemas) or ``definitions`` (draft-07)."""
    defs: dict[str, Any] = schema.get("$defs") or schema["definitions"]
    return defs


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = definitions(schema)[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _members(schema: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a union; a one-member union is the member itself."""
    node = _resolve(schema, node)
    for key in ("anyOf", "oneOf"):
        if key in node:
            return [m for alt in node[key] for m in _members(schema, alt)]
    return [node]


def union_methods(schema: dict[str, Any], union: str) -> set[str]:
    """``properties.method.const`` of each member of a union (empty when it is absent)."""
    defs = definitions(schema)
    if union not in defs:
        return set()
    return {m["properties"]["method"]["const"] for m in _members(schema, defs[union])}


def capability_keys(schema: dict[str, Any], name: str) -> set[str]:
    """Dotted keys of a capability object, recursing into sub-objects with ``properties``.

    Open maps (``experimental``, ``extensions``) have ``additionalProperties`` and no
    ``properties``: they count as one key, as in the profile.
    """

    def walk(node: dict[str, Any], prefix: str) -> set[str]:
        keys: set[str] = set()
        for key, sub in node.get("properties", {}).items():
            keys.add(prefix + key)
            keys |= walk(_resolve(schema, sub), f"{prefix}{key}.")
        return keys

    return walk(definitions(schema)[name], "")


def content_types(schema: dict[str, Any], type_name: str, field: str = "content") -> set[str]:
    """The ``type`` consts of the blocks a field (a block or an array of blocks) may hold."""
    node = _resolve(schema, definitions(schema)[type_name]["properties"][field])
    node = _resolve(schema, node.get("items", node))
    types: set[str] = set()
    for member in _members(schema, node):
        block = _resolve(schema, member.get("items", member))
        if "anyOf" in block or "oneOf" in block:
            types |= {
                _resolve(schema, m)["properties"]["type"]["const"]
                for m in _members(schema, block)
            }
        else:
            types.add(block["properties"]["type"]["const"])
    return types


def properties(schema: dict[str, Any], type_name: str) -> set[str]:
    return set(definitions(schema)[type_name].get("properties", {}))


def _request_meta(schema: dict[str, Any]) -> dict[str, Any]:
    defs = definitions(schema)
    params = defs["RequestParams"] if "RequestParams" in defs else (
        defs["Request"]["properties"]["params"]
    )
    return _resolve(schema, params["properties"]["_meta"])


def request_meta_keys(schema: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(required, optional) keys of every request's ``params._meta``."""
    meta = _request_meta(schema)
    required = set(meta.get("required", ()))
    return required, set(meta.get("properties", {})) - required


def result_meta_keys(schema: dict[str, Any]) -> set[str]:
    meta = _resolve(schema, definitions(schema)["Result"]["properties"]["_meta"])
    return set(meta.get("properties", {}))


def result_fields_required(schema: dict[str, Any]) -> set[str]:
    return set(definitions(schema)["Result"].get("required", ()))


def cacheable_methods(schema: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(methods whose result carries the caching hints, the hints themselves).

    A result type ``XResult`` answers the request type ``XRequest``.
    """
    defs = definitions(schema)
    if "CacheableResult" not in defs:
        return set(), set()
    hints = properties(schema, "CacheableResult") - properties(schema, "Result")
    methods = {
        defs[name.removesuffix("Result") + "Request"]["properties"]["method"]["const"]
        for name, node in defs.items()
        if name.endswith("Result") and name != "CacheableResult"
        and hints <= set(node.get("properties", {}))
    }
    return methods, hints


def error_codes(schema: dict[str, Any]) -> dict[int, set[str]]:
    """Code -> keys of ``data`` for every error definition with a ``code`` const.

    Two shapes exist: an error object (``properties.code.const``) and an error
    response (``properties.error.allOf[...]`` holding the code and the data).
    """
    found: dict[int, set[str]] = {}
    for node in definitions(schema).values():
        props = node.get("properties", {})
        parts = [props] + [p.get("properties", {}) for p in props.get("error", {}).get("allOf", [])]
        for part in parts:
            if "const" in part.get("code", {}):
                data = _resolve(schema, part.get("data", {}))
                found[part["code"]["const"]] = set(data.get("properties", {}))
    return found

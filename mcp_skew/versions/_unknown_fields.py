"""The fields of a result that its revision does not define, read from the official schemas.

:func:`unknown_fields` walks a result against the table generated from each
built-in revision's ``schema.json`` (:mod:`._schema_fields`, written by
``tests/generated/generate.py``): the result definition its method's response
holds, then, through the properties that name an object type (``tools[]`` ->
``Tool`` -> ``annotations`` -> ``ToolAnnotations``), every nested object. A key
an object does not name is unknown, unless the object is open (``_meta``, a
plain ``Result``); maps and JSON Schemas (``inputSchema``, ``outputSchema``) are
data and never looked into.

Rule: a result that is not the shape its definition names (a required property
missing, ``null`` or a list where an object belongs and the like, no alternative
of a union that fits, a string constant that differs) gives no unknown fields at all:
that is a schema failure, the schema check's to report. Scalars are not checked.
Paths are dotted, with list indices (``tools[0].annotations.fooHint``): an
object's known properties are looked into in the schema's order, then its own
unknown keys follow in the order received.

The table is imported on the first call, so importing this package stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeAlias

__all__ = ["format_loc", "required_fields", "unknown_fields"]

#: A location inside a result: keys and list indices.
Loc: TypeAlias = tuple[str | int, ...]


class _Misfit(Exception):
    """The result is not the shape its definition names (the schema check reports it)."""


@dataclass(frozen=True, slots=True)
class _Object:
    """One object type: property -> its type expression ("" when not looked into)."""

    fields: Mapping[str, str]
    required: frozenset[str]
    constants: Mapping[str, str]
    open: bool


def unknown_fields(revision: str, method: str, result: object) -> list[str]:
    """Dotted paths of the fields of ``result`` (the response to ``method``) that ``revision`` lacks.

    ``[]`` for a revision or a method the official schemas do not have (a draft,
    a vendor method), and for a result that does not fit its definition.
    """
    alternatives = _tables()[0].get(revision, {}).get(method)
    if alternatives is None or not isinstance(result, Mapping):
        return []
    try:
        return [format_loc(loc) for loc in list(_object(revision, alternatives, result, ()))]
    except _Misfit:
        return []


def required_fields(revision: str, method: str) -> frozenset[str]:
    """The properties the official schema of ``revision`` requires on every result of
    ``method`` (those all its alternatives require); empty for a revision or a method the
    official schemas do not have (2026-07-28 ``DiscoverResult``: ``supportedVersions``,
    ``capabilities``, ``resultType``, ``ttlMs``, ``cacheScope``)."""
    alternatives = _tables()[0].get(revision, {}).get(method)
    if alternatives is None:
        return frozenset()
    kinds = _flat(revision, alternatives)
    return frozenset.intersection(*(k.required for k in kinds)) if kinds else frozenset()


def _tables() -> tuple[Mapping[str, Mapping[str, tuple[str, ...]]],
                      Mapping[str, Mapping[str, str | tuple[str, ...]]]]:
    """The generated ``RESULTS`` and ``TYPES``, imported on first use."""
    from ._schema_fields import RESULTS, TYPES  # noqa: PLC0415 - a table only a probe needs

    return RESULTS, TYPES


def format_loc(loc: Loc) -> str:
    """Render a location as a dotted path: ``("tools", 0, "title")`` -> ``tools[0].title``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def _object(revision: str, alternatives: tuple[str, ...], value: Mapping[str, Any],
            loc: Loc) -> Iterator[Loc]:
    """The unknown keys of ``value`` (an object of one of ``alternatives``): those inside its
    known properties (in the table's order), then its own (in the order received)."""
    kind = _choose(revision, alternatives, value)
    for key, expression in kind.fields.items():
        if expression and key in value:
            yield from _value(revision, expression, value[key], (*loc, key))
    if not kind.open:
        yield from ((*loc, key) for key in value if key not in kind.fields)


def _value(revision: str, expression: str, value: object, loc: Loc) -> Iterator[Loc]:
    """The unknown keys inside ``value``, of type ``expression`` (``Name`` or ``Name[]``).

    ``None`` is an absent value; a scalar where an object or a list belongs is a misfit."""
    if value is None:
        return
    element = _element(revision, expression)
    if isinstance(value, list) and element is not None:
        for index, item in enumerate(value):
            yield from _value(revision, element, item, (*loc, index))
    elif isinstance(value, Mapping) and not expression.endswith("[]"):
        yield from _object(revision, (expression,), value, loc)
    else:
        raise _Misfit


@cache
def _element(revision: str, expression: str) -> str | None:
    """The type of a list's items where ``expression`` is a list (or a union with a list in it)."""
    if expression.endswith("[]"):
        return expression.removesuffix("[]")
    entry = _tables()[1][revision][expression]
    lists = [alt for alt in entry if alt.endswith("[]")] if isinstance(entry, tuple) else []
    return lists[0].removesuffix("[]") if lists else None


def _choose(revision: str, alternatives: tuple[str, ...], value: Mapping[str, Any]) -> _Object:
    """The first object type of ``alternatives`` (unions flattened) that ``value`` fits."""
    for kind in _flat(revision, alternatives):
        if kind.required <= value.keys() and _holds(kind, value):
            return kind
    raise _Misfit


def _holds(kind: _Object, value: Mapping[str, Any]) -> bool:
    """Its constants are the type's, and no required object or list is ``null``."""
    return all(value[key] == constant for key, constant in kind.constants.items() if key in value) \
        and all(value[key] is not None for key in kind.required if kind.fields[key])


@cache
def _flat(revision: str, alternatives: tuple[str, ...]) -> tuple[_Object, ...]:
    """The object types of ``alternatives``, unions expanded in order (a list member is left out)."""
    types = _tables()[1][revision]
    found: list[_Object] = []
    for name in alternatives:
        entry = types[name] if not name.endswith("[]") else None
        if isinstance(entry, tuple):
            found += _flat(revision, entry)
        elif entry is not None:
            found.append(_parse(entry))
    return tuple(found)


def _parse(spelled: str) -> _Object:
    """An object type from the table's spelling: ``!name``, ``name:Type``, ``name:=value``, ``*``."""
    fields: dict[str, str] = {}
    required: set[str] = set()
    constants: dict[str, str] = {}
    for word in spelled.split():
        if word == "*":
            continue
        name, _, expression = word.removeprefix("!").partition(":")
        if word.startswith("!"):
            required.add(name)
        if expression.startswith("="):
            constants[name], expression = expression[1:], ""
        fields[name] = expression
    return _Object(fields, frozenset(required), constants, "*" in spelled.split())

"""The base classes and helpers every wire model shares: lenient receive, exact send.

Theory of operation
-------------------
Every model derives from :class:`WireModel`, configured with ``extra="allow"``:
parsing a peer's message (:meth:`WireModel.inbound`, which matches wire names
only) never fails because of a field this revision does not know; the field is
kept in ``model_extra`` and :func:`unknown_fields` reports it (as dotted paths
such as ``tools[0].annotations.fooHint``) so the simulator can turn it into an
``unknown-field`` finding. A few objects are *open by design*
(``_meta`` maps, JSON Schemas inside tools): they derive from :class:`OpenModel`
and their extra keys are data, never reported.

Sending is exact. :meth:`WireModel.outbound` builds a model from keyword
arguments (field names or wire names, nested models or plain dicts) and raises a
pydantic ``ValidationError`` of type ``extra_forbidden`` for every key the
revision does not define, nested ones included. Nested models are re-validated
from their wire form, so a model of a *later* revision placed inside an earlier
one is caught too. :func:`to_wire` dumps by wire name (``_meta``,
``io.modelcontextprotocol/...``), leaving out fields that are ``None``;
:func:`dump_exact` does the same after refusing unknown fields.

Rule: optional fields default to ``None`` and nothing else, so "absent" and
"``None``" are the same thing and :func:`to_wire` never drops a real value.
Constant fields (``jsonrpc``, a content block's ``type``) have their constant as
default and are always dumped.
"""

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar, Literal, Self, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError
from pydantic_core import InitErrorDetails

__all__ = [
    "CacheScope",
    "Loc",
    "LoggingLevel",
    "ModelLookupError",
    "OpenModel",
    "Priority",
    "RequestId",
    "Role",
    "WireModel",
    "dump_exact",
    "format_loc",
    "iter_unknown",
    "refuse_unknown",
    "to_wire",
    "unknown_fields",
]

#: A location inside a message: wire keys and list indices, as pydantic uses.
Loc: TypeAlias = tuple[str | int, ...]

#: JSON-RPC request id: a string or an integer, never null, never a float or bool.
#: Source: ``RequestId`` in every revision's schema.json.
RequestId: TypeAlias = StrictInt | StrictStr

#: ``Role`` in every revision's schema.json.
Role: TypeAlias = Literal["user", "assistant"]

#: ``cacheScope`` of a cacheable result (added in 2026-07-28;
#: schema/2026-07-28/schema.json#/$defs/CacheableResult).
CacheScope: TypeAlias = Literal["public", "private"]

#: ``LoggingLevel`` in every revision's schema.json (RFC 5424 severities).
LoggingLevel: TypeAlias = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]

#: A probability-like number in [0, 1] (``Annotations.priority``).
Priority: TypeAlias = Annotated[float, Field(ge=0, le=1)]


class ModelLookupError(LookupError):
    """No wire model is registered for this revision, method or message shape."""


class WireModel(BaseModel):
    """Base of every wire model: keeps unknown fields, reports them, dumps by wire name.

    Fields are named as on the wire (``inputSchema``, ``protocolVersion``) except
    where the wire name is not a Python identifier: ``_meta`` is ``meta`` and the
    ``io.modelcontextprotocol/...`` keys drop their prefix; both spellings are
    accepted when validating.
    """

    model_config = ConfigDict(
        extra="allow",
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        use_attribute_docstrings=True,
    )

    #: Whether extra keys of this model are data (True) or unknown fields (False).
    wire_open: ClassVar[bool] = False

    @classmethod
    def inbound(cls, payload: Any, /) -> Self:
        """Parse a JSON object received from a peer: wire names only, unknown fields kept.

        Unlike ``model_validate`` (which also accepts Python field names, for
        convenience when building), a key is matched by its wire name only, so
        ``{"protocolVersion": ...}`` inside a 2026-07-28 ``_meta`` is not taken for
        ``io.modelcontextprotocol/protocolVersion``.
        """
        return cls.model_validate(payload, by_alias=True, by_name=False)

    @classmethod
    def outbound(cls, /, **fields: Any) -> Self:
        """Build this model to *send*: every field must be one this revision defines.

        Raises ``pydantic.ValidationError`` (type ``extra_forbidden``, one line per
        unknown key, nested keys included) instead of keeping unknown fields.
        """
        model = cls.model_validate({key: _plain(value) for key, value in fields.items()})
        refuse_unknown(model)
        return model


class OpenModel(WireModel):
    """A wire object whose extra keys are data by design (``_meta``, a JSON Schema).

    Extra keys are kept and dumped like any others but never reported by
    :func:`unknown_fields` nor refused by :meth:`WireModel.outbound`; the declared
    fields are still checked, and models nested in them still report theirs.
    """

    wire_open: ClassVar[bool] = True


def _plain(value: Any) -> Any:
    """Return ``value`` with every nested model replaced by its wire form."""
    if isinstance(value, BaseModel):
        return to_wire(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


def to_wire(model: BaseModel) -> dict[str, Any]:
    """Dump ``model`` as the JSON object sent on the wire.

    Keys are wire names (``_meta``, ``resultType``, ``io.modelcontextprotocol/...``);
    fields that are ``None`` are left out; unknown fields received with the model
    are kept (use :func:`dump_exact` to refuse them).
    """
    return model.model_dump(mode="json", by_alias=True, exclude_none=True, serialize_as_any=True)


def iter_unknown(value: object, loc: Loc = ()) -> Iterator[tuple[Loc, object]]:
    """Yield ``(location, value)`` for every unknown field in ``value``, depth first.

    ``value`` may be a model, a list or tuple, or a mapping; only models have
    unknown fields. Locations use wire names and list indices.
    """
    if isinstance(value, BaseModel):
        yield from _iter_model_unknown(value, loc)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from iter_unknown(item, (*loc, index))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from iter_unknown(item, (*loc, str(key)))


def _iter_model_unknown(model: BaseModel, loc: Loc) -> Iterator[tuple[Loc, object]]:
    """Yield the unknown fields of one model and of the models nested in it."""
    for name, info in type(model).model_fields.items():
        yield from iter_unknown(getattr(model, name), (*loc, info.alias or name))
    if isinstance(model, WireModel) and model.wire_open:
        return
    for key, extra in (model.model_extra or {}).items():
        yield (*loc, key), extra


def format_loc(loc: Loc) -> str:
    """Render a location as a dotted path: ``("tools", 0, "title")`` → ``tools[0].title``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def unknown_fields(model: BaseModel) -> list[str]:
    """Dotted paths of the fields ``model`` received that its revision does not define.

    Recurses into nested models (lists included). Keys of open objects
    (``_meta``, JSON Schemas) are never reported.
    """
    return [format_loc(loc) for loc, _ in iter_unknown(model)]


def refuse_unknown(model: BaseModel) -> None:
    """Raise ``pydantic.ValidationError`` (``extra_forbidden``) if ``model`` has unknown fields."""
    errors = [
        InitErrorDetails(type="extra_forbidden", loc=loc, input=value) for loc, value in iter_unknown(model)
    ]
    if errors:
        raise ValidationError.from_exception_data(type(model).__name__, errors)


def dump_exact(model: BaseModel) -> dict[str, Any]:
    """Like :func:`to_wire`, but refuse to send a model that carries unknown fields."""
    refuse_unknown(model)
    return to_wire(model)

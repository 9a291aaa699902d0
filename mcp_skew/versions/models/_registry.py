"""The registry of wire models by revision, and the parse helpers built on it.

Callers never branch on revision strings: :func:`models_for` returns the
revision's :class:`RevisionModels`, and the ``parse_*`` helpers look the right
class up in it (by message shape, method or error code). Order of revisions is
the position in :data:`MODEL_REVISIONS`; strings are never compared. An unknown
revision or an unmodelled method raises :class:`ModelLookupError`; a payload that
does not fit its model raises ``pydantic.ValidationError``. Parsing matches wire
names only (``WireModel.inbound``) and keeps unknown fields.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from mcp_skew.versions.models import (
    r2024_11_05,
    r2025_03_26,
    r2025_06_18,
    r2025_11_25,
    r2026_07_28,
)
from mcp_skew.versions.models._base import ModelLookupError, WireModel, to_wire
from mcp_skew.versions.models._jsonrpc import ErrorObject
from mcp_skew.versions.models._namespace import RevisionModels

__all__ = [
    "MODEL_REVISIONS",
    "models_for",
    "parse_error",
    "parse_message",
    "parse_params",
    "parse_result",
]

_ALL: Final = (
    r2024_11_05.MODELS,
    r2025_03_26.MODELS,
    r2025_06_18.MODELS,
    r2025_11_25.MODELS,
    r2026_07_28.MODELS,
)

#: Revisions with wire models, oldest first.
MODEL_REVISIONS: Final[tuple[str, ...]] = tuple(models.revision for models in _ALL)

_BY_REVISION: Final[Mapping[str, RevisionModels]] = MappingProxyType(
    {models.revision: models for models in _ALL}
)


def models_for(revision: str) -> RevisionModels:
    """Return the wire model classes of ``revision``; raise ``ModelLookupError`` if unknown."""
    try:
        return _BY_REVISION[revision]
    except KeyError:
        known = ", ".join(MODEL_REVISIONS)
        raise ModelLookupError(f"no wire models for revision {revision!r} (known: {known})") from None


def _lookup(table: Mapping[str, type[WireModel]], method: str, what: str, revision: str) -> type[WireModel]:
    """Return ``table[method]`` or raise ``ModelLookupError`` naming what was missing."""
    try:
        return table[method]
    except KeyError:
        raise ModelLookupError(f"no {what} model for {method!r} in {revision}") from None


def parse_message(revision: str, payload: Mapping[str, Any]) -> WireModel:
    """Parse a JSON-RPC message's envelope: request, notification, result or error response.

    The kind is read from the keys present (``method`` with or without ``id``,
    ``error``, ``result``); ``params``/``result`` stay JSON objects.
    """
    models = models_for(revision)
    cls: type[WireModel]
    if "method" in payload:
        cls = models.JSONRPCRequest if "id" in payload else models.JSONRPCNotification
    elif "error" in payload:
        cls = models.JSONRPCErrorResponse
    elif "result" in payload:
        cls = models.JSONRPCResultResponse
    else:
        raise ModelLookupError("not a JSON-RPC message: it has no method, result or error")
    return cls.inbound(payload)


def parse_params(revision: str, method: str, payload: Mapping[str, Any] | None) -> WireModel:
    """Parse the ``params`` of a request for ``method`` (absent params parse as ``{}``)."""
    models = models_for(revision)
    cls = _lookup(models.params, method, "params", revision)
    return cls.inbound(payload if payload is not None else {})


def parse_result(revision: str, method: str, payload: Mapping[str, Any]) -> WireModel:
    """Parse the ``result`` of a response to ``method``.

    Where the revision allows it (2026-07-28 ``tools/call``, ``resources/read``,
    ``prompts/get``), a ``resultType`` of ``"input_required"`` selects
    ``InputRequiredResult``.
    """
    models = models_for(revision)
    interim = models.InputRequiredResult
    if (
        interim is not None
        and method in models.input_required_methods
        and payload.get("resultType") == "input_required"
    ):
        return interim.inbound(payload)
    return _lookup(models.results, method, "result", revision).inbound(payload)


def parse_error(revision: str, payload: Mapping[str, Any] | ErrorObject) -> ErrorObject:
    """Parse an error object into the typed class its ``code`` has in ``revision``.

    A code without a typed class gives a plain ``ErrorObject``. If the typed
    class's ``data`` is required by the schema (-32022, -32021, -32042), a
    mismatch raises ``ValidationError``; if its shape only comes from a prose
    example (-32002 ``{uri}``), a mismatch falls back to ``ErrorObject``.
    """
    data = to_wire(payload) if isinstance(payload, BaseModel) else dict(payload)
    code = data.get("code")
    cls = models_for(revision).errors.get(code) if type(code) is int else None
    if cls is None:
        return ErrorObject.inbound(data)
    try:
        return cls.inbound(data)
    except ValidationError:
        if cls.model_fields["data"].is_required():
            raise
        return ErrorObject.inbound(data)

"""The JSON-RPC 2.0 envelope MCP messages travel in, and the error object inside it.

The envelope is the same in every revision except for one field: the ``id`` of
an error response is required up to 2025-06-18 (``JSONRPCError``) and optional
from 2025-11-25 (``JSONRPCErrorResponse``, for requests whose id could not be
read). Each revision module picks the class that matches its schema; the
per-revision namespace (``models_for(revision).JSONRPCErrorResponse``) hides the
difference from callers.

``params`` and ``result`` stay plain JSON objects here: the method decides their
shape, so they are parsed in a second step (``parse_params``/``parse_result``).
Typed error objects (``ErrorObject`` subclasses) fix ``code`` to a constant and
may give ``data`` a shape; ``parse_error`` picks one by code.
"""

from typing import Any, Literal

from pydantic import StrictInt

from mcp_skew.versions.models._base import RequestId, WireModel

__all__ = [
    "ErrorObject",
    "InternalError",
    "InvalidParamsError",
    "InvalidRequestError",
    "JSONRPCError",
    "JSONRPCErrorResponse",
    "JSONRPCNotification",
    "JSONRPCRequest",
    "JSONRPCResultResponse",
    "MethodNotFoundError",
    "ParseError",
]


class JSONRPCRequest(WireModel):
    """A request: expects a response with the same id.

    Source: ``JSONRPCRequest`` in every revision's schema.json.
    """

    jsonrpc: Literal["2.0"] = "2.0"
    id: RequestId
    method: str
    params: dict[str, Any] | None = None


class JSONRPCNotification(WireModel):
    """A notification: no id, no response.

    Source: ``JSONRPCNotification`` in every revision's schema.json.
    """

    jsonrpc: Literal["2.0"] = "2.0"
    method: str
    params: dict[str, Any] | None = None


class JSONRPCResultResponse(WireModel):
    """A successful response.

    Named ``JSONRPCResponse`` in the 2024-11-05 to 2025-06-18 schemas; renamed
    ``JSONRPCResultResponse`` in 2025-11-25, where ``JSONRPCResponse`` became the
    union of result and error responses
    (schema/2025-11-25/schema.json#/$defs/JSONRPCResultResponse).
    """

    jsonrpc: Literal["2.0"] = "2.0"
    id: RequestId
    result: dict[str, Any]


class ErrorObject(WireModel):
    """The ``error`` member of an error response: ``{code, message, data?}``.

    Source: ``JSONRPCError.error`` (2024-11-05 to 2025-06-18), ``Error``
    (2025-11-25 and later). ``message`` SHOULD be one concise sentence.
    """

    code: StrictInt
    message: str
    data: Any = None


class JSONRPCError(WireModel):
    """An error response whose ``id`` is required (2024-11-05 to 2025-06-18).

    Removed in 2025-11-25, replaced by :class:`JSONRPCErrorResponse`.
    Source: schema/2024-11-05/schema.json#/definitions/JSONRPCError.
    """

    jsonrpc: Literal["2.0"] = "2.0"
    id: RequestId
    error: ErrorObject


class JSONRPCErrorResponse(WireModel):
    """An error response whose ``id`` may be absent (added in 2025-11-25).

    The id is left out when the request's id could not be read.
    Source: schema/2025-11-25/schema.json#/$defs/JSONRPCErrorResponse.
    """

    jsonrpc: Literal["2.0"] = "2.0"
    id: RequestId | None = None
    """Optional from 2025-11-25 (was required in ``JSONRPCError``)."""
    error: ErrorObject


# Standard JSON-RPC 2.0 errors. The codes hold in every revision; the schema
# names them as types only from 2026-07-28 (schema/2026-07-28/schema.json#/$defs/...).


class ParseError(ErrorObject):
    """-32700: the message is not valid JSON (schema/2026-07-28/schema.json#/$defs/ParseError)."""

    code: Literal[-32700] = -32700


class InvalidRequestError(ErrorObject):
    """-32600: not a valid request object.

    Source: schema/2026-07-28/schema.json#/$defs/InvalidRequestError.
    """

    code: Literal[-32600] = -32600


class MethodNotFoundError(ErrorObject):
    """-32601: unknown method or capability not advertised.

    Source: schema/2026-07-28/schema.json#/$defs/MethodNotFoundError.
    """

    code: Literal[-32601] = -32601


class InvalidParamsError(ErrorObject):
    """-32602: invalid params (unknown tool, bad cursor, missing ``_meta`` in 2026-07-28 ...).

    Source: schema/2026-07-28/schema.json#/$defs/InvalidParamsError.
    """

    code: Literal[-32602] = -32602


class InternalError(ErrorObject):
    """-32603: internal error (schema/2026-07-28/schema.json#/$defs/InternalError)."""

    code: Literal[-32603] = -32603

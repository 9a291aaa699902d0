"""Pydantic v2 wire models of the MCP messages mcp-skew sends and receives, per revision.

One module per revision (``r2024_11_05`` … ``r2026_07_28``) holds that
revision's models; a later legacy revision derives from the earlier one where it
only adds fields, and each module's docstring lists its changes. Use
:func:`models_for` to get a revision's classes without branching on the
revision string, and the ``parse_*`` helpers to read a peer's messages.

Receiving is lenient (unknown fields are kept; :func:`unknown_fields` lists
them); sending is exact (``Model.outbound(...)`` and :func:`dump_exact` refuse
unknown fields with a ``pydantic.ValidationError``); :func:`to_wire` dumps by
wire name without ``None`` fields.

Public API: everything in ``__all__`` below and the revision modules' own
``__all__``. Modules starting with ``_`` are private.
"""

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models import (
    r2024_11_05,
    r2025_03_26,
    r2025_06_18,
    r2025_11_25,
    r2026_07_28,
)
from mcp_skew.versions.models._base import (
    CacheScope,
    LoggingLevel,
    ModelLookupError,
    OpenModel,
    RequestId,
    Role,
    WireModel,
    dump_exact,
    format_loc,
    iter_unknown,
    refuse_unknown,
    to_wire,
    unknown_fields,
)
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    InternalError,
    InvalidParamsError,
    InvalidRequestError,
    JSONRPCError,
    JSONRPCErrorResponse,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResultResponse,
    MethodNotFoundError,
    ParseError,
)
from mcp_skew.versions.models._namespace import RevisionModels
from mcp_skew.versions.models._registry import (
    MODEL_REVISIONS,
    models_for,
    parse_error,
    parse_message,
    parse_params,
    parse_result,
)

__all__ = [
    "MODEL_REVISIONS",
    "CacheScope",
    "Era",
    "ErrorObject",
    "InternalError",
    "InvalidParamsError",
    "InvalidRequestError",
    "JSONRPCError",
    "JSONRPCErrorResponse",
    "JSONRPCNotification",
    "JSONRPCRequest",
    "JSONRPCResultResponse",
    "LoggingLevel",
    "MethodNotFoundError",
    "ModelLookupError",
    "OpenModel",
    "ParseError",
    "RequestId",
    "RevisionModels",
    "Role",
    "WireModel",
    "dump_exact",
    "format_loc",
    "iter_unknown",
    "models_for",
    "parse_error",
    "parse_message",
    "parse_params",
    "parse_result",
    "r2024_11_05",
    "r2025_03_26",
    "r2025_06_18",
    "r2025_11_25",
    "r2026_07_28",
    "refuse_unknown",
    "to_wire",
    "unknown_fields",
]

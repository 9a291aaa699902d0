"""The per-revision namespace of wire model classes, so callers never branch on a revision.

Each revision module ends with ``MODELS = RevisionModels(...)``; the registry
(``models_for``) returns it. A slot is ``None`` where the revision has no such
message (``InitializeResult`` in 2026-07-28, ``DiscoverResult`` before it). The
``params``/``results`` maps are keyed by the spec's method strings and list only
the methods this package models; ``errors`` maps error codes to typed error
objects.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from mcp_skew.versions.models._base import WireModel
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResultResponse,
)

__all__ = ["Era", "RevisionModels"]

#: ``legacy`` = ``initialize`` handshake; ``modern`` = per-request ``_meta``.
Era = Literal["legacy", "modern"]


@dataclass(frozen=True, slots=True)
class RevisionModels:
    """The wire model classes of one revision (attribute names follow the schema)."""

    revision: str
    era: Era
    # The JSON-RPC envelope.
    JSONRPCRequest: type[JSONRPCRequest]
    JSONRPCNotification: type[JSONRPCNotification]
    JSONRPCResultResponse: type[JSONRPCResultResponse]
    JSONRPCErrorResponse: type[WireModel]
    # Identity and capabilities.
    Implementation: type[WireModel]
    ClientCapabilities: type[WireModel]
    ServerCapabilities: type[WireModel]
    # Primitives.
    Tool: type[WireModel]
    Resource: type[WireModel]
    Prompt: type[WireModel]
    # Results every revision has.
    ListToolsResult: type[WireModel]
    CallToolResult: type[WireModel]
    ListResourcesResult: type[WireModel]
    ReadResourceResult: type[WireModel]
    ListPromptsResult: type[WireModel]
    # Content blocks by their ``type`` tag.
    content_blocks: Mapping[str, type[WireModel]]
    # Method -> params model / result model.
    params: Mapping[str, type[WireModel]]
    results: Mapping[str, type[WireModel]]
    # Error code -> typed error object.
    errors: Mapping[int, type[ErrorObject]]
    # Era-specific slots.
    InitializeRequestParams: type[WireModel] | None = None
    InitializeResult: type[WireModel] | None = None
    RequestMeta: type[WireModel] | None = None
    ResultMeta: type[WireModel] | None = None
    DiscoverRequestParams: type[WireModel] | None = None
    DiscoverResult: type[WireModel] | None = None
    InputRequiredResult: type[WireModel] | None = None
    #: Methods whose result may be an ``InputRequiredResult`` (2026-07-28 MRTR).
    input_required_methods: frozenset[str] = frozenset()

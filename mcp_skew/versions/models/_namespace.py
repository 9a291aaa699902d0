"""The per-revision namespace of wire model classes, so callers never branch on a revision.

Each revision module ends with ``MODELS = RevisionModels.collect(...)``, which
takes the class slots by name from the module's own namespace; the registry
(``models_for``) returns it. A slot is ``None`` where the revision has no such
message (``InitializeResult`` in 2026-07-28, ``DiscoverResult`` before it). The
``params``/``results`` maps are keyed by the spec's method strings and list only
the methods this package models; ``errors`` maps error codes to typed error
objects.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models._base import WireModel
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResultResponse,
)

__all__ = ["COMMON_SLOTS", "ERA_SLOTS", "RevisionModels"]


#: Slots every revision module defines (or re-exports) under the slot's own name.
COMMON_SLOTS: Final = (
    "Implementation",
    "ClientCapabilities",
    "ServerCapabilities",
    "Tool",
    "Resource",
    "Prompt",
    "ListToolsResult",
    "CallToolResult",
    "ListResourcesResult",
    "ReadResourceResult",
    "ListPromptsResult",
)
#: Era-specific slots a revision module of that era defines; the other era's stay ``None``.
ERA_SLOTS: Final[Mapping[Era, tuple[str, ...]]] = MappingProxyType(
    {
        Era.LEGACY: ("InitializeRequestParams", "InitializeResult"),
        Era.MODERN: (
            "RequestMeta",
            "ResultMeta",
            "DiscoverRequestParams",
            "DiscoverResult",
            "InputRequiredResult",
        ),
    }
)


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

    @classmethod
    def collect(
        cls,
        revision: str,
        era: Era,
        namespace: Mapping[str, object],
        *,
        error_response: type[WireModel],
        content_blocks: Mapping[str, type[WireModel]],
        params: Mapping[str, type[WireModel]],
        results: Mapping[str, type[WireModel]],
        errors: Mapping[int, type[ErrorObject]],
        input_required_methods: frozenset[str] = frozenset(),
    ) -> "RevisionModels":
        """Build a revision's namespace from its module's ``globals()``.

        Every name in :data:`COMMON_SLOTS` and the era's :data:`ERA_SLOTS` must be
        bound in ``namespace`` to a :class:`WireModel` subclass; a missing or wrong
        one raises ``TypeError`` naming all of them. The envelope's request,
        notification and result response are one class in every revision; the
        error response is the one the module picks (``error_response``: ``JSONRPCError``
        up to 2025-06-18, ``JSONRPCErrorResponse`` from 2025-11-25).
        """
        wanted = COMMON_SLOTS + ERA_SLOTS[era]
        slots: dict[str, Any] = {name: namespace.get(name) for name in wanted}
        wrong = [
            name
            for name, value in slots.items()
            if not (isinstance(value, type) and issubclass(value, WireModel))
        ]
        if wrong:
            raise TypeError(f"{revision}: no wire model class bound to {', '.join(wrong)}")
        return cls(
            revision=revision,
            era=era,
            JSONRPCRequest=JSONRPCRequest,
            JSONRPCNotification=JSONRPCNotification,
            JSONRPCResultResponse=JSONRPCResultResponse,
            JSONRPCErrorResponse=error_response,
            content_blocks=content_blocks,
            params=params,
            results=results,
            errors=errors,
            input_required_methods=input_required_methods,
            **slots,
        )

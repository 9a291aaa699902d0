"""Wire models of MCP 2026-07-28, the first modern (stateless) revision.

There is no ``initialize``: every request carries its protocol version and
client capabilities in ``params._meta`` (``io.modelcontextprotocol/...`` keys,
:class:`RequestMeta`), ``server/discover`` tells a client which versions and
capabilities the server has, and every result carries ``resultType``. The
results of ``server/discover``, the lists and ``resources/read`` also carry the
caching hints ``ttlMs`` and ``cacheScope`` (:class:`CacheableResult`).
``tools/call`` and ``resources/read`` may instead return an
:class:`InputRequiredResult` (multi round-trip requests). New errors: -32020,
-32021, -32022; resource-not-found becomes -32602. Tasks left the core
(``Tool.execution``, ``task`` params and ``tasks`` capabilities are gone).
Citations: ``schema/2026-07-28/schema.json#/$defs/<Name>``.

Content blocks, resources, prompts, icons and ``Implementation`` are unchanged
from 2025-11-25 and re-exported from there.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Literal

from pydantic import Field, NonNegativeInt

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models import r2025_03_26 as _r2025_03
from mcp_skew.versions.models._base import (
    CacheScope,
    LoggingLevel,
    OpenModel,
    RequestId,
    WireModel,
)
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    InternalError,
    InvalidParamsError,
    InvalidRequestError,
    JSONRPCErrorResponse,
    MethodNotFoundError,
    ParseError,
)
from mcp_skew.versions.models._namespace import RevisionModels
from mcp_skew.versions.models.r2024_11_05 import ResourceNotFoundData
from mcp_skew.versions.models.r2024_11_05 import (
    ResourceNotFoundError as LegacyResourceNotFoundError,
)
from mcp_skew.versions.models.r2025_11_25 import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    ContentBlock,
    ElicitationCapability,
    EmbeddedResource,
    Icon,
    ImageContent,
    Implementation,
    ListChangedCapability,
    ObjectSchema,
    Prompt,
    PromptArgument,
    Resource,
    ResourceContents,
    ResourceLink,
    ResourcesCapability,
    SamplingCapability,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)

__all__ = [
    "ERRORS",
    "MODELS",
    "Annotations",
    "AudioContent",
    "BlobResourceContents",
    "CacheableResult",
    "CallToolRequestParams",
    "CallToolResult",
    "ClientCapabilities",
    "ContentBlock",
    "DiscoverRequestParams",
    "DiscoverResult",
    "ElicitationCapability",
    "EmbeddedResource",
    "HeaderMismatchError",
    "Icon",
    "ImageContent",
    "Implementation",
    "InputRequiredResult",
    "LegacyResourceNotFoundError",
    "ListChangedCapability",
    "ListPromptsResult",
    "ListResourcesResult",
    "ListToolsResult",
    "MissingRequiredClientCapabilityData",
    "MissingRequiredClientCapabilityError",
    "ObjectSchema",
    "PaginatedRequestParams",
    "Prompt",
    "PromptArgument",
    "ReadResourceRequestParams",
    "ReadResourceResult",
    "RequestMeta",
    "RequestParams",
    "Resource",
    "ResourceContents",
    "ResourceLink",
    "ResourceNotFoundData",
    "ResourceNotFoundError",
    "ResourcesCapability",
    "Result",
    "ResultMeta",
    "RootsCapability",
    "SamplingCapability",
    "ServerCapabilities",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
    "UnsupportedProtocolVersionData",
    "UnsupportedProtocolVersionError",
]

_PREFIX = "io.modelcontextprotocol/"


# Capabilities ------------------------------------------------------------------------


class RootsCapability(WireModel):
    """``ClientCapabilities.roots``: ``{}`` only (deprecated in 2026-07-28).

    ``listChanged`` is removed in 2026-07-28 together with
    ``notifications/roots/list_changed`` (schema/2026-07-28/schema.json#/$defs/ClientCapabilities).
    """


class ClientCapabilities(WireModel):
    """Client capabilities, sent on every request in ``_meta`` (added ``extensions``).

    ``tasks`` is removed in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/ClientCapabilities).
    """

    experimental: dict[str, dict[str, Any]] | None = None
    extensions: dict[str, dict[str, Any]] | None = None
    """Added in 2026-07-28: extension id -> settings (``{}`` = supported)
    (schema/2026-07-28/schema.json#/$defs/ClientCapabilities)."""
    roots: RootsCapability | None = None
    sampling: SamplingCapability | None = None
    elicitation: ElicitationCapability | None = None


class ServerCapabilities(_r2025_03.ServerCapabilities):
    """Server capabilities, returned by ``server/discover`` (added ``extensions``).

    ``tasks`` is removed in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/ServerCapabilities).
    """

    extensions: dict[str, dict[str, Any]] | None = None
    """Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/ServerCapabilities)."""


# Per-request and per-result metadata -------------------------------------------------


class RequestMeta(OpenModel):
    """``params._meta`` of every client request: version, capabilities, identity.

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/RequestMetaObject).
    Open: other ``_meta`` keys (``traceparent``, vendor keys) are data.
    """

    protocolVersion: str = Field(alias=_PREFIX + "protocolVersion")
    """Required: the revision this request is written in."""
    clientCapabilities: ClientCapabilities = Field(alias=_PREFIX + "clientCapabilities")
    """Required: ``{}`` means no optional capabilities."""
    clientInfo: Implementation | None = Field(default=None, alias=_PREFIX + "clientInfo")
    """Optional, SHOULD be sent on every request."""
    logLevel: LoggingLevel | None = Field(default=None, alias=_PREFIX + "logLevel")
    """Optional and deprecated: opt-in for ``notifications/message``."""
    progressToken: RequestId | None = None


class ResultMeta(OpenModel):
    """``_meta`` of a result; carries ``serverInfo`` (SHOULD).

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/ResultMetaObject).
    """

    serverInfo: Implementation | None = Field(default=None, alias=_PREFIX + "serverInfo")


# Request params ----------------------------------------------------------------------


class RequestParams(WireModel):
    """``params`` with only the required ``_meta``; the params of ``server/discover``.

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/RequestParams).
    """

    meta: RequestMeta = Field(alias="_meta")


DiscoverRequestParams = RequestParams


class PaginatedRequestParams(RequestParams):
    """``params`` of the list methods.

    Source: schema/2026-07-28/schema.json#/$defs/PaginatedRequestParams.
    """

    cursor: str | None = None


class CallToolRequestParams(RequestParams):
    """``params`` of ``tools/call`` (schema/2026-07-28/schema.json#/$defs/CallToolRequestParams).

    ``task`` is removed in 2026-07-28.
    """

    name: str
    arguments: dict[str, Any] | None = None
    inputResponses: dict[str, Any] | None = None
    """Added in 2026-07-28: answers to an ``InputRequiredResult``, on the retry."""
    requestState: str | None = None
    """Added in 2026-07-28: echoed verbatim from an ``InputRequiredResult``."""


class ReadResourceRequestParams(RequestParams):
    """``params`` of ``resources/read``.

    Source: schema/2026-07-28/schema.json#/$defs/ReadResourceRequestParams.
    """

    uri: str
    inputResponses: dict[str, Any] | None = None
    """Added in 2026-07-28: answers to an ``InputRequiredResult``, on the retry."""
    requestState: str | None = None
    """Added in 2026-07-28: echoed verbatim from an ``InputRequiredResult``."""


# Primitives --------------------------------------------------------------------------


class Tool(_r2025_03.Tool):
    """A tool definition (schema/2026-07-28/schema.json#/$defs/Tool).

    ``execution`` is removed in 2026-07-28 (tasks moved to an extension);
    ``inputSchema`` may use any JSON Schema 2020-12 keyword.
    """

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Tool)."""
    outputSchema: dict[str, Any] | None = None
    """Added in 2025-06-18; any JSON Schema 2020-12 object from 2026-07-28 (root
    ``type`` no longer forced) (schema/2026-07-28/schema.json#/$defs/Tool)."""
    icons: tuple[Icon, ...] | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Tool)."""
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Tool)."""


# Results -----------------------------------------------------------------------------


class Result(WireModel):
    """Common fields of a complete result.

    ``resultType`` is added (required) in 2026-07-28; a client MUST treat its
    absence, from an older server, as ``"complete"``
    (schema/2026-07-28/schema.json#/$defs/Result).
    """

    resultType: Literal["complete"]
    meta: ResultMeta | None = Field(default=None, alias="_meta")


class CacheableResult(Result):
    """A result with caching hints (schema/2026-07-28/schema.json#/$defs/CacheableResult).

    Added in 2026-07-28 (docs/specification/2026-07-28/server/utilities/caching.mdx).
    """

    ttlMs: NonNegativeInt
    """Milliseconds the client MAY treat the result as fresh; 0 = stale at once."""
    cacheScope: CacheScope
    """``"public"``: shareable across users; ``"private"``: one authorization context."""


class DiscoverResult(CacheableResult):
    """Result of ``server/discover``.

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/DiscoverResult).
    """

    supportedVersions: tuple[str, ...]
    capabilities: ServerCapabilities
    instructions: str | None = None


class ListToolsResult(CacheableResult):
    """Result of ``tools/list`` (schema/2026-07-28/schema.json#/$defs/ListToolsResult)."""

    tools: tuple[Tool, ...]
    nextCursor: str | None = None


class CallToolResult(Result):
    """Result of ``tools/call`` (schema/2026-07-28/schema.json#/$defs/CallToolResult)."""

    content: tuple[ContentBlock, ...]
    structuredContent: Any = None
    """Any JSON value from 2026-07-28 (an object before)."""
    isError: bool | None = None


class ListResourcesResult(CacheableResult):
    """Result of ``resources/list`` (schema/2026-07-28/schema.json#/$defs/ListResourcesResult)."""

    resources: tuple[Resource, ...]
    nextCursor: str | None = None


class ReadResourceResult(CacheableResult):
    """Result of ``resources/read`` (schema/2026-07-28/schema.json#/$defs/ReadResourceResult)."""

    contents: tuple[ResourceContents, ...]


class ListPromptsResult(CacheableResult):
    """Result of ``prompts/list`` (schema/2026-07-28/schema.json#/$defs/ListPromptsResult)."""

    prompts: tuple[Prompt, ...]
    nextCursor: str | None = None


class InputRequiredResult(WireModel):
    """An interim result asking the client for input before a retry (no caching hints).

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/InputRequiredResult).
    The input requests (elicitation, sampling, roots) are kept as JSON objects.
    """

    resultType: Literal["input_required"]
    inputRequests: dict[str, Any] | None = None
    requestState: str | None = None
    meta: ResultMeta | None = Field(default=None, alias="_meta")


# Errors ------------------------------------------------------------------------------


class UnsupportedProtocolVersionData(WireModel):
    """``data`` of -32022: the versions the server supports and the one it got."""

    supported: tuple[str, ...]
    requested: str


class UnsupportedProtocolVersionError(ErrorObject):
    """-32022: the request's protocol version is not one the server implements (HTTP 400).

    Added in 2026-07-28. The schema definition of this name is the whole error
    response; this is its ``error`` member
    (schema/2026-07-28/schema.json#/$defs/UnsupportedProtocolVersionError).
    """

    code: Literal[-32022] = -32022
    data: UnsupportedProtocolVersionData


class MissingRequiredClientCapabilityData(WireModel):
    """``data`` of -32021: the client capabilities the request needs."""

    requiredCapabilities: ClientCapabilities


class MissingRequiredClientCapabilityError(ErrorObject):
    """-32021: the request needs a client capability it did not declare (HTTP 400).

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/MissingRequiredClientCapabilityError).
    """

    code: Literal[-32021] = -32021
    data: MissingRequiredClientCapabilityData


class HeaderMismatchError(ErrorObject):
    """-32020: HTTP headers missing, malformed or not matching the body (HTTP 400; no data).

    Added in 2026-07-28 (schema/2026-07-28/schema.json#/$defs/HeaderMismatchError).
    """

    code: Literal[-32020] = -32020


class ResourceNotFoundError(InvalidParamsError):
    """Resource not found: -32602 from 2026-07-28 (was -32002), ``data: {uri}``.

    Source: docs/specification/2026-07-28/server/resources.mdx §Error Handling.
    """

    data: ResourceNotFoundData | None = None


#: Typed error objects of 2026-07-28, by code. -32002 is kept because clients
#: SHOULD still accept it from older servers as "resource not found".
ERRORS: Final[Mapping[int, type[ErrorObject]]] = MappingProxyType(
    {
        -32700: ParseError,
        -32600: InvalidRequestError,
        -32601: MethodNotFoundError,
        -32602: InvalidParamsError,
        -32603: InternalError,
        -32020: HeaderMismatchError,
        -32021: MissingRequiredClientCapabilityError,
        -32022: UnsupportedProtocolVersionError,
        -32002: LegacyResourceNotFoundError,
    }
)

MODELS: Final = RevisionModels.collect(
    "2026-07-28",
    Era.MODERN,
    globals(),
    error_response=JSONRPCErrorResponse,
    content_blocks=MappingProxyType(
        {
            "text": TextContent,
            "image": ImageContent,
            "audio": AudioContent,
            "resource_link": ResourceLink,
            "resource": EmbeddedResource,
        }
    ),
    params=MappingProxyType(
        {
            "server/discover": RequestParams,
            "tools/list": PaginatedRequestParams,
            "tools/call": CallToolRequestParams,
            "resources/list": PaginatedRequestParams,
            "resources/read": ReadResourceRequestParams,
            "prompts/list": PaginatedRequestParams,
        }
    ),
    results=MappingProxyType(
        {
            "server/discover": DiscoverResult,
            "tools/list": ListToolsResult,
            "tools/call": CallToolResult,
            "resources/list": ListResourcesResult,
            "resources/read": ReadResourceResult,
            "prompts/list": ListPromptsResult,
        }
    ),
    errors=ERRORS,
    input_required_methods=frozenset({"tools/call", "resources/read", "prompts/get"}),
)

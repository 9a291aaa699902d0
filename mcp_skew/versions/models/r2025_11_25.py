"""Wire models of MCP 2025-11-25, the last legacy revision: changes since 2025-06-18.

Changes (docs/specification/2025-11-25/changelog.mdx), as far as these models go:

- ``icons`` on ``Implementation``, ``Tool``, ``Resource``/``ResourceLink`` and
  ``Prompt``; ``Implementation`` also gains ``description`` and ``websiteUrl``;
- experimental tasks: ``Tool.execution.taskSupport``, ``CallToolRequestParams.task``,
  the ``tasks`` client and server capabilities;
- ``sampling.context``/``sampling.tools`` and ``elicitation.form``/``elicitation.url``
  client capability options;
- error responses may omit ``id`` (``JSONRPCErrorResponse``);
- error -32042 ``URLElicitationRequiredError``.

Citations: ``schema/2025-11-25/schema.json#/$defs/<Name>``.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models import r2024_11_05 as _r2024
from mcp_skew.versions.models import r2025_06_18 as _previous
from mcp_skew.versions.models._base import WireModel
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    JSONRPCErrorResponse,
)
from mcp_skew.versions.models._namespace import RevisionModels
from mcp_skew.versions.models.r2025_06_18 import (
    LEGACY_ERRORS,
    Annotations,
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ListChangedCapability,
    ObjectSchema,
    PaginatedRequestParams,
    PromptArgument,
    ReadResourceRequestParams,
    ReadResourceResult,
    ResourceContents,
    ResourceNotFoundData,
    ResourceNotFoundError,
    ResourcesCapability,
    RootsCapability,
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
    "CallToolRequestParams",
    "CallToolResult",
    "ClientCapabilities",
    "ContentBlock",
    "ElicitationCapability",
    "EmbeddedResource",
    "Icon",
    "ImageContent",
    "Implementation",
    "InitializeRequestParams",
    "InitializeResult",
    "ListChangedCapability",
    "ListPromptsResult",
    "ListResourcesResult",
    "ListToolsResult",
    "ObjectSchema",
    "PaginatedRequestParams",
    "Prompt",
    "PromptArgument",
    "ReadResourceRequestParams",
    "ReadResourceResult",
    "Resource",
    "ResourceContents",
    "ResourceLink",
    "ResourceNotFoundData",
    "ResourceNotFoundError",
    "ResourcesCapability",
    "RootsCapability",
    "SamplingCapability",
    "ServerCapabilities",
    "TaskMetadata",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
    "ToolExecution",
    "URLElicitationRequiredData",
    "URLElicitationRequiredError",
]


class Icon(WireModel):
    """An icon a client may show (``src`` is a URL or a ``data:`` URI).

    Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Icon).
    """

    src: str
    mimeType: str | None = None
    sizes: tuple[str, ...] | None = None
    theme: Literal["light", "dark"] | None = None


# Identity and capabilities -----------------------------------------------------------


class Implementation(_previous.Implementation):
    """``clientInfo``/``serverInfo``, plus ``description``, ``icons``, ``websiteUrl``."""

    description: str | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Implementation)."""
    icons: tuple[Icon, ...] | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Implementation)."""
    websiteUrl: str | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Implementation)."""


class SamplingCapability(WireModel):
    """``ClientCapabilities.sampling`` with its options.

    Options added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/ClientCapabilities):
    ``context`` allows ``includeContext`` other than ``"none"``; ``tools`` allows
    tool use in sampling.
    """

    context: dict[str, Any] | None = None
    tools: dict[str, Any] | None = None


class ElicitationCapability(WireModel):
    """``ClientCapabilities.elicitation`` with its modes (``{}`` means form only).

    Options added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/ClientCapabilities).
    """

    form: dict[str, Any] | None = None
    url: dict[str, Any] | None = None


class ClientCapabilities(WireModel):
    """Client capabilities (schema/2025-11-25/schema.json#/$defs/ClientCapabilities)."""

    experimental: dict[str, dict[str, Any]] | None = None
    roots: RootsCapability | None = None
    sampling: SamplingCapability | None = None
    elicitation: ElicitationCapability | None = None
    tasks: dict[str, Any] | None = None
    """Added in 2025-11-25, removed in 2026-07-28 (tasks moved to an extension)
    (schema/2025-11-25/schema.json#/$defs/ClientCapabilities)."""


class ServerCapabilities(_previous.ServerCapabilities):
    """Server capabilities, plus ``tasks``."""

    tasks: dict[str, Any] | None = None
    """Added in 2025-11-25, removed in 2026-07-28 (tasks moved to an extension)
    (schema/2025-11-25/schema.json#/$defs/ServerCapabilities)."""


class InitializeRequestParams(WireModel):
    """``params`` of ``initialize`` with this revision's capabilities and identity.

    Source: schema/2025-11-25/schema.json#/$defs/InitializeRequestParams.
    """

    protocolVersion: str
    capabilities: ClientCapabilities
    clientInfo: Implementation
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class InitializeResult(_previous.InitializeResult):
    """Result of ``initialize`` with this revision's capabilities and identity."""

    capabilities: ServerCapabilities
    serverInfo: Implementation


# Primitives --------------------------------------------------------------------------


class ToolExecution(WireModel):
    """How a tool may be run as a task.

    Added in 2025-11-25, removed in 2026-07-28
    (schema/2025-11-25/schema.json#/$defs/ToolExecution).
    """

    taskSupport: Literal["forbidden", "optional", "required"] | None = None


class Tool(_previous.Tool):
    """A tool definition, plus ``icons`` and ``execution``."""

    icons: tuple[Icon, ...] | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Tool)."""
    execution: ToolExecution | None = None
    """Added in 2025-11-25, removed in 2026-07-28 (schema/2025-11-25/schema.json#/$defs/Tool)."""


class Resource(_previous.Resource):
    """A resource, plus ``icons``."""

    icons: tuple[Icon, ...] | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Resource)."""


class ResourceLink(Resource):
    """Content block ``resource_link``, plus ``icons``.

    Source: schema/2025-11-25/schema.json#/$defs/ResourceLink.
    """

    type: Literal["resource_link"] = "resource_link"


ContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource,
    Field(discriminator="type"),
]


class Prompt(_previous.Prompt):
    """A prompt template, plus ``icons``."""

    icons: tuple[Icon, ...] | None = None
    """Added in 2025-11-25 (schema/2025-11-25/schema.json#/$defs/Prompt)."""


# Request params ----------------------------------------------------------------------


class TaskMetadata(WireModel):
    """``task`` of a task-augmented request.

    Added in 2025-11-25, removed in 2026-07-28 (schema/2025-11-25/schema.json#/$defs/TaskMetadata).
    """

    ttl: int | None = None


class CallToolRequestParams(_r2024.CallToolRequestParams):
    """``params`` of ``tools/call``, plus ``task``."""

    task: TaskMetadata | None = None
    """Added in 2025-11-25, removed in 2026-07-28
    (schema/2025-11-25/schema.json#/$defs/CallToolRequestParams)."""


# Results -----------------------------------------------------------------------------


class ListToolsResult(_previous.ListToolsResult):
    """Result of ``tools/list`` with this revision's tools."""

    tools: tuple[Tool, ...]


class CallToolResult(WireModel):
    """Result of ``tools/call`` (schema/2025-11-25/schema.json#/$defs/CallToolResult)."""

    content: tuple[ContentBlock, ...]
    structuredContent: dict[str, Any] | None = None
    isError: bool | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListResourcesResult(_previous.ListResourcesResult):
    """Result of ``resources/list`` with this revision's resources."""

    resources: tuple[Resource, ...]


class ListPromptsResult(_previous.ListPromptsResult):
    """Result of ``prompts/list`` with this revision's prompts."""

    prompts: tuple[Prompt, ...]


# Errors ------------------------------------------------------------------------------


class URLElicitationRequiredData(WireModel):
    """``data`` of -32042: the URL-mode elicitations the client must complete first."""

    elicitations: tuple[dict[str, Any], ...]


class URLElicitationRequiredError(ErrorObject):
    """-32042: the request needs URL-mode elicitation first.

    Added in 2025-11-25, removed in 2026-07-28 (reserved, MUST NOT be emitted)
    (schema/2025-11-25/schema.json#/$defs/URLElicitationRequiredError).
    """

    code: Literal[-32042] = -32042
    data: URLElicitationRequiredData


#: Typed error objects of 2025-11-25, by code.
ERRORS: Final[Mapping[int, type[ErrorObject]]] = MappingProxyType(
    {**LEGACY_ERRORS, -32042: URLElicitationRequiredError}
)

MODELS: Final = RevisionModels.collect(
    "2025-11-25",
    Era.LEGACY,
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
            **_previous.MODELS.params,
            "initialize": InitializeRequestParams,
            "tools/call": CallToolRequestParams,
        }
    ),
    results=MappingProxyType(
        {
            **_previous.MODELS.results,
            "initialize": InitializeResult,
            "tools/list": ListToolsResult,
            "tools/call": CallToolResult,
            "resources/list": ListResourcesResult,
            "prompts/list": ListPromptsResult,
        }
    ),
    errors=ERRORS,
)

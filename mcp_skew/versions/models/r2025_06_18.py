"""Wire models of MCP 2025-06-18: what changed on the wire since 2025-03-26.

Changes (docs/specification/2025-06-18/changelog.mdx), as far as these models go:

- ``title`` (display name) on ``Implementation``, ``Tool``, ``Resource``,
  ``Prompt`` and ``PromptArgument`` (``BaseMetadata``);
- structured tool output: ``Tool.outputSchema`` and
  ``CallToolResult.structuredContent``;
- ``_meta`` on tools, resources, prompts, resource contents and content blocks;
- the ``resource_link`` content block (``ResourceLink``);
- ``Annotations.lastModified``;
- the ``elicitation`` client capability.

Citations: ``schema/2025-06-18/schema.json#/definitions/<Name>``.
"""

from types import MappingProxyType
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models import r2024_11_05 as _r2024
from mcp_skew.versions.models import r2025_03_26 as _previous
from mcp_skew.versions.models._base import WireModel
from mcp_skew.versions.models._jsonrpc import (
    JSONRPCError,
)
from mcp_skew.versions.models._namespace import RevisionModels
from mcp_skew.versions.models.r2025_03_26 import (
    LEGACY_ERRORS,
    CallToolRequestParams,
    ListChangedCapability,
    ObjectSchema,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ResourceNotFoundData,
    ResourceNotFoundError,
    ResourcesCapability,
    RootsCapability,
    ServerCapabilities,
    ToolAnnotations,
)

__all__ = [
    "LEGACY_ERRORS",
    "MODELS",
    "Annotations",
    "AudioContent",
    "BlobResourceContents",
    "CallToolRequestParams",
    "CallToolResult",
    "ClientCapabilities",
    "ContentBlock",
    "EmbeddedResource",
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
    "ServerCapabilities",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
]

# Identity and capabilities -----------------------------------------------------------


class Implementation(_r2024.Implementation):
    """``clientInfo``/``serverInfo``, plus a display ``title``."""

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Implementation)."""


class ClientCapabilities(_r2024.ClientCapabilities):
    """Client capabilities, plus ``elicitation``."""

    elicitation: dict[str, Any] | None = None
    """Added in 2025-06-18: the client answers ``elicitation/create``
    (schema/2025-06-18/schema.json#/definitions/ClientCapabilities)."""


class InitializeRequestParams(_r2024.InitializeRequestParams):
    """``params`` of ``initialize`` with this revision's capabilities and identity."""

    capabilities: ClientCapabilities
    clientInfo: Implementation


class InitializeResult(_previous.InitializeResult):
    """Result of ``initialize`` with this revision's identity."""

    serverInfo: Implementation


# Content -----------------------------------------------------------------------------


class Annotations(_r2024.Annotations):
    """Content annotations, plus ``lastModified``."""

    lastModified: str | None = None
    """Added in 2025-06-18: ISO 8601 time of last modification
    (schema/2025-06-18/schema.json#/definitions/Annotations)."""


class TextResourceContents(_r2024.TextResourceContents):
    """Text contents of a resource, plus ``_meta``."""

    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/TextResourceContents)."""


class BlobResourceContents(_r2024.BlobResourceContents):
    """Base64 contents of a resource, plus ``_meta``."""

    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/BlobResourceContents)."""


ResourceContents = TextResourceContents | BlobResourceContents


class TextContent(_r2024.TextContent):
    """Content block ``text``, plus ``_meta`` and the new annotations."""

    annotations: Annotations | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/TextContent)."""


class ImageContent(_r2024.ImageContent):
    """Content block ``image``, plus ``_meta`` and the new annotations."""

    annotations: Annotations | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/ImageContent)."""


class AudioContent(_previous.AudioContent):
    """Content block ``audio``, plus ``_meta`` and the new annotations."""

    annotations: Annotations | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/AudioContent)."""


class EmbeddedResource(_r2024.EmbeddedResource):
    """Content block ``resource``, plus ``_meta`` and the new annotations."""

    resource: ResourceContents
    annotations: Annotations | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/EmbeddedResource)."""


# Primitives --------------------------------------------------------------------------


class Resource(_r2024.Resource):
    """A resource, plus ``title`` and ``_meta``."""

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Resource)."""
    annotations: Annotations | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Resource)."""


class ResourceLink(Resource):
    """Content block ``{"type": "resource_link"}``: a resource by reference.

    Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/ResourceLink).
    """

    type: Literal["resource_link"] = "resource_link"


ContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource,
    Field(discriminator="type"),
]


class Tool(_previous.Tool):
    """A tool definition, plus ``title``, ``outputSchema`` and ``_meta``."""

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Tool)."""
    outputSchema: ObjectSchema | None = None
    """Added in 2025-06-18: schema of ``structuredContent`` (root ``type: "object"``)
    (schema/2025-06-18/schema.json#/definitions/Tool)."""
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Tool)."""


class PromptArgument(_r2024.PromptArgument):
    """A prompt argument, plus ``title``."""

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/PromptArgument)."""


class Prompt(_r2024.Prompt):
    """A prompt template, plus ``title`` and ``_meta``."""

    title: str | None = None
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Prompt)."""
    arguments: tuple[PromptArgument, ...] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")
    """Added in 2025-06-18 (schema/2025-06-18/schema.json#/definitions/Prompt)."""


# Results -----------------------------------------------------------------------------


class ListToolsResult(_previous.ListToolsResult):
    """Result of ``tools/list`` with this revision's tools."""

    tools: tuple[Tool, ...]


class CallToolResult(WireModel):
    """Result of ``tools/call``; adds ``resource_link`` content and ``structuredContent``."""

    content: tuple[ContentBlock, ...]
    structuredContent: dict[str, Any] | None = None
    """Added in 2025-06-18: a JSON object matching the tool's ``outputSchema``
    (schema/2025-06-18/schema.json#/definitions/CallToolResult)."""
    isError: bool | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ListResourcesResult(_r2024.ListResourcesResult):
    """Result of ``resources/list`` with this revision's resources."""

    resources: tuple[Resource, ...]


class ReadResourceResult(_r2024.ReadResourceResult):
    """Result of ``resources/read`` with this revision's contents."""

    contents: tuple[ResourceContents, ...]


class ListPromptsResult(_r2024.ListPromptsResult):
    """Result of ``prompts/list`` with this revision's prompts."""

    prompts: tuple[Prompt, ...]


MODELS: Final = RevisionModels.collect(
    "2025-06-18",
    Era.LEGACY,
    globals(),
    error_response=JSONRPCError,
    content_blocks=MappingProxyType(
        {
            "text": TextContent,
            "image": ImageContent,
            "audio": AudioContent,
            "resource_link": ResourceLink,
            "resource": EmbeddedResource,
        }
    ),
    params=MappingProxyType({**_previous.MODELS.params, "initialize": InitializeRequestParams}),
    results=MappingProxyType(
        {
            **_previous.MODELS.results,
            "initialize": InitializeResult,
            "tools/list": ListToolsResult,
            "tools/call": CallToolResult,
            "resources/list": ListResourcesResult,
            "resources/read": ReadResourceResult,
            "prompts/list": ListPromptsResult,
        }
    ),
    errors=LEGACY_ERRORS,
)

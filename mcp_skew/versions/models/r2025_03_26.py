"""Wire models of MCP 2025-03-26: what changed on the wire since 2024-11-05.

Changes (docs/specification/2025-03-26/changelog.mdx), as far as these models go:

- ``Tool.annotations`` (``ToolAnnotations``: behaviour hints) is added;
- the ``audio`` content block is added (``AudioContent``);
- the ``completions`` server capability is added;
- ``Annotated`` becomes the named ``Annotations`` type (same fields).

JSON-RPC batching, also new here, is not modelled (one message per model).
Unchanged models are re-exported from ``r2024_11_05``. Citations:
``schema/2025-03-26/schema.json#/definitions/<Name>``.
"""

from types import MappingProxyType
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models import r2024_11_05 as _previous
from mcp_skew.versions.models._base import WireModel
from mcp_skew.versions.models._jsonrpc import (
    JSONRPCError,
)
from mcp_skew.versions.models._namespace import RevisionModels
from mcp_skew.versions.models.r2024_11_05 import (
    LEGACY_ERRORS,
    Annotations,
    BlobResourceContents,
    CallToolRequestParams,
    ClientCapabilities,
    EmbeddedResource,
    ImageContent,
    Implementation,
    InitializeRequestParams,
    ListChangedCapability,
    ListPromptsResult,
    ListResourcesResult,
    ObjectSchema,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceContents,
    ResourceNotFoundData,
    ResourceNotFoundError,
    ResourcesCapability,
    RootsCapability,
    TextContent,
    TextResourceContents,
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


class ServerCapabilities(_previous.ServerCapabilities):
    """Server capabilities, plus ``completions``."""

    completions: dict[str, Any] | None = None
    """Added in 2025-03-26: the server offers argument autocompletion
    (schema/2025-03-26/schema.json#/definitions/ServerCapabilities)."""


class InitializeResult(_previous.InitializeResult):
    """Result of ``initialize`` with this revision's server capabilities."""

    capabilities: ServerCapabilities


class ToolAnnotations(WireModel):
    """Hints about a tool's behaviour; untrusted unless the server is trusted.

    Added in 2025-03-26 (schema/2025-03-26/schema.json#/definitions/ToolAnnotations).
    Defaults when absent: read-only false, destructive true, idempotent false,
    open-world true.
    """

    title: str | None = None
    readOnlyHint: bool | None = None
    destructiveHint: bool | None = None
    idempotentHint: bool | None = None
    openWorldHint: bool | None = None


class Tool(_previous.Tool):
    """A tool definition, plus ``annotations``."""

    annotations: ToolAnnotations | None = None
    """Added in 2025-03-26 (schema/2025-03-26/schema.json#/definitions/Tool)."""


class AudioContent(WireModel):
    """Content block ``{"type": "audio"}`` (base64 ``data``).

    Added in 2025-03-26 (schema/2025-03-26/schema.json#/definitions/AudioContent).
    """

    type: Literal["audio"] = "audio"
    data: str
    mimeType: str
    annotations: Annotations | None = None


ContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | EmbeddedResource, Field(discriminator="type")
]


class ListToolsResult(_previous.ListToolsResult):
    """Result of ``tools/list`` with this revision's tools."""

    tools: tuple[Tool, ...]


class CallToolResult(WireModel):
    """Result of ``tools/call``; ``content`` may now hold audio."""

    content: tuple[ContentBlock, ...]
    isError: bool | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


MODELS: Final = RevisionModels.collect(
    "2025-03-26",
    Era.LEGACY,
    globals(),
    error_response=JSONRPCError,
    content_blocks=MappingProxyType(
        {
            "text": TextContent,
            "image": ImageContent,
            "audio": AudioContent,
            "resource": EmbeddedResource,
        }
    ),
    params=_previous.MODELS.params,
    results=MappingProxyType(
        {
            **_previous.MODELS.results,
            "initialize": InitializeResult,
            "tools/list": ListToolsResult,
            "tools/call": CallToolResult,
        }
    ),
    errors=LEGACY_ERRORS,
)

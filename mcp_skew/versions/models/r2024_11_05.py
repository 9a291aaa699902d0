"""Wire models of MCP 2024-11-05, the first dated revision and the base of the legacy era.

The legacy era opens every session with ``initialize`` (client sends its
``protocolVersion``, ``capabilities`` and ``clientInfo``; the server answers with
its own and may counter-offer a version). Later legacy revisions derive their
models from these by adding fields. Every definition is cited as
``schema/2024-11-05/schema.json#/definitions/<Name>``. Content blocks here are
``text``, ``image`` and ``resource``; tools have only ``name``, ``description``
and ``inputSchema``.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from mcp_skew.versions._profile import Era
from mcp_skew.versions.models._base import OpenModel, Priority, Role, WireModel
from mcp_skew.versions.models._jsonrpc import (
    ErrorObject,
    InternalError,
    InvalidParamsError,
    InvalidRequestError,
    JSONRPCError,
    MethodNotFoundError,
    ParseError,
)
from mcp_skew.versions.models._namespace import RevisionModels

__all__ = [
    "LEGACY_ERRORS",
    "MODELS",
    "Annotations",
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
]

MetaMap = dict[str, Any]


# Identity and capabilities -----------------------------------------------------------


class Implementation(WireModel):
    """``clientInfo``/``serverInfo``: name and version of an implementation."""

    name: str
    version: str


class ListChangedCapability(WireModel):
    """A capability whose only option is ``listChanged`` (prompts, tools)."""

    listChanged: bool | None = None


class RootsCapability(WireModel):
    """``ClientCapabilities.roots``."""

    listChanged: bool | None = None


class ResourcesCapability(WireModel):
    """``ServerCapabilities.resources``."""

    subscribe: bool | None = None
    listChanged: bool | None = None


class ClientCapabilities(WireModel):
    """What the client supports (definitions/ClientCapabilities)."""

    experimental: dict[str, dict[str, Any]] | None = None
    roots: RootsCapability | None = None
    sampling: dict[str, Any] | None = None


class ServerCapabilities(WireModel):
    """What the server supports (definitions/ServerCapabilities)."""

    experimental: dict[str, dict[str, Any]] | None = None
    logging: dict[str, Any] | None = None
    prompts: ListChangedCapability | None = None
    resources: ResourcesCapability | None = None
    tools: ListChangedCapability | None = None


# The handshake -----------------------------------------------------------------------


class InitializeRequestParams(WireModel):
    """``params`` of ``initialize`` (definitions/InitializeRequest)."""

    protocolVersion: str
    capabilities: ClientCapabilities
    clientInfo: Implementation
    meta: MetaMap | None = Field(default=None, alias="_meta")


class InitializeResult(WireModel):
    """Result of ``initialize``; ``protocolVersion`` may be a counter-offer."""

    protocolVersion: str
    capabilities: ServerCapabilities
    serverInfo: Implementation
    instructions: str | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


# Content -----------------------------------------------------------------------------


class Annotations(WireModel):
    """``annotations`` of content and resources (inline ``Annotated`` in this revision)."""

    audience: tuple[Role, ...] | None = None
    priority: Priority | None = None


class TextResourceContents(WireModel):
    """Text contents of a resource (definitions/TextResourceContents)."""

    uri: str
    mimeType: str | None = None
    text: str


class BlobResourceContents(WireModel):
    """Base64 contents of a resource (definitions/BlobResourceContents)."""

    uri: str
    mimeType: str | None = None
    blob: str


ResourceContents = TextResourceContents | BlobResourceContents


class TextContent(WireModel):
    """Content block ``{"type": "text"}``."""

    type: Literal["text"] = "text"
    text: str
    annotations: Annotations | None = None


class ImageContent(WireModel):
    """Content block ``{"type": "image"}`` (base64 ``data``)."""

    type: Literal["image"] = "image"
    data: str
    mimeType: str
    annotations: Annotations | None = None


class EmbeddedResource(WireModel):
    """Content block ``{"type": "resource"}`` embedding resource contents."""

    type: Literal["resource"] = "resource"
    resource: ResourceContents
    annotations: Annotations | None = None


ContentBlock = Annotated[TextContent | ImageContent | EmbeddedResource, Field(discriminator="type")]


# Primitives --------------------------------------------------------------------------


class ObjectSchema(OpenModel):
    """A tool's JSON Schema; only ``type: "object"`` at the root is required.

    Open: every other JSON Schema keyword is kept as data, never reported.
    """

    type: Literal["object"] = "object"
    properties: dict[str, dict[str, Any]] | None = None
    required: tuple[str, ...] | None = None


class Tool(WireModel):
    """A tool definition (definitions/Tool)."""

    name: str
    description: str | None = None
    inputSchema: ObjectSchema


class Resource(WireModel):
    """A resource the server can read (definitions/Resource)."""

    uri: str
    name: str
    description: str | None = None
    mimeType: str | None = None
    size: int | None = None
    annotations: Annotations | None = None


class PromptArgument(WireModel):
    """An argument a prompt template accepts."""

    name: str
    description: str | None = None
    required: bool | None = None


class Prompt(WireModel):
    """A prompt template (definitions/Prompt)."""

    name: str
    description: str | None = None
    arguments: tuple[PromptArgument, ...] | None = None


# Request params ----------------------------------------------------------------------


class PaginatedRequestParams(WireModel):
    """``params`` of ``tools/list``, ``resources/list``, ``prompts/list``."""

    cursor: str | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


class CallToolRequestParams(WireModel):
    """``params`` of ``tools/call`` (definitions/CallToolRequest)."""

    name: str
    arguments: dict[str, Any] | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


class ReadResourceRequestParams(WireModel):
    """``params`` of ``resources/read`` (definitions/ReadResourceRequest)."""

    uri: str
    meta: MetaMap | None = Field(default=None, alias="_meta")


# Results -----------------------------------------------------------------------------


class ListToolsResult(WireModel):
    """Result of ``tools/list``."""

    tools: tuple[Tool, ...]
    nextCursor: str | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


class CallToolResult(WireModel):
    """Result of ``tools/call``; ``isError`` marks a tool execution error."""

    content: tuple[ContentBlock, ...]
    isError: bool | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


class ListResourcesResult(WireModel):
    """Result of ``resources/list``."""

    resources: tuple[Resource, ...]
    nextCursor: str | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


class ReadResourceResult(WireModel):
    """Result of ``resources/read``."""

    contents: tuple[ResourceContents, ...]
    meta: MetaMap | None = Field(default=None, alias="_meta")


class ListPromptsResult(WireModel):
    """Result of ``prompts/list``."""

    prompts: tuple[Prompt, ...]
    nextCursor: str | None = None
    meta: MetaMap | None = Field(default=None, alias="_meta")


# Errors ------------------------------------------------------------------------------


class ResourceNotFoundData(WireModel):
    """``data`` of a resource-not-found error: the URI that was asked for."""

    uri: str


class ResourceNotFoundError(ErrorObject):
    """-32002 "Resource not found" (SHOULD, 2024-11-05 to 2025-11-25).

    Not in any schema.json: defined in the prose of
    docs/specification/2024-11-05/server/resources.mdx §Error Handling, whose
    example carries ``data: {uri}`` (optional here: the example is not normative).
    Replaced by -32602 in 2026-07-28, where clients SHOULD still accept -32002.
    """

    code: Literal[-32002] = -32002
    data: ResourceNotFoundData | None = None


#: Typed error objects of the legacy era, by code.
LEGACY_ERRORS: Final[Mapping[int, type[ErrorObject]]] = MappingProxyType(
    {
        -32700: ParseError,
        -32600: InvalidRequestError,
        -32601: MethodNotFoundError,
        -32602: InvalidParamsError,
        -32603: InternalError,
        -32002: ResourceNotFoundError,
    }
)

MODELS: Final = RevisionModels.collect(
    "2024-11-05",
    Era.LEGACY,
    globals(),
    error_response=JSONRPCError,
    content_blocks=MappingProxyType(
        {"text": TextContent, "image": ImageContent, "resource": EmbeddedResource}
    ),
    params=MappingProxyType(
        {
            "initialize": InitializeRequestParams,
            "tools/list": PaginatedRequestParams,
            "tools/call": CallToolRequestParams,
            "resources/list": PaginatedRequestParams,
            "resources/read": ReadResourceRequestParams,
            "prompts/list": PaginatedRequestParams,
        }
    ),
    results=MappingProxyType(
        {
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

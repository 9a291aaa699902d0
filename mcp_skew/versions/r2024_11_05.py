"""MCP revision 2024-11-05: the base profile, written out in full.

The first published revision has no changelog page; every later revision is a
checked delta over this table. Sources: ``schema/2024-11-05/schema.json`` (the
``ClientRequest``, ``ServerRequest``, ``ClientNotification`` and
``ServerNotification`` unions, ``ClientCapabilities``, ``ServerCapabilities``,
``Tool``, ``CallToolResult``) and ``docs/specification/2024-11-05/`` (lifecycle,
transports, server/resources).
"""

from __future__ import annotations

from typing import Final

from ._profile import Direction, Era, ErrorCode, Kind, Method, Profile, create

__all__ = ["NOTE", "PROFILE", "REQ"]

C2S, S2C, BOTH = Direction.C2S, Direction.S2C, Direction.BOTH


def REQ(direction: Direction, capability: str | None = None) -> Method:
    """A request method (table shorthand)."""
    return Method(Kind.REQUEST, direction, capability)


def NOTE(direction: Direction, capability: str | None = None) -> Method:
    """A notification (table shorthand)."""
    return Method(Kind.NOTIFICATION, direction, capability)


PROFILE: Final[Profile] = create(
    revision="2024-11-05",
    title="The first dated revision: initialize handshake, stdio and HTTP+SSE",
    tables={
        # schema.json#/definitions/ClientRequest, ServerRequest, *Notification
        "methods": {
            # Lifecycle (basic/lifecycle.mdx)
            "initialize": REQ(C2S),
            "notifications/initialized": NOTE(C2S),
            "ping": REQ(BOTH),
            # Utilities (basic/utilities/*.mdx)
            "notifications/cancelled": NOTE(BOTH),
            "notifications/progress": NOTE(BOTH),
            "logging/setLevel": REQ(C2S, "logging"),
            "notifications/message": NOTE(S2C, "logging"),
            "completion/complete": REQ(C2S),
            # Server features (server/*.mdx)
            "tools/list": REQ(C2S, "tools"),
            "tools/call": REQ(C2S, "tools"),
            "notifications/tools/list_changed": NOTE(S2C, "tools.listChanged"),
            "prompts/list": REQ(C2S, "prompts"),
            "prompts/get": REQ(C2S, "prompts"),
            "notifications/prompts/list_changed": NOTE(S2C, "prompts.listChanged"),
            "resources/list": REQ(C2S, "resources"),
            "resources/read": REQ(C2S, "resources"),
            "resources/templates/list": REQ(C2S, "resources"),
            "resources/subscribe": REQ(C2S, "resources.subscribe"),
            "resources/unsubscribe": REQ(C2S, "resources.subscribe"),
            "notifications/resources/list_changed": NOTE(S2C, "resources.listChanged"),
            "notifications/resources/updated": NOTE(S2C, "resources.subscribe"),
            # Client features (client/*.mdx)
            "roots/list": REQ(S2C, "roots"),
            "notifications/roots/list_changed": NOTE(C2S, "roots.listChanged"),
            "sampling/createMessage": REQ(S2C, "sampling"),
        },
        # schema.json#/definitions/ClientCapabilities, ServerCapabilities
        "client_capabilities": ["experimental", "roots", "roots.listChanged", "sampling"],
        "server_capabilities": [
            "experimental", "logging", "prompts", "prompts.listChanged", "resources",
            "resources.listChanged", "resources.subscribe", "tools", "tools.listChanged",
        ],
        # schema.json#/definitions/CallToolResult (content), SamplingMessage (content)
        "content_types": ["text", "image", "resource"],
        "sampling_content_types": ["text", "image"],
        # schema.json#/definitions/Tool, CallToolResult
        "tool_fields": ["name", "description", "inputSchema"],
        "call_tool_result_fields": ["content", "isError", "_meta"],
        # schema.json#/definitions/Request (params._meta.progressToken)
        "request_meta_required": [],
        "request_meta_optional": ["progressToken"],
        "result_meta_optional": [],
        "result_fields_required": [],
        "cacheable_results": [],
        "cache_fields": [],
        # basic/transports.mdx: HTTP with SSE has no MCP-specific headers
        "http_headers": [],
        "modern_error_codes": [],
        "unbatched_methods": [],  # no batches in 2024-11-05
        # basic/messages.mdx (JSON-RPC codes); server/resources.mdx §Error Handling (-32002)
        "errors": {
            "ParseError": ErrorCode(-32700, "Parse error"),
            "InvalidRequest": ErrorCode(-32600, "Invalid request"),
            "MethodNotFound": ErrorCode(-32601, "Method not found"),
            "InvalidParams": ErrorCode(-32602, "Invalid params"),
            "InternalError": ErrorCode(-32603, "Internal error"),
            "ResourceNotFound": ErrorCode(
                -32002, "Resource not found", ("uri",),
                note="server/resources.mdx §Error Handling: SHOULD for an unknown resource",
            ),
        },
        "deprecations": {},
        # no caching hints, so no result cache to invalidate (2026-07-28 adds both)
        "cache_invalidations": {},
        "auth": {},  # no authorization in 2024-11-05
        "features": [
            "tools", "resources", "prompts", "completion", "logging", "roots", "sampling",
            "resource-subscriptions", "progress", "cancellation", "ping", "http+sse",
            "initialize-handshake", "image-content", "embedded-resources",
        ],
    },
    settings={
        "era": Era.LEGACY,
        "batching": False,
        "http_transport": "http+sse",
        "sessions": False,
        "version_header_absent": None,
        "stdio_framing": "newline-delimited JSON-RPC; no embedded newlines; stderr for logs",
        "resource_not_found": "ResourceNotFound",
        "tool_input_errors": "protocol error",
        "tool_schema_dialect": None,  # the revision names no dialect for tool schemas
        "structured_content": None,  # no structured tool output (2025-06-18 adds it)
    },
)

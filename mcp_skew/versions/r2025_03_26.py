"""MCP revision 2025-03-26: changes from 2024-11-05.

Changelog: ``docs/specification/2025-03-26/changelog.mdx``. No method was added
or removed (the four method unions of ``schema/2025-03-26/schema.json`` equal
those of 2024-11-05); the changes are transport, batching, content and flags.
"""

from __future__ import annotations

from typing import Final

from . import _auth
from . import r2024_11_05 as _previous
from ._profile import Binding, Change, Cite, Deprecation, Impact, Obligation, Profile

__all__ = ["PROFILE"]

REV = "2025-03-26"

PROFILE: Final[Profile] = _previous.PROFILE.evolve(
    revision=REV,
    title="Streamable HTTP, batching, tool annotations, audio",
    changes=(
        Change(
            id="streamable-http",
            summary="Streamable HTTP replaces HTTP+SSE: one MCP endpoint for POST and GET, "
            "with optional sessions in the Mcp-Session-Id header",
            cite=Cite(REV, "basic/transports.mdx", "Streamable HTTP"),
            impact=Impact.BREAKING,
            transport="http",
            add={"http_headers": ["Mcp-Session-Id"], "features": ["streamable-http", "sessions"]},
            settings={"http_transport": "streamable-http", "sessions": True},
            steps=(
                "Servers: serve POST and GET on one endpoint; answer a POST with JSON or an "
                "SSE stream.",
                "Servers that keep old clients: keep the HTTP+SSE endpoints as well "
                "(basic/transports.mdx §Backwards Compatibility).",
                "Clients: POST every message to the one MCP endpoint with Accept listing "
                "application/json and text/event-stream; echo Mcp-Session-Id when the server "
                "assigns one.",
                "Clients that keep old servers: on a 4xx to the first POST, fall back to the "
                "HTTP+SSE GET and expect an endpoint event.",
            ),
        ),
        Change(
            id="http-sse-deprecated",
            summary="The HTTP+SSE transport of 2024-11-05 is deprecated",
            cite=Cite(REV, "basic/transports.mdx", "Backwards Compatibility"),
            impact=Impact.DEPRECATION,
            transport="http",
            add={
                "deprecations": {
                    "HTTP+SSE transport": Deprecation(
                        since=REV,
                        removal="not scheduled in 2025-03-26",
                        migration="Streamable HTTP",
                        cite=Cite(REV, "basic/transports.mdx", "Backwards Compatibility"),
                    )
                }
            },
        ),
        Change(
            id="jsonrpc-batching",
            summary="JSON-RPC batches: peers MAY send them and MUST support receiving them",
            cite=Cite(REV, "basic/index.mdx", "Batching"),
            impact=Impact.ADDITIVE,
            add={"features": ["jsonrpc-batching"]},
            settings={"batching": True},
            steps=("Servers and clients: accept a JSON array of requests and answer with an array.",),
            severity={
                role: Binding(Obligation.MUST, "MCP implementations MAY support sending "
                                 "JSON-RPC batches, but MUST support receiving JSON-RPC batches")
                for role in ("server", "client")
            },
        ),
        Change(
            id="initialize-not-batched",
            summary="The initialize request MUST NOT be part of a JSON-RPC batch",
            cite=Cite(REV, "basic/lifecycle.mdx", "Initialization"),
            impact=Impact.BEHAVIOUR,
            add={"unbatched_methods": ["initialize"]},
            steps=("Clients: send initialize alone; batch only once initialization has "
                   "completed.",),
            severity={"client": Binding(Obligation.MUST, "The initialize request MUST NOT "
                                        "be part of a JSON-RPC batch"),
                      "server": Binding(Obligation.NONE)},  # the client's rule to keep
        ),
        Change(
            id="tool-annotations",
            summary="Tools gain annotations (readOnlyHint, destructiveHint, idempotentHint, "
            "openWorldHint, title)",
            cite=Cite(REV, "schema.json#/definitions/ToolAnnotations"),
            impact=Impact.ADDITIVE,
            add={"tool_fields": ["annotations"], "features": ["tool-annotations"]},
        ),
        Change(
            id="audio-content",
            summary="Audio content blocks in tool results, prompts and sampling",
            cite=Cite(REV, "schema.json#/definitions/AudioContent"),
            impact=Impact.ADDITIVE,
            add={
                "content_types": ["audio"],
                "sampling_content_types": ["audio"],
                "features": ["audio-content"],
            },
            steps=(
                "Servers: clients of 2024-11-05 do not know the audio block; send it only to "
                "2025-03-26+.",
            ),
        ),
        Change(
            id="completions-capability",
            summary="Servers declare the completions capability before offering completion/complete",
            cite=Cite(REV, "schema.json#/definitions/ServerCapabilities"),
            impact=Impact.BEHAVIOUR,
            add={"server_capabilities": ["completions"]},
            replace={"methods": {"completion/complete": _previous.REQ(_previous.C2S, "completions")}},
            steps=(
                "Servers: declare `completions: {}` in the server capabilities if you answer "
                "completion/complete.",
                "Clients: send completion/complete only to servers that declared `completions`.",
            ),
        ),
        Change(
            id="progress-message",
            summary="Progress notifications carry an optional human-readable message",
            cite=Cite(REV, "schema.json#/definitions/ProgressNotification"),
            impact=Impact.ADDITIVE,
            add={"features": ["progress-messages"]},
        ),
        Change(
            id="oauth-authorization",
            summary="An authorization framework based on OAuth 2.1 for HTTP transports",
            cite=Cite(REV, "basic/authorization.mdx"),
            impact=Impact.ADDITIVE,
            transport="http",
            add={"features": ["oauth-authorization"]},
        ),
        *_auth.changes(REV),  # the authorization rules (``_auth``)
    ),
)

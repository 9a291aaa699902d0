"""MCP revision 2025-06-18: changes from 2025-03-26.

Changelog: ``docs/specification/2025-06-18/changelog.mdx``. The only method
added is the server-to-client request ``elicitation/create``
(``schema/2025-06-18/schema.json#/definitions/ServerRequest``).
"""

from __future__ import annotations

from typing import Final

from . import _auth
from . import r2025_03_26 as _previous
from ._profile import Binding, Change, Cite, Impact, Obligation, Profile
from .r2024_11_05 import REQ, S2C

__all__ = ["PROFILE"]

REV = "2025-06-18"

PROFILE: Final[Profile] = _previous.PROFILE.evolve(
    revision=REV,
    title="Structured tool output, elicitation, resource links; batching removed",
    changes=(
        Change(
            id="batching-removed",
            summary="JSON-RPC batching is removed",
            cite=Cite(REV, "changelog.mdx", "Major changes, item 1"),
            impact=Impact.BREAKING,
            remove={"features": ["jsonrpc-batching"], "unbatched_methods": ["initialize"]},
            settings={"batching": False},
            steps=("Send one message per line (stdio) or per POST; stop sending arrays.",),
        ),
        Change(
            id="structured-tool-output",
            summary="Tools may declare an outputSchema; results may carry structuredContent",
            cite=Cite(REV, "server/tools.mdx", "Structured Content"),
            impact=Impact.ADDITIVE,
            add={
                "tool_fields": ["outputSchema"],
                "call_tool_result_fields": ["structuredContent"],
                "features": ["structured-tool-output"],
            },
            # schema.json CallToolResult.structuredContent: {"type": "object"}; Tool.outputSchema
            # is an object schema with "type": "object" at its root
            settings={"structured_content": "object"},
            steps=(
                "Servers: with an outputSchema, return structuredContent that conforms to it.",
                "Servers: also return the serialised JSON as a text block for older clients.",
                "Clients: validate structuredContent against the tool's outputSchema.",
            ),
            severity={
                "server": Binding(Obligation.MUST, "Servers MUST provide structured "
                                     "results that conform to this schema"),
                "client": Binding(Obligation.SHOULD, "Clients SHOULD validate structured "
                                     "results against this schema"),
            },
        ),
        Change(
            id="elicitation",
            summary="Servers may ask the user for input with elicitation/create "
            "(client capability elicitation)",
            cite=Cite(REV, "client/elicitation.mdx"),
            impact=Impact.ADDITIVE,
            add={
                "methods": {"elicitation/create": REQ(S2C, "elicitation")},
                "client_capabilities": ["elicitation"],
                "features": ["elicitation"],
            },
            steps=("Servers: send elicitation/create only to clients that declared `elicitation`.",),
        ),
        Change(
            id="resource-link-content",
            summary="Tool results and prompts may return resource_link content blocks",
            cite=Cite(REV, "schema.json#/definitions/ResourceLink"),
            impact=Impact.ADDITIVE,
            add={"content_types": ["resource_link"], "features": ["resource-links"]},
        ),
        Change(
            id="protocol-version-header",
            summary="On HTTP, the client sends MCP-Protocol-Version on every request after "
            "initialize; a server that sees none SHOULD assume 2025-03-26",
            cite=Cite(REV, "basic/transports.mdx", "Protocol Version Header"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            add={"http_headers": ["MCP-Protocol-Version"]},
            settings={"version_header_absent": "2025-03-26"},
            steps=(
                "Clients: send `MCP-Protocol-Version: <negotiated>` on every HTTP request.",
                "Servers: answer 400 to an invalid or unsupported header value.",
            ),
            severity={
                "client": Binding(Obligation.MUST, "the client MUST include the "
                                     "MCP-Protocol-Version: <protocol-version> HTTP header on all "
                                     "subsequent requests"),
                "server": Binding(Obligation.MUST, "If the server receives a request with "
                                     "an invalid or unsupported MCP-Protocol-Version, it MUST "
                                     "respond with 400 Bad Request"),
            },
        ),
        Change(
            id="meta-fields",
            summary="_meta is allowed on more types, with reserved key-name rules",
            cite=Cite(REV, "basic/index.mdx", "General fields"),
            impact=Impact.ADDITIVE,
            add={"tool_fields": ["_meta"]},
        ),
        Change(
            id="title-fields",
            summary="Human-friendly title fields on tools, prompts, resources and Implementation",
            cite=Cite(REV, "schema.json#/definitions/BaseMetadata"),
            impact=Impact.ADDITIVE,
            add={"tool_fields": ["title"], "features": ["titles"]},
        ),
        Change(
            id="lifecycle-must",
            summary="Respecting the negotiated version and capabilities goes from SHOULD to MUST",
            cite=Cite(REV, "changelog.mdx", "Other schema changes"),
            impact=Impact.CLARIFICATION,
            steps=(
                "Servers: use only the capabilities the client declared in initialize, and speak "
                "only the negotiated revision.",
                "Clients: use only the capabilities the server declared in its initialize result, "
                "and speak only the negotiated revision.",
            ),
            severity={
                role: Binding(Obligation.MUST, "Both parties MUST: Respect the negotiated "
                                 "protocol version; Only use capabilities that were successfully "
                                 "negotiated", Cite(REV, "basic/lifecycle.mdx", "Operation"))
                for role in ("server", "client")
            },
        ),
        Change(
            id="completion-context",
            summary="completion/complete gains context.arguments (previously resolved variables)",
            cite=Cite(REV, "schema.json#/definitions/CompleteRequest"),
            impact=Impact.ADDITIVE,
            add={"features": ["completion-context"]},
        ),
        Change(
            id="oauth-resource-server",
            summary="MCP servers are OAuth resource servers; clients send resource indicators "
            "(RFC 8707)",
            cite=Cite(REV, "basic/authorization.mdx"),
            impact=Impact.BREAKING,
            transport="http",
            steps=(
                "HTTP clients with authorization: send the `resource` parameter (RFC 8707).",
                "Servers with authorization: accept only access tokens issued for you as the "
                "audience (RFC 8707), as an OAuth resource server.",
            ),
        ),
        *_auth.changes(REV),  # the authorization rules (``_auth``)
    ),
)

"""MCP revision 2026-07-28: changes from 2025-11-25. The modern era begins.

Changelog: ``docs/specification/2026-07-28/changelog.mdx``. The handshake is gone:
every request carries its version and the client's capabilities in
``params._meta`` (``basic/index.mdx`` §_meta), servers answer ``server/discover``
and reject an unknown version with -32022 (``basic/versioning.mdx``). The method
unions of ``schema/2026-07-28/schema.json`` lose ``initialize``, ``ping``,
``logging/setLevel``, ``resources/(un)subscribe``, the ``tasks/*`` requests and
every server-to-client request (now embedded input requests, MRTR).
"""

from __future__ import annotations

from typing import Final

from . import r2025_11_25 as _previous
from ._profile import Change, Deprecation, Era, ErrorCode, Impact, Profile
from ._profile import Cite as C
from .r2024_11_05 import C2S, NOTE, REQ, S2C

__all__ = ["PROFILE"]

REV = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
REMOVAL_WINDOW = "the first revision released on or after 2027-07-28"
_DEPRECATED = C(REV, "deprecated.mdx")

PROFILE: Final[Profile] = _previous.PROFILE.evolve(
    revision=REV,
    title="Stateless: no handshake, per-request _meta, server/discover, caching hints",
    changes=(
        # -- Version and capabilities per request -----------------------------
        Change(
            id="handshake-removed",
            summary="initialize and notifications/initialized are removed: every request carries "
            f"{VERSION_KEY} and {CAPS_KEY} in params._meta (a missing one is -32602)",
            cite=C(REV, "basic/index.mdx", "_meta"),
            impact=Impact.BREAKING,
            remove={
                "methods": ["initialize", "notifications/initialized"],
                "features": ["initialize-handshake"],
            },
            add={
                "request_meta_required": [VERSION_KEY, CAPS_KEY],
                "request_meta_optional": [INFO_KEY],
                "features": ["stateless"],
            },
            settings={"era": Era.MODERN},
            steps=(
                "Servers: read the version and client capabilities from each request's _meta; "
                "reject a request without them with -32602.",
                "Servers: never infer capabilities from earlier requests.",
                "Clients: send both keys (and clientInfo) on every request.",
                "Serving old clients too: keep answering initialize (a dual-era server).",
            ),
        ),
        Change(
            id="server-discover",
            summary="server/discover (servers MUST implement it) returns supportedVersions, "
            "capabilities and instructions",
            cite=C(REV, "server/discover.mdx"),
            impact=Impact.BREAKING,
            add={"methods": {"server/discover": REQ(C2S)}, "features": ["server-discover"]},
            steps=(
                "Answer server/discover with supportedVersions, capabilities, resultType, "
                "ttlMs and cacheScope.",
            ),
        ),
        Change(
            id="unsupported-protocol-version-error",
            summary="A request whose version the server does not serve gets -32022 "
            "UnsupportedProtocolVersion with data.supported and data.requested (HTTP 400); "
            "there is no counter-offer",
            cite=C(REV, "basic/versioning.mdx"),
            impact=Impact.BREAKING,
            add={
                "errors": {
                    "UnsupportedProtocolVersion": ErrorCode(
                        -32022, "Unsupported protocol version", ("supported", "requested")
                    )
                },
                "modern_error_codes": ["UnsupportedProtocolVersion"],
            },
            steps=(
                "Servers: answer an unknown version with -32022 listing data.supported.",
                "Clients: on -32022, retry with a version from data.supported.",
            ),
        ),
        Change(
            id="missing-client-capability-error",
            summary="A request that needs an undeclared client capability gets -32021 "
            "MissingRequiredClientCapability with data.requiredCapabilities",
            cite=C(REV, "basic/index.mdx", "_meta"),
            impact=Impact.ADDITIVE,
            add={
                "errors": {
                    "MissingRequiredClientCapability": ErrorCode(
                        -32021, "Missing required client capability", ("requiredCapabilities",)
                    )
                },
                "modern_error_codes": ["MissingRequiredClientCapability"],
            },
        ),
        Change(
            id="error-code-ranges",
            summary="-32000..-32019 is implementation-defined (only -32002 keeps a meaning); "
            "-32020..-32099 is reserved for the spec",
            cite=C(REV, "basic/index.mdx", "Error Codes"),
            impact=Impact.CLARIFICATION,
        ),
        Change(
            id="server-info-in-results",
            summary=f"Server identity travels in each result's _meta[{SERVER_INFO_KEY}]",
            cite=C(REV, "basic/index.mdx", "_meta"),
            impact=Impact.ADDITIVE,
            add={"result_meta_optional": [SERVER_INFO_KEY]},
        ),
        # -- Results -----------------------------------------------------------
        Change(
            id="result-type",
            summary='Every result carries resultType ("complete" or "input_required"); a client '
            'treats a missing one as "complete" and rejects unknown values',
            cite=C(REV, "basic/index.mdx", "Result Type"),
            impact=Impact.BREAKING,
            add={
                "result_fields_required": ["resultType"],
                "call_tool_result_fields": ["resultType"],
                "features": ["result-type"],
            },
            steps=('Add resultType: "complete" to every result you send.',),
        ),
        Change(
            id="caching-hints",
            summary="server/discover, the list methods and resources/read carry ttlMs and "
            "cacheScope (CacheableResult)",
            cite=C(REV, "server/utilities/caching.mdx"),
            impact=Impact.BREAKING,
            add={
                "cacheable_results": [
                    "server/discover", "tools/list", "prompts/list", "resources/list",
                    "resources/templates/list", "resources/read",
                ],
                "cache_fields": ["ttlMs", "cacheScope"],
                "features": ["caching-hints"],
            },
            steps=(
                'Add ttlMs (>= 0) and cacheScope ("public" or "private") to discover, list and '
                "read results; use the same cacheScope on every page of a list.",
            ),
        ),
        Change(
            id="resource-not-found-32602",
            summary="An unknown resource is -32602 (MUST); -32002 MUST NOT be sent, and clients "
            "SHOULD still accept it from older servers",
            cite=C(REV, "server/resources.mdx", "Error Handling"),
            impact=Impact.BREAKING,
            replace={
                "errors": {
                    "ResourceNotFound": ErrorCode(
                        -32002, "Resource not found", ("uri",),
                        note="legacy only: servers MUST NOT send it; clients SHOULD accept it",
                    )
                }
            },
            settings={"resource_not_found": "InvalidParams"},
            steps=(
                "Servers: answer resources/read of an unknown URI with -32602, not -32002, "
                "and never with empty contents.",
                "Clients: treat both -32602 and -32002 as 'not found'.",
            ),
        ),
        # -- Methods removed or replaced ---------------------------------------
        Change(
            id="ping-removed",
            summary="ping is removed in both directions",
            cite=C(REV, "changelog.mdx", "Major changes"),
            impact=Impact.BREAKING,
            remove={"methods": ["ping"], "features": ["ping"]},
            steps=("Stop sending ping; use the transport's own liveness checks.",),
        ),
        Change(
            id="logging-level-per-request",
            summary=f"logging/setLevel is removed: the level travels per request in "
            f"_meta[{LOG_KEY}], and log messages flow only on that request's response stream",
            cite=C(REV, "server/utilities/logging.mdx"),
            impact=Impact.BREAKING,
            remove={"methods": ["logging/setLevel"]},
            add={"request_meta_optional": [LOG_KEY]},
        ),
        Change(
            id="subscriptions-listen",
            summary="subscriptions/listen replaces resources/subscribe, resources/unsubscribe and "
            "the standalone GET stream; its first message is notifications/subscriptions/"
            "acknowledged",
            cite=C(REV, "basic/patterns/subscriptions.mdx"),
            impact=Impact.BREAKING,
            remove={"methods": ["resources/subscribe", "resources/unsubscribe"]},
            add={
                "methods": {
                    "subscriptions/listen": REQ(C2S),
                    "notifications/subscriptions/acknowledged": NOTE(S2C),
                },
                "features": ["subscriptions-listen"],
            },
        ),
        Change(
            id="mrtr-input-requests",
            summary="Server-to-client requests are gone: tools/call, prompts/get and "
            "resources/read may return InputRequiredResult with embedded elicitation, "
            "sampling and roots requests, and the client retries with inputResponses",
            cite=C(REV, "basic/patterns/mrtr.mdx"),
            impact=Impact.BREAKING,
            remove={"methods": ["sampling/createMessage", "roots/list", "elicitation/create"]},
            add={"features": ["mrtr"]},
        ),
        Change(
            id="roots-list-changed-removed",
            summary="notifications/roots/list_changed and roots.listChanged are removed",
            cite=C(REV, "schema.json#/$defs/ClientCapabilities"),
            impact=Impact.BREAKING,
            remove={
                "methods": ["notifications/roots/list_changed"],
                "client_capabilities": ["roots.listChanged"],
            },
        ),
        Change(
            id="tasks-moved-to-extension",
            summary="Tasks leave the core for the io.modelcontextprotocol/tasks extension: the "
            "tasks/* methods, notifications/tasks/status, Tool.execution and the tasks "
            "capabilities are gone",
            cite=C(REV, "changelog.mdx", "Major changes, item 6"),
            impact=Impact.BREAKING,
            remove={
                "methods": [
                    "tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
                    "notifications/tasks/status",
                ],
                "client_capabilities": list(_previous.TASK_CAPS_CLIENT),
                "server_capabilities": list(_previous.TASK_CAPS_SERVER),
                "tool_fields": ["execution"],
                "features": ["tasks"],
            },
        ),
        Change(
            id="url-elicitation-complete-removed",
            summary="notifications/elicitation/complete and error -32042 are removed; the client "
            "learns the outcome by retrying",
            cite=C(REV, "changelog.mdx", "Minor changes, item 11"),
            impact=Impact.BREAKING,
            remove={
                "methods": ["notifications/elicitation/complete"],
                "errors": ["URLElicitationRequired"],
            },
        ),
        Change(
            id="progress-server-only",
            summary="Progress notifications flow server to client only, scoped to a request",
            cite=C(REV, "basic/patterns/progress.mdx"),
            impact=Impact.BEHAVIOUR,
            replace={"methods": {"notifications/progress": NOTE(S2C)}},
        ),
        Change(
            id="extensions-capability",
            summary="Both capability objects gain extensions (a map of extension id to settings)",
            cite=C(REV, "basic/versioning.mdx", "Extension Negotiation"),
            impact=Impact.ADDITIVE,
            add={
                "client_capabilities": ["extensions"],
                "server_capabilities": ["extensions"],
                "features": ["extensions"],
            },
        ),
        # -- Transport -----------------------------------------------------------
        Change(
            id="sessions-removed",
            summary="Streamable HTTP has no sessions (Mcp-Session-Id) and no GET stream: POST only; "
            "GET and DELETE get 405",
            cite=C(REV, "basic/transports/streamable-http.mdx"),
            impact=Impact.BREAKING,
            remove={"http_headers": ["Mcp-Session-Id"], "features": ["sessions"]},
            settings={"sessions": False, "http_transport": "streamable-http (POST only)"},
        ),
        Change(
            id="method-name-headers",
            summary="HTTP requests carry Mcp-Method, and Mcp-Name for tools/call, resources/read "
            "and prompts/get; a mismatch with the body is -32020 HeaderMismatch (HTTP 400)",
            cite=C(REV, "basic/transports/streamable-http.mdx", "Server Validation"),
            impact=Impact.BREAKING,
            add={
                "http_headers": ["Mcp-Method", "Mcp-Name"],
                "errors": {"HeaderMismatch": ErrorCode(-32020, "Header mismatch")},
                "modern_error_codes": ["HeaderMismatch"],
            },
        ),
        Change(
            id="protocol-version-header-required",
            summary="MCP-Protocol-Version is required on every POST and must equal the _meta "
            "version; when absent a server MAY assume 2025-03-26 only if it serves such clients",
            cite=C(REV, "basic/transports/streamable-http.mdx", "Protocol Version Header"),
            impact=Impact.BREAKING,
            settings={"version_header_absent": "reject (400), or 2025-03-26 for dual-era servers"},
        ),
        Change(
            id="resumability-removed",
            summary="SSE resumability is removed: Last-Event-ID is ignored; a broken stream loses "
            "the request and the client reissues it with a new id",
            cite=C(REV, "changelog.mdx", "Major changes, item 9"),
            impact=Impact.BREAKING,
        ),
        Change(
            id="cancellation-by-disconnect",
            summary="On HTTP, closing the response stream is cancellation; notifications/"
            "cancelled is only for stdio",
            cite=C(REV, "basic/patterns/cancellation.mdx"),
            impact=Impact.BEHAVIOUR,
        ),
        Change(
            id="json-schema-any-keyword",
            summary="inputSchema and outputSchema accept any JSON Schema 2020-12 keyword; "
            "structuredContent may be any JSON value",
            cite=C(REV, "basic/index.mdx", "JSON Schema Usage"),
            impact=Impact.BEHAVIOUR,
        ),
        # -- Deprecations ---------------------------------------------------------
        Change(
            id="roots-sampling-logging-deprecated",
            summary="Roots, Sampling and Logging are deprecated (SEP-2577); they still work",
            cite=_DEPRECATED,
            impact=Impact.DEPRECATION,
            add={
                "deprecations": {
                    "Roots": Deprecation(REV, REMOVAL_WINDOW,
                                         "pass directories via tool params, URIs or config",
                                         _DEPRECATED),
                    "Sampling": Deprecation(REV, REMOVAL_WINDOW,
                                            "call LLM provider APIs directly", _DEPRECATED),
                    "Logging": Deprecation(REV, REMOVAL_WINDOW,
                                           "stderr (stdio) or OpenTelemetry", _DEPRECATED),
                }
            },
        ),
        Change(
            id="dynamic-client-registration-deprecated",
            summary="OAuth Dynamic Client Registration is deprecated for Client ID Metadata "
            "Documents",
            cite=_DEPRECATED,
            impact=Impact.DEPRECATION,
            add={
                "deprecations": {
                    "Dynamic Client Registration": Deprecation(
                        REV, REMOVAL_WINDOW, "Client ID Metadata Documents", _DEPRECATED
                    )
                }
            },
        ),
        Change(
            id="http-sse-removal-scheduled",
            summary="HTTP+SSE gets a removal date: three months after SEP-2596 reaches Final",
            cite=_DEPRECATED,
            impact=Impact.DEPRECATION,
            replace={
                "deprecations": {
                    "HTTP+SSE transport": Deprecation(
                        "2025-03-26", "three months after SEP-2596 reaches Final",
                        "Streamable HTTP", _DEPRECATED,
                    ),
                    "includeContext thisServer/allServers": Deprecation(
                        "2025-11-25", "follows Sampling", 'omit includeContext or use "none"',
                        _DEPRECATED,
                    ),
                }
            },
        ),
    ),
)

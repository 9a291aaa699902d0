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
from ._profile import Change, Deprecation, Era, ErrorCode, Impact, Invalidation, Profile
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
                "Servers that keep legacy clients: keep answering initialize under legacy rules (a "
                "dual-era server).",
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
                "Servers: answer server/discover with supportedVersions, capabilities, resultType, "
                "ttlMs and cacheScope.",
                "Clients: call server/discover first (RECOMMENDED on stdio) and pick a version "
                "from supportedVersions, or send any request and handle -32022.",
            ),
        ),
        Change(
            id="unsupported-protocol-version-error",
            summary="A request whose version the server does not serve gets -32022 "
            "UnsupportedProtocolVersion with data.supported and data.requested (HTTP 400); "
            "there is no counter-offer",
            cite=C(REV, "basic/versioning.mdx"),
            impact=Impact.BEHAVIOUR,
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
            cite=C(REV, "basic/index.mdx", "ResultType"),
            impact=Impact.BREAKING,
            add={
                "result_fields_required": ["resultType"],
                "call_tool_result_fields": ["resultType"],
                "features": ["result-type"],
            },
            steps=(
                'Servers: add resultType: "complete" to every result you send.',
                'Clients: read a missing resultType (an older server) as "complete" and reject '
                "values you do not know.",
            ),
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
                # §Interaction with Notifications: a relevant notification invalidates a fresh
                # cached result; each arrives on a subscriptions/listen stream only when the
                # client opted in with the schema's SubscriptionFilter key (basic/patterns/
                # subscriptions.mdx)
                "cache_invalidations": {
                    "notifications/tools/list_changed": Invalidation(
                        ("tools/list",), listen="toolsListChanged"),
                    "notifications/prompts/list_changed": Invalidation(
                        ("prompts/list",), listen="promptsListChanged"),
                    "notifications/resources/list_changed": Invalidation(
                        ("resources/list", "resources/templates/list"),
                        listen="resourcesListChanged"),
                    "notifications/resources/updated": Invalidation(
                        ("resources/read",), match="uri", listen="resourceSubscriptions"),
                },
            },
            steps=(
                'Servers: add ttlMs (>= 0) and cacheScope ("public" or "private") to discover, '
                "list and read results; use the same cacheScope on every page of a list.",
                "Clients: read an absent ttlMs (an older server) as 0, i.e. stale; never cache "
                "MRTR retries; drop a cached list when its list_changed notification arrives.",
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
            steps=(
                "Clients: stop sending ping to 2026-07-28 servers; it is not a method there, so "
                "it gets the unknown-method answer (-32601).",
                "Servers: no ping handler is needed for modern requests; keep it for legacy "
                "connections.",
            ),
        ),
        Change(
            id="logging-level-per-request",
            summary=f"logging/setLevel is removed: the level travels per request in "
            f"_meta[{LOG_KEY}], and log messages flow only on that request's response stream",
            cite=C(REV, "server/utilities/logging.mdx"),
            impact=Impact.BREAKING,
            remove={"methods": ["logging/setLevel"]},
            add={"request_meta_optional": [LOG_KEY]},
            steps=(
                "Servers: drop logging/setLevel; send notifications/message only for a request "
                "whose _meta carries io.modelcontextprotocol/logLevel, on that request's response "
                "stream; answer an invalid level with -32602.",
                "Clients: put the level in the _meta of each request whose logs you want, instead "
                "of calling logging/setLevel.",
            ),
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
            steps=(
                "Servers: implement subscriptions/listen: first send "
                "notifications/subscriptions/acknowledged with the agreed subset, then only the "
                "notifications the client asked for, each with _meta "
                "io.modelcontextprotocol/subscriptionId set to the listen request's id.",
                "Servers: drop resources/subscribe, resources/unsubscribe and the GET stream; the "
                "resources.subscribe capability now means you honour resourceSubscriptions on "
                "subscriptions/listen.",
                "Clients: replace resources/subscribe with one subscriptions/listen naming the "
                "notifications you want; end it by closing the stream (HTTP) or with "
                "notifications/cancelled (stdio); listen again after a stdio reconnect.",
            ),
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
            steps=(
                "Servers: stop sending sampling/createMessage, roots/list and elicitation/create; "
                "return resultType input_required with inputRequests and/or requestState from "
                "tools/call, prompts/get or resources/read instead (no other method may).",
                "Servers: ask only for inputs the client declared (no elicitation without the "
                "elicitation capability); keep what you need across the retry in requestState.",
                "Clients: on input_required, answer the inputRequests and retry the original "
                "request with a new JSON-RPC id, inputResponses under the same keys, and "
                "requestState echoed exactly.",
            ),
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
            steps=(
                "Clients: stop declaring roots.listChanged and sending "
                "notifications/roots/list_changed.",
                "Servers: stop waiting for roots/list_changed; ask for roots in an input request "
                "of the call that needs them.",
            ),
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
            steps=(
                "Servers: drop the core tasks/* methods, notifications/tasks/status, "
                "Tool.execution and the tasks capabilities; for long-running work implement the "
                "io.modelcontextprotocol/tasks extension and declare it in "
                "capabilities.extensions.",
                "Clients: stop sending the task parameter and tasks/* requests; declare the tasks "
                "extension in capabilities.extensions if you use it.",
            ),
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
            steps=(
                "Servers: stop sending notifications/elicitation/complete and error -32042; keep "
                "your own elicitation id in requestState and learn the outcome from the retry.",
                "Clients: after a URL-mode elicitation, retry the request instead of waiting for a "
                "completion notification.",
            ),
        ),
        Change(
            id="progress-server-only",
            summary="Progress notifications flow server to client only, scoped to a request",
            cite=C(REV, "basic/patterns/progress.mdx"),
            impact=Impact.BEHAVIOUR,
            replace={"methods": {"notifications/progress": NOTE(S2C)}},
            steps=(
                "Clients: stop sending notifications/progress.",
                "Servers: send progress only for a request in flight that carried a progressToken, "
                "never on a listen stream.",
            ),
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
            steps=(
                "Servers: stop minting Mcp-Session-Id and ignore it when sent; answer GET and "
                "DELETE with 405; keep state across calls in server-minted handles the client "
                "passes as tool arguments.",
                "Clients: stop sending Mcp-Session-Id and opening a GET stream; use "
                "subscriptions/listen for notifications.",
            ),
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
            steps=(
                "Clients: send Mcp-Method on every POST, and Mcp-Name (params.name or params.uri) "
                "on tools/call, resources/read and prompts/get; encode unsafe values with the "
                "=?base64?...?= sentinel.",
                "Servers: check these headers against the body; a missing, malformed or mismatched "
                "one is HTTP 400 with -32020.",
            ),
        ),
        Change(
            id="param-headers",
            summary="a tool may mark input properties with x-mcp-header; over HTTP clients mirror "
            "their values in Mcp-Param-{Name} headers on tools/call, and servers check them "
            "(-32020 HeaderMismatch, HTTP 400)",
            cite=C(REV, "basic/transports/streamable-http.mdx", "Custom Headers from Tool "
                   "Parameters"),
            impact=Impact.ADDITIVE,
            add={"http_headers": ["Mcp-Param-{Name}"]},
            steps=(
                "Clients: on tools/call, send Mcp-Param-{Name} with the value of every inputSchema "
                "property marked x-mcp-header (omitted when absent or null; Base64 sentinel when "
                "unsafe); drop tools whose x-mcp-header is invalid.",
                "Servers: check each Mcp-Param-{Name} against the body; a missing or mismatched "
                "one is HTTP 400 with -32020.",
            ),
        ),
        Change(
            id="protocol-version-header-required",
            summary="MCP-Protocol-Version is required on every POST and must equal the _meta "
            "version; when absent a server MAY assume 2025-03-26 only if it serves such clients",
            cite=C(REV, "basic/transports/streamable-http.mdx", "Protocol Version Header"),
            impact=Impact.BREAKING,
            settings={"version_header_absent": "reject (400), or 2025-03-26 for dual-era servers"},
            steps=(
                "Clients: send MCP-Protocol-Version on every POST, equal to the _meta "
                "protocolVersion.",
                "Servers: answer a mismatch with 400 and -32020; reject a missing header with 400, "
                "unless you also serve clients older than 2025-06-18 (then assume 2025-03-26).",
            ),
        ),
        Change(
            id="resumability-removed",
            summary="SSE resumability is removed: Last-Event-ID is ignored; a broken stream loses "
            "the request and the client reissues it with a new id",
            cite=C(REV, "changelog.mdx", "Major changes, item 9"),
            impact=Impact.BREAKING,
            steps=(
                "Servers: ignore Last-Event-ID; do not replay streams.",
                "Clients: when a response stream breaks, reissue the request with a new id instead "
                "of resuming it.",
            ),
        ),
        Change(
            id="cancellation-by-disconnect",
            summary="On HTTP, closing the response stream is cancellation; notifications/"
            "cancelled is only for stdio",
            cite=C(REV, "basic/patterns/cancellation.mdx"),
            impact=Impact.BEHAVIOUR,
            steps=(
                "Servers: on HTTP, treat a closed response stream as cancellation of its request.",
                "Clients: on HTTP, cancel by closing the response stream; send "
                "notifications/cancelled only on stdio.",
            ),
        ),
        Change(
            id="json-schema-any-keyword",
            summary="inputSchema and outputSchema accept any JSON Schema 2020-12 keyword; "
            "structuredContent may be any JSON value",
            cite=C(REV, "basic/index.mdx", "JSON Schema Usage"),
            impact=Impact.BEHAVIOUR,
            steps=(
                "Servers: any JSON Schema 2020-12 keyword may appear in inputSchema and "
                "outputSchema, and structuredContent may be any JSON value.",
                "Clients: validate with a 2020-12 validator, accept structuredContent that is not "
                "an object, and never dereference a remote $ref on your own.",
            ),
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
                }
            },
        ),
        Change(
            id="include-context-reclassified",
            summary='includeContext "thisServer"/"allServers" (soft-deprecated in 2025-11-25) is '
            "reclassified: its removal follows Sampling's",
            cite=_DEPRECATED,
            impact=Impact.DEPRECATION,
            replace={
                "deprecations": {
                    "includeContext thisServer/allServers": Deprecation(
                        "2025-11-25", "follows Sampling", 'omit includeContext or use "none"',
                        _DEPRECATED,
                    ),
                }
            },
        ),
    ),
)

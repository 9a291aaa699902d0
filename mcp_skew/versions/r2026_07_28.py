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

from . import _auth
from . import r2025_11_25 as _previous
from ._profile import (
    Binding,
    Change,
    Cite,
    Deprecation,
    Era,
    ErrorCode,
    Impact,
    Invalidation,
    Obligation,
    Profile,
)
from .r2024_11_05 import C2S, NOTE, REQ, S2C

__all__ = ["PROFILE"]

REV = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
REMOVAL_WINDOW = "the first revision released on or after 2027-07-28"
_DEPRECATED = Cite(REV, "deprecated.mdx")
_HTTP = "basic/transports/streamable-http.mdx"


def _must(rule: str, cite: Cite | None = None) -> Binding:
    """The role MUST (or MUST NOT) act: ``rule`` quotes the spec."""
    return Binding(Obligation.MUST, rule, cite)


def _should(rule: str, cite: Cite | None = None) -> Binding:
    return Binding(Obligation.SHOULD, rule, cite)


def _may(rule: str, cite: Cite | None = None) -> Binding:
    return Binding(Obligation.MAY, rule, cite)


#: The change does not bind this role (the other side acts).
_NOT_BOUND: Final = Binding(Obligation.NONE)

PROFILE: Final[Profile] = _previous.PROFILE.evolve(
    revision=REV,
    title="Stateless: no handshake, per-request _meta, server/discover, caching hints",
    changes=(
        # -- Version and capabilities per request -----------------------------
        Change(
            id="handshake-removed",
            summary="initialize and notifications/initialized are removed: every request carries "
            f"{VERSION_KEY} and {CAPS_KEY} in params._meta (a missing one is -32602)",
            cite=Cite(REV, "basic/index.mdx", "_meta"),
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
            severity={
                "server": _must("a request missing any required field is malformed; the server "
                                "MUST reject it with JSON-RPC error code -32602"),
                "client": _must("fields marked as required MUST be included on every request"),
            },
        ),
        Change(
            id="server-discover",
            summary="server/discover (servers MUST implement it) returns supportedVersions, "
            "capabilities and instructions",
            cite=Cite(REV, "server/discover.mdx"),
            impact=Impact.BREAKING,
            add={"methods": {"server/discover": REQ(C2S)}, "features": ["server-discover"]},
            steps=(
                "Servers: answer server/discover with supportedVersions, capabilities, resultType, "
                "ttlMs and cacheScope.",
                "Clients: call server/discover first (RECOMMENDED on stdio) and pick a version "
                "from supportedVersions, or send any request and handle -32022.",
            ),
            severity={
                "server": _must("servers MUST implement this RPC", Cite(REV, "changelog.mdx",
                                                                    "Major changes, item 3")),
                "client": _may("Clients MAY call it before any other request"),
            },
        ),
        Change(
            id="unsupported-protocol-version-error",
            summary="A request whose version the server does not serve gets -32022 "
            "UnsupportedProtocolVersion with data.supported and data.requested (HTTP 400); "
            "there is no counter-offer",
            cite=Cite(REV, "basic/versioning.mdx"),
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
            severity={
                "server": _must("it MUST respond with an UnsupportedProtocolVersionError listing "
                                "the versions it does support"),
                "client": _should("The client SHOULD select a mutually supported version from "
                                  "the supported list and retry the request"),
            },
        ),
        Change(
            id="missing-client-capability-error",
            summary="A request that needs an undeclared client capability gets -32021 "
            "MissingRequiredClientCapability with data.requiredCapabilities",
            cite=Cite(REV, "basic/index.mdx", "_meta"),
            impact=Impact.ADDITIVE,
            add={
                "errors": {
                    "MissingRequiredClientCapability": ErrorCode(
                        -32021, "Missing required client capability", ("requiredCapabilities",)
                    )
                },
                "modern_error_codes": ["MissingRequiredClientCapability"],
            },
            steps=(
                "Servers: when a request needs a client capability its _meta "
                "io.modelcontextprotocol/clientCapabilities does not declare, answer -32021 with "
                "data.requiredCapabilities listing what is missing (HTTP 400); never rely on a "
                "capability the request did not declare.",
                "Clients: read -32021 as a modern server's answer (never a reason to fall back to "
                "initialize): declare the capabilities in data.requiredCapabilities and retry, or "
                "tell the user which are missing.",
            ),
            severity={
                "server": _must("the server MUST return a MissingRequiredClientCapabilityError "
                                "(-32021) whose data.requiredCapabilities lists the missing "
                                "capabilities"),
            },
        ),
        Change(
            id="error-code-ranges",
            summary="-32000..-32019 is implementation-defined (only -32002 keeps a meaning); "
            "-32020..-32099 is reserved for the spec",
            cite=Cite(REV, "basic/index.mdx", "Error Codes"),
            impact=Impact.CLARIFICATION,
        ),
        Change(
            id="server-info-in-results",
            summary=f"Server identity travels in each result's _meta[{SERVER_INFO_KEY}]",
            cite=Cite(REV, "basic/index.mdx", "_meta"),
            impact=Impact.ADDITIVE,
            add={"result_meta_optional": [SERVER_INFO_KEY]},
        ),
        # -- Results -----------------------------------------------------------
        Change(
            id="result-type",
            summary='Every result carries resultType ("complete" or "input_required"); a client '
            'treats a missing one as "complete" and rejects unknown values',
            cite=Cite(REV, "basic/index.mdx", "ResultType"),
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
            severity={
                "server": _must("The result MUST include a resultType field"),
                "client": _must('Clients MUST treat results from earlier-protocol servers that '
                                'omit the field as "complete"',
                                Cite(REV, "changelog.mdx", "Major changes, item 8")),
            },
        ),
        Change(
            id="caching-hints",
            summary="server/discover, the list methods and resources/read carry ttlMs and "
            "cacheScope (CacheableResult)",
            cite=Cite(REV, "server/utilities/caching.mdx"),
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
            severity={
                "server": _must("ttlMs and cacheScope are required (CacheableResult)",
                                Cite(REV, "schema.json#/$defs/CacheableResult")),
            },
        ),
        Change(
            id="resource-not-found-32602",
            summary="An unknown resource is -32602 (MUST); -32002 MUST NOT be sent, and clients "
            "SHOULD still accept it from older servers",
            cite=Cite(REV, "server/resources.mdx", "Error Handling"),
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
            severity={
                "server": _must("If the requested resource does not exist, servers MUST return a "
                                "JSON-RPC error with code -32602; Servers MUST NOT return an empty "
                                "contents array"),
                "client": _should("clients SHOULD also accept -32002 as a resource not found "
                                  "error"),
            },
        ),
        # -- Methods removed or replaced ---------------------------------------
        Change(
            id="ping-removed",
            summary="ping is removed in both directions",
            cite=Cite(REV, "changelog.mdx", "Major changes"),
            impact=Impact.BREAKING,
            remove={"methods": ["ping"], "features": ["ping"]},
            steps=(
                "Clients: stop sending ping to 2026-07-28 servers; it is not a method there, so "
                "it gets the unknown-method answer (-32601).",
                "Clients: on a legacy connection keep answering the server's ping: a legacy server "
                "MAY drop a connection whose ping goes unanswered.",
                "Servers: no ping handler is needed for modern requests; keep it for legacy "
                "connections.",
                "Servers: stop sending ping to modern clients (a 2026-07-28 client answers no "
                "requests); on a legacy connection you may still send it.",
            ),
        ),
        Change(
            id="logging-level-per-request",
            summary=f"logging/setLevel is removed: the level travels per request in "
            f"_meta[{LOG_KEY}], and log messages flow only on that request's response stream",
            cite=Cite(REV, "server/utilities/logging.mdx"),
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
            severity={
                "server": _must("servers MUST NOT emit notifications/message for requests that "
                                "did not include this field",
                                Cite(REV, "changelog.mdx", "Major changes, item 5")),
            },
        ),
        Change(
            id="subscriptions-listen",
            summary="subscriptions/listen replaces resources/subscribe, resources/unsubscribe and "
            "the standalone GET stream; its first message is notifications/subscriptions/"
            "acknowledged",
            cite=Cite(REV, "basic/patterns/subscriptions.mdx"),
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
            severity={
                "server": _must("The server MUST send notifications/subscriptions/acknowledged as "
                                "the first message; The server MUST NOT send notification types "
                                "the client has not explicitly requested"),
                "client": _must("On stdio, clients MUST use this field [subscriptionId] to "
                                "correlate notifications with their originating subscription; "
                                "the client MUST re-send subscriptions/listen to re-establish "
                                "its subscriptions"),
            },
        ),
        Change(
            id="mrtr-input-requests",
            summary="Server-to-client requests are gone: tools/call, prompts/get and "
            "resources/read may return InputRequiredResult with embedded elicitation, "
            "sampling and roots requests, and the client retries with inputResponses",
            cite=Cite(REV, "basic/patterns/mrtr.mdx"),
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
            severity={
                "server": _must("Servers MUST NOT send InputRequiredResult responses on any other "
                                "client requests; Servers MUST NOT send an inputRequests that the "
                                "client has not declared support for"),
                "client": _must("the client MUST echo back the exact value of that field "
                                "[requestState] when retrying the original request"),
            },
        ),
        Change(
            id="roots-list-changed-removed",
            summary="notifications/roots/list_changed and roots.listChanged are removed",
            cite=Cite(REV, "schema.json#/$defs/ClientCapabilities"),
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
            cite=Cite(REV, "changelog.mdx", "Major changes, item 6"),
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
            cite=Cite(REV, "changelog.mdx", "Minor changes, item 11"),
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
            cite=Cite(REV, "basic/patterns/progress.mdx"),
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
            cite=Cite(REV, "basic/versioning.mdx", "Extension Negotiation"),
            impact=Impact.ADDITIVE,
            add={
                "client_capabilities": ["extensions"],
                "server_capabilities": ["extensions"],
                "features": ["extensions"],
            },
            steps=(
                "Servers: name extensions with a prefixed id (io.modelcontextprotocol/tasks, "
                "com.example/x); when a request's client capabilities do not declare an extension "
                "you support, serve it with core behaviour or reject it with an error, never with "
                "the extension's results.",
                "Clients: declare the extensions you support in capabilities.extensions; when the "
                "server's discover result does not declare one, use core behaviour only.",
            ),
            severity={
                "server": _must("If one party supports an extension but the other does not, the "
                                "supporting party MUST either revert to core protocol behavior or "
                                "reject the request with an appropriate error"),
                "client": _must("If one party supports an extension but the other does not, the "
                                "supporting party MUST either revert to core protocol behavior or "
                                "reject the request with an appropriate error"),
            },
        ),
        # -- Transport -----------------------------------------------------------
        Change(
            id="sessions-removed",
            summary="Streamable HTTP has no sessions (Mcp-Session-Id) and no GET stream: POST only; "
            "GET and DELETE get 405",
            cite=Cite(REV, "basic/transports/streamable-http.mdx"),
            impact=Impact.BREAKING,
            transport="http",
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
            cite=Cite(REV, "basic/transports/streamable-http.mdx", "Server Validation"),
            impact=Impact.BREAKING,
            transport="http",
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
            severity={
                "server": _must("Servers that process the request body MUST reject requests where "
                                "the values specified in the headers do not match the "
                                "corresponding values in the request body"),
                "client": _must("These headers [Mcp-Method, Mcp-Name] are REQUIRED for "
                                "compliance", Cite(REV, _HTTP, "Standard Request Headers")),
            },
        ),
        Change(
            id="param-headers",
            summary="A tool may mark input properties with x-mcp-header (SEP-2243); over HTTP "
            "clients mirror their values in Mcp-Param-{Name} headers on tools/call and drop "
            "tools whose x-mcp-header is invalid, and servers check the headers (-32020 "
            "HeaderMismatch, HTTP 400)",
            cite=Cite(REV, _HTTP, "Custom Headers from Tool Parameters"),
            impact=Impact.ADDITIVE,
            transport="http",
            add={"http_headers": ["Mcp-Param-{Name}"]},
            steps=(
                "Clients: on tools/call over HTTP, send Mcp-Param-{Name} with the value of every "
                "inputSchema property marked x-mcp-header (omitted when absent or null; Base64 "
                "sentinel when unsafe).",
                "Clients: over HTTP, leave out of your tools/list result every tool whose "
                "x-mcp-header values break the constraints (empty, not a header token, not unique "
                "case-insensitively, on a number or non-primitive, or not reachable through "
                "properties alone), and log a warning naming the tool and the reason.",
                "Servers: put x-mcp-header only on primitive properties reachable through "
                "properties keys, with unique token names; check each Mcp-Param-{Name} against "
                "the body, and answer a missing, invalid or mismatched one with HTTP 400 and "
                "-32020.",
            ),
            severity={
                "server": _must("Servers MUST reject requests with a 400 Bad Request HTTP status "
                                "and JSON-RPC error code -32020 (HeaderMismatch) if any "
                                "validation fails", Cite(REV, _HTTP, "Server Behavior for Custom "
                                                      "Headers")),
                "client": _must("clients MUST support this feature; conforming clients MUST "
                                "mirror the designated parameter values into HTTP headers; the "
                                "client MUST exclude the invalid tool from the result of "
                                "tools/list"),
            },
        ),
        Change(
            id="unknown-method-404",
            summary="Over Streamable HTTP, a request for a method the server does not implement "
            "gets 404 Not Found with a -32601 body; the body tells it apart from the 404 of a "
            "legacy HTTP+SSE server",
            cite=Cite(REV, _HTTP, "Protocol Version Header"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            steps=(
                "Servers: over HTTP, answer a method you do not implement with 404 Not Found and "
                "a JSON-RPC error -32601 in the body.",
                "Clients: over HTTP, read a 404 whose body is a -32601 error as a modern server "
                "that lacks the method (do not fall back to initialize or HTTP+SSE); only a 404 "
                "without a recognised modern error body points to a legacy server.",
            ),
            severity={
                "server": _must("If the server does not implement the requested RPC method, it "
                                "MUST respond with 404 Not Found and a JSON-RPC error with code "
                                "-32601"),
            },
        ),
        Change(
            id="protocol-version-header-required",
            summary="MCP-Protocol-Version is required on every POST and must equal the _meta "
            "version; when absent a server MAY assume 2025-03-26 only if it serves such clients",
            cite=Cite(REV, "basic/transports/streamable-http.mdx", "Protocol Version Header"),
            impact=Impact.BREAKING,
            transport="http",
            settings={"version_header_absent": "reject (400), or 2025-03-26 for dual-era servers"},
            steps=(
                "Clients: send MCP-Protocol-Version on every POST, equal to the _meta "
                "protocolVersion.",
                "Servers: answer a mismatch with 400 and -32020; reject a missing header with 400, "
                "unless you also serve clients older than 2025-06-18 (then assume 2025-03-26).",
            ),
            severity={
                "server": _must("If the values do not match, the server MUST reject the request "
                                "with 400 Bad Request and a HeaderMismatch JSON-RPC error"),
                "client": _must("Every POST request to the MCP endpoint MUST include an "
                                "MCP-Protocol-Version header"),
            },
        ),
        Change(
            id="resumability-removed",
            summary="SSE resumability is removed: Last-Event-ID is ignored; a broken stream loses "
            "the request and the client reissues it with a new id",
            cite=Cite(REV, "changelog.mdx", "Major changes, item 9"),
            impact=Impact.BREAKING,
            transport="http",
            steps=(
                "Servers: ignore Last-Event-ID; do not replay streams.",
                "Clients: when a response stream breaks, reissue the request with a new id instead "
                "of resuming it.",
            ),
            severity={
                "client": _must("clients MUST re-issue it as a new request with a new request ID",
                                Cite(REV, "changelog.mdx", "Major changes, item 9")),
            },
        ),
        Change(
            id="cancellation-by-disconnect",
            summary="On HTTP, closing the response stream is cancellation; notifications/"
            "cancelled is only for stdio",
            cite=Cite(REV, "basic/patterns/cancellation.mdx"),
            impact=Impact.BEHAVIOUR,
            transport="http",
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
            cite=Cite(REV, "basic/index.mdx", "JSON Schema Usage"),
            impact=Impact.BEHAVIOUR,
            # schema.json CallToolResult.structuredContent: no type (any JSON value)
            settings={"structured_content": "any JSON value"},
            steps=(
                "Servers: any JSON Schema 2020-12 keyword may appear in inputSchema and "
                "outputSchema, and structuredContent may be any JSON value; never dereference a "
                "network $ref when you validate arguments.",
                "Clients: validate with a 2020-12 validator, accept structuredContent that is not "
                "an object, and never dereference a remote $ref on your own.",
            ),
            severity={
                role: _must("Implementations MUST NOT automatically dereference $ref values that "
                            "resolve to a network URI", Cite(REV, "basic/index.mdx", "$ref Resolution"))
                for role in ("server", "client")
            },
        ),
        # -- Messages, pagination, completion ----------------------------------------
        Change(
            id="request-id-not-outstanding",
            summary="A request id must not match any request the sender has issued and not yet "
            "had answered (was: never reused within the session); ids are never null",
            cite=Cite(REV, "basic/index.mdx", "Requests"),
            impact=Impact.BEHAVIOUR,
            steps=(
                "Clients: never send a request whose id matches one still awaiting its answer; a "
                "retry (MRTR, or a request lost with a broken stream) is a new request with a new "
                "id.",
                "Servers: do not reject a request because its id was used before: without "
                "sessions, an answered id may come back; key in-flight state (progress, "
                "cancellation) by id only while that request is outstanding.",
            ),
            severity={
                "client": _must("The request ID MUST NOT match the ID of any other request the "
                                "sender has issued and not yet received a response for"),
            },
        ),
        Change(
            id="empty-cursor-not-end",
            summary='An empty-string cursor is a valid cursor: a nextCursor of "" MUST NOT be '
            "read as the end of the results",
            cite=Cite(REV, "server/utilities/pagination.mdx", "Implementation Guidelines"),
            impact=Impact.BEHAVIOUR,
            steps=(
                'Clients: keep paging while nextCursor is present, even when it is ""; stop only '
                "when it is absent, and send the cursor back unchanged.",
                "Servers: omit nextCursor on the last page; a cursor you hand out may be the empty "
                "string, and you must accept it back.",
            ),
            severity={
                "client": _must("an empty string is a valid cursor and thus MUST NOT be treated as "
                                "the end of results"),
            },
        ),
        Change(
            id="completion-ref-uri-template",
            summary="completion/complete: ref/resource names a resource URI or a URI template "
            "(the schema's ResourceTemplateReference has typed uri as a uri-template since "
            "2025-06-18; the 2026-07-28 page says so)",
            cite=Cite(REV, "server/utilities/completion.mdx", "Reference Types"),
            impact=Impact.CLARIFICATION,
            steps=(
                "Servers: accept a URI template in a ref/resource (for example file:///{path}) and "
                "complete the argument it names.",
                "Clients: to complete a resource template's variables, send its URI template as "
                "ref/resource uri.",
            ),
        ),
        Change(
            id="initialize-error-names-versions",
            summary="A server that supports only modern versions names the versions it supports "
            "in any error it returns to initialize, on any transport: legacy clients cannot fall "
            "forward, and this message may be all they can show",
            cite=Cite(REV, "basic/versioning.mdx", "Backward Compatibility with Initialization-Based "
                   "Versions"),
            impact=Impact.BEHAVIOUR,
            steps=(
                "Servers that drop legacy clients: answer initialize with an error that names "
                "your supported versions, e.g. -32022 with data.supported, or a message listing "
                "them.",
            ),
            severity={
                "server": _should("A server that supports only modern versions SHOULD name the "
                                  "protocol versions it supports in any error it returns to an "
                                  "initialize request"),
                "client": _NOT_BOUND,
            },
        ),
        # -- Authorization (HTTP) ----------------------------------------------------
        Change(
            id="authorization-iss-validation",
            summary="Authorization servers SHOULD include iss in authorization responses "
            "(RFC 9207); clients MUST validate a present iss against the recorded issuer before "
            "redeeming the code",
            cite=Cite(REV, "basic/authorization/index.mdx", "Authorization Response Validation"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            steps=(
                "HTTP clients with authorization: record the issuer of the authorization server's "
                "validated metadata before redirecting; on the response, compare a present iss "
                "to it by simple string comparison (no normalisation), reject a response without "
                "iss when the metadata sets authorization_response_iss_parameter_supported, and "
                "only then redeem the code.",
                "Servers with their own authorization server: include iss in authorization "
                "responses (errors too) and set authorization_response_iss_parameter_supported "
                "to true in its metadata.",
            ),
            severity={
                "client": _must("MCP clients MUST validate a present iss against the recorded "
                                "issuer before redeeming the authorization code",
                                Cite(REV, "changelog.mdx", "Minor changes, item 7")),
                "server": _should("Authorization servers SHOULD include the iss parameter in "
                                  "authorization responses per RFC 9207",
                                  Cite(REV, "changelog.mdx", "Minor changes, item 7")),
            },
        ),
        Change(
            id="dcr-application-type",
            summary="Clients that register with Dynamic Client Registration specify an "
            "appropriate application_type (native or web), so OpenID Connect servers do not "
            "reject their redirect URIs",
            cite=Cite(REV, "basic/authorization/client-registration.mdx",
                   "Application Type and Redirect URI Constraints"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            steps=(
                'HTTP clients with authorization: send application_type in Dynamic Client '
                'Registration: "native" for desktop, mobile, CLI and localhost apps, "web" for '
                "remote browser apps; show a registration refused for its redirect URIs as an "
                "error.",
            ),
            severity={
                "client": _must("MCP clients MUST specify an appropriate application_type during "
                                "Dynamic Client Registration"),
                "server": _NOT_BOUND,
            },
        ),
        Change(
            id="credentials-bound-to-issuer",
            summary="Client credentials are bound to the authorization server that issued them: "
            "keyed by its issuer, never reused with another, re-registered when it changes",
            cite=Cite(REV, "basic/authorization/client-registration.mdx",
                   "Authorization Server Binding"),
            impact=Impact.BEHAVIOUR,
            transport="http",
            steps=(
                "HTTP clients with authorization: store client credentials keyed by the issuer "
                "identifier; when the protected resource metadata names another authorization "
                "server, do not reuse them: register again.",
            ),
            severity={
                "client": _must("clients MUST key persisted credentials by the issuer identifier, "
                                "MUST NOT reuse them with a different authorization server, and "
                                "MUST re-register when the authorization server changes",
                                Cite(REV, "changelog.mdx", "Minor changes, item 9")),
                "server": _NOT_BOUND,
            },
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
            transport="http",
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
            transport="http",
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
        *_auth.changes(REV),  # the authorization rules (``_auth``)
    ),
)

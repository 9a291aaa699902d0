"""Named quirks: how real clients and servers depart from the plain spec behaviour.

Each quirk says which role it applies to, what it does, and where it is seen in
real implementations. A peer spec names quirks after ``+``
(``legacy:2025-06-18+silent``); a quirk with a value takes it after ``=``
(``+fixed=2025-03-26``, ``+slow=8000``).
"""

from __future__ import annotations

import functools
from typing import Final

from ...versions import Role
from ._apps import APP_QUIRKS
from ._auth import CLIENT_AUTH, SERVER_AUTH
from ._ext import EXTENSION_QUIRKS
from ._policy import ClientPolicy, Effect, ServerPolicy, compose
from ._quirk import Quirk

__all__ = ["QUIRKS", "Quirk", "Role", "client_policy", "server_policy"]



QUIRKS: Final[dict[str, Quirk]] = {
    q.name: q
    for q in (
        # -- Servers: an unknown method, or any request before initialize ----------
        Quirk("unknown-32601", "server",
           "answers an unknown or early request with -32601 Method not found (the default of "
           "a plain legacy server)",
           "TypeScript @modelcontextprotocol/sdk 1.x servers (Protocol: no handler -> -32601)",
           kinds=("legacy", "dual"),
           effects=(Effect("unknown", "-32601", rank=0),)),
        Quirk("unknown-32602", "server",
           "answers an unknown or early request with -32602 Invalid request parameters",
           "Python mcp 1.10-1.30 servers (the request fails validation as a ClientRequest "
           "before any method lookup)",
           kinds=("legacy", "dual"),
           effects=(Effect("unknown", "-32602", rank=1),)),
        Quirk("silent", "server",
           "never answers an unknown or early request",
           "Python mcp 1.0-1.9 servers (validation error logged, no response)",
           kinds=("legacy", "dual"),
           effects=(Effect("unknown", "silent", rank=3),)),
        Quirk("silent-exit", "server",
           "never answers an unknown or early request, then exits on its next input",
           "Python mcp 1.0-1.9 stdio servers: the session task dies and the process ends "
           "when the next line arrives",
           kinds=("legacy", "dual"),
           effects=(Effect("unknown", "silent-exit", rank=2),)),
        Quirk("lenient", "server",
           "processes a known request before initialize as if initialized (no lifecycle "
           "enforcement), e.g. tools/list from a modern client under legacy rules",
           "TypeScript @modelcontextprotocol/sdk 1.x servers; many hand-written servers",
           kinds=("legacy", "dual"),
           effects=(Effect("lenient"),)),
        Quirk("fixed", "server",
           "answers every initialize with one fixed revision, whatever was asked",
           "hand-written servers that hard-code protocolVersion (seen in the wire log of "
           "seed 000: 2025-11-25 asked, 2025-06-18 answered)",
           value="revision", kinds=("legacy", "dual"),
           effects=(Effect("fixed_revision", convert=str),)),
        Quirk("echo", "server",
           "echoes whatever revision the client asked for in initialize, supported or not",
           "hand-written servers that copy params.protocolVersion into the result",
           kinds=("legacy", "dual"),
           effects=(Effect("echo"),)),
        Quirk("reject", "server",
           "rejects an unsupported revision with error -32602 'Unsupported protocol version' "
           "instead of a counter-offer (the lifecycle page's non-normative example)",
           "servers that follow the error example in basic/lifecycle.mdx",
           kinds=("legacy", "dual"),
           effects=(Effect("reject_unsupported"),)),
        Quirk("slow", "server",
           "its cold start: its first answer comes this many simulated ms after the process "
           "starts (it reads nothing before), the value mcp-skew probe measures as the cold "
           "start; it races a client's probe, connect and request timeouts",
           "servers that load models or indexes before reading stdin; npx cold starts; a "
           "Python mcp 2.3 server on a busy 2-core machine (7-19 s to its first answer, "
           "issue 37)",
           value="ms",
           effects=(Effect("startup_ms", convert=int),)),
        Quirk("latency", "server",
           "takes this many simulated ms over every request before answering (on top of the "
           "link's own delay each way)",
           "servers that call a slow backend per request; remote servers far away",
           value="ms",
           effects=(Effect("latency_ms", convert=int),)),
        Quirk("discover-incomplete", "server",
           "answers server/discover with a DiscoverResult that lacks capabilities (the "
           "2026-07-28 schema's DiscoverResult requires supportedVersions, capabilities, "
           "resultType, ttlMs and cacheScope)",
           "early modern servers that answer the probe with supportedVersions only; "
           "hand-written probe answers (issue 37)",
           kinds=("modern", "dual"),
           effects=(Effect("discover_incomplete"),)),
        Quirk("strict-lifecycle", "server",
           "also refuses ping before initialize (answered like any early request)",
           "Python mcp 1.9.4-1.13 servers (ping allowed early from 1.14.0): docs/real-peers.md",
           kinds=("legacy", "dual"),
           effects=(Effect("ping_before_initialize", False),)),
        Quirk("early-32602", "server",
           "a known method sent before initialize gets -32602, while an unknown one gets the "
           "unknown-method answer",
           "Python mcp 2.x and fastmcp 4 servers (early tools/list -> -32602, early foo/bar -> "
           "-32601): docs/real-peers.md",
           kinds=("legacy", "dual"),
           effects=(Effect("early_known_32602"),)),
        Quirk("not-found-code", "server",
           "answers resources/read of an unknown URI with this error code instead of the "
           "revision's (-32002 before 2026-07-28, -32602 from it)",
           "Python mcp 1.x servers: code 0; TypeScript sdk 1.x and mcp 2.x: -32602 on legacy "
           "connections too: docs/real-peers.md",
           value="code",
           effects=(Effect("not_found_code", convert=int),)),
        Quirk("supported-all", "server",
           "a -32022 to a modern request lists every revision it supports in data.supported, "
           "handshake-era ones too, not its modern ones only",
           "the spec's own example (2026-07-28 basic/versioning.mdx: \"supported\": "
           "[\"2026-07-28\", \"2025-11-25\"]); the real dual-era SDK servers list their modern "
           "revisions only (docs/real-peers.md)",
           kinds=("dual",), effects=(Effect("supported_all"),)),
        Quirk("legacy-32022", "server",
           "a modern-only server answers initialize, and any request whose _meta names no "
           "protocol version, with -32022 naming its modern revisions (instead of -32601)",
           "TypeScript @modelcontextprotocol/server 2.x serveStdio(factory, {legacy: 'reject'}) "
           "(measured on 2.4.0): docs/named-peers.md",
           kinds=("modern",),
           effects=(Effect("legacy_32022"),)),
        Quirk("no-result-type", "server",
           "2026-07-28 results lack resultType",
           "early modern servers and proxies that re-serialise legacy results",
           kinds=("modern", "dual"),
           effects=(Effect("result_type", False),)),
        Quirk("no-cache-hints", "server",
           "2026-07-28 list, read and discover results lack ttlMs and cacheScope",
           "early modern servers built on legacy result types",
           kinds=("modern", "dual"),
           effects=(Effect("cache_hints", False),)),
        Quirk("ttl", "server",
           "puts this ttlMs on cacheable results (discover, lists, reads) instead of 60000; "
           "0 makes every result stale at once (2026-07-28 server/utilities/caching.mdx "
           "§Time-to-Live (TTL) Field)",
           "servers tuning how long clients may reuse their lists (a server whose tools change "
           "often sends a short or zero ttlMs)",
           value="ms", kinds=("modern", "dual"),
           effects=(Effect("ttl_ms", convert=int),)),
        Quirk("sticky-era", "server",
           "fixes the era by the first request of a connection: after a modern request it "
           "rejects initialize; after initialize it rejects modern requests",
           "Python mcp 2.x stdio servers and fastmcp 4 (initialize after a modern request -> "
           "-32022; a modern request after initialize -> -32600): docs/real-peers.md",
           kinds=("dual",),
           effects=(Effect("sticky_era"),)),
        # -- Servers over HTTP only (over stdio they do nothing) -----------------------
        Quirk("not-initialized-32000", "server",
           "over HTTP, refuses every request that belongs to no session (a dual-era client's "
           "modern probe, anything before initialize) with 400 and -32000 'Bad Request: Server "
           "not initialized' (id null), whatever its unknown-request answer; over stdio it does "
           "nothing",
           "the reference server @modelcontextprotocol/server-everything in Streamable HTTP "
           "mode (modelcontextprotocol/servers src/everything/streamableHttp.ts hands a "
           "session-less POST to a fresh StreamableHTTPServerTransport of "
           "@modelcontextprotocol/sdk 1.x, whose validateSession answers a request before "
           "initialize with that error)",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_presession", "-32000", rank=1),)),
        Quirk("empty-400", "server",
           "over HTTP, refuses every request that belongs to no session with 400 and an empty "
           "body (a dual-era client reads no modern error there, 2026-07-28 "
           "streamable-http.mdx §Backward Compatibility); over stdio it does nothing",
           "servers behind gateways and proxies that replace the JSON-RPC error body with a "
           "bare status",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_presession", "empty", rank=2),)),
        Quirk("no-get", "server",
           "over HTTP, answers every GET with 405, also where it would open the HTTP+SSE "
           "stream of 2024-11-05 (it speaks 2024-11-05 over Streamable HTTP only); without a "
           "2024-11-05 revision it changes nothing, as a simulated Streamable HTTP server offers "
           "no GET stream anyway; over stdio it does nothing",
           "Streamable HTTP servers that speak protocol 2024-11-05 without hosting the old SSE "
           "endpoint (the official Python SDK's streamable_http_app serves one MCP endpoint)",
           transports=("http",),
           effects=(Effect("http_no_get"),)),
        Quirk("session-expiry", "server",
           "over HTTP, forgets a session after this many requests in it (after initialize): "
           "the next request with its Mcp-Session-Id gets 404, and the client must start a new "
           "session with a new initialize (2025-03-26 and later basic/transports.mdx §Session "
           "Management); over stdio it does nothing",
           "Streamable HTTP servers that keep sessions in memory with an idle timeout or an LRU "
           "bound, or lose them on a restart or behind a load balancer (the official SDKs' "
           "session managers answer an unknown Mcp-Session-Id with 404)",
           value="count", kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_session_expiry", convert=int),)),
        Quirk("one-transport", "server",
           "over HTTP, serves the whole process with one server instance that connects to one "
           "transport: the first POST without an Mcp-Session-Id takes it (and is answered as "
           "the other quirks say), every later POST without one gets 500 and -32603 'Internal "
           "server error', so a dual-era client's fallback initialize after its probe fails "
           "too; over stdio it does nothing",
           "the reference server @modelcontextprotocol/server-everything 2025.5.12 in Streamable "
           "HTTP mode (dist/streamableHttp.js calls server.connect on one shared Server for "
           "each new transport; the SDK refuses a second connect): docs/real-peers.md "
           "§server-everything",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_one_transport"),)),
        Quirk("missing-session-32600", "server",
           "over HTTP, refuses every request that belongs to no session (a dual-era client's "
           "modern probe, a request whose client dropped Mcp-Session-Id) with 400 and -32600 "
           "'Bad Request: Missing session ID' (2025-03-26 and later basic/transports.mdx "
           "§Session Management: servers that require a session id SHOULD answer 400); over "
           "stdio it does nothing",
           "the Python SDK's stateful Streamable HTTP transport (mcp/server/streamable_http.py; "
           "python-sdk PR 2950), the C# SDK's stateful server (csharp-sdk issue 1759)",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_presession", "-32600", rank=3),)),
        Quirk("stateless-http", "server",
           "over HTTP, runs stateless: initialize starts no session (no Mcp-Session-Id) and "
           "every later request is served alone, as after an initialize of the revision its "
           "MCP-Protocol-Version names; over stdio it does nothing",
           "the Python SDK's streamable_http_app(stateless_http=True) and FastMCP(stateless_http="
           "True); the TypeScript SDK's StreamableHTTPServerTransport with sessionIdGenerator "
           "undefined",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_stateless"),)),
        Quirk("checks-header-on-initialize", "server",
           "over HTTP, validates MCP-Protocol-Version on initialize too: a header naming a "
           "revision it lacks gets 400 'Unsupported protocol version' before any negotiation "
           "(the header belongs to the requests after initialize: 2025-06-18 and later "
           "basic/transports.mdx §Protocol Version Header); over stdio it does nothing",
           "Effect McpServer.layerHttp before Effect-TS/effect PR 7388; the Zapier MCP endpoint "
           "and xiaohongshu-mcp (Go), answering 400 'Unsupported protocol version (supported: "
           "2025-06-18, ...)' (vercel/ai issue 14413, xpzouying/xiaohongshu-mcp issue 697)",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_initialize_header"),)),
        # -- Servers: a -32022 the 2026-07-28 schema does not allow ---------------------
        Quirk("no-requested", "server",
           "the -32022 to a request that names no protocol version leaves data.requested out "
           "(the 2026-07-28 schema's UnsupportedProtocolVersionError requires it) and says the "
           "request did not name a protocol version",
           "TypeScript @modelcontextprotocol/server 2.4.0 serveStdio(factory, {legacy: "
           "'reject'}) (measured: docs/real-peers.md §Malformed lines and unnamed versions)",
           kinds=("modern",),
           effects=(Effect("omit_requested"),)),
        Quirk("discover-legacy", "server",
           "answers server/discover with a DiscoverResult whose supportedVersions lists only "
           "its legacy revisions (a dual-era server that serves the modern era elsewhere, or "
           "not on this endpoint)",
           "the Go SDK's stateful Streamable HTTP server, its default (go-sdk issue 1025: the "
           "discover probe at 2026-07-28 is accepted and answered with the transport-filtered "
           "list, 2025-11-25 and older)",
           kinds=("dual",),
           effects=(Effect("discover_legacy_only"),)),
        Quirk("logging", "server",
           "declares the logging capability (where its revision has it) and answers "
           "logging/setLevel in the legacy era (2026-07-28 removed the method: the level "
           "travels per request in _meta, server/utilities/logging.mdx)",
           "servers that send log messages: the reference server-everything, the TypeScript "
           "SDK's servers with logging enabled, the Inspector's logging test servers "
           "(inspector issue 1990)",
           effects=(Effect("declares_logging"),)),
        Quirk("untyped-input-schema", "server",
           "lists its tools with an inputSchema that has no \"type\" (every revision's schema "
           "requires \"type\": \"object\" on Tool.inputSchema)",
           "the reference server @modelcontextprotocol/server-filesystem 2025.1.14 (10 of its "
           "11 tools, schemas made from zod without a top-level type)",
           effects=(Effect("untyped_input_schema"),)),
        Quirk("draft-07-output-schema", "server",
           "its echo tool lists an outputSchema whose $schema declares JSON Schema draft-07 "
           "(where the revision has outputSchema), and its result carries matching "
           "structuredContent",
           "TypeScript @modelcontextprotocol/sdk 1.x servers with an outputSchema: "
           "zod-to-json-schema stamps draft-07 (the reference server-filesystem 2026.7.10, "
           "typescript-sdk issues 2532 and 2721)",
           effects=(Effect("output_schema", "draft-07", rank=1),)),
        Quirk("draft-04-output-schema", "server",
           "its echo tool lists an outputSchema whose $schema declares JSON Schema draft-04",
           "servers that ship hand-written or generated draft-04 schemas (2025-11-25 "
           "basic/index.mdx §JSON Schema Usage lets a schema declare its dialect)",
           effects=(Effect("output_schema", "draft-04", rank=2),)),
        Quirk("no-structured-content", "server",
           "its echo tool lists an outputSchema, and its results carry no structuredContent "
           "(every revision with outputSchema says servers MUST provide it)",
           "servers that declare an output schema and answer with text only, which the "
           "TypeScript SDK clients fail with -32600 (callTool in @modelcontextprotocol/sdk "
           "1.29.0-1.32.2 and @modelcontextprotocol/client 2.x: docs/calls.md)",
           effects=(Effect("omits_structured_content"),
                    Effect("output_schema", "2020-12", rank=0))),
        Quirk("early-tools-32603", "server",
           "answers tools/list before initialize with -32603 Internal error (its handler reads "
           "the client's capabilities, which only initialize tells), while serving other early "
           "requests as its other quirks say",
           "the reference server @modelcontextprotocol/server-everything 2025.11.25 (its "
           "tools/list handler reads server.getClientCapabilities().roots): docs/real-peers.md "
           "§server-everything",
           kinds=("legacy", "dual"),
           effects=(Effect("early_tools_32603"),)),
        Quirk("asks-roots", "server",
           "after notifications/initialized from a client that declared the roots capability, "
           "sends it a roots/list request (2024-11-05 and later client/roots.mdx: servers "
           "MAY ask)",
           "the reference server @modelcontextprotocol/server-everything 2025.11.25 and "
           "2026.8.31 (oninitialized asks for the client's roots): docs/real-peers.md "
           "§server-everything",
           kinds=("legacy", "dual"),
           effects=(Effect("asks_roots"),)),
        # -- Servers over stdio only (over HTTP they do nothing) -----------------------
        Quirk("drop-unparsable", "server",
           "over stdio, drops a line that is not JSON without an answer, where JSON-RPC 2.0 "
           "asks for -32700 Parse error with id null; over HTTP it does nothing",
           "every measured SDK stdio server: TypeScript @modelcontextprotocol/sdk 1.x and "
           "@modelcontextprotocol/server 2.x, Python mcp 1.x/2.x, fastmcp 4, the reference "
           "server-everything (docs/real-peers.md §Malformed lines and unnamed versions)",
           transports=("stdio",),
           effects=(Effect("drop_unparsable"),)),
        Quirk("outlives-stdin", "server",
           "over stdio, keeps running after its standard input closes, until the client "
           "signals it (basic/lifecycle.mdx §Shutdown: the client SHOULD send SIGTERM, then "
           "SIGKILL); over HTTP it does nothing",
           "the reference server @modelcontextprotocol/server-everything 2025.x (its timers "
           "keep node's event loop alive): docs/real-peers.md §server-everything",
           transports=("stdio",),
           effects=(Effect("outlives_stdin"),)),
        # -- Clients -------------------------------------------------------------------
        # -- Servers: authorization (scenario auth, over Streamable HTTP) ---------------
        *SERVER_AUTH,
        Quirk("strict", "client",
           "fails a result that lacks a field its revision requires (resultType, ttlMs, "
           "cacheScope) instead of reading a missing resultType as complete",
           "clients that validate results with generated schema types (pydantic, zod)",
           effects=(Effect("strict"),)),
        Quirk("strict-results", "client",
           "fails a request whose result lacks a field its revision requires (resultType on "
           "every 2026-07-28 result, ttlMs and cacheScope on cacheable ones) once negotiated, "
           "while the server/discover probe is read leniently",
           "TypeScript @modelcontextprotocol/client 2.4.0 (auto and pin modes): 'Invalid result "
           "for tools/list: missing required resultType' (docs/real-peers.md §TypeScript v2 "
           "client strictness)",
           effects=(Effect("strict_results"),)),
        Quirk("connect-timeout", "client",
           "bounds the whole connect by this many simulated ms, one deadline over the "
           "server/discover probe, the fallback initialize and any re-probe (each waits at "
           "most what is left): a probe it cuts fails the connection instead of falling "
           "back, and an initialize still unanswered then fails it",
           "the MCP Inspector 2.12 CLI in every era (--connect-timeout, default 15000 ms: "
           "clients/cli/build/index.js DEFAULT_CONNECT_TIMEOUT_MS = 15e3, shorter than its "
           "SDK client's 60 s request timeout): docs/time.md",
           value="ms",
           effects=(Effect("connect_timeout_ms", convert=int),)),
        Quirk("request-timeout", "client",
           "waits this many simulated ms for the answer to each request, initialize "
           "included (during the connect a connect-timeout may cut it shorter), instead of "
           "the run's request timeout (10000)",
           "TypeScript @modelcontextprotocol/sdk 1.x and @modelcontextprotocol/client 2.x: "
           "60000 (DEFAULT_REQUEST_TIMEOUT_MSEC in dist/esm/shared/protocol.js, "
           "dist/src-*.mjs): docs/time.md",
           value="ms",
           effects=(Effect("request_timeout_ms", convert=int),)),
        Quirk("no-reprobe", "client",
           "after its server/discover probe timed out, an error to the fallback initialize "
           "(a sticky server's -32022: it read the late probe and fixed the modern era) ends "
           "the connect; it does not probe again",
           "dual-era clients that fall back once and surface the handshake's error (issue 37: "
           "a client with a 1 s probe wait against a slow-starting Python mcp 2.3 server); "
           "the Python mcp 2.3 client re-probes (mcp/client/_probe.py negotiate_auto)",
           kinds=("dual",),
           effects=(Effect("no_reprobe"),)),
        Quirk("strict-discover", "client",
           "validates the DiscoverResult: one that lacks a field the schema requires "
           "(supportedVersions, capabilities; the SDKs default resultType, ttlMs and "
           "cacheScope) is a failed probe: a dual-era client falls back to initialize, a "
           "modern one fails",
           "Python mcp 2.3.0 Client(mode='auto') (mcp/client/_probe.py negotiate_auto: "
           "except ValidationError -> session.initialize()); TypeScript "
           "@modelcontextprotocol/client 2.4.0 (dist/public-*.mjs classifyResult: a result "
           "that fails validateResult('server/discover') -> legacy)",
           kinds=("modern", "dual"),
           effects=(Effect("strict_discover"),)),
        Quirk("raw-retry", "client",
           "after refusing a result (strict-results), sends the same request once more, raw, "
           "and fails all the same",
           "the MCP Inspector 2.12 CLI, which re-sends a refused tools/list through its own "
           "request path ('inspector-ext-N' ids) to show what the server sent: "
           "docs/real-peers.md §Inspector",
           effects=(Effect("raw_retry"),)),
        Quirk("stalls-on-server-request", "client",
           "once the server sends it a request (roots/list), reads no more answers: every "
           "later request of the session waits for ever",
           "the Python SDK mcp 1.0.0 ClientSession over stdio (it declares roots; against a "
           "server that asks, its tools/list never returns): docs/real-peers.md "
           "§server-everything",
           effects=(Effect("stalls_on_server_request"),)),
        Quirk("legacy-set-level", "client",
           "once connected to a server that declares logging, sends logging/setLevel (level "
           "debug) whatever the negotiated era; where the revision lacks the method (2026-07-28) "
           "its SDK refuses it and the connect fails, so every command fails",
           "the MCP Inspector CLI before its fix (inspector issue 1990, PR 2017: "
           "initialLoggingLevel 'debug' gated on the capability, not the era: \"Method "
           "'logging/setLevel' is not supported by the negotiated protocol version\")",
           effects=(Effect("legacy_set_level"),)),
        Quirk("era-set-level", "client",
           "once connected in the legacy era to a server that declares logging, sends "
           "logging/setLevel (level debug); in the modern era it sends nothing (2026-07-28 "
           "removed the method: the level travels per request in _meta, "
           "server/utilities/logging.mdx)",
           "the MCP Inspector 2.12.0 CLI (clients/cli/build/index.js connect: "
           "initialLoggingLevel 'debug' sent where capabilities.logging and protocolEra "
           "!== 'modern', the fix of inspector issue 1990)",
           effects=(Effect("era_set_level"),)),
        Quirk("strict-tools", "client",
           "fails a tools/list whose tools have an inputSchema without \"type\": \"object\" "
           "(it validates the list with the schema's Tool), where a lenient client reads any "
           "object",
           "TypeScript @modelcontextprotocol/sdk 1.x clients (ToolSchema: inputSchema "
           "type z.literal('object'), read in 1.0.1 and 1.32.2) and @modelcontextprotocol/client "
           "2.x (core schemas, 2.4.0); the Python mcp client is lenient (inputSchema: dict, "
           "1.x and mcp-types 2.3.0)",
           effects=(Effect("strict_tools"),)),
        Quirk("dialect-2020-12-only", "client",
           "refuses to call a tool whose outputSchema declares any $schema dialect but JSON "
           "Schema 2020-12 (draft-07 included): the call fails with -32602 'has an invalid "
           "outputSchema' before it is sent (2025-11-25 basic/index.mdx §JSON Schema Usage "
           "allows a declared dialect)",
           "@modelcontextprotocol/client 2.0.0-beta.1 to 2.0.0-beta.5 (AjvJsonSchemaValidator: "
           "'The default validator supports JSON Schema 2020-12 only', dist/ajvProvider-*.mjs); "
           "typescript-sdk issues 2532 and 2721",
           effects=(Effect("output_dialects", "2020-12", rank=1),)),
        Quirk("declared-dialects", "client",
           "calls a tool whose outputSchema declares JSON Schema 2020-12, 2019-09, draft-07 or "
           "draft-06 and validates with that dialect; any other $schema (draft-04 and older) "
           "fails the call with -32602 before it is sent",
           "@modelcontextprotocol/client 2.0.0 to 2.4.0 (declaredDialect in "
           "dist/dialects-*.mjs: 'supports JSON Schema 2020-12, 2019-09, draft-07, and "
           "draft-06'; typescript-sdk PR 2534)",
           effects=(Effect("output_dialects", "2020-12,2019-09,draft-07,draft-06"),)),
        Quirk("needs-structured-content", "client",
           "fails a call whose result has no structuredContent (and no isError: true) when the "
           "listed tool has an outputSchema: -32600 'has an output schema but did not return "
           "structured content'",
           "TypeScript @modelcontextprotocol/sdk 1.29.0, 1.30.0 and 1.32.2 (Client.callTool, "
           "dist/esm/client/index.js) and @modelcontextprotocol/client 2.0.0-beta.5 and 2.4.0 "
           "(callTool)",
           effects=(Effect("needs_structured_content"),)),
        Quirk("checks-structured-content", "client",
           "fails a call whose structuredContent does not validate against the listed tool's "
           "outputSchema: -32602 'Structured content does not match the tool's output schema'",
           "TypeScript @modelcontextprotocol/sdk 1.29.0, 1.30.0 and 1.32.2 (Client.callTool) "
           "and @modelcontextprotocol/client 2.0.0-beta.5 and 2.4.0 (callTool)",
           effects=(Effect("checks_structured_content"),)),
        Quirk("fallback-32601", "client",
           "falls back from the server/discover probe to initialize only on -32601; any "
           "other error or a timeout ends the connection",
           "early dual-era clients keyed to Method not found (the spec forbids this: "
           "stdio.mdx §Backward Compatibility)",
           kinds=("dual",),
           effects=(Effect("fallback_only_32601"),)),
        Quirk("fallback-denylist", "client",
           "falls back from the server/discover probe to initialize on every error except a "
           "-32022 whose data.supported names no handshake-era revision it supports; a -32022 "
           "naming a shared modern revision is first re-probed once, even at the same revision",
           "Python mcp 2.x Client(mode='auto') (mcp/client/_probe.py negotiate_auto) and, "
           "nearly, the TypeScript v2 client in auto mode: docs/real-peers.md",
           kinds=("dual",),
           effects=(Effect("fallback_denylist"),)),
        Quirk("discover-fallback", "client",
           "reads a DiscoverResult that shares no modern revision with it as a legacy "
           "advertisement and falls back to initialize with its newest revision, whatever the "
           "result lists (the spec's rule: choose a listed revision both support, in either "
           "era, or fail: 2026-07-28 basic/versioning.mdx)",
           "TypeScript @modelcontextprotocol/client 2.4 in auto mode (classifyResult: no "
           "overlap and a fallback available -> legacy), Python mcp 2.x Client(mode='auto') "
           "(mcp/client/_probe.py), the Go SDK client (go-sdk issue 1025)",
           kinds=("dual",),
           effects=(Effect("discover_fallback"),)),
        Quirk("exact", "client",
           "demands the exact revision it asked for; a counter-offer it also supports "
           "is still refused",
           "clients pinned to one protocol version",
           kinds=("legacy", "dual"),
           effects=(Effect("exact"),)),
        Quirk("restart", "client",
           "restarts a server that died during the probe and falls back on the new process",
           "TypeScript v2 client in auto mode (probe in a throwaway process)",
           kinds=("dual",),
           effects=(Effect("restart"),)),
        Quirk("discover", "client",
           "a modern client that calls server/discover before its first request "
           "(RECOMMENDED on stdio)",
           "modern clients following basic/transports/stdio.mdx",
           kinds=("modern",),
           effects=(Effect("discover_first"),)),
        Quirk("post-first", "client",
           "over HTTP, a client asking for 2024-11-05 POSTs initialize to the URL first "
           "(Streamable HTTP) and GETs the HTTP+SSE stream only on 400, 404 or 405, as later "
           "revisions' backwards-compatibility sections tell clients; over stdio it does nothing",
           "the mcp-skew probe's HTTP link; clients of later SDKs pinned to protocol 2024-11-05",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_post_first"),)),
        Quirk("auth-fallback", "client",
           "over HTTP, reads any error status to its modern probe (401, 403, 5xx) as a legacy "
           "server and falls back to initialize; the spec's rule falls back only on 400, 404 "
           "or 405 without a recognised modern error; over stdio it does nothing",
           "the TypeScript client 2.0 betas (typescript-sdk issue 2561; fixed in PR 2564)",
           kinds=("dual",), transports=("http",),
           effects=(Effect("http_fallback_any_status"),)),
        *CLIENT_AUTH,
        Quirk("drops-session-id", "client",
           "over HTTP, never sends the Mcp-Session-Id its server assigned (2025-03-26 and later "
           "basic/transports.mdx: the client MUST send it on every later request): it works "
           "only with a stateless server; over stdio it does nothing",
           "clients listed in datagouv/datagouv-mcp PR 52 that lost the session against a "
           "stateful server; gateways and proxies that strip unknown headers",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_drops_session"),)),
        Quirk("header-on-initialize", "client",
           "over HTTP, sends MCP-Protocol-Version on initialize, naming the revision it asks "
           "for (the official SDKs send it only after initialize); over stdio it does nothing",
           "@ai-sdk/mcp createMCPClient (vercel/ai issue 14413) and Hermes Agent, which injects "
           "the header on every request (Graylog2/graylog2-server issue 25956)",
           kinds=("legacy", "dual"), transports=("http",),
           effects=(Effect("http_version_on_initialize"),)),
        Quirk("no-cache", "client",
           "ignores ttlMs and cacheScope: every list and read goes on the wire, however fresh "
           "the last answer (in scenarios that keep a cache: cache, listen, long)",
           "clients written for the legacy era, which had no caching hints; simple scripts "
           "that ask again each time",
           effects=(Effect("cache", False),), caching_only=True),
        Quirk("keeps-era", "client",
           "keeps a legacy era decision for the server (the same command or origin) across "
           "restarts and lost sessions: it opens with initialize at the kept revision and "
           "probes only when that fails, so after the server was upgraded it stays on the "
           "legacy era (the spec lets a client persist the decision, re-probing only when it "
           "fails: 2026-07-28 basic/versioning.mdx)",
           "clients that store the negotiated protocol version with a server's configuration",
           kinds=("dual",), effects=(Effect("keeps_era"),)),
        *APP_QUIRKS,
        *EXTENSION_QUIRKS,
        Quirk("probe-timeout", "client",
           "how many simulated ms the client waits for the server/discover probe "
           "(default 3000); a legacy client sends no probe, so there it does nothing",
           "Python mcp 2.x: 10000 (mcp/client/session.py DISCOVER_TIMEOUT_SECONDS = 10.0); "
           "TypeScript @modelcontextprotocol/client 2.x: its request timeout, 60000 "
           "(dist/public-*.mjs negotiateEra: probe.timeoutMs ?? defaultTimeoutMs)",
           value="ms",
           effects=(Effect("probe_timeout_ms", convert=int),)),
    )
}


Quirks = tuple[tuple[str, str | None], ...]


@functools.cache
def server_policy(quirks: Quirks) -> ServerPolicy:
    """The policy of a server with these quirks (``(name, value)`` pairs, as in a PeerSpec)."""
    policy = compose(ServerPolicy(), ((e, v) for n, v in quirks for e in QUIRKS[n].effects))
    assert isinstance(policy, ServerPolicy)
    return policy


@functools.cache
def client_policy(quirks: Quirks) -> ClientPolicy:
    """The policy of a client with these quirks."""
    policy = compose(ClientPolicy(), ((e, v) for n, v in quirks for e in QUIRKS[n].effects))
    assert isinstance(policy, ClientPolicy)
    return policy

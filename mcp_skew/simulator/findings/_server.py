"""What each finding about a server means: the codes of negotiation, stdio, results,
schemas and the lifecycle, as reported of a simulated or real server (data; the
sections of ``docs/findings.md``, in the order of :data:`~._codes.FindingCode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...versions import Cite
from ._codes import LEGACY, LIFECYCLE, MODERN, PROBE, STDIO_LEGACY, FindingCode, FindingInfo

__all__ = ["SERVER_FINDINGS"]

_STDIO_MODERN = Cite(MODERN, "basic/transports/stdio.mdx")
#: every request gets a response: basic/messages.mdx in 2024-11-05, basic/index.mdx from 2025-03-26
_RESPONSES = (Cite("2024-11-05", "basic/messages.mdx", "Responses"),
              Cite(LEGACY, "basic/index.mdx", "Responses"))
_ALL_LEGACY = "(the same words in every legacy revision, 2024-11-05 to 2025-11-25)"
_JSONRPC_RESPONSE = "JSON-RPC 2.0 §5 Response object"
_JSONRPC_ERROR = "JSON-RPC 2.0 §5.1 Error object (-32601 Method not found)"

#: The server's codes, in the order of :data:`~._codes.FindingCode`.
SERVER_FINDINGS: Final[Mapping[FindingCode, FindingInfo]] = {
    "missing-result-type": FindingInfo(
        summary="a 2026-07-28 result without `resultType`",
        when="A result to a request of a modern revision lacks a field that revision requires on "
        "every result (2026-07-28: `resultType`). Every simulated client checks each result it "
        "reads, so the code appears in simulated runs, in a probe of a real server and in an "
        "annotated wire log alike.",
        rule="2026-07-28: the `result` MUST include a `resultType` field (`\"complete\"` or "
        "`\"input_required\"`); `Result` in schema.json lists it as required. For servers of "
        "earlier revisions a client MUST treat an absent `resultType` as `\"complete\"`, so most "
        "clients carry on; a strict client (quirk `strict`) fails the result.",
        fix="Servers: put `\"resultType\": \"complete\"` in every result served under 2026-07-28 "
        "(`\"input_required\"` in a multi round-trip `InputRequiredResult`). A dual-era server "
        "adds it to modern results only: no legacy revision defines the field.",
        severities=("error",),
        cites=(Cite(MODERN, "basic/index.mdx", "ResultType"),
               Cite(MODERN, "schema.json#/$defs/Result")),
        reported_by=("simulate", "matrix", "probe", "show-log"),
        quirks=("no-result-type",),
    ),
    "missing-cache-hints": FindingInfo(
        summary="a 2026-07-28 list, read or discover result without `ttlMs` and `cacheScope`",
        when="A result of a method the revision makes cacheable lacks a caching hint (2026-07-28: "
        "`server/discover`, `tools/list`, `prompts/list`, `resources/list`, "
        "`resources/templates/list` and `resources/read`).",
        rule="2026-07-28: servers MUST include caching hints on results with "
        "`resultType: \"complete\"` of these operations; `CacheableResult` in schema.json requires "
        "`ttlMs` (an integer, at least 0) and `cacheScope` (`\"public\"` or `\"private\"`). A "
        "client reads an absent `ttlMs` as 0, immediately stale.",
        fix="Servers: add `ttlMs` (how long a client may reuse the result; 0 when unsure) and "
        "`cacheScope` (`\"private\"` when the result depends on who asks, else `\"public\"`) to "
        "those results; never to an `input_required` result, which is not cacheable.",
        severities=("error",),
        cites=(Cite(MODERN, "server/utilities/caching.mdx", "Cacheable Results"),
               Cite(MODERN, "schema.json#/$defs/CacheableResult")),
        reported_by=("simulate", "matrix", "probe", "show-log"),
        quirks=("no-cache-hints",),
    ),
    "era-mismatch": FindingInfo(
        summary="a modern request was served under legacy rules",
        when="A modern client's first request (its revision in `_meta`, no `initialize`) got a "
        "result from a server that speaks legacy revisions only: the server ran it as if a "
        "handshake had happened. The client believes it speaks 2026-07-28 and does not; the run "
        "fails. The simulator sees which rules the server applied; the probe reports it for a "
        "modern client that succeeded against a server it infers to be legacy-only.",
        rule="2026-07-28 compatibility matrix, modern client and legacy server: fails. The server "
        "may reject the request with an implementation-defined error, stay silent, or even "
        "process an era-ambiguous method under legacy semantics. On stdio, clients SHOULD send "
        "`server/discover` first to fail deterministically; for a modern-only client probing is "
        "RECOMMENDED.",
        fix="Clients: send `server/discover` before the first request (quirk `discover`, or a "
        "dual-era client) and fall back to `initialize`, or show an actionable error. Legacy "
        "servers: answer a request that arrives before `initialize` with an error instead of "
        "serving it.",
        severities=("error",),
        cites=(Cite(MODERN, "basic/versioning.mdx", "Compatibility Matrix"), PROBE),
        reported_by=("simulate", "matrix", "probe"),
        quirks=("lenient",),
    ),
    "counter-offer-unsupported": FindingInfo(
        summary="`initialize` answered with a revision no handshake can agree on",
        when="probe: `initialize` R was answered with S, and S is not a revision the server "
        "accepts when asked for it, or is a modern revision (which has no `initialize`), or is "
        "no revision mcp-skew knows. show-log: the InitializeResult names a modern or unknown "
        "revision, or the client disconnected after a legacy counter-offer.",
        rule="Legacy lifecycle, version negotiation: if the server does not support the requested "
        "version, it MUST respond with another protocol version it supports (SHOULD be its "
        "latest); if the client does not support the version in the response, it SHOULD "
        f"disconnect {_ALL_LEGACY}.",
        fix="Servers: counter-offer the newest legacy revision you implement, one you accept when "
        "a client asks for it; never a modern revision. When the client disconnects (the "
        "warning), the two share no revision: support the revision the server offers in the "
        "client, or an older one in the server.",
        severities=("error", "warning"),
        severity_rule="error for a counter-offer of a revision the server does not accept itself, "
        "a modern or an unknown one; warning (show-log) when the client disconnects after a "
        "legacy counter-offer, which is what the client SHOULD do",
        cites=(LIFECYCLE,),
        reported_by=("probe", "show-log"),
    ),
    "rejects-instead-of-counter-offer": FindingInfo(
        summary="`initialize` of an unsupported revision refused with an error",
        when="probe: `initialize` R got an error, while the server accepts other legacy revisions "
        "when asked. show-log: an error answer to `initialize` whose `data.supported` names "
        "legacy revisions, or a -32602 whose message is about the version.",
        rule="Legacy lifecycle: the server MUST respond with another protocol version it supports "
        f"{_ALL_LEGACY}. Every legacy lifecycle page also shows an error (-32602 \"Unsupported "
        "protocol version\" with `data.supported`) as an example, which is not normative: hence a "
        "warning, not an error.",
        fix="Servers: answer with an InitializeResult naming your newest legacy revision and let "
        "the client decide; a client that asked for a newer revision then downgrades instead of "
        "failing.",
        severities=("warning",),
        cites=(LIFECYCLE,),
        reported_by=("probe", "show-log"),
        quirks=("reject",),
    ),
    "echoes-any-revision": FindingInfo(
        summary="a revision the server cannot support was accepted",
        when="probe: the prober's `initialize` with revision 1999-01-01 was answered with "
        "1999-01-01, or its modern request for 1999-01-01 was served instead of refused with "
        "-32022. show-log: an InitializeResult repeats a revision mcp-skew does not know.",
        rule="Legacy lifecycle: the server answers with the requested version only if it supports "
        "it, else with one it supports. 2026-07-28: a server that does not implement the "
        "requested version MUST respond with `UnsupportedProtocolVersionError` (-32022, "
        "`data.supported` and `data.requested`, both required in schema.json).",
        fix="Servers: compare the requested version with the revisions you implement. Legacy: "
        "counter-offer your newest. Modern: answer -32022 with `data: {supported, requested}`. "
        "An echo makes a client believe you speak its revision; it fails later, on a message you "
        "do not understand, instead of negotiating.",
        severities=("error", "warning"),
        severity_rule="error in the probe, which asks for a revision that cannot exist; warning "
        "in show-log, which sees only that the echoed revision is one mcp-skew does not know",
        cites=(LIFECYCLE, Cite(MODERN, "basic/versioning.mdx", "Protocol Version Negotiation"),
               Cite(MODERN, "schema.json#/$defs/UnsupportedProtocolVersionError")),
        reported_by=("probe", "show-log"),
        quirks=("echo",),
    ),
    "silent-on-unknown": FindingInfo(
        summary="an unknown request got no answer",
        when="probe: a request the server does not know got no answer within `--timeout`: "
        "`server/discover` or another modern request to a legacy server before `initialize`, or "
        "the prober's unknown method after it. show-log: a request sent before anything was "
        "negotiated got no answer.",
        rule="Before `initialize`: a dual-era client SHOULD probe with `server/discover`, and "
        "falls back to `initialize` on any other error or when there is no response within a "
        "reasonable timeout, so silence costs it that timeout (2026-07-28 stdio, backward "
        "compatibility). After `initialize`: every request gets a response (JSON-RPC 2.0 §5; the "
        "spec's messages section: responses are sent in reply to requests).",
        fix="Servers: answer every request, known or not: an unknown method with -32601 Method not "
        "found. Before `initialize` any error will do; it lets a dual-era client fall back at "
        "once.",
        severities=("warning", "error"),
        severity_rule="warning before `initialize` (a dual-era client falls back after its probe "
        "timeout: slow, not broken); error after it (JSON-RPC requires an answer)",
        cites=(PROBE, *_RESPONSES),
        refs=(_JSONRPC_RESPONSE,),
        reported_by=("probe", "show-log"),
        quirks=("silent",),
    ),
    "crash-on-unknown": FindingInfo(
        summary="the server exited on an unknown request",
        when="probe: the process exited on a request it does not know, or did not answer it and "
        "exited when the next message arrived. show-log: the server exited leaving such a "
        "request unanswered.",
        rule="Every request gets a response (JSON-RPC 2.0 §5). Legacy servers answer unknown "
        "requests before `initialize` with implementation-defined errors or not at all (2026-07-28 "
        "stdio, backward compatibility); a server that exits takes the connection with it, and a "
        "dual-era client can only fall back by starting it again (client quirk `restart`).",
        fix="Servers: never exit on a message you do not understand: answer it with -32601 "
        "(unknown method) or -32600 (invalid request) and keep reading.",
        severities=("error",),
        cites=(PROBE, *_RESPONSES),
        refs=(_JSONRPC_RESPONSE,),
        reported_by=("probe", "show-log"),
        quirks=("silent-exit",),
    ),
    "resource-not-found-code": FindingInfo(
        summary="a missing resource answered with another code than the revision's",
        when="`resources/read` of a URI that does not exist got another answer than the "
        "revision's error code: the probe reads `mcp-skew-probe://no-such-resource` with "
        "`--error-probes`; show-log checks every such read.",
        rule="2024-11-05 to 2025-11-25: servers SHOULD return -32002 for a resource not found. "
        "2026-07-28: servers MUST return -32602 (Invalid Params) and MUST NOT return an empty "
        "`contents`; implementations of 2026-07-28 MUST NOT emit -32002, and clients SHOULD "
        "still accept -32002 from servers of earlier revisions.",
        fix="Servers: answer a missing resource with the code of the revision in use, with "
        "`data: {uri}`: -32002 under a legacy revision, -32602 under 2026-07-28 (a dual-era "
        "server picks by the era of the request). Clients: accept both.",
        severities=("error", "warning", "info"),
        severity_rule="probe: error for -32002 under 2026-07-28, info for -32602 under a legacy "
        "revision (2026-07-28's code, early), warning for anything else; show-log: error for any "
        "other code under 2026-07-28, warning under a legacy revision",
        cites=(Cite(LEGACY, "server/resources.mdx", "Error Handling"),
               Cite(MODERN, "server/resources.mdx", "Error Handling"),
               Cite(MODERN, "basic/index.mdx", "Error Codes")),
        reported_by=("probe", "show-log"),
        quirks=("not-found-code",),
    ),
    "ping-unanswered": FindingInfo(
        summary="a legacy server that does not answer `ping` with an empty result",
        when="probe: once a legacy session is up, one client sends `ping` (the revisions that "
        "have it: 2024-11-05 to 2025-11-25) and gets no answer, an error, or a result that is "
        "not empty.",
        rule="2024-11-05 to 2025-11-25: either side may send `ping`; the receiver MUST respond "
        "promptly with an empty response. A peer MAY treat a ping left unanswered as a stale "
        "connection and end it. 2026-07-28 removes `ping`.",
        fix="Servers: answer `ping` with `{}` at any time of a legacy session (the SDKs do; a "
        "hand-written dispatcher often forgets it).",
        severities=("error",),
        cites=(Cite(LEGACY, "basic/utilities/ping.mdx", "Behavior Requirements"),),
        reported_by=("probe",),
    ),
    "discover-missing": FindingInfo(
        summary="a server that speaks 2026-07-28 but does not answer `server/discover`",
        when="probe: the server serves modern requests (or refuses `initialize` as a modern-only "
        "server does), and a `server/discover` it was sent got an error other than a "
        "recognised modern one (-32601 most often) or no answer.",
        rule="2026-07-28: servers MUST implement `server/discover`; a dual-era client on stdio "
        "probes with it before any other request and reads any other error, or silence, as a "
        "legacy server: it falls back to `initialize`, or fails against a modern-only server.",
        fix="Servers: answer `server/discover` with a DiscoverResult: `supportedVersions` (your "
        "modern revisions), `capabilities`, `resultType`, `ttlMs` and `cacheScope`.",
        severities=("error",),
        cites=(Cite(MODERN, "server/discover.mdx"), PROBE),
        reported_by=("probe",),
    ),
    "tool-input-error-as-protocol-error": FindingInfo(
        summary="invalid tool arguments answered with a JSON-RPC error where the revision wants "
        "`isError`",
        when="probe (`--tool NAME`): the call repeated with one argument of the wrong type (from "
        "the tool's `inputSchema`) got a JSON-RPC error. show-log: `tools/call` of a tool the "
        "server listed failed with -32602. Both only under revisions where input validation "
        "errors are tool execution errors (2025-11-25 on).",
        rule="2025-11-25 and 2026-07-28: input validation errors (a date in the wrong format, a "
        "value out of range) are tool execution errors, reported in the result with "
        "`isError: true`; protocol errors cover unknown tools, requests that fail the "
        "`CallToolRequest` schema, and server errors. Up to 2025-06-18 invalid arguments were "
        "protocol errors. The page states no MUST: a warning.",
        fix="Servers: validate arguments inside the tool and return a `CallToolResult` with "
        "`isError: true` and a text that says what was wrong, so the model can correct itself; "
        "keep -32602 for an unknown tool.",
        severities=("warning",),
        cites=(Cite(LEGACY, "server/tools.mdx", "Error Handling"),
               Cite(MODERN, "server/tools.mdx", "Error Handling")),
        reported_by=("probe", "show-log"),
    ),
    "not-json": FindingInfo(
        summary="a line on stdout (or stdin) that is not JSON",
        when="probe: a line the server wrote on stdout that does not parse as JSON (the first 5 "
        "of a run one by one, then a count). show-log: such a line from the server on stdout or "
        "from the client on stdin.",
        rule="stdio, every revision: the server MUST NOT write anything to its stdout that is not "
        "a valid MCP message, and the client MUST NOT write anything to the server's stdin that "
        "is not a valid MCP message; the server MAY write logs to stderr.",
        fix="Write logs, banners and debug output to stderr (in Python: `logging`, whose default "
        "handler writes to stderr, or `print(..., file=sys.stderr)`); on stdout only JSON-RPC "
        "messages, one per line.",
        severities=("error",),
        cites=(STDIO_LEGACY, _STDIO_MODERN),
        reported_by=("probe", "show-log"),
    ),
    "schema-violation": FindingInfo(
        summary="a message that breaks its revision's schema",
        when="probe (with `--schemas DIR` or `$MCP_SKEW_SCHEMAS` and the `schemas` extra): a "
        "server message fails the official schema of the revision in use as a `JSONRPCMessage`, "
        "or a result fails the result type of its request (`tools/list` -> `ListToolsResult`). "
        "show-log: a modern request's `params._meta` lacks a key its revision requires, or a "
        "response has neither `result` nor `error`.",
        rule="Each revision's schema.json defines its messages. 2026-07-28: every request carries "
        "`_meta` with `io.modelcontextprotocol/protocolVersion` and "
        "`io.modelcontextprotocol/clientCapabilities` (`RequestMetaObject`); a request without "
        "them is malformed and the server MUST reject it with -32602. JSON-RPC 2.0 §5: a "
        "response has either `result` or `error`.",
        fix="The message names the definition and the path that failed (`tools/0/inputSchema: "
        "...`): fix that field, against the schema of the revision the client negotiated, not "
        "the newest one.",
        severities=("warning", "error"),
        severity_rule="warning for a failed schema check (probe); error for a missing required "
        "`_meta` key or a response with neither `result` nor `error` (show-log)",
        cites=(Cite(MODERN, "schema.json#/$defs/JSONRPCMessage"),
               Cite(MODERN, "schema.json#/$defs/RequestMetaObject"),
               Cite(MODERN, "basic/index.mdx", "_meta")),
        refs=(_JSONRPC_RESPONSE,),
        reported_by=("probe", "show-log"),
    ),
    "unknown-field": FindingInfo(
        summary="a result carries fields its revision does not define",
        when="probe: a result, read against the fields the revision in use defines (a table "
        "generated from its schema.json: `mcp_skew.versions.unknown_fields`), has fields that "
        "revision does not define: a newer "
        "revision's field sent to an older client, or a vendor field. Measured: `mcp` 2.3.0 and "
        "fastmcp 4.2.3 send 2025-06-18's `outputSchema`, `structuredContent`, `title` and `_meta` "
        "to clients that negotiated 2024-11-05 or 2025-03-26.",
        rule="Each revision's schema.json defines the fields of each result; `Result` allows more "
        "(`additionalProperties`), so this breaks no rule. A newer revision's field tells an "
        "older client nothing, and a client that validates strictly may refuse it. `_meta` is "
        "the place for additional metadata (2025-06-18 on, general fields).",
        fix="Servers: shape each result by the negotiated revision (leave out what a later "
        "revision added, e.g. `structuredContent` and `outputSchema` for a 2025-03-26 client), "
        "and put vendor data under `_meta` with a prefix of your own.",
        severities=("info",),
        cites=(Cite("2024-11-05", "schema.json#/definitions/CallToolResult"),
               Cite("2025-06-18", "basic/index.mdx", "General fields")),
        reported_by=("probe",),
    ),
    "unexpected-answer": FindingInfo(
        summary="an answer other than the one the request calls for",
        when="probe: an unknown method after `initialize` answered with another error than "
        "-32601; with `--error-probes`, a call of an unknown tool answered with a result instead "
        "of a protocol error. show-log: an answer whose id no pending request has.",
        rule="-32601 Method not found is the code for a method that does not exist (JSON-RPC 2.0 "
        "§5.1). An unknown tool is a protocol error (server/tools.mdx, error handling; the "
        "example is -32602). A response carries the id of the request it answers (JSON-RPC 2.0 "
        "§5).",
        fix="Servers: answer an unknown method with -32601 and an unknown tool with -32602; answer "
        "only requests you were sent, with their ids.",
        severities=("warning",),
        cites=(*_RESPONSES, Cite(LEGACY, "server/tools.mdx", "Error Handling")),
        refs=(_JSONRPC_ERROR, _JSONRPC_RESPONSE),
        reported_by=("probe", "show-log"),
    ),
    "counter-offer-despite-support": FindingInfo(
        summary="`initialize` R answered with another revision, though the server accepts R",
        when="probe: `initialize` R was answered with S, while the server answers R when another "
        "client asks for it.",
        rule="Legacy lifecycle: if the server supports the requested protocol version, it MUST "
        f"respond with the same version {_ALL_LEGACY}.",
        fix="Servers: when the requested version is one you implement, answer with it, even when "
        "you prefer a newer one.",
        severities=("error",),
        cites=(LIFECYCLE,),
        reported_by=("probe",),
    ),
    "not-jsonrpc": FindingInfo(
        summary="JSON on stdout that is not a JSON-RPC 2.0 message",
        when="probe: a line the server wrote on stdout parses as JSON but is not a JSON-RPC 2.0 "
        "message (an object with `\"jsonrpc\": \"2.0\"`, or a batch of them).",
        rule="stdio, every revision: messages are JSON-RPC requests, notifications or responses, "
        "and the server MUST NOT write anything to its stdout that is not a valid MCP message.",
        fix="Write only JSON-RPC messages with `\"jsonrpc\": \"2.0\"` to stdout; other JSON (status, "
        "structured logs) goes to stderr.",
        severities=("error",),
        cites=(STDIO_LEGACY, _STDIO_MODERN),
        reported_by=("probe",),
    ),
    "tool-schema-not-object": FindingInfo(
        summary="a tool whose `inputSchema` is not an object schema with `\"type\": \"object\"`",
        when="A `tools/list` result lists a tool whose `inputSchema` is missing, not an object, "
        "or lacks `\"type\": \"object\"` (the probe checks every `tools/list` it gets, with or "
        "without `--schemas`).",
        rule="Every revision's schema.json requires `Tool.inputSchema.type`, with the constant "
        "`\"object\"`. Strict clients validate `tools/list` with it and fail the whole list "
        "(quirk `strict-tools`: the TypeScript SDK's `ToolSchema`, `type: z.literal(\"object\")`); "
        "lenient ones read any object (the Python `mcp` client's `inputSchema: dict`).",
        fix="Servers: give every tool an `inputSchema` with `\"type\": \"object\"` (and "
        "`\"properties\": {}` for a tool without arguments).",
        severities=("error",),
        cites=(Cite("2024-11-05", "schema.json#/definitions/Tool"),
               Cite(LEGACY, "schema.json#/$defs/Tool"), Cite(MODERN, "schema.json#/$defs/Tool")),
        reported_by=("simulate", "matrix", "probe"),
        quirks=("untyped-input-schema",),
    ),
    "output-flood": FindingInfo(
        summary="the server's output went over mcp-skew's caps",
        when="probe: more than 32 MiB or 20,000 lines from one server process (a line over 4 MiB "
        "is cut, not a flood): the probe kills the server and the run's outcome is `flood`.",
        rule="No revision sets a size limit; the caps are mcp-skew's "
        "(`mcp_skew.wire.Limits`), so a server that loops cannot hang a probe. "
        "The citation is the stdio rule that only MCP messages go to stdout.",
        fix="Find what repeats: a message loop, a retry storm, logs on stdout. Page long lists "
        "with `nextCursor`.",
        severities=("error",),
        cites=(STDIO_LEGACY, _STDIO_MODERN),
        reported_by=("probe",),
    ),
    "server-exited": FindingInfo(
        summary="the server exited with a request in flight",
        when="probe: the server process ended while a request it knows was waiting for its "
        "answer (an unknown one is `crash-on-unknown`); the finding names the request in flight "
        "(method, id, the step that sent it) and the card shows the last lines of the server's "
        "stderr. A server that exits before answering anything in every process gets one "
        "server-level finding instead: nothing it was sent can be blamed.",
        rule="Every request gets a response (JSON-RPC 2.0 §5); on stdio the server reads "
        "messages from stdin until the client closes it, and a client treats the server's exit "
        "as the end of the connection.",
        fix="Servers: answer a request you cannot serve with an error (-32602 for invalid "
        "params, a tool execution error for invalid tool input) and keep reading; read the "
        "stderr lines in the card for the exception.",
        severities=("error",),
        cites=(STDIO_LEGACY, *_RESPONSES),
        reported_by=("probe",),
        refs=(_JSONRPC_RESPONSE,),
    ),
    "stopped-answering": FindingInfo(
        summary="the server stopped answering with a request in flight",
        when="probe: a request the server knows got no answer within `--timeout`, and the server "
        "answered nothing after it; the finding names the request in flight.",
        rule="Every request gets a response (JSON-RPC 2.0 §5).",
        fix="Servers: answer every request, with an error when it cannot be served; never "
        "block the read loop on one request.",
        severities=("error",),
        cites=_RESPONSES,
        reported_by=("probe",),
        refs=(_JSONRPC_RESPONSE,),
    ),
    "serves-before-initialize": FindingInfo(
        summary="a legacy server served a request sent before `initialize`",
        when="probe, server-level: a modern client's first request (`tools/list` with `_meta`, no "
        "`initialize`) got a legacy result from a server that speaks legacy revisions only. The "
        "modern client that got it fails with `era-mismatch` by its own transcript; this finding "
        "says what the server does.",
        rule="2026-07-28 compatibility matrix, modern client and legacy server: the pair fails, "
        "and a legacy server may even run an era-ambiguous method under legacy rules. Before "
        "`initialize` a legacy client SHOULD NOT send requests other than pings.",
        fix="Servers: to serve 2026-07-28 clients, answer `server/discover` and reject a request "
        "that carries neither `_meta` nor a prior `initialize` with -32602 instead of running it "
        "under legacy rules (`mcp-skew migrate 2025-06-18 2026-07-28 --role server`, section "
        "Serve both eras).",
        severities=("warning",),
        cites=(Cite(MODERN, "basic/versioning.mdx", "Compatibility Matrix"), PROBE,
               Cite(LEGACY, "basic/lifecycle.mdx", "Initialization")),
        reported_by=("probe",),
        quirks=("lenient",),
    ),
    "simulation-disagrees": FindingInfo(
        summary="the real server answered otherwise than the simulator predicted",
        when="probe: the simulator ran the same client against the inferred peer; a request at "
        "the same position got another answer (another error code, or a result carrying other "
        "steering fields: `protocolVersion`, `resultType`, `ttlMs`, `cacheScope`, "
        "`supportedVersions`), or the run ended otherwise. The finding gives both answers.",
        rule="Not a spec rule: it says the server does something no simulated quirk models, so "
        "the matrix row of `--save-peer` may be wrong for that client. The citation is the "
        "lifecycle page the negotiation follows.",
        fix="Read both answers. If the server is right, it has a quirk mcp-skew lacks (file it); "
        "if not, the other findings say what to change.",
        severities=("info",),
        cites=(LIFECYCLE,),
        reported_by=("probe",),
    ),
}

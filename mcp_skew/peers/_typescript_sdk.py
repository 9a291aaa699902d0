"""The TypeScript SDK family tables of the named-peer catalogue: the 1.x
``@modelcontextprotocol/sdk`` (``ts-sdk``), and the 2.x ``@modelcontextprotocol/server``
(``ts-server``) and ``@modelcontextprotocol/client`` (``ts-client``) (data; each model's
evidence names the source it was read from).
"""

from __future__ import annotations

from typing import Final

from ._family import ALL_LEGACY, AUTH_1X, AUTH_1X_NOTE, DUAL_ALL, Family, Model, Package, ReleaseLine

__all__ = ["STRICT_SERVERS", "TS_CLIENT", "TS_SDK", "TS_SERVER", "TS_STRICT"]

_TS_LENIENT = ("no lifecycle gate (requests before initialize are served, _meta is ignored); "
               "unknown methods -> -32601; an unsupported initialize revision -> the latest")
_TS_APP = ("tools/call of an unknown tool is an isError result in 1.x and -32602 in 2.x; the "
           "drift scenario leaves it out")

#: how callTool reads a result (docs/calls.md): the structured-content checks (1.29.0, 1.30.0,
#: 1.32.2 dist/esm/client/index.js; 2.4.0 callTool), and 2.x's declared dialects (PR 2534)
_CALLS_1X = "+needs-structured-content+checks-structured-content"
_CALLS_2X = f"+declared-dialects{_CALLS_1X}"
#: a tools/list whose tools' inputSchema has no type (server-filesystem 2025.1.14)
_UNTYPED_TOOLS = ("legacy:2025-11-25+untyped-input-schema",)

TS_SDK: Final = Family(
    name="ts-sdk",
    package="@modelcontextprotocol/sdk (npm)",
    server_script="ts_sdk_server.mjs",
    client_script="ts_client.mjs",
    lines=(
        ReleaseLine((1, 25, 0), "1.25.0-1.x",
             Package("npm", ("@modelcontextprotocol/sdk@1.32.2",), "1.32.2"),
             servers={"": Model(
                 f"legacy:{ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable",
                 f"McpServer + StdioServerTransport: {_TS_LENIENT} (2025-11-25 from 1.25.0: "
                 "dist/esm/types.js LATEST_PROTOCOL_VERSION); an unknown resource -> -32602 "
                 "(docs/real-peers.md §TypeScript @modelcontextprotocol/sdk 1.32.2)",
                 args=("--v1",), gaps=(_TS_APP,))},
             clients={"": Model(
                 f"legacy:{ALL_LEGACY}+strict-tools{_CALLS_1X}{AUTH_1X}",
                 "Client.connect: initialize 2025-11-25, raises on a revision outside "
                 "SUPPORTED_PROTOCOL_VERSIONS (dist/esm/client/index.js); listTools validates "
                 "each tool with ToolSchema (inputSchema type z.literal('object'), "
                 "dist/esm/types.js)" + AUTH_1X_NOTE,
                 args=("--v1",), drift_servers=_UNTYPED_TOOLS)}),
    ),
)

_V2_PKGS = ("@modelcontextprotocol/server@2.4.0", "@modelcontextprotocol/client@2.4.0")

TS_SERVER: Final = Family(
    name="ts-server",
    package="@modelcontextprotocol/server (npm)",
    server_script="ts_sdk_server.mjs",
    lines=(
        ReleaseLine((2, 4, 0), "2.4.x", Package("npm", _V2_PKGS, "2.4.0"),
             servers={
                 "dual": Model(
                     f"{DUAL_ALL}+lenient+not-found-code=-32602+drop-unparsable",
                     "serveStdio(factory): server/discover is a discardable probe, a legacy "
                     f"opening pins a 2025-era instance; {_TS_LENIENT} "
                     "(dist/stdio.mjs; docs/real-peers.md §With serveStdio)",
                     args=("--v2",),
                     gaps=(_TS_APP,
                           "a modern request other than server/discover pins the modern era "
                           "(a later initialize -> -32022); the model keeps serving both")),
                 "modern": Model(
                     "modern:2026-07-28+legacy-32022+no-requested+drop-unparsable",
                     "serveStdio(factory, {legacy: 'reject'}): initialize and every request "
                     "without a protocol version -> -32022 naming 2026-07-28",
                     args=("--v2", "--legacy-reject"), gaps=(_TS_APP,)),
                 "legacy": Model(
                     f"legacy:{ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable",
                     "server.connect(new StdioServerTransport()): as the 1.x SDK, legacy only "
                     "(docs/real-peers.md §With server.connect)",
                     args=("--v2", "--plain-connect"), gaps=(_TS_APP,)),
             }),
    ),
)

TS_STRICT = ("once negotiated at 2026-07-28, a result without resultType, or a cacheable one "
             "without ttlMs/cacheScope, fails the request (SdkError INVALID_RESULT, "
             "decodeResult in dist/src-*.mjs); the server/discover probe is read leniently")
#: Simulated servers the strict TypeScript v2 client is also checked against.
STRICT_SERVERS = ("modern:2026-07-28+no-result-type", "modern:2026-07-28+no-cache-hints",
                  "dual:2026-07-28,2025-11-25+no-result-type",
                  # a DiscoverResult offering no modern revision (go-sdk issue 1025)
                  "dual:2026-07-28,2025-11-25+discover-legacy")

TS_CLIENT: Final = Family(
    name="ts-client",
    package="@modelcontextprotocol/client (npm)",
    client_script="ts_client.mjs",
    lines=(
        ReleaseLine((2, 4, 0), "2.4.x", Package("npm", _V2_PKGS, "2.4.0"),
             clients={
                 "legacy": Model(
                     f"legacy:{ALL_LEGACY}+strict-tools{_CALLS_2X}",
                     "Client with versionNegotiation absent (mode 'legacy', the default): "
                     "initialize 2025-11-25 ('byte-identical' 2025 sequence); listTools "
                     "validates inputSchema type 'object' (core schemas)",
                     args=("--v2", "--mode", "legacy")),
                 "auto": Model(
                     f"{DUAL_ALL}+restart+probe-timeout=60000+fallback-denylist+strict-results"
                     f"+discover-fallback+strict-discover{_CALLS_2X}",
                     "versionNegotiation {mode: 'auto'}: server/discover on a throwaway sibling "
                     "process with the request timeout (60 s); a timeout, a closed process, "
                     "any non-modern error or a DiscoverResult offering no modern revision -> "
                     "initialize on the session process; one corrective "
                     "re-probe on -32022 (dist/public-*.mjs negotiateEra, classifyProbeOutcome, "
                     "classifyResult; a DiscoverResult that fails validation is legacy: "
                     "strict-discover); "
                     f"{TS_STRICT}",
                     args=("--v2", "--mode", "auto"), drift_probe_ms=3000,
                     drift_servers=STRICT_SERVERS,
                     gaps=("the probe always runs in a throwaway process, so the session starts "
                           "on a fresh one; the model restarts only after a timeout or an exit",
                           "a -32022 naming a shared modern revision twice fails the connect; "
                           "the model falls back when it also names a handshake revision")),
                 "pin": Model(
                     f"modern:2026-07-28+discover+strict-results+strict-discover{_CALLS_2X}",
                     "versionNegotiation {mode: {pin: '2026-07-28'}}: server/discover at "
                     "2026-07-28 on a throwaway sibling process; a DiscoverResult offering "
                     "2026-07-28 -> the session speaks it on a fresh process; anything else (an "
                     "error, a timeout, an exit, no 2026-07-28 offered) fails the connect, 'no "
                     "fallback in pin mode' (dist/public-*.mjs negotiateEra); "
                     f"{TS_STRICT} (docs/real-peers.md §TypeScript v2 client strictness)",
                     args=("--v2", "--mode", "pin"), drift_probe_ms=10_000,
                     drift_servers=STRICT_SERVERS,
                     gaps=("the probe waits the request timeout (60 s; 10 s in the drift check, "
                           "which a loaded machine's Python start-up must not race), the model "
                           "its request timeout (10 s)",
                           "the probe runs in a throwaway process and the session on a fresh "
                           "one; the model keeps one process")),
             }),
    ),
)

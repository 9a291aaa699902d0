"""The family tables of applications on the TypeScript SDK in the named-peer catalogue:
the reference server ``server-everything``, the Inspector's CLI (``inspector``) and
``mcp-remote`` (data; each model's evidence names the source it was read from).
"""

from __future__ import annotations

from typing import Final

from ._family import ALL_LEGACY, AUTH_1X, DUAL_ALL, Family, Model, Package, ReleaseLine
from ._typescript_sdk import STRICT_SERVERS, TS_STRICT

__all__ = ["INSPECTOR", "MCP_REMOTE", "SERVER_EVERYTHING"]

_SE_APP = ("the reference server's own tools (echo takes 'message', there is no 'fail') "
           "and prompts; the drift check plays the protocol steps only (list the tools, read "
           "a missing resource)")


def _everything(version: str) -> Package:
    return Package("npm", (f"@modelcontextprotocol/server-everything@{version}",), version)


_SE_EVIDENCE = ("the reference server's stdio entry (dist/index.js) as npm installs it today; "
                "no lifecycle gate on the SDK's Protocol (requests before initialize are served), "
                "unknown methods -> -32601, an unsupported initialize revision -> the SDK's latest")
_SE_SDK_NOW = "@modelcontextprotocol/sdk resolves to 1.32.2 (the package's caret range)"

SERVER_EVERYTHING: Final = Family(
    name="server-everything",
    package="@modelcontextprotocol/server-everything (npm)",
    server_script="server_everything.mjs",
    lines=(
        ReleaseLine((2025, 1, 14), "2025.1.14-2025.4.x", _everything("2025.1.14"),
             servers={"": Model(
                 "legacy:2024-11-05+lenient+not-found-code=-32603+drop-unparsable+outlives-stdin",
                 f"{_SE_EVIDENCE}; @modelcontextprotocol/sdk 1.0.1 (pinned): 2024-11-05 only; "
                 "a missing resource -> -32603 (its read handler throws); its update timer keeps "
                 "the process alive after stdin closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), drift_scenario="protocol", gaps=(_SE_APP,))}),
        ReleaseLine((2025, 5, 12), "2025.5.12-2025.9.x", _everything("2025.5.12"),
             servers={"": Model(
                 f"legacy:{ALL_LEGACY}+lenient+not-found-code=-32603+drop-unparsable"
                 "+outlives-stdin+not-initialized-32000+one-transport",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}, so up to 2025-11-25; a missing resource -> "
                 "-32603; its log and subscription timers keep the process alive after stdin "
                 "closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
        ReleaseLine((2025, 11, 25), "2025.11.25-2026.1.x", _everything("2025.11.25"),
             servers={"": Model(
                 f"legacy:{ALL_LEGACY}+lenient+early-tools-32603+not-found-code=-32603"
                 "+drop-unparsable+outlives-stdin+not-initialized-32000+asks-roots",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}; tools/list before initialize -> -32603 (the "
                 "handler reads the client's capabilities); a missing resource -> -32603; "
                 "timers keep the process alive after stdin closes (docs/real-peers.md "
                 "§server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
        ReleaseLine((2026, 8, 31), "2026.7.4-2026.x", _everything("2026.8.31"),
             servers={"": Model(
                 f"legacy:{ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable"
                 "+not-initialized-32000+asks-roots",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}; the rewritten server (dist/server/, "
                 "dist/transports/): a missing resource -> -32602 (the SDK's McpServer), and "
                 "it exits when stdin closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
    ),
)

#: Servers that declare logging, in each era: the Inspector CLI sets the level on connect in
#: the legacy era only (clients/cli/build/index.js connect: initialLoggingLevel 'debug' where
#: capabilities.logging and protocolEra !== 'modern'; inspector issue 1990's fix)
_LOGGING_SERVERS = ("legacy:2025-11-25+logging", "dual:2026-07-28,2025-11-25+logging")

_INSPECTOR_CLI = ("`inspector --cli --protocol-era ERA --method tools/list` with a stdio target; "
                  "the CLI bundles @modelcontextprotocol/client 2.3.1 and maps the era to its "
                  "versionNegotiation (clients/cli/build/index.js eraToVersionNegotiation)")

#: The CLI's waits, in every era (docs/time.md): its connect timeout bounds the whole connect
#: (clients/cli/build/index.js, core/cli/handlers/connect-timeout.ts: DEFAULT_CONNECT_TIMEOUT_MS
#: = 15e3, --connect-timeout), and each request of the bundled @modelcontextprotocol/client
#: 2.3.1 waits its DEFAULT_REQUEST_TIMEOUT_MSEC = 6e4 (dist/src-*.mjs)
_INSPECTOR_WAITS = "+connect-timeout=15000+request-timeout=60000"
_INSPECTOR_WAITS_NOTE = ("the CLI's --connect-timeout (15000 ms, DEFAULT_CONNECT_TIMEOUT_MS) bounds "
                         "the whole connect, each request waits the bundled client's 60 s "
                         "(DEFAULT_REQUEST_TIMEOUT_MSEC): a server that first answers after "
                         "15 s fails the connect (exit 4 'Connection timed out after 15000 ms')")

INSPECTOR: Final = Family(
    name="inspector",
    package="@modelcontextprotocol/inspector (npm)",
    client_script="inspector_client.mjs",
    lines=(
        ReleaseLine((2, 12, 0), "2.12.x",
             Package("npm", ("@modelcontextprotocol/inspector@2.12.0",), "2.12.0"),
             clients={
                 "legacy": Model(
                     f"legacy:{ALL_LEGACY}{AUTH_1X}+dcr-native+reauthorize-same-scope"
                     f"+era-set-level{_INSPECTOR_WAITS}",
                     f"{_INSPECTOR_CLI}; legacy (the default for an ad-hoc target) -> {{mode: "
                     "'legacy'}: initialize 2025-11-25, a counter-offer it supports accepted "
                     "(docs/real-peers.md §Inspector); its OAuth (the bundled client's, with "
                     "the Inspector's provider) authorizes as the SDK 1.x client does, and "
                     "registers as application_type native (clientMetadata); a 403 "
                     "insufficient_scope makes it run its OAuth again from scratch, with the "
                     "scope it asked for first, and retry once (withCliAuthRecoveryRetry): "
                     "measured headless against serve's layouts "
                     "(tests/interop/test_auth_realpeer.py); connected to a server that "
                     "declares logging it sends logging/setLevel debug (era-set-level); "
                     f"{_INSPECTOR_WAITS_NOTE}",
                     args=("--era", "legacy"), drift_servers=_LOGGING_SERVERS),
                 "auto": Model(
                     f"{DUAL_ALL}+restart+probe-timeout=60000{_INSPECTOR_WAITS}"
                     "+fallback-denylist+strict-results+raw-retry+discover-fallback"
                     "+era-set-level+strict-discover",
                     f"{_INSPECTOR_CLI}; auto -> {{mode: 'auto'}}: the SDK's probe and fallback "
                     "(as ts-client@2.4:auto), but the CLI's --connect-timeout (15000 ms) ends a "
                     "silent probe first (exit 4 'Connection timed out after 15000 ms'); "
                     f"{TS_STRICT}; a refused tools/list is sent once more as 'inspector-ext-1' "
                     "(docs/real-peers.md §Inspector); logging/setLevel on connect in the "
                     "legacy era only, where the server declares logging (era-set-level); an "
                     "incomplete DiscoverResult is a failed probe (strict-discover: the bundled "
                     f"client's classifyResult); {_INSPECTOR_WAITS_NOTE}",
                     args=("--era", "auto"), drift_servers=STRICT_SERVERS + _LOGGING_SERVERS,
                     gaps=("the probe runs in a throwaway process and the session on a fresh "
                           "one; the model restarts only after a timeout or an exit",)),
                 "modern": Model(
                     "modern:2026-07-28+discover+strict-results+raw-retry+strict-discover"
                     f"{_INSPECTOR_WAITS}",
                     f"{_INSPECTOR_CLI}; modern -> {{mode: {{pin: '2026-07-28'}}}}: as "
                     "ts-client@2.4:pin, no fallback; a refused tools/list is sent once more "
                     f"(docs/real-peers.md §Inspector); {_INSPECTOR_WAITS_NOTE}",
                     args=("--era", "modern"),
                     drift_servers=STRICT_SERVERS + _LOGGING_SERVERS[1:]),
             }),
    ),
)

# mcp-remote 0.1.38 (npm; github geelen/mcp-remote): a stdio server to its local client and a
# Streamable HTTP client of the remote, authorizing before it reads its stdin (src/proxy.ts
# runProxy: connectToRemoteServer, then localTransport.start()). Its model is the upstream
# client's authorization; each trait read in its dist/chunk-*.js (the sources named below,
# bundled with @modelcontextprotocol/sdk 1.25.3) and checked against serve --http of each
# layout by tests/interop/test_auth_mcp_remote_realpeer.py:
_MCP_REMOTE_AUTH = (
    # initialize 2025-11-25 from its own test client ("mcp-remote-fallback-test",
    # src/lib/utils.ts connectToRemoteServer), the SDK 1.25.3's LATEST_PROTOCOL_VERSION; the
    # local client's initialize is passed through as it is
    f"legacy:{ALL_LEGACY}"
    # the SDK's auth() does the discovery (sdk/dist/esm/client/auth.js authInternal): PRM from
    # the WWW-Authenticate resource_metadata, then the path-inserted and the root well-known
    # URLs; RFC 8414 then OpenID discovery; without PRM the MCP origin (new URL("/", serverUrl))
    "+auth-origin-fallback"
    # NodeOAuthClientProvider has no clientMetadataUrl: a client id by registerClient only
    # (src/lib/node-oauth-client-provider.ts)
    "+dcr-only"
    # selectResourceURL: no PRM, no resource (no validateResourceURL on its provider; its
    # --resource flag is off by default: src/lib/utils.ts parseCommandLineArgs)
    "+resource-with-prm-only"
    # without metadata the SDK's /authorize, /token, /register at the issuer
    # (startAuthorization, executeTokenRequest, registerClient)
    "+default-endpoints"
    # getEffectiveScope: the static metadata's scope, WWW-Authenticate's, the PRM's
    # scopes_supported, the registration's, the AS metadata's, else "openid email profile";
    # redirectToAuthorization sets it on every authorization URL
    "+openid-scope")
_MCP_REMOTE_TEST = "tests/interop/test_auth_mcp_remote_realpeer.py"

MCP_REMOTE: Final = Family(
    name="mcp-remote",
    package="mcp-remote (npm)",
    client_script="mcp_remote_client.py",
    lines=(
        ReleaseLine((0, 1, 0), "0.1.x", Package("npm", ("mcp-remote@0.1.38",), "0.1.38"),
             clients={"": Model(
                 _MCP_REMOTE_AUTH,
                 "the stdio-to-Streamable-HTTP proxy (dist/proxy.js): its OAuth is the SDK "
                 "1.25.3's auth() with its own NodeOAuthClientProvider: the SDK 1.x discovery "
                 "and fallbacks, dynamic registration only, resource only with protected "
                 "resource metadata, and scope openid email profile where it finds none "
                 "(getEffectiveScope); measured headless against serve's layouts "
                 f"({_MCP_REMOTE_TEST})",
                 checked_by=_MCP_REMOTE_TEST,
                 gaps=("before connecting it discovers on its own (src/lib/utils.ts "
                       "discoverOAuthServerInfo: GET the MCP URL, the protected resource "
                       "metadata, RFC 8414 metadata at the issuer's origin only) for its "
                       "scope choice; the model makes the SDK's discovery only",
                       "it connects twice (a test client's initialize, then the local "
                       "client's, each its own session); the model connects once",
                       "against a 2025-03-26-style server with a separate authorization "
                       "server, releases before protected resource metadata discovery "
                       "(mcp-remote issue 192) failed as a 2025-03-26 client does; 0.1.38 "
                       "completes"))}),
    ),
)

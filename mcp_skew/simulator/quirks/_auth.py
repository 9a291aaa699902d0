"""The authorization quirks (scenario auth, over Streamable HTTP): what a protected server
publishes and how a client finds its way to a token. Part of :data:`~._table.QUIRKS`, in
its order: the server ones after the stdio-only servers', the client ones after
``auth-fallback``.
"""

from __future__ import annotations

from typing import Final

from ._policy import Effect
from ._quirk import Quirk

__all__ = ["CLIENT_AUTH", "SERVER_AUTH"]

#: The servers' authorization quirks.
SERVER_AUTH: Final[tuple[Quirk, ...]] = (
    Quirk("auth", "server",
       "over HTTP, under scenario auth, publishes its authorization as LAYOUT: origin (2025-03-26 "
       "metadata at the MCP origin), defaults (no metadata, /authorize /token /register), "
       "prm (protected resource metadata named in WWW-Authenticate, a separate "
       "authorization server), prm-root (metadata at the root well-known only, no header "
       "parameter), oidc (OpenID discovery only), no-dcr (no registration endpoint), "
       "compat (everything, for clients of every revision), scoped (scopes per "
       "operation: 403 insufficient_scope naming the missing one); over stdio it does "
       "nothing",
       "remote servers: Supabase and mcp-remote issue 192 (origin-only clients), "
       "Cloudflare and Atlassian (workers-oauth-provider issue 137), typescript-sdk "
       "issues 2783 and 616: docs/auth.md",
       value="layout", transports=("http",),
       effects=(Effect("auth_layout", convert=str),)),
    Quirk("no-iss", "server",
       "over HTTP, under scenario auth, its authorization server advertises "
       "authorization_response_iss_parameter_supported but sends no iss; over stdio it does nothing",
       "authorization servers that set the metadata flag before emitting iss (2026-07-28 "
       "basic/authorization/index.mdx §Authorization Response Validation)",
       transports=("http",), effects=(Effect("auth_iss", "missing"),)),
    Quirk("wrong-iss", "server",
       "over HTTP, under scenario auth, its authorization server sends another issuer's iss "
       "(a mix-up attack, RFC 9207); over stdio it does nothing",
       "RFC 9207 §2.4's mix-up case",
       transports=("http",), effects=(Effect("auth_iss", "wrong", rank=1),)),
    Quirk("dcr-app-type", "server",
       "over HTTP, under scenario auth, its authorization server's dynamic registration "
       "reads a registration without application_type as web, and refuses a web client a "
       "loopback redirect URI (invalid_redirect_uri); over stdio it does nothing",
       "OpenID Connect authorization servers (2026-07-28 basic/authorization/"
       "client-registration.mdx §Application Type and Redirect URI Constraints); the "
       "Inspector 2.12.0 sends application_type native because \"OIDC-flavored ASes "
       "default an omitted application_type to web, which forbids loopback redirect URIs "
       "and rejects DCR\" (clients/cli/build/index.js clientMetadata)",
       transports=("http",), effects=(Effect("auth_app_type"),)),
    Quirk("as-moves", "server",
       "over HTTP, under scenario auth, moves to another authorization server (issuer "
       "/auth2, which knows none of the first one's clients or tokens) once it served a "
       "tools/list: the next request's token gets 401; over stdio it does nothing",
       "a server migrated to a new authorization server (2026-07-28 basic/authorization/"
       "client-registration.mdx §Authorization Server Binding)",
       transports=("http",), effects=(Effect("auth_moves"),)),
    Quirk("strict-scopes", "server",
       "over HTTP, under scenario auth, its authorization server refuses an authorization "
       "request naming a scope it does not publish: a redirect with error invalid_scope "
       "(RFC 6749 §4.1.2.1); over stdio it does nothing",
       "Cloudflare's mcp.cloudflare.com (\"Unknown OAuth scope: openid, email, profile\": "
       "cloudflare/mcp-server-cloudflare issue 457); fastmcp servers refusing the same "
       "scopes at registration (mcp-remote issue 204)",
       transports=("http",), effects=(Effect("auth_strict_scopes"),)),
)

#: The clients' authorization quirks.
CLIENT_AUTH: Final[tuple[Quirk, ...]] = (
    Quirk("dcr-native", "client",
       "over HTTP, under scenario auth, its dynamic registration says application_type "
       "native whatever its revision's rules (2026-07-28's MUST, kept by a loopback "
       "client); over stdio it does nothing",
       "the Inspector 2.12.0 (clients/cli/build/index.js clientMetadata: \"registers as a "
       "native client\"), measured against serve's dcr-app-type (tests/interop/"
       "test_auth_realpeer.py)",
       transports=("http",), effects=(Effect("auth_native"),)),
    Quirk("openid-scope", "client",
       "over HTTP, under scenario auth, with no scope from the 401's challenge or the "
       "protected resource metadata's scopes_supported, asks for openid email profile "
       "where the spec says to omit scope (2025-11-25 basic/authorization.mdx §Scope "
       "Selection Strategy); over stdio it does nothing",
       "mcp-remote 0.1.38 (src/lib/node-oauth-client-provider.ts getEffectiveScope: "
       "\"Using fallback default scope\"), measured headless against serve "
       "(tests/interop/test_auth_mcp_remote_realpeer.py); refused by Cloudflare's "
       "mcp.cloudflare.com (cloudflare/mcp-server-cloudflare issue 457)",
       transports=("http",), effects=(Effect("auth_openid_scope"),)),
    Quirk("reauthorize-same-scope", "client",
       "over HTTP, under scenario auth, answers a 403 insufficient_scope by authorizing "
       "again with the scope it asked for first (the challenge's scope is not read), "
       "once per method: the retry gets the same 403 where the request needs more "
       "(2025-11-25 basic/authorization.mdx §Step-Up Authorization Flow asks for the "
       "challenge's scopes); over stdio it does nothing",
       "the Inspector 2.12.0 CLI (clients/cli/build/index.js withCliAuthRecoveryRetry: "
       "on the transport's UnauthorizedError it runs its interactive OAuth from scratch, "
       "connects and retries once), measured against serve's scoped layout "
       "(tests/interop/test_auth_realpeer.py)",
       transports=("http",), effects=(Effect("auth_reauthorize_same"),)),
    Quirk("auth-origin-fallback", "client",
       "over HTTP, under scenario auth, with no protected resource metadata, looks for the "
       "authorization server's metadata at the MCP origin (as 2025-03-26 did); over stdio it "
       "does nothing",
       "the TypeScript SDK client (its discovery falls back to the server URL's origin; "
       "workers-oauth-provider issue 137)",
       transports=("http",), effects=(Effect("auth_origin_fallback"),)),
    Quirk("rfc8414-only", "client",
       "over HTTP, under scenario auth, reads only RFC 8414 authorization server metadata, never "
       "OpenID Connect discovery; over stdio it does nothing",
       "the TypeScript SDK client before OpenID discovery (typescript-sdk issue 616)",
       transports=("http",), effects=(Effect("auth_rfc8414_only"),)),
    Quirk("dcr-only", "client",
       "over HTTP, under scenario auth, obtains a client id by dynamic registration only (no "
       "pre-registration, no client ID metadata document); over stdio it does nothing",
       "mcp-remote and most 2025 clients",
       transports=("http",), effects=(Effect("auth_dcr_only"),)),
    Quirk("client-credentials", "client",
       "over HTTP, under scenario auth, a pre-registered confidential client: the client credentials "
       "grant, no authorization code; over stdio it does nothing",
       "machine-to-machine clients (the io.modelcontextprotocol/oauth-client-credentials "
       "extension)",
       transports=("http",), effects=(Effect("auth_client_credentials"),)),
    Quirk("resource-with-prm-only", "client",
       "over HTTP, under scenario auth, sends resource (RFC 8707) only when it found "
       "protected resource metadata, so a token it gets at the origin has no audience; "
       "over stdio it does nothing",
       "the Python mcp 1.30 client (OAuthContext.should_include_resource_param: no "
       "metadata and no negotiated version yet, no resource): "
       "tests/interop/test_auth_realpeer.py",
       transports=("http",), effects=(Effect("auth_resource_needs_prm"),)),
    Quirk("default-endpoints", "client",
       "over HTTP, under scenario auth, without authorization server metadata uses the "
       "2025-03-26 default endpoints /authorize, /token, /register at the MCP origin; over "
       "stdio it does nothing",
       "the Python mcp 1.30 client (its legacy 2025-03-26 path): "
       "tests/interop/test_auth_realpeer.py",
       transports=("http",), effects=(Effect("auth_default_endpoints"),)),
)

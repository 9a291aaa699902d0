"""``docs/auth.md`` is generated from the profiles, the layouts and the cases of
``tests/_auth_cases.py``; this test keeps it current. To rewrite it::

    PYTHONPATH=tests .venv/bin/python tests/unit/test_auth_doc.py
"""

from __future__ import annotations

from pathlib import Path

from _auth_cases import CASES, auth_step, simulate

from mcp_skew.simulator.http.auth._server import (
    AUTH_BODY_BYTES,
    FIELD_CHARS,
    MAX_CLIENTS,
    MAX_CODES,
    MAX_REDIRECT_URIS,
    MAX_TOKENS,
)
from mcp_skew.versions import REGISTRY
from mcp_skew.versions._auth import LAYOUTS, plain_layout, rule_values

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "auth.md"
_CLIENT_ROWS = ("client.prm", "client.as-issuer", "client.as-metadata",
                "client.default-endpoints", "client.resource", "client.registration",
                "client.pkce", "client.iss", "client.issuer-match", "client.scope",
                "client.step-up", "client.credentials", "client.application-type")
_PLAIN = {"2025-03-26": "legacy:2025-03-26", "2025-06-18": "legacy:2025-06-18",
          "2025-11-25": "legacy:2025-11-25", "2026-07-28": "modern:2026-07-28"}


def _cell(values: tuple[str, ...]) -> str:
    return ", ".join(f"`{v}`" for v in values) or "-"


def _rules_table() -> list[str]:
    revs = [p for p in REGISTRY if p.revision in _PLAIN]
    out = ["| rule | " + " | ".join(p.revision for p in revs) + " |",
           "|---|" + "---|" * len(revs)]
    for name in _CLIENT_ROWS:
        out.append(f"| `{name}` | " + " | ".join(_cell(rule_values(p, name)) for p in revs) + " |")
    out += ["", "Where each rule is written (the newest revision that sets it):", ""]
    newest = REGISTRY.get("2026-07-28").tables["auth"]
    assert not isinstance(newest, frozenset)
    for name, rule in newest.items():
        out.append(f"- `{name}` ({rule.level.value}): \"{rule.rule}\": "  # type: ignore[union-attr]
                   f"[{rule.cite}]({rule.cite.url()})")  # type: ignore[union-attr]
    return out


def _layouts_table() -> list[str]:
    plain = {rev: plain_layout(REGISTRY.get(rev)) - {"audience"} for rev in _PLAIN}
    out = ["| layout | publishes | a plain server of |", "|---|---|---|"]
    for name, tokens in LAYOUTS.items():
        same = [rev for rev, got in plain.items() if got == tokens]
        out.append(f"| `{name}` | {_cell(tuple(sorted(tokens)))} | {', '.join(same) or '-'} |")
    for rev, tokens in plain.items():
        if tokens not in LAYOUTS.values():
            out.append(f"| (none: plain {rev}) | {_cell(tuple(sorted(tokens)))} | {rev} |")
    return out


def _paths() -> list[str]:
    out = []
    for rev, client in _PLAIN.items():
        record = simulate(client, client)
        out += [f"- **{rev}** client and server: `{auth_step(record)}`"]
    return out


def _cases() -> list[str]:
    out = ["| case | client | server | outcome | auth path | spec | seen in |",
           "|---|---|---|---|---|---|---|"]
    for case in CASES:
        record = simulate(case.client, case.server)
        verdict = f"ok, {record.revision}" if record.status == "ok" else "fails"
        out.append(f"| {case.name} | `{case.client}` | `{case.server}` | {verdict} | "
                   f"`{auth_step(record)}` | {case.cite} | {case.report} |")
    return out


_SCOPED = "dual:2026-07-28,2025-11-25,2025-06-18+auth=scoped"


def _step_ups() -> list[str]:
    out = ["| client | outcome | the step-ups |", "|---|---|---|"]
    for client in ("modern:2026-07-28", "legacy:2025-11-25", "legacy:2025-06-18"):
        record = simulate(client, _SCOPED)
        verdict = f"ok, {record.revision}" if record.status == "ok" else \
            f"fails: {record.reason}"
        ups = [s for s in record.session.path if s.startswith("step-up")]
        out.append(f"| `{client}` | {verdict} | "
                   + ("<br>".join(f"`{s}`" for s in ups) or "-") + " |")
    return out


def _registrations() -> list[str]:
    out = ["| client | server | outcome | auth paths |", "|---|---|---|---|"]
    for client, server in (("modern:2026-07-28", "modern:2026-07-28+auth=prm+as-moves"),
                           ("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm+as-moves"),
                           ("modern:2026-07-28", "modern:2026-07-28+auth=prm+dcr-app-type"),
                           ("legacy:2025-11-25+dcr-only",
                            "legacy:2025-11-25+auth=prm+dcr-app-type")):
        record = simulate(client, server)
        verdict = f"ok, {record.revision}" if record.status == "ok" else \
            f"fails: {record.reason}"
        paths = [s for s in record.session.path if s.kind == "auth"]
        out.append(f"| `{client}` | `{server}` | {verdict} | "
                   + "<br>".join(f"`{p}`" for p in paths) + " |")
    return out


def _trace() -> list[str]:
    from mcp_skew.simulator._trace import render_trace

    record = simulate("legacy:2025-11-25+dcr-only", "legacy:2025-11-25+auth=prm-root")
    return ["```", *render_trace(record).splitlines(), "```"]


def render_auth_doc() -> str:
    out = [
        "# Authorization across revisions",
        "",
        "<!-- generated by tests/unit/test_auth_doc.py; regenerate with "
        "PYTHONPATH=tests .venv/bin/python tests/unit/test_auth_doc.py -->",
        "",
        "Remote MCP servers are protected, and how a client finds a server's authorization "
        "server changed in every revision from 2025-03-26 on. `--scenario auth` (Streamable "
        "HTTP only: `--transport http`) protects the simulated server: its first answer is "
        "401, and the client discovers its authorization server by the rules of its newest "
        "revision, registers, gets a token from the simulated authorization server (which "
        "approves at once: authorization code with PKCE, or client credentials), and sends "
        "the request again. Every request of the discovery is in the transcript, and the "
        "path has one typed `auth` step, the **auth path**.",
        "",
        "```",
        "mcp-skew simulate --transport http --scenario auth --client legacy:2025-11-25 "
        "--server legacy:2025-11-25+auth=prm-root --trace",
        "mcp-skew matrix --transport http --scenario auth --servers "
        "'dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26+auth=origin' ...",
        "```",
        "",
        "Over stdio the scenario does not apply (implementations using stdio SHOULD NOT "
        "follow the authorization spec: `basic/authorization.mdx` §Protocol Requirements); "
        "the commands say so in one line and exit 2.",
        "",
        "## What a client of each revision does",
        "",
        "The `auth` table of each profile (`docs/generated/profiles/<rev>.md`, section "
        "Authorization rules); the simulator reads nothing else, so a draft profile that "
        "replaces a row (e.g. `client.prm`) changes what its clients ask for.",
        "",
        *_rules_table(),
        "",
        "Each client's quirks adjust its plan: `auth-origin-fallback` (with no protected "
        "resource metadata, the MCP origin, as the TypeScript SDK does), `rfc8414-only` "
        "(no OpenID discovery), `dcr-only` (dynamic registration only), `client-credentials` "
        "(a pre-registered confidential client), `openid-scope` (`openid email profile` "
        "where no scope is named, as mcp-remote does), `reauthorize-same-scope` (a 403 "
        "insufficient_scope answered with the first scope again, once, as the Inspector "
        "does). Server quirk `strict-scopes`: the authorization server refuses a scope it "
        "does not publish (`invalid_scope`). See [quirks.md](quirks.md).",
        "",
        "## What a protected server publishes: layouts",
        "",
        "Server quirk `auth=LAYOUT` names one; without it a server publishes what its newest "
        "revision requires (its `server.*` rows). A separate authorization server has the "
        "issuer `<origin>/auth` (its RFC 8414 metadata at "
        "`/.well-known/oauth-authorization-server/auth`, OpenID's at "
        "`/auth/.well-known/openid-configuration`). From 2025-06-18 on the MCP server also "
        "checks a token's audience (`server.audience`): a token without `resource` is "
        "refused.",
        "",
        *_layouts_table(),
        "",
        "## Discovery paths, per revision",
        "",
        *_paths(),
        "",
        "A trace (the 2025-11-25 order of well-known URLs: the header, then the "
        "path-inserted URL, then the root):",
        "",
        *_trace(),
        "",
        "## The real failures",
        "",
        "Each row is a test (`tests/unit/test_auth_cases.py`), with the rule it follows and "
        "where the failure was seen.",
        "",
        *_cases(),
        "",
        "## Scope selection and step-up",
        "",
        "The first authorization asks for the 401's `scope`, else all of the protected "
        "resource metadata's `scopes_supported`, else no `scope` (`client.scope`, 2025-11-25 "
        "§Scope Selection Strategy). A `403` with `WWW-Authenticate: Bearer "
        "error=\"insufficient_scope\", scope=\"...\"` to a client holding a token starts a "
        "step-up where its revision has one (`client.step-up`): 2025-11-25 re-authorizes with "
        "the challenge's scopes, 2026-07-28 with their union with the scopes asked for "
        "before (§Step-Up Authorization Flow), keeping its client id, and sends the request "
        "again: at most twice for one method (\"no more than a few times\"), and not at all "
        "when the challenge adds nothing to the scopes asked for last, so a server that "
        "keeps asking cannot make it loop. A "
        "client without the rule gets the 403 as the request's error, said as such.",
        "",
        "The layout `scoped` wants `mcp:read` for every request and `mcp:tools` as well for "
        "`tools/call`, and challenges per operation, naming only the missing scope (which "
        "2026-07-28 §Runtime Insufficient Scope Errors allows: \"servers are not required to "
        "include the client's previously granted scopes\"). Against "
        f"`{_SCOPED}`:",
        "",
        *_step_ups(),
        "",
        "## Registration: credentials per authorization server, application_type",
        "",
        "A 2026-07-28 client keys the client id it registered by the authorization server's "
        "issuer, and registers again with a new one (`client.credentials`, 2026-07-28 "
        "`basic/authorization/client-registration.mdx` §Authorization Server Binding); an "
        "older revision says nothing, and the simulated client keys it by the MCP server, so "
        "it presents the old client id to the new authorization server. Its dynamic "
        "registration says `application_type: native` (`client.application-type`, "
        "§Application Type and Redirect URI Constraints: the simulated client's redirect URI "
        "is on the loopback). Server quirk `as-moves`: once a `tools/list` was served, the "
        "server moves to another authorization server (issuer `/auth2`), which knows none of "
        "the first one's clients and tokens; a client whose token worked authorizes once "
        "more on the 401 that follows. Server quirk `dcr-app-type`: the authorization "
        "server reads a registration without `application_type` as `web`, as OpenID Connect "
        "does, and refuses a web client a loopback redirect URI (such servers \"may enforce "
        "additional constraints\"; not a plain server's default, since the spec does not "
        "require it).",
        "",
        *_registrations(),
        "",
        "## A 401 is not a legacy server",
        "",
        "A dual-era client falls back to `initialize` only on a 400, 404 or 405 without a "
        "recognised modern error (2026-07-28 `basic/transports/streamable-http.mdx` "
        "§Backward Compatibility); a 401 or 403 is an authorization failure and a 5xx a "
        "server error, and the path says so: `http: HTTP 401 is an authorization failure, "
        "not a legacy server`. The TypeScript client 2.0 betas did fall back on a 401 "
        "(typescript-sdk issue 2561, fixed in PR 2564): client quirk `auth-fallback`.",
        "",
        "## serve and probe",
        "",
        "- `mcp-skew serve --http 127.0.0.1:0 'legacy:2025-06-18+auth=prm'` serves the "
        "protected server and its authorization server on one loopback origin; the test "
        "authorization server approves every authorization request at once, so a real "
        "client can run the whole flow headlessly (follow the 302 to the redirect URI "
        "yourself). A pre-registered client `mcp-skew-preregistered` / `mcp-skew-secret` "
        "gets tokens by client credentials (send `resource=<the MCP URL>`).",
        "- `mcp-skew probe --url URL` of a protected server: every client's outcome is "
        "`needs-auth` (never a fallback), and the card says `authorization required`, with "
        "what each revision's discovery finds there (GET requests only, no credentials) and "
        "the findings `auth-required`, `auth-undiscoverable` (with what to serve) and "
        "`auth-metadata-inconsistent` ([findings.md](findings.md)). `--token TOKEN` probes "
        "as an authorized client. An authorization server on another origin (another host "
        "or port) is followed there, without the user's headers, which go to the MCP "
        "server's origin only (`tests/unit/test_auth_remote_as.py`, and over real loopback "
        "HTTP `tests/slow/unit/test_auth_remote_as_slow.py`).",
        "",
        "## Limits of the test authorization server",
        "",
        "It serves real clients on loopback, and anyone who reaches the port reaches it "
        "unauthenticated; so it refuses what an authorization server must refuse, and keeps "
        "bounded tables (`mcp_skew/simulator/http/auth/_limits.py`, the attacks in "
        "`tests/_auth_attacks.py`):",
        "",
        "- **Every request target is read once** (`parse_target`), by the guard and the "
        "endpoint alike: `/mcp#x` (no request target has a fragment: RFC 9112 §3.2) is 400, "
        "and the absolute form `http://host/mcp` is the MCP endpoint and wants a token "
        "(\"authorization MUST be included in every HTTP request from client to server\": "
        "2025-11-25 `basic/authorization.mdx` §Token Requirements).",
        "- **Tokens, authorization codes and client ids are unguessable and bound**: each is "
        "an HMAC-SHA256 of its kind, a counter and what it is bound to (a token's resource, a "
        "code's client and resource), keyed by random bytes of the `serve` process (the "
        "simulator keys them with a fixed value, so its transcripts stay byte for byte the "
        "same); a token is accepted only by the server that issued it, and, where the "
        "revision validates audiences, only if it was issued for that server's URL (\"MCP "
        "servers MUST validate that access tokens were issued specifically for them as the "
        "intended audience, according to RFC 8707 Section 2\": 2025-06-18 and 2025-11-25 "
        "`basic/authorization.mdx` §Token Handling).",
        "- **Redirect URIs**: a registration whose `redirect_uris` has one that is not "
        "`https`, or `http` on the loopback, or that has a fragment or userinfo, is 400 "
        "`invalid_redirect_uri` (\"All redirect URIs MUST be either localhost or use HTTPS\": "
        "2025-11-25 §Communication Security; RFC 6749 §3.1.2); an authorization request is "
        "redirected only to a redirect URI its client registered, compared exactly "
        "(\"Authorization servers MUST validate exact redirect URIs against pre-registered "
        "values\": §Open Redirection), else 400 with no redirect (OAuth 2.1 §4.1.2.1). A "
        "client ID metadata document is not fetched (the simulator does no I/O): an "
        "`https` client id with a path is taken to list redirect URIs on the loopback and on "
        "its own origin only, so no client id can send a code to a third party (2025-11-25 "
        "§Client ID Metadata Documents: the server \"MUST validate redirect URIs presented in "
        "an authorization request against those in the metadata document\").",
        "- **HTTP+SSE**: a `POST /messages?session_id=…` needs a valid token (401), and the "
        "very token its stream was opened with (403 otherwise).",
        f"- **Sizes**: a body to the token or registration endpoint over {AUTH_BODY_BYTES:,} "
        "bytes is 413, before it is parsed (`serve` answers it from `Content-Length`, "
        "before reading it); a field over "
        f"{FIELD_CHARS:,} characters (a client id, redirect URI, scope, state, code "
        f"challenge, resource) is 400 and not kept; a registration names at most "
        f"{MAX_REDIRECT_URIS} redirect URIs.",
        f"- **Tables**: at most {MAX_CLIENTS:,} registered clients, {MAX_CODES:,} unused "
        f"authorization codes and {MAX_TOKENS:,} tokens; past a cap the oldest entry goes "
        "(its client registers again; its code or token is refused as unknown).",
        "",
        "Measured with `benchmarks/bench_serve_attacks.py` (figures in its docstring).",
        "",
        "## Not modelled (yet)",
        "",
        "- refresh tokens, token expiry (`expires_in` is said, not enforced);",
        "- fetching client ID metadata documents (the test authorization server takes an "
        "HTTPS client id's document to list redirect URIs on the loopback or its own origin, "
        "where it advertises support: above).",
        "",
        "## Real clients against serve",
        "",
        "`tests/interop/test_auth_realpeer.py` (realpeer) runs the official Python client "
        "(`mcp` 1.30.0, its `OAuthClientProvider`), the TypeScript SDK client "
        "(`@modelcontextprotocol/sdk` 1.32.2, an `OAuthClientProvider` and `finishAuth`) and "
        "the Inspector 2.12.0 CLI (`inspector --cli URL --transport http --method "
        "tools/list`: it prints the authorization URL, and the test plays the browser) "
        "headless against `serve` of each layout (a 2025-11-25 server), and checks each "
        "completes or fails as its model predicts; "
        "`tests/interop/test_auth_mcp_remote_realpeer.py` does the same with `mcp-remote` "
        "0.1.38, the stdio-to-Streamable-HTTP proxy (the test plays the browser and the "
        "proxy's local client: `initialize`, then `notifications/initialized` and "
        "`tools/list` once the handshake is answered; the proxy authorizes before it reads "
        "its stdin), and checks the scope of its first authorization request against the "
        "model's. All four read the same from their code (`mcp/client/auth/oauth2.py`, "
        "`utils.py`; `dist/esm/client/auth.js`; the Inspector bundles "
        "`@modelcontextprotocol/client` 2.3.1, mcp-remote the SDK 1.25.3), and it is part "
        "of their named peers, `py-mcp@1.30`, `ts-sdk@1.32`, `inspector@2.12` and "
        "`mcp-remote@0.1` ([named-peers.md](named-peers.md)): `+auth-origin-fallback"
        "+dcr-only+resource-with-prm-only+default-endpoints`, the Inspector's `+dcr-native"
        "+reauthorize-same-scope` and mcp-remote's `+openid-scope`, so `mcp-skew simulate "
        "--transport http --scenario auth --client py-mcp@1.30 --server ...` predicts them "
        "(`tests/unit/test_auth_named.py`).",
        "",
        "| layout | Python `mcp` 1.30.0 | TypeScript SDK 1.32.2 | Inspector 2.12.0 | "
        "mcp-remote 0.1.38 | the model |",
        "|---|---|---|---|---|---|",
        "| `prm`, `prm-root`, `oidc`, `compat`, `scoped` | completes | completes | completes "
        "| completes | completes (`scoped`: the drivers list tools only) |",
        "| `no-dcr` | fails: `Registration failed: 404` (it POSTs the default `/register`) | "
        "fails: `Incompatible auth server: does not support dynamic client registration` | "
        "fails: the same | fails: the same | fails: no registration endpoint |",
        "| `origin`, `defaults` | fails: 401 on the retry | fails: `Unauthorized` | fails: "
        "`Unauthorized` | fails: 401 on the retry, authorizes once more, gives up | fails: "
        "`retry 401` (no `resource` without protected resource metadata: a token without "
        "audience) |",
        "| `prm+dcr-app-type` | fails: registration refused | fails: registration refused | "
        "completes (`application_type: native`) | fails: registration refused | the same "
        "(`dcr-native`) |",
        "| `prm+strict-scopes` | completes (no scope asked) | completes | completes | fails: "
        "`invalid_scope` (it asks for `openid email profile`) | mcp-remote's fails "
        "(`openid-scope`); the others ask no scope and complete |",
        "",
        "mcp-remote asks for `openid email profile` wherever the server names no scope (its "
        "`getEffectiveScope`; the spec says to omit `scope` then: 2025-11-25 "
        "`basic/authorization.mdx` §Scope Selection Strategy), and `mcp:read` against "
        "`scoped` (the 401's `scope`), as its model does: quirk `openid-scope`, against which "
        "the server quirk `strict-scopes` (an authorization server that refuses a scope it "
        "does not publish, as Cloudflare's `mcp.cloudflare.com` does: "
        "cloudflare/mcp-server-cloudflare issue 457) fails it. The case of mcp-remote issue "
        "192 (releases without protected resource metadata discovery, against a server "
        "whose authorization server is elsewhere) is a 2025-03-26 client's failure; 0.1.38 "
        "discovers by protected resource metadata and completes.",
        "",
        "The Inspector answers a `403 insufficient_scope` to `tools/call` by running its "
        "OAuth again from scratch, with the scope it asked for first (`mcp:read`, not the "
        "challenge's `mcp:tools`), and retrying once (`withCliAuthRecoveryRetry` in "
        "`clients/cli/build/index.js`); the retry gets the same 403 and the call fails. Its "
        "model takes the same path (quirk `reauthorize-same-scope`: `step-up failed: 403 "
        "insufficient_scope (scope mcp:tools) -> authorize again, scope mcp:read -> "
        "authorize 302 -> token 200 -> retry 403`), and "
        "`test_the_inspector_steps_up_as_its_model_predicts` checks the scopes of the real "
        "authorization requests against it.",
        "",
        "The TypeScript client validates OpenID Provider Metadata: it refused the simulated "
        "`oidc` layout until the simulated authorization server served the fields OpenID "
        "Connect Discovery 1.0 §3 makes REQUIRED (`jwks_uri`, `subject_types_supported`, "
        "`id_token_signing_alg_values_supported`).",
        "",
        "## Census",
        "",
        "A remote whose first request gets 401 or 403 is `needs-auth` (not incompatible); "
        "its row keeps each revision's discovery, and the report counts, per client "
        "revision, the protected servers a client of that revision finds the authorization "
        "server of ([census.md](census.md)).",
    ]
    return "\n".join(out) + "\n"


def test_docs_auth_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render_auth_doc(), (
        "docs/auth.md is stale: run PYTHONPATH=tests .venv/bin/python "
        "tests/unit/test_auth_doc.py")


if __name__ == "__main__":
    DOC.write_text(render_auth_doc(), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")

"""Policies: what a simulated server or client does where peers differ, as typed fields.

Theory of operation
-------------------
A peer's behaviour where real implementations differ (how an unknown or early
request is answered, how ``initialize`` picks a revision, how long a probe
waits, when a dual-era client falls back, ...) is one frozen
:class:`ServerPolicy` or :class:`ClientPolicy`. The defaults are the plain spec
behaviour. A quirk is a named set of :class:`Effect` values on those fields
(``silent`` sets ``ServerPolicy.unknown = "silent"``); :func:`server_policy` and
:func:`client_policy` fold a peer's quirks into its policy, and the simulator
reads only the policy, never the quirk names.

Two quirks may set the same field (``+silent+unknown-32602``); the effect with
the higher ``rank`` wins, whatever their order in the spec, so a peer's policy
does not depend on how its quirks were written down. The ranks are in the
quirk table (:data:`~._table.QUIRKS`) and in ``docs/quirks.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

__all__ = [
    "ClientPolicy",
    "Effect",
    "PresessionAnswer",
    "ServerPolicy",
    "UnknownAnswer",
    "compose",
]

#: How a server answers a request it does not know, or any request before ``initialize``.
UnknownAnswer = Literal["-32601", "-32602", "silent", "silent-exit"]
#: (over HTTP) how a legacy server refuses a request that belongs to no session: the JSON-RPC
#: answer its ``unknown`` policy gives, -32000 "Bad Request: Server not initialized", or an
#: empty body; always with status 400
PresessionAnswer = Literal["jsonrpc", "-32000", "-32600", "empty"]


@dataclass(frozen=True, slots=True)
class ServerPolicy:
    """A simulated server's behaviour where real servers differ (defaults: the spec's)."""

    #: the answer to an unknown request, or to an early one (before ``initialize``)
    unknown: UnknownAnswer = "-32601"
    #: a known request before ``initialize`` is processed as if initialized
    lenient: bool = False
    #: a known request (not ping) before ``initialize`` gets -32602
    early_known_32602: bool = False
    #: ping is answered before ``initialize`` (``basic/lifecycle.mdx`` §Initialization)
    ping_before_initialize: bool = True
    #: ``initialize`` is always answered with this revision
    fixed_revision: str | None = None
    #: ``initialize`` is answered with whatever revision was asked for
    echo: bool = False
    #: an unsupported revision in ``initialize`` gets -32602 instead of a counter-offer
    reject_unsupported: bool = False
    #: the cold start: simulated ms from the process start until it reads its first input, so
    #: its first answer comes this long after the start (what ``probe`` measures)
    startup_ms: int = 0
    #: simulated ms every request takes on the server before its answer is sent
    latency_ms: int = 0
    #: ``server/discover`` is answered without ``capabilities`` (the schema requires it)
    discover_incomplete: bool = False
    #: the error code for an unknown resource, instead of the revision's
    not_found_code: int | None = None
    #: a modern-only server answers ``initialize`` and requests naming no version with -32022
    legacy_32022: bool = False
    #: a -32022 to a modern request lists every revision it supports, handshake-era ones too
    #: (as 2026-07-28 ``basic/versioning.mdx``'s example does), not its modern ones only
    supported_all: bool = False
    #: results carry ``resultType`` where the revision requires it
    result_type: bool = True
    #: cacheable results carry ``ttlMs`` and ``cacheScope`` where the revision requires them
    cache_hints: bool = True
    #: the echo tool lists an ``outputSchema`` in this dialect where the revision has it
    #: (``2020-12``: no ``$schema``; ``draft-07``, ``draft-04``: a ``$schema`` naming it)
    output_schema: str | None = None
    #: a call of a tool with an ``outputSchema`` answers without ``structuredContent``
    omits_structured_content: bool = False
    #: the ``ttlMs`` on cacheable results (2026-07-28 schema ``CacheableResult``)
    ttl_ms: int = 60_000
    #: the first request of a connection fixes its era
    sticky_era: bool = False
    #: ``tools/list`` before ``initialize`` gets -32603 Internal error (its handler reads
    #: the client's capabilities, which only ``initialize`` tells)
    early_tools_32603: bool = False
    #: after ``notifications/initialized`` from a client that declared ``roots``, the server
    #: asks it ``roots/list`` (2024-11-05 and later ``client/roots.mdx``)
    asks_roots: bool = False
    #: the -32022 to a request naming no version leaves ``data.requested`` out
    omit_requested: bool = False
    #: ``server/discover`` lists only the server's legacy revisions in ``supportedVersions``
    discover_legacy_only: bool = False
    #: the server declares ``logging`` (where the revision has it) and answers its setLevel
    declares_logging: bool = False
    #: listed tools' ``inputSchema`` has no ``"type"`` (the schema requires ``"object"``)
    untyped_input_schema: bool = False
    #: the client's extensions are read once per connection, from ``initialize``: where they
    #: arrive per request (``_meta``), the server never sees them
    ext_once: bool = False
    # -- over stdio only (the HTTP server never reads these) --------------------------------
    #: a line that is not JSON is dropped without an answer (instead of -32700, id null)
    drop_unparsable: bool = False
    #: the process keeps running after its standard input closes (until it is signalled)
    outlives_stdin: bool = False
    # -- over HTTP only (the stdio server never reads these) --------------------------------
    #: how a request without a session (before ``initialize``) is refused, with status 400
    http_presession: PresessionAnswer = "jsonrpc"
    #: every ``GET`` gets 405, even where the server would open an HTTP+SSE stream
    http_no_get: bool = False
    #: the server forgets a session after this many requests in it (after ``initialize``): the
    #: next request carrying its ``Mcp-Session-Id`` gets 404 (2025-03-26 and later
    #: ``basic/transports.mdx`` §Session Management); None: sessions last until ``DELETE``
    http_session_expiry: int | None = None
    #: one server instance for the whole process, connectable to one transport: the first POST
    #: without a session takes it; every later one gets 500 and -32603
    http_one_transport: bool = False
    # -- authorization (scenario auth, over HTTP) -----------------------------------------
    #: the layout a protected server publishes (:data:`mcp_skew.versions._auth.LAYOUTS`);
    #: None: what its newest revision requires
    auth_layout: str | None = None
    #: its authorization server's ``iss``: ``send`` it (where the layout has it),
    #: ``missing`` (advertised, not sent) or ``wrong`` (another issuer's)
    auth_iss: str = "send"
    #: its dynamic registration refuses a web client (application_type omitted) a loopback
    #: redirect URI, as OpenID Connect servers may
    auth_app_type: bool = False
    #: it moves to another authorization server once a tools/list was served
    auth_moves: bool = False
    #: its authorization server refuses a scope it does not publish (``invalid_scope``)
    auth_strict_scopes: bool = False
    #: an ``initialize`` whose ``MCP-Protocol-Version`` names a revision the server lacks gets
    #: 400 before negotiating
    http_initialize_header: bool = False
    #: stateless HTTP: ``initialize`` starts no session (no ``Mcp-Session-Id``); every request
    #: without one is served alone, as after an ``initialize``
    http_stateless: bool = False


@dataclass(frozen=True, slots=True)
class ClientPolicy:
    """A simulated client's behaviour where real clients differ (defaults: the spec's)."""

    #: a result missing a field its revision requires fails the run
    strict: bool = False
    #: a result after negotiation missing a field its revision requires fails that request
    #: (the ``server/discover`` probe is read leniently)
    strict_results: bool = False
    #: a dual-era client falls back to ``initialize`` only on -32601
    fallback_only_32601: bool = False
    #: a dual-era client falls back on every error but a -32022 naming no legacy revision
    fallback_denylist: bool = False
    #: a dual-era client falls back to ``initialize`` on a DiscoverResult that shares no
    #: modern revision with it, whatever it lists (the spec: only to a listed legacy one)
    discover_fallback: bool = False
    #: a counter-offer is refused even when the client supports it
    exact: bool = False
    #: a server that died during the probe is restarted before the fallback
    restart: bool = False
    #: a modern-only client calls ``server/discover`` before its first request
    discover_first: bool = False
    #: simulated ms a dual-era client waits for its probe
    probe_timeout_ms: int = 3_000
    #: a dual-era client keeps a legacy era decision for the server, across restarts (it
    #: opens with ``initialize`` at the kept revision, no probe) and after a lost session
    #: (it initializes again rather than re-probing); it probes only when that fails
    keeps_era: bool = False
    #: results are served from the client's cache while their ``ttlMs`` says they are fresh
    #: (in scenarios that keep a cache); False: every request goes on the wire
    cache: bool = True
    #: simulated ms the whole connect may take (probe, fallback ``initialize``, re-probe): each
    #: request of the connect waits at most what is left; a probe cut by it ends the connect
    connect_timeout_ms: int | None = None
    #: simulated ms each request waits for its answer; None: the run's request timeout
    request_timeout_ms: int | None = None
    #: after a timed-out probe, an error to the fallback ``initialize`` ends the connect
    #: (no second probe)
    no_reprobe: bool = False
    #: a DiscoverResult lacking a field the schema requires is read as a failed probe
    strict_discover: bool = False
    #: after a successful DiscoverResult the client sends ``initialize`` anyway, on the same
    #: connection, and takes its answer (an error ends the connect; accepted: legacy era)
    init_after_discover: bool = False
    #: the server exited on the fallback ``initialize`` (after a timed-out probe): the client
    #: starts a fresh process and sends ``initialize`` once more
    restart_after_exit: bool = False
    #: a refused result (``strict_results``) is asked for once more, raw, before failing
    raw_retry: bool = False
    #: once the server sends it a request, the client reads no more answers
    stalls_on_server_request: bool = False
    #: a ``tools/list`` whose tools' ``inputSchema`` lacks ``"type": "object"`` fails
    strict_tools: bool = False
    #: the JSON Schema dialects a tool's ``outputSchema`` may declare in ``$schema`` (comma
    #: separated: ``2020-12``, ``2019-09``, ``draft-07``, ``draft-06``, ``draft-04``); a call
    #: of a tool declaring another fails before it is sent; None: any dialect is read
    output_dialects: str | None = None
    #: a result without ``structuredContent`` (and not ``isError``) from a tool with an
    #: ``outputSchema`` fails the call (-32600)
    needs_structured_content: bool = False
    #: ``structuredContent`` that does not validate against the tool's ``outputSchema`` fails
    #: the call (-32602)
    checks_structured_content: bool = False
    #: once connected to a server that declares ``logging``, the client sets the level with
    #: ``logging/setLevel`` whatever the era; where the revision lacks it the connect fails
    legacy_set_level: bool = False
    #: once connected in the legacy era to a server that declares ``logging``, the client
    #: sets the level with ``logging/setLevel``; in the modern era it sends nothing
    era_set_level: bool = False
    #: the client declares none of its extensions in ``capabilities.extensions``
    ext_unadvertised: bool = False
    #: the client advertises MCP Apps but never ``resources/read``s a tool's ``ui://`` resource
    no_ui_read: bool = False
    # -- over HTTP only ---------------------------------------------------------------------
    #: a client asking for a revision of the HTTP+SSE transport (2024-11-05) POSTs
    #: ``initialize`` first and opens the SSE stream only on 400/404/405
    http_post_first: bool = False
    #: a dual-era client reads any HTTP error status to its probe (401, 403, 5xx) as a
    #: legacy server and falls back to ``initialize``
    http_fallback_any_status: bool = False
    #: authorization: with no protected resource metadata, look for the authorization server
    #: at the MCP origin (the TypeScript SDK's fallback)
    auth_origin_fallback: bool = False
    #: authorization: read RFC 8414 metadata only, never OpenID Connect discovery
    auth_rfc8414_only: bool = False
    #: authorization: obtain a client id by dynamic registration only
    auth_dcr_only: bool = False
    #: authorization: a confidential pre-registered client, client credentials grant
    auth_client_credentials: bool = False
    #: authorization: ``resource`` is sent only once protected resource metadata was found
    auth_resource_needs_prm: bool = False
    #: authorization: without metadata, the 2025-03-26 default endpoints at the MCP origin
    auth_default_endpoints: bool = False
    #: authorization: a dynamic registration says ``application_type: native`` whatever the
    #: revision's rules (a loopback client that declares it)
    auth_native: bool = False
    #: authorization: with no scope from the challenge or the metadata, ask for
    #: ``openid email profile`` (where the spec says to omit ``scope``)
    auth_openid_scope: bool = False
    #: authorization: a ``403 insufficient_scope`` makes it authorize again with the scope
    #: it asked for first (not the challenge's), once per method
    auth_reauthorize_same: bool = False
    #: ``initialize`` carries ``MCP-Protocol-Version`` with the revision it asks for
    http_version_on_initialize: bool = False
    #: the client never sends the ``Mcp-Session-Id`` the server assigned
    http_drops_session: bool = False


Policy = ServerPolicy | ClientPolicy


@dataclass(eq=False, frozen=True, slots=True)
class Effect:
    """One field a quirk sets: to a constant, or to what the quirk's value converts to."""

    field: str
    value: Any = True
    #: converts the quirk's value (``+slow=8000`` -> 8000); None: use ``value``
    convert: Callable[[str], Any] | None = None
    #: precedence when two quirks set the same field: the higher wins
    rank: int = 0

    def resolve(self, raw: str | None) -> Any:
        if self.convert is None:
            return self.value
        if raw is None:
            raise ValueError(f"{self.field} takes a value")
        return self.convert(raw)


def compose(base: Policy, effects: Iterable[tuple[Effect, str | None]]) -> Policy:
    """``base`` with every effect applied; on the same field the highest rank wins."""
    known = {f.name for f in fields(base)}
    chosen: dict[str, tuple[int, Any]] = {}
    for effect, raw in effects:
        if effect.field not in known:
            raise ValueError(f"{type(base).__name__} has no field {effect.field!r}")
        value = effect.resolve(raw)
        if effect.field not in chosen or effect.rank > chosen[effect.field][0]:
            chosen[effect.field] = (effect.rank, value)
    return replace(base, **{name: value for name, (_, value) in chosen.items()})

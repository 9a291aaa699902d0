"""A simulated server, sans I/O: ``receive(message) -> Reaction``.

Theory of operation
-------------------
The server picks the era from how the client opens (``basic/versioning.mdx``,
2026-07-28, "A dual-era server selects its behavior from how the client opens"):

- ``initialize`` selects the legacy handshake (``basic/lifecycle.mdx`` of each
  legacy revision, "Version Negotiation"): the requested revision if supported,
  else the server's latest; quirks change this.
- a request whose ``params._meta`` names a protocol version is served
  statelessly; an unsupported version gets -32022 with ``data.supported`` and
  ``data.requested`` (2026-07-28 ``basic/versioning.mdx``).
- anything else before ``initialize`` is an "unknown or early request", whose
  answer is the server's quirk: -32601 (default), -32602, silence, silence then
  exit, or lenient processing. Those quirks are legacy behaviour: a request
  served under a modern revision that names a method the revision lacks gets
  -32601, whatever the server does on legacy traffic.

Rule: this module never compares revision strings; it asks the profiles. What
the server serves is the profile's method table (a method a draft adds is
answered with its ``answer``), and the ``_meta`` keys a modern request must carry
are the profile's ``request_meta_required`` (a missing one is -32602, 2026-07-28
``basic/index.mdx`` §_meta).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from .._memo import by_identity, remember
from ..versions import Era, Message, Profile
from . import _feature_calls as feature_calls
from . import _negotiation as negotiation
from ._catalogue import (
    _EMPTY_RESULTS,
    PARAM_HEADERS,
    _no_key,
    _Plan,
    _plans,
    _tool,
    param_headers,
)
from ._extensions import APP_TOOL, APP_URI, UI, app_html, app_tool, client_extensions, offered
from ._outputs import with_outputs
from ._peers import PeerSpec
from .messages import _wire
from .quirks._policy import ServerPolicy

#: (the HTTP endpoint and its tests read the headers a tool declares from here)
__all__ = ["PARAM_HEADERS", "Reaction", "SimServer", "param_headers"]


@dataclass(eq=False, slots=True)
class Reaction:
    """What the server does with one incoming message."""

    replies: list[Message] = field(default_factory=list)
    exit: bool = False  #: the process ends after this message
    #: the one reply as its JSON text alone, in place of ``replies``: a prepared answer
    #: (:meth:`_wire.Prepared.text`) from a server whose ``text_replies`` is set
    text: str | None = None


@dataclass(eq=False, slots=True)
class SimServer:
    """One server process."""

    spec: PeerSpec
    legacy_revision: str | None = None  #: negotiated by initialize
    era: Era | None = None  #: set by the first request when the server is sticky
    exit_on_next: bool = False
    dead: bool = False
    served_eras: list[Era] = field(default_factory=list)  #: per request, for the run's verdict
    #: open ``subscriptions/listen`` streams: (request id, agreed filter, profile)
    listeners: list[tuple[Any, dict[str, Any], Profile]] = field(default_factory=list)
    client_roots: bool = False  #: the client's initialize declared the roots capability
    #: the extensions the client declared: in ``initialize``, or in the request being served
    #: (read, so kept, only by a server with extensions of its own)
    client_extensions: frozenset[str] = frozenset()
    #: the capabilities the client's initialize declared (legacy; a modern request carries its own)
    client_caps: Any = None
    #: the ``features`` scenario: the server's open asks (its request id -> (the call's id,
    #: the feature, the profile)), each answered when the client's response arrives
    asking: dict[Any, tuple[Any, str, Profile]] = field(default_factory=dict)
    policy: ServerPolicy = field(init=False)  #: what it does where servers differ
    #: a prepared answer goes as its text alone (:attr:`Reaction.text`), not as a message:
    #: set by a link that reads nothing of a reply but the text that crosses (:class:`.MemoryLink`)
    text_replies: bool = False
    #: the profile of ``legacy_revision``, kept once looked up (read at every legacy request)
    _legacy_profile: Profile | None = field(default=None, init=False, repr=False)
    #: :func:`_plans` for the profile last served, kept (a server serves one profile, or few)
    _kept_plans: tuple[Profile, dict[str, _Plan]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.policy = self.spec.server_policy

    @property
    def startup_ms(self) -> int:
        return self.policy.startup_ms

    @property
    def latency_ms(self) -> int:
        """Simulated ms each request takes on the server (quirk ``latency``)."""
        return self.policy.latency_ms

    # -- entry point ----------------------------------------------------------------
    def receive(self, message: Message) -> Reaction:
        """What the server does with ``message``: a request is answered here, where the
        era is read (one call a request: a sweep sends tens of thousands)."""
        if self.dead or self.exit_on_next:
            if self.dead:
                return Reaction()
            self.dead = True
            return Reaction(exit=True)
        if "method" not in message:  # a response to one of our asks (the features scenario)
            return self._answered(message)
        if "id" not in message:
            return self._notification(message)
        # -- a request
        method = message["method"]
        params = message.get("params")
        if params is None:
            meta = None
        elif isinstance(params, dict):
            meta = params.get("_meta")
        else:
            # every request's params is an object in the MCP schemas (JSON-RPC would allow an
            # array): -32602, as for any other invalid params
            return self._reply(_wire.error(message["id"], -32602,
                                       "Invalid params: params must be an object"))
        if isinstance(meta, dict) and _wire.VERSION_KEY in meta and self.spec.modern:
            # modern _meta selects the modern era, initialize included: there it is a removed
            # method (2026-07-28 basic/versioning.mdx: "A request carrying modern per-request
            # _meta is served statelessly according to this revision")
            return self._modern(message, meta)
        if method == "initialize" and self.spec.legacy:
            return self._initialize(message)
        revision = self.legacy_revision
        if revision is not None:  # (set by initialize, or by the HTTP endpoint)
            kept = self._legacy_profile
            if kept is None or kept.revision != revision:
                kept = self._legacy_profile = self.spec.profile(revision)
            self.served_eras.append(Era.LEGACY)
            return self._serve(message, kept)
        return self._unopened(message)

    def _notification(self, message: Message) -> Reaction:
        if (message.get("method") == "notifications/initialized" and self.policy.asks_roots
                and self.client_roots):
            # quirk asks-roots: the server asks for the client's roots (client/roots.mdx)
            return self._reply({"jsonrpc": "2.0", "id": "roots-1", "method": "roots/list"})
        return Reaction()

    def _unopened(self, message: Message) -> Reaction:
        """A request that names no modern revision, before any ``initialize``."""
        method = message["method"]
        if not self.spec.legacy and self.policy.legacy_32022:
            return self._reply(self._no_version(message))
        if method == "initialize":  # a modern-only server
            return self._reply(self._reject_initialize(message))
        if not self.spec.legacy:  # a modern-only server: the required _meta is missing
            return self._reply(self.missing_version(message))
        return self._early(message)

    # -- legacy era -----------------------------------------------------------------
    def _initialize(self, message: Message) -> Reaction:
        params = message.get("params") or {}
        asked = params.get("protocolVersion")
        capabilities = params.get("capabilities")
        self.client_roots = isinstance(capabilities, dict) and "roots" in capabilities
        if self.spec.extensions:  # (read only by a server that has some, as in _modern)
            self.client_extensions = client_extensions(message)
        self.client_caps = capabilities
        if self.policy.sticky_era and self.era is Era.MODERN:
            data = {"supported": self.spec.wires(self.spec.modern), "requested": asked}
            profile = self.spec.profile(self.spec.modern[0])
            code = _wire.error_code(profile, "UnsupportedProtocolVersion")
            return self._reply(_wire.error(message["id"], code, "Connection serves the modern era", data))
        chosen = self._choose(asked)
        if chosen is None:
            data = {"supported": list(self.spec.legacy), "requested": asked}
            return self._reply(_wire.error(message["id"], -32602, "Unsupported protocol version", data))
        # the revision it really speaks: the one it named if it has it, else its newest legacy
        profile = self.spec.profile(chosen if chosen in self.spec.legacy else self.spec.legacy[0])
        self.legacy_revision = profile.revision
        self.era = self.era or Era.LEGACY
        self.served_eras.append(Era.LEGACY)
        # the result is a function of the server's spec and the revision chosen (the profile
        # is the spec's for it): prepared once for the pair, as _serve prepares its answers
        key = (id(self.spec), chosen)
        hit = _INITIALIZED.get(key)
        if hit is not None and hit[0] is self.spec:
            return self._prepared(hit[1], message["id"])
        body = {
            "protocolVersion": chosen,
            "capabilities": self._capabilities(profile),
            "serverInfo": _wire.implementation("mcp-skew-server"),
        }
        reply = _wire.result(profile, message["id"], "initialize", body)
        prepared = _wire.Prepared.of(reply)
        if prepared is not None:
            remember(_INITIALIZED, key, (self.spec, prepared))
        return self._reply(reply)

    def _choose(self, asked: Any) -> str | None:
        """The revision to answer initialize with (None: reject)."""
        if self.policy.fixed_revision is not None:
            return self.policy.fixed_revision
        if self.policy.echo and isinstance(asked, str):
            return asked
        return negotiation.answer_version(asked, self.spec.legacy,
                                          reject=self.policy.reject_unsupported)

    def _early(self, message: Message) -> Reaction:
        """A request before initialize, or one this server does not know."""
        method = message["method"]
        latest = self.spec.profile(self.spec.legacy[0]) if self.spec.legacy else None
        if latest is None or method not in latest.methods:
            return self._unknown(message)
        if method == "tools/list" and self.policy.early_tools_32603:
            return self._reply(_wire.error(message["id"], -32603, "Internal error"))
        if (method == "ping" and self.policy.ping_before_initialize) or self.policy.lenient:
            # ping is allowed before initialize (basic/lifecycle.mdx §Initialization)
            self.served_eras.append(Era.LEGACY)
            return self._serve(message, latest)
        if self.policy.early_known_32602 and method != "ping":
            return self._reply(_wire.error(message["id"], -32602, "Invalid request parameters"))
        return self._unknown(message)

    def _unknown(self, message: Message) -> Reaction:
        msg_id, method = message["id"], message["method"]
        answer = self.policy.unknown
        if answer == "silent":
            return Reaction()
        if answer == "silent-exit":
            self.exit_on_next = True
            return Reaction()
        if answer == "-32602":
            return self._reply(_wire.error(msg_id, -32602, "Invalid request parameters"))
        return self._reply(_wire.error(msg_id, -32601, f"Method not found: {method}"))

    # -- modern era -----------------------------------------------------------------
    def _modern(self, message: Message, meta: dict[str, Any]) -> Reaction:
        msg_id = message["id"]
        if self.policy.sticky_era and self.era is Era.LEGACY:
            return self._reply(_wire.error(msg_id, -32600, "Connection serves the handshake era"))
        self.era = self.era or Era.MODERN
        asked = meta.get(_wire.VERSION_KEY)
        served = _modern_served(self.spec).get(asked) if isinstance(asked, str) else None
        if served is None:
            modern = self.spec.modern
            profile = self.spec.profile(modern[0])
            listed = self.spec.revisions if self.policy.supported_all else modern
            data = {"supported": self.spec.wires(listed), "requested": asked}
            code = _wire.error_code(profile, "UnsupportedProtocolVersion")
            return self._reply(_wire.error(msg_id, code, "Unsupported protocol version", data))
        profile, required = served
        if not required <= meta.keys():
            missing = sorted(required - meta.keys())
            code = _wire.error_code(profile, "InvalidParams")
            return self._reply(_wire.error(msg_id, code, f"Missing _meta {', '.join(missing)}"))
        self.served_eras.append(Era.MODERN)
        if self.spec.extensions and not self.policy.ext_once:  # declared per request
            self.client_extensions = client_extensions(message)
        return self._serve(message, profile)

    def _no_version(self, message: Message) -> Message:
        """-32022 for a request that names no modern revision (the ``legacy-32022`` quirk).

        The 2026-07-28 schema requires ``data.requested`` (a string) beside
        ``data.supported``: the ``protocolVersion`` an ``initialize`` named, else
        ``"unknown"`` (the request named none). The ``no-requested`` quirk leaves it out
        where the request named none, and says so in the message, as the TypeScript v2
        server does.
        """
        profile = self.spec.profile(self.spec.modern[0])
        asked = (message.get("params") or {}).get("protocolVersion")
        code = _wire.error_code(profile, "UnsupportedProtocolVersion")
        data: dict[str, Any] = {"supported": self.spec.wires(self.spec.modern)}
        if isinstance(asked, str):
            data["requested"] = asked
            return _wire.error(message["id"], code, f"Unsupported protocol version: {asked}"
                           if self.policy.omit_requested else "Unsupported protocol version",
                           data)
        if self.policy.omit_requested:
            return _wire.error(message["id"], code, "Unsupported protocol version: the request "
                           "did not name a protocol version", data)
        data["requested"] = "unknown"
        return _wire.error(message["id"], code, "Unsupported protocol version", data)

    def missing_version(self, message: Message) -> Message:
        """-32602 for a request without ``_meta.protocolVersion`` to a modern-only server: a
        required field is missing, so the request is malformed (2026-07-28 ``basic/index.mdx``
        §_meta: the server "MUST reject it with JSON-RPC error code -32602"), over stdio as
        over HTTP (where the status is 400)."""
        supported = self.spec.wires(self.spec.modern)
        profile = self.spec.profile(self.spec.modern[0])
        text = (f"Invalid params: missing _meta {_wire.VERSION_KEY} (this server speaks "
                f"{', '.join(supported)} only)")
        return _wire.error(message["id"], _wire.error_code(profile, "InvalidParams"), text,
                       {"supported": supported})

    def unparsable(self, detail: str) -> Reaction:
        """What a line that is not JSON gets (the stdio edge calls this; the simulator's own
        links carry parsed messages): -32700 Parse error with id null (JSON-RPC 2.0 §5.1),
        or nothing under the ``drop-unparsable`` quirk. The server carries on either way."""
        if self.policy.drop_unparsable:
            return Reaction()
        return self._reply({"jsonrpc": "2.0", "id": None,
                            "error": {"code": -32700, "message": f"Parse error: {detail}"}})

    def _reject_initialize(self, message: Message) -> Message:
        supported = ", ".join(self.spec.wires(self.spec.modern))
        data = {"supported": self.spec.wires(self.spec.modern)}
        return _wire.error(message["id"], -32601,
                       f"Method not found: initialize (this server speaks {supported} only)", data)

    # -- the catalogue: tools, resources, no prompts --------------------------------
    def _serve(self, message: Message, profile: Profile) -> Reaction:
        """The answer to a request served under ``profile``: where the plan says what of the
        params the answer depends on (:func:`._catalogue._keyer`), the answer prepared for
        the first request of that key (:class:`_wire.Prepared`), with this request's id."""
        kept = self._kept_plans  # (looked up again only when the profile changes)
        if kept is None or kept[0] is not profile:
            kept = self._kept_plans = (profile, _plans(self.policy, profile))
        plan = kept[1].get(message["method"])
        keyer = plan[4] if plan is not None and not self.spec.extensions else None
        if keyer is None or plan is None:
            return self._answer(message, profile)
        # (most answers depend on no params at all: their key, without the call)
        key = () if keyer is _no_key else keyer(message.get("params") or {})
        if key is None:
            return self._answer(message, profile)
        hit = _PREPARED.get((id(plan), key))
        if hit is not None and hit[0] is plan:  # (:meth:`_prepared`, inline: per request)
            if self.text_replies:
                return Reaction(text=hit[1].text(message["id"]))
            return Reaction([hit[1].reply(message["id"])])
        reaction = self._answer(message, profile)
        if len(reaction.replies) == 1 and not reaction.exit:
            prepared = _wire.Prepared.of(reaction.replies[0])
            if prepared is not None:
                remember(_PREPARED, (id(plan), key), (plan, prepared))
        return reaction

    def _answer(self, message: Message, profile: Profile) -> Reaction:
        """The answer to a request served under ``profile``, worked out."""
        method, msg_id = message["method"], message["id"]
        params = message.get("params") or {}
        row = profile.methods.get(method)  # a table's rows are never None
        if row is None:
            if profile.era is Era.MODERN:  # legacy quirks are for legacy traffic
                return self._reply(_wire.error(msg_id, _wire.error_code(profile, "MethodNotFound"),
                                           f"Method not found: {method}"))
            return self._unknown(message)
        if method == "subscriptions/listen":
            return self._listen(message, profile)
        if method == "server/discover":
            return self._discover(message, profile)
        kept = self._kept_plans  # (looked up again only when the profile changes)
        if kept is None or kept[0] is not profile:
            kept = self._kept_plans = (profile, _plans(self.policy, profile))
        declared, handler, outputs, shape, _ = kept[1][method]  # (row is not None: planned)
        if not declared:
            return self._reply(_wire.error(msg_id, -32601, f"Method not found: {method}"))
        if method == "tools/call" and params.get("name") in feature_calls.FEATURE_TOOLS:
            return self._feature_call(message, profile)
        answer = row.answer
        ttl_ms = self.policy.ttl_ms
        if handler is None and answer is not None:  # a method a draft or vendor profile adds
            return self._reply(_wire.shaped_result(shape, msg_id, dict(answer), ttl_ms=ttl_ms))
        if handler is None and method not in _EMPTY_RESULTS:
            # not in this server's catalogue (completion/complete, subscriptions/listen):
            # an empty result would break their result schemas
            return self._reply(_wire.error(msg_id, -32601, f"Method not found: {method}"))
        if handler is None:
            return self._reply(_wire.shaped_result(shape, msg_id, {}, ttl_ms=ttl_ms))
        if self.spec.extensions and UI in self.spec.extensions:
            app = self._app(method, profile, params)
            if app is not None:
                return self._reply(_wire.shaped_result(shape, msg_id, app, ttl_ms=ttl_ms))
        body = handler(profile, params)
        if outputs:
            body = with_outputs(self.policy, profile, method, params, body)
        if (method == "tools/list" and UI in self.spec.extensions
                and UI in self.client_extensions):  # the app's tool, to a client that asked
            body["tools"].append(_tool(profile, app_tool()))
        if method == "tools/list" and self.policy.untyped_input_schema:
            body["tools"] = [{**t, "inputSchema": {k: v for k, v in t["inputSchema"].items()
                                                   if k != "type"}} for t in body["tools"]]
        override = self.policy.not_found_code
        if override is not None and method == "resources/read" and "error" in body:
            body["error"]["code"] = override
        if "error" in body:
            return self._reply({"jsonrpc": "2.0", "id": msg_id, "error": body["error"]})
        return Reaction([_wire.shaped_result(shape, msg_id, body, ttl_ms=ttl_ms)])

    def _discover(self, message: Message, profile: Profile) -> Reaction:
        """``server/discover``'s result, a function of the server's spec and the profile
        served: prepared once for the pair (as :meth:`_serve` prepares its answers)."""
        key = (id(self.spec), id(profile))
        hit = _DISCOVERED.get(key)
        if hit is not None and hit[0] is self.spec and hit[1] is profile:
            return self._prepared(hit[2], message["id"])
        listed = self.spec.legacy if self.policy.discover_legacy_only else self.spec.modern
        found: dict[str, Any] = {"supportedVersions": self.spec.wires(listed),
                                 "capabilities": self._capabilities(profile)}
        if self.policy.discover_incomplete:  # quirk discover-incomplete
            del found["capabilities"]
        reply = self._result(profile, message["id"], "server/discover", found)
        prepared = _wire.Prepared.of(reply)
        if prepared is not None:
            remember(_DISCOVERED, key, (self.spec, profile, prepared))
        return self._reply(reply)

    def _capabilities(self, profile: Profile) -> dict[str, Any]:
        """What the server declares: tools and resources, and ``logging`` under its quirk
        where the revision has that capability; its extensions (``+ext=...``), on any
        revision (:mod:`._extensions`)."""
        found = _wire.server_capabilities(profile)
        if self.policy.declares_logging and "logging" in profile.names("server_capabilities"):
            found["logging"] = {}
        if self.spec.extensions:
            found["extensions"] = offered(self.spec)
        return found

    def _app(self, method: str, profile: Profile, params: dict[str, Any]) -> dict[str, Any] | None:
        """MCP Apps: the app's HTML on ``resources/read``, and its tool's call (the text
        fallback every UI tool MUST return: ext-apps ``apps.mdx`` §Graceful Degradation)."""
        if method == "resources/read" and params.get("uri") == APP_URI:
            return app_html(profile)
        if method == "tools/call" and params.get("name") == APP_TOOL:
            args = params.get("arguments") or {}
            text = str(args.get("text", "")) if isinstance(args, dict) else ""
            return {"content": [{"type": "text", "text": text}], "isError": False}
        return None

    def _result(self, profile: Profile, msg_id: Any, method: str, body: dict[str, Any]) -> Message:
        return _wire.result(profile, msg_id, method, body, result_type=self.policy.result_type,
                        cache_hints=self.policy.cache_hints, ttl_ms=self.policy.ttl_ms)

    # -- subscriptions/listen -------------------------------------------------------
    def _listen(self, message: Message, profile: Profile) -> Reaction:
        """Open a listen stream (2026-07-28 ``basic/patterns/subscriptions.mdx``): the first
        message is ``notifications/subscriptions/acknowledged`` with the subset of the asked
        filter this server honours (schema ``SubscriptionsAcknowledgedNotificationParams``:
        types it does not support are left out); the stream stays open, unanswered."""
        from ._cache import invalidations  # noqa: PLC0415 - the caches' table, on a first listen

        asked = (message.get("params") or {}).get("notifications")
        if not isinstance(asked, dict):  # required (schema SubscriptionsListenRequestParams)
            return self._reply(_wire.error(message["id"], _wire.error_code(profile, "InvalidParams"),
                                       "subscriptions/listen needs a notifications filter"))
        agreed: dict[str, Any] = {}
        for row in invalidations(profile).values():
            key = row.listen
            if key is None or key not in asked or not asked[key]:
                continue
            gates = {profile.methods[m].capability for m in row.methods if m in profile.methods}
            if key in _LISTEN_FLAGS:  # a kind the server must declare beyond the capability
                gates.add(_LISTEN_FLAGS[key])
            if all(g is None or _wire.server_declares(profile, g) for g in gates):
                agreed[key] = asked[key]
        agreed = dict(sorted(agreed.items()))
        self.listeners.append((message["id"], agreed, profile))
        meta = {_wire.SUBSCRIPTION_KEY: message["id"]}
        return self._reply(_wire.notification("notifications/subscriptions/acknowledged",
                                          {"notifications": agreed, "_meta": meta}))

    def closing(self, listen_id: Any, profile: Profile) -> Message:
        """The result that ends a listen stream gracefully (schema ``SubscriptionsListenResult``:
        sent only when the server tears the subscription down, its ``_meta`` naming the
        subscription; 2026-07-28 ``basic/patterns/subscriptions.mdx``)."""
        reply = self._result(profile, listen_id, "subscriptions/listen", {})
        reply["result"]["_meta"] = {**reply["result"].get("_meta", {}),
                                    _wire.SUBSCRIPTION_KEY: listen_id}
        return reply

    def emit(self, method: str, params: dict[str, Any]) -> list[Message]:
        """The notification ``method`` (something changed on the server), sent on every open
        listen stream whose agreed filter asked for it (the profile's
        ``cache_invalidations`` row names the filter key)."""
        from ._cache import invalidations  # noqa: PLC0415 - the caches' table, on a first listen

        sent: list[Message] = []
        for listen_id, agreed, profile in self.listeners:
            row = invalidations(profile).get(method)
            if row is None or row.listen is None or not agreed.get(row.listen):
                continue
            wanted = agreed[row.listen]
            if row.match is not None and (not isinstance(wanted, list)
                                          or params.get(row.match) not in wanted):
                continue
            body = {**params, "_meta": {_wire.SUBSCRIPTION_KEY: listen_id}}
            sent.append(_wire.notification(method, body))
        return sent

    # -- the features scenario's tools (:mod:`._feature_calls`) ---------------------
    def _feature_call(self, message: Message, profile: Profile) -> Reaction:
        meta = (message.get("params") or {}).get("_meta")
        caps = meta.get(_wire.CAPS_KEY) if isinstance(meta, dict) and _wire.CAPS_KEY in meta \
            else self.client_caps
        sent, waiting = feature_calls.serve_call(profile, message, caps)
        if waiting is not None:
            self.asking[sent["id"]] = (*waiting, profile)
        return self._reply(sent)

    def _answered(self, message: Message) -> Reaction:
        """The client's response to an ask: the call it belongs to gets its result."""
        asked = self.asking.pop(message.get("id"), None)
        if asked is None:
            return Reaction()
        call_id, feature, profile = asked
        return self._reply(feature_calls.done(profile, call_id, feature, message.get("result")))

    def _prepared(self, prepared: _wire.Prepared, msg_id: Any) -> Reaction:
        """A prepared answer to the request ``msg_id``: its text alone where the server's
        ``text_replies`` says nothing reads more, else the message."""
        if self.text_replies:
            return Reaction(text=prepared.text(msg_id))
        return Reaction([prepared.reply(msg_id)])

    @staticmethod
    def _reply(message: Message) -> Reaction:
        return Reaction([message])


#: :meth:`SimServer._serve`'s prepared answers: (plan id, key) -> (the plan, its answer), where
#: the plan (one per server policy, profile and method: :func:`._catalogue._plans`) says the
#: answer depends on the key alone (and on the id); started again past LIMIT entries
_PREPARED: dict[tuple[int, Hashable], tuple[_Plan, _wire.Prepared]] = {}

#: :meth:`SimServer._initialize`'s prepared results: (spec id, the revision chosen) -> (the
#: spec, its result); started again past LIMIT entries
_INITIALIZED: dict[tuple[int, str], tuple[PeerSpec, _wire.Prepared]] = {}


#: :meth:`SimServer._discover`'s prepared results: (spec id, profile id) -> (the spec, the
#: profile, its result); started again past LIMIT entries
_DISCOVERED: dict[tuple[int, int], tuple[PeerSpec, Profile, _wire.Prepared]] = {}


@by_identity
def _modern_served(spec: PeerSpec) -> dict[str, tuple[Profile, frozenset[str]]]:
    """For each wire string a modern request to a server of ``spec`` may name: the profile it
    serves the request under (:meth:`PeerSpec.modern_identity`) and the ``_meta`` keys that
    profile requires on it. Made at once, for every wire string of its modern revisions."""
    served: dict[str, tuple[Profile, frozenset[str]]] = {}
    for revision in spec.modern:
        wire = spec.wire(revision)
        identity = spec.modern_identity(wire)
        if identity is not None and wire not in served:
            profile = spec.profile(identity)
            served[wire] = (profile, profile.names("request_meta_required"))
    return served


#: Listen filter keys the server honours only where it declares a capability flag too:
#: resource subscriptions need ``resources.subscribe`` (2026-07-28 schema
#: ``SubscriptionsAcknowledgedNotificationParams``: only the types the server supports).
_LISTEN_FLAGS: dict[str, str] = {"resourceSubscriptions": "resources.subscribe"}

"""Streamable HTTP, sans I/O, the server side: what one HTTP request gets from a simulated
server (:class:`HttpEndpoint`).

``handle(HttpRequest) -> HttpResponse``, deciding without sockets:

- A request whose ``params._meta`` names a protocol version, to a server with a
  modern revision, is served statelessly by a fresh :class:`SimServer` after
  the 2026-07-28 header checks (``basic/transports/streamable-http.mdx``
  §Server Validation, in the order the official SDK uses: ``_meta`` present,
  then ``MCP-Protocol-Version`` equal to ``_meta``, ``Mcp-Method`` equal to
  ``method``, ``Mcp-Name`` equal to ``params.name``/``params.uri``). The status
  follows the 2026-07-28 cheat-sheet: 400 for -32700/-32600/-32602/-32020/
  -32021/-32022, 404 for -32601, 200 otherwise.
- ``initialize`` to a server with a legacy revision starts a session: its own
  :class:`SimServer`, named by the ``Mcp-Session-Id`` header of the answer
  (2025-03-26 and later ``basic/transports.mdx`` §Session Management). Requests
  carrying that header go to that server and are answered 200; an unknown
  session id gets 404; ``DELETE`` ends the session (and quirk ``session-expiry=N``
  forgets it after N requests in it). A legacy session checks a
  ``MCP-Protocol-Version`` header where its revision has one (400 if unknown,
  2025-06-18 ``basic/transports.mdx`` §Protocol Version Header).
- Any other request before a session (a dual-era client's probe, say) goes to
  one shared pre-session server, whose quirks decide the JSON-RPC answer,
  sent with status 400 as the official SDK servers refuse session-less
  requests; a result (``ping``, a ``lenient`` server) is 200.
- A modern-only server answers a request without ``_meta`` 400 (-32602, or the
  simulated ``initialize`` refusal that names its versions): the request fails
  server validation (2026-07-28 ``basic/versioning.mdx`` §Compatibility Matrix).
- ``GET`` gets 405 (no standalone SSE stream: 2025-03-26..2025-11-25 allow 405,
  2026-07-28 requires it); ``DELETE`` without a session gets 405. An ``Origin``
  that is not loopback gets 403 unless remote clients are allowed.
- Silence is a held request (:attr:`HttpResponse.hold`): it is never answered.
  A server that exits (``silent-exit`` on its next input) closes the request
  unanswered (:attr:`HttpResponse.exit`), and so does every request after.
- Answers are JSON; with ``sse=True`` an answer to a request is an SSE stream
  instead, opened, where the revision has it, by the priming event (an event id
  and an empty ``data`` field, 2025-11-25 ``basic/transports.mdx`` §Sending
  Messages to the Server; gone in 2026-07-28 with resumability).

Session ids come from ``session_ids``: a counter by default (the simulator's
runs are deterministic), random ones in ``serve``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ...versions import HTTP_HEADERS, Era, HttpHeader, Message, Profile, Registry, UnknownRevision
from .._peers import PeerSpec
from .._server import Reaction, SimServer, param_headers
from ..messages import _wire
from ..messages._decode import Junk, batch_element, decode_rpc, unbatched_methods
from ..messages._wire import describe_message
from ._words import (
    HttpRequest,
    HttpResponse,
    RequestTarget,
    decode_header_value,
    header_value,
    invalid_base64_header,
    is_loopback,
)

__all__ = ["MODERN_STATUS", "SSE_POST_PATH", "HttpEndpoint", "mcp_route", "primes_streams"]

#: JSON-RPC error code -> HTTP status on the modern path (2026-07-28 status cheat-sheet).
MODERN_STATUS: Final[Mapping[int, int]] = {
    -32700: 400, -32600: 400, -32602: 400, -32020: 400, -32021: 400, -32022: 400, -32601: 404,
}
#: Where a simulated HTTP+SSE server takes the POSTs of a stream (its ``endpoint`` event).
SSE_POST_PATH: Final = "/messages"
#: Change ids (profile changelogs) that start and end the SSE priming event.
_PRIMING_ADDED, _PRIMING_REMOVED = "sse-polling", "resumability-removed"


def _origin_host(origin: str) -> str:
    """The host of an ``Origin`` (``scheme://host[:port]``), without brackets."""
    rest = origin.partition("://")[2] if "://" in origin else origin
    authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rpartition("@")[2]
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    return authority.partition(":")[0]


def mcp_route(target: RequestTarget) -> str | None:
    """Which of the endpoint's own URLs ``target`` names: ``mcp`` (the MCP endpoint, and the
    root), ``messages`` (where HTTP+SSE streams take their POSTs), or None (404 here). The
    endpoint routes by it, and the guard of a protected server protects what it names."""
    route = target.route
    if route in ("", "/mcp"):
        return "mcp"
    return "messages" if route == SSE_POST_PATH else None


def _meta(message: Message) -> dict[str, Any]:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def primes_streams(profile: Profile) -> bool:
    """Whether a server of ``profile`` opens an SSE stream with a priming event.

    From the profile's changelog: 2025-11-25 adds it (``sse-polling``), 2026-07-28
    drops resumability and with it the event ids it primes (``resumability-removed``).
    """
    primed = False
    for node in profile.lineage():
        for change in node.changes:
            if change.id == _PRIMING_ADDED:
                primed = True
            elif change.id == _PRIMING_REMOVED:
                primed = False
    return primed


def _counter() -> Callable[[], str]:
    issued = 0

    def next_id() -> str:
        nonlocal issued
        issued += 1
        return f"mcp-skew-session-{issued}"

    return next_id


def _quiet(text: str) -> None:
    return None


# -- the server side -----------------------------------------------------------------------------

class HttpEndpoint:
    """What each HTTP request gets from a simulated server, decided without sockets.

    Not safe across threads by itself: ``serve`` wraps it with a lock.
    """

    def __init__(self, spec: PeerSpec, *, say: Callable[[str], None] = _quiet,
                 allow_remote: bool = False, session_ids: Callable[[], str] | None = None,
                 sse: bool = False, http_sse: bool = True) -> None:
        self.spec = spec
        self.say = say
        self.allow_remote = allow_remote
        self.sse = sse
        self.sessions: dict[str, SimServer] = {}
        self.answered: dict[str, str] = {}  #: session -> protocolVersion the server answered
        self.served: dict[str, int] = {}  #: session -> requests served in it (after initialize)
        self.presession = SimServer(spec)
        self.doomed = False  #: a server left itself to exit on the next input
        self.transport_taken = False  #: quirk one-transport: a session-less POST came
        #: the era each request was served under, in order, across every server of the endpoint
        self.served_eras: list[Era] = []
        self._session_ids = session_ids or _counter()
        self.policy = spec.server_policy
        #: HTTP+SSE (2024-11-05): the server of each open SSE stream, and what it has said on
        #: the stream and not yet sent (``take_events``)
        self.streams: dict[str, SimServer] = {}
        self.outbox: dict[str, list[Message]] = {}
        #: what the server said in reaction to a client's response (the ``features``
        #: scenario: the result of a call once its elicitation is answered), for the open
        #: stream of the request it belongs to (:meth:`take_late`)
        self.late: list[Message] = []
        #: the ``Authorization`` header each stream was opened with; a POST to a stream must
        #: carry the same where :attr:`binds_streams` (a protected server)
        self.stream_credentials: dict[str, str] = {}
        self.binds_streams = False
        self.http_sse = http_sse and not self.policy.http_no_get and any(
            self.spec.profile(r).settings.get("http_transport") == "http+sse"
            for r in self.spec.legacy) and all(
            # a revision that removed the transport (the next revision's SSE removal, 2026-07-28
            # deprecated.mdx) lacks its feature: a server of it no longer serves the endpoint
            self.spec.profile(r).has("features", "http+sse") for r in self.spec.revisions)
        #: whether POST on the MCP endpoint is Streamable HTTP (a revision after 2024-11-05,
        #: or a 2024-11-05 server without the SSE endpoint: quirk no-get)
        self.streamable = self.policy.http_no_get or any(
            self.spec.profile(r).settings.get("http_transport") != "http+sse"
            for r in self.spec.revisions)

    @property
    def startup_ms(self) -> int:
        return self.presession.startup_ms

    @property
    def latency_ms(self) -> int:
        """Simulated ms each request takes on the server (quirk ``latency``)."""
        return self.presession.latency_ms

    # -- entry point ------------------------------------------------------------------
    def handle(self, request: HttpRequest) -> HttpResponse:
        target = request.target  # the one reading of the target, the guard's too
        if target is None:
            return HttpResponse(400, {"error": "invalid_request",
                                      "error_description": "malformed request target"})
        guarded = self.guard(request, target)
        if guarded is not None:
            return guarded
        origin = request.headers.get("origin")
        if origin and not self.allow_remote and not is_loopback(_origin_host(origin)):
            return HttpResponse(403)
        route = mcp_route(target)
        if self.http_sse and route == "messages" and request.method == "POST":
            return HttpResponse(0, exit=True) if self.doomed else self._sse_post(request, target)
        if route != "mcp":
            return HttpResponse(404)
        if request.method == "GET" and self.http_sse:
            return self._open_sse(request)
        if request.method == "POST" and self.streamable:
            if self.doomed:
                return HttpResponse(0, exit=True)
            return self._post(request)
        if request.method == "DELETE" and self.streamable:
            return self._delete(request)
        if not self.streamable:  # HTTP+SSE only: the URL is the SSE endpoint, GET only
            return HttpResponse(405, headers={"Allow": "GET"})
        allow = "POST, DELETE" if self.spec.legacy else "POST"
        return HttpResponse(405, headers={"Allow": allow})

    def guard(self, request: HttpRequest, target: RequestTarget) -> HttpResponse | None:
        """What a protected server answers ``request`` with before the endpoint sees it (an
        authorization URL's answer, a 401); None: serve it. Nothing here: a protected
        endpoint overrides it."""
        return None

    # -- HTTP+SSE (2024-11-05) ------------------------------------------------------------
    def _open_sse(self, request: HttpRequest) -> HttpResponse:
        """GET: a new SSE stream, a server of its own, and the ``endpoint`` event naming where
        to POST (2024-11-05 ``basic/transports.mdx`` §HTTP with SSE)."""
        sid = self._session_ids()
        self.streams[sid] = SimServer(self.spec)
        self.outbox[sid] = []
        self.stream_credentials[sid] = request.headers.get("authorization", "")
        self.say(f"HTTP+SSE stream {sid[:8]} opened")
        return HttpResponse(200, events=(("endpoint", f"{SSE_POST_PATH}?session_id={sid}"),))

    def _sse_post(self, request: HttpRequest, target: RequestTarget) -> HttpResponse:
        """POST to the endpoint an SSE stream named: 202, the answer goes on the stream. On a
        protected server, only with the token the stream was opened with (a session is not
        authentication: 2025-06-18 ``basic/security_best_practices.mdx`` §Session Hijacking,
        "MCP servers MUST NOT use sessions for authentication"; every request carries the
        token, ``basic/authorization.mdx`` §Token Requirements): 403 else."""
        sid = target.param("session_id") or ""
        server = self.streams.get(sid)
        if server is None:
            return HttpResponse(404)
        if self.binds_streams and \
                request.headers.get("authorization", "") != self.stream_credentials.get(sid):
            self.say(f"POST to HTTP+SSE stream {sid[:8]} with another token than the "
                     "stream's: 403")
            return HttpResponse(403, {"error": "forbidden", "error_description":
                                      "this stream was opened with another token"})
        decoded = decode_rpc(request.body)
        if isinstance(decoded, Junk) or not isinstance(decoded.value, dict):
            return HttpResponse(400)
        reaction = self._feed(server, decoded.value)
        if reaction.exit:
            self.say("the simulated server exits now (quirk), without answering")
            return HttpResponse(0, exit=True)
        self.outbox[sid] += reaction.replies
        return HttpResponse(202)

    def take_late(self) -> list[Message]:
        """What the server said after a client's response (:attr:`late`), taken."""
        taken, self.late = self.late, []
        return taken

    def take_events(self, sid: str) -> list[Message]:
        """The messages the server of stream ``sid`` has said since the last call."""
        said, self.outbox[sid] = self.outbox.get(sid, []), []
        return said

    def close_stream(self, sid: str) -> None:
        """The client closed its GET: the stream and its server are gone."""
        if self.streams.pop(sid, None) is not None:
            self.outbox.pop(sid, None)
            self.stream_credentials.pop(sid, None)
            self.say(f"HTTP+SSE stream {sid[:8]} closed")

    def _delete(self, request: HttpRequest) -> HttpResponse:
        sid = request.headers.get("mcp-session-id")
        if sid is None or not self.spec.legacy:
            return HttpResponse(405, headers={"Allow": "POST"})
        if self.sessions.pop(sid, None) is None:
            return HttpResponse(404)
        self.answered.pop(sid, None)
        self.say(f"session {sid[:8]} ended by DELETE")
        return HttpResponse(200)

    def _post(self, request: HttpRequest) -> HttpResponse:
        decoded = decode_rpc(request.body)
        if isinstance(decoded, Junk):
            return HttpResponse(400, decoded.error())
        if isinstance(decoded.value, list):
            return self._batch(decoded.value, request)
        return self._message(decoded.value, request.headers)

    def _batch(self, batch: list[Any], request: HttpRequest) -> HttpResponse:
        sid = request.headers.get("mcp-session-id")
        server = self.sessions.get(sid or "")
        allowed = any(self.spec.profile(r).settings.get("batching") for r in self.spec.legacy)
        if server is None or not allowed or not batch:
            revs = ", ".join(self.spec.revisions)
            return HttpResponse(400, _wire.error(None, -32600, f"Invalid request: no JSON-RPC "
                                             f"batches here ({revs}, session required)"))
        replies: list[Any] = []
        unbatched = unbatched_methods(self.spec.profile(r) for r in self.spec.legacy)
        for item in batch:  # JSON-RPC 2.0 §6: each invalid element gets its own error
            checked = batch_element(item, unbatched)
            if isinstance(checked, Junk):
                replies.append(checked.error())
            elif isinstance(checked.value, dict):
                replies += self._feed(server, checked.value).replies
        headers = {"Mcp-Session-Id": sid or ""}
        return HttpResponse(200, replies, headers) if replies else HttpResponse(202, None, headers)

    # -- routing ----------------------------------------------------------------------
    def _message(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        sid = headers.get("mcp-session-id")
        if sid is None and self.policy.http_one_transport:  # quirk one-transport
            if self.transport_taken:
                self.say(f"recv {describe_message(message)}: a new transport; the one server is taken "
                         "(quirk): 500")
                return HttpResponse(500, _wire.error(message.get("id"), -32603,
                                                 "Internal server error"))
            self.transport_taken = True
        if _wire.VERSION_KEY in _meta(message) and self.spec.modern and "method" in message:
            return self._modern(message, headers)
        if sid is None and self.spec.modern and "method" in message and \
                self._names_modern(headers.get("mcp-protocol-version")):
            return self._meta_missing(message)
        if sid is not None and sid in self.sessions:
            return self._in_session(sid, message, headers)
        if sid is not None and self.spec.legacy:
            return HttpResponse(404, _wire.error(message.get("id"), -32600,
                                             f"Session not found: {sid}"))
        if not self.spec.legacy:
            return self._not_modern(message)
        if message.get("method") == "initialize":
            refused = self._initialize_header(message, headers)
            return refused if refused is not None else self._initialize(message)
        if self.policy.http_stateless:
            return self._stateless(message, headers)
        return self._presession(message)

    def _feed(self, server: SimServer, message: Message) -> Reaction:
        self.say(f"recv {describe_message(message)}")
        served = len(server.served_eras)
        reaction = server.receive(message)
        self.served_eras += server.served_eras[served:]
        if server.exit_on_next:
            self.doomed = True
        for reply in reaction.replies:
            self.say(f"send {describe_message(reply)}")
        return reaction

    def _reply(self, message: Message, reaction: Reaction, status_of: Callable[[Message], int],
               headers: dict[str, str] | None = None, profile: Profile | None = None
               ) -> HttpResponse:
        if reaction.exit:
            self.say("the simulated server exits now (quirk), without answering")
            return HttpResponse(0, exit=True)
        if "id" not in message or "method" not in message:
            if "method" not in message:  # a client's response: what follows goes on the
                self.late += reaction.replies  # stream of the request it belongs to
            return HttpResponse(202, None, headers or {})
        if not reaction.replies:
            self.say(f"no answer to {describe_message(message)} (holding the request open)")
            return HttpResponse(0, hold=True)
        reply = reaction.replies[0]
        response = HttpResponse(status_of(reply), reply, headers or {})
        if "id" not in reply:  # a stream's first notification (subscriptions/listen): SSE
            response.stream = True
            if profile is not None and message.get("method") == "subscriptions/listen":
                # the stateless server ends the stream with the response: it says so
                response.then = (SimServer(self.spec).closing(message["id"], profile),)
        elif "method" in reply:  # the server asks the client first: an SSE stream, held
            response.stream = True  # open for the answer (basic/transports.mdx §Sending
            #                          Messages to the Server: requests before the response)
        elif self.sse and response.status == 200:
            response.stream = True
            if profile is not None and primes_streams(profile):
                response.priming = str(message["id"])
        return response

    # -- the modern era -----------------------------------------------------------------
    def _modern(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        meta = _meta(message)
        asked = meta.get(_wire.VERSION_KEY)
        profile = self._profile(asked)
        names = profile.names("http_headers")
        if _wire.CAPS_KEY in meta and _has_header("method", names):
            mismatch = self._header_mismatch(message, headers, asked, self.spec.registry, names)
            if mismatch is not None:
                self.say(f"recv {describe_message(message)}: {mismatch} (-32020)")
                if "id" not in message:
                    return HttpResponse(400)
                return HttpResponse(400, _wire.error(message["id"], -32020, mismatch))
        reaction = self._feed(SimServer(self.spec), message)
        return self._reply(message, reaction, _modern_status, profile=profile)

    def _profile(self, asked: Any) -> Profile:
        revision = self.spec.modern_identity(asked)  # as SimServer._modern reads it
        if revision is not None:
            return self.spec.profile(revision)
        return self.spec.profile(self.spec.modern[0])

    @staticmethod
    def _header_mismatch(message: Message, headers: Mapping[str, str], asked: Any,
                         registry: Registry, names: frozenset[str]) -> str | None:
        """The first header of the table (that the asked revision has) whose value does not
        match the body, as its -32020 message; the tool-parameter headers last."""
        bad = invalid_base64_header(headers)
        if bad is not None:
            return f"Invalid header: {bad} is not valid Base64 (RFC 4648 §3.3)"
        for header in HTTP_HEADERS:
            if header.mismatch and header.name in names and \
                    not _matches(header, message, headers.get(header.key), asked):
                member = header.methods.get(str(message.get("method")), "")
                return header.mismatch.format(param=member)
        return _param_mismatch(message, headers, asked, registry)

    def _names_modern(self, version: str | None) -> bool:
        """Whether an ``MCP-Protocol-Version`` header names a modern revision."""
        registry = self.spec.registry
        return version is not None and version in registry and \
            registry.get(version).era is Era.MODERN

    def _meta_missing(self, message: Message) -> HttpResponse:
        """A request whose ``MCP-Protocol-Version`` header names a modern revision while its
        ``_meta`` names none: a modern request lacking a required field, 400 and -32602
        (2026-07-28 ``basic/index.mdx`` §_meta), ``initialize`` included: not legacy traffic."""
        if "id" not in message:
            return HttpResponse(202)
        self.say(f"recv {describe_message(message)}: a modern header, no _meta version; answering -32602")
        return HttpResponse(400, SimServer(self.spec).missing_version(message))

    def _not_modern(self, message: Message) -> HttpResponse:
        """A request without ``_meta`` to a modern-only server: it fails server validation."""
        if "id" not in message or "method" not in message:
            return HttpResponse(202)
        if message.get("method") == "initialize":
            reaction = self._feed(SimServer(self.spec), message)
            return self._reply(message, reaction, lambda reply: 400)
        self.say(f"recv {describe_message(message)}: no _meta; answering -32602")
        return HttpResponse(400, SimServer(self.spec).missing_version(message))

    # -- the legacy era -----------------------------------------------------------------
    def _initialize_header(self, message: Message, headers: Mapping[str, str]
                           ) -> HttpResponse | None:
        """Quirk ``checks-header-on-initialize``: an ``initialize`` whose ``MCP-Protocol-Version``
        names a revision the server lacks gets 400 before any negotiation (the header is for
        requests after it: 2025-06-18 and later ``basic/transports.mdx`` §Protocol Version
        Header, "subsequent requests"); None: go on to negotiate."""
        version = headers.get("mcp-protocol-version")
        if not self.policy.http_initialize_header or version is None or \
                version in self.spec.legacy:
            return None
        named = ", ".join(self.spec.legacy)
        self.say(f"recv {describe_message(message)}: MCP-Protocol-Version {version} on initialize "
                 "(quirk): 400")
        return HttpResponse(400, _wire.error(message.get("id"), -32600, "Bad Request: Unsupported "
                                         f"protocol version (supported versions: {named})"))

    def _stateless(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        """Quirk ``stateless-http``: a request without a session, served alone by a fresh
        server, as after an ``initialize`` of the revision its ``MCP-Protocol-Version`` names
        (the server's newest legacy one without it)."""
        server = SimServer(self.spec)
        version = headers.get("mcp-protocol-version")
        server.legacy_revision = version if version in self.spec.legacy else self.spec.legacy[0]
        reaction = self._feed(server, message)
        return self._reply(message, reaction, lambda reply: 200,
                           profile=self.spec.profile(server.legacy_revision))

    def _initialize(self, message: Message) -> HttpResponse:
        server = SimServer(self.spec)
        reaction = self._feed(server, message)
        reply = reaction.replies[0] if reaction.replies else None
        if reply is None or not isinstance(reply.get("result"), dict):
            return self._reply(message, reaction, lambda reply: 400)
        if self.policy.http_stateless:  # no session: each later request is served alone
            self.say("stateless: no session started")
            return self._reply(message, reaction, lambda reply: 200, None,
                               self.spec.profile(server.legacy_revision or self.spec.legacy[0]))
        sid = self._session_ids()
        self.sessions[sid] = server
        self.answered[sid] = str(reply["result"].get("protocolVersion"))
        self.say(f"session {sid[:8]} started ({self.answered[sid]})")
        return self._reply(message, reaction, lambda reply: 200, {"Mcp-Session-Id": sid},
                           self.spec.profile(server.legacy_revision or self.spec.legacy[0]))

    def _in_session(self, sid: str, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        server = self.sessions[sid]
        profile = self.spec.profile(server.legacy_revision or self.spec.legacy[0])
        version = headers.get("mcp-protocol-version")
        known = {*self.spec.revisions, self.answered.get(sid)}
        if ("MCP-Protocol-Version" in profile.names("http_headers") and version is not None
                and version not in known):
            text = f"Bad Request: unsupported MCP-Protocol-Version {version}"
            return HttpResponse(400, _wire.error(message.get("id"), -32600, text),
                                {"Mcp-Session-Id": sid})
        reaction = self._feed(server, message)
        expiry = self.policy.http_session_expiry
        if expiry is not None and "id" in message and "method" in message:
            self.served[sid] = self.served.get(sid, 0) + 1
            if self.served[sid] >= expiry:  # quirk session-expiry: the server forgets it
                self.sessions.pop(sid, None)
                self.answered.pop(sid, None)
                self.served.pop(sid, None)
                self.say(f"session {sid[:8]} forgotten after {expiry} requests (quirk)")
        return self._reply(message, reaction, lambda reply: 200, {"Mcp-Session-Id": sid}, profile)

    def _presession(self, message: Message) -> HttpResponse:
        if self.policy.http_presession == "empty":  # quirk empty-400
            self.say(f"recv {describe_message(message)}: no session; 400 with no body (quirk)")
            return HttpResponse(400)
        if self.policy.http_presession == "-32000":  # quirk not-initialized-32000
            self.say(f"recv {describe_message(message)}: no session; -32000 (quirk)")
            return HttpResponse(400, _wire.error(None, -32000, "Bad Request: Server not initialized"))
        if self.policy.http_presession == "-32600":  # quirk missing-session-32600
            self.say(f"recv {describe_message(message)}: no session; -32600 (quirk)")
            return HttpResponse(400, _wire.error(None, -32600, "Bad Request: Missing session ID"))
        reaction = self._feed(self.presession, message)
        return self._reply(message, reaction, lambda reply: 400 if "error" in reply else 200,
                           profile=self.spec.profile(self.spec.legacy[0]))


def _param_mismatch(message: Message, headers: Mapping[str, str], asked: Any,
                    registry: Registry) -> str | None:
    """A ``tools/call`` whose ``Mcp-Param-{Name}`` headers do not match the arguments of the
    parameters the simulated tool marks with ``x-mcp-header`` (2026-07-28
    ``streamable-http.mdx`` §Server Behavior for Custom Headers: missing or different: -32020)."""
    if message.get("method") != "tools/call" or not isinstance(asked, str):
        return None
    try:
        profile = registry.get(asked)
    except UnknownRevision:
        return None
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    args = params.get("arguments")
    args = args if isinstance(args, dict) else {}
    for prop, name in param_headers(profile, params.get("name")):
        expected = header_value(args.get(prop))
        if expected is None:
            continue  # no value: the server must not expect the header
        got = decode_header_value(headers.get(f"mcp-param-{name.lower()}"))
        if got != expected:
            shown = "missing" if got is None else f"{got!r}"
            return (f"Header mismatch: Mcp-Param-{name} header value {shown} does not match "
                    f"body value {expected!r}")
    return None


def _has_header(carries: str, names: frozenset[str]) -> bool:
    """Whether a revision whose ``http_headers`` are ``names`` has the header carrying
    ``carries``."""
    return any(h.carries == carries and h.name in names for h in HTTP_HEADERS)


def _matches(header: HttpHeader, message: Message, got: str | None, asked: Any) -> bool:
    """Whether header ``got`` says what the body does (2026-07-28 ``streamable-http.mdx``
    §Server Validation): the version ``_meta`` asks for, the method, the ``params`` member
    (decoded; no member, nothing to match)."""
    if header.carries == "version":
        return bool(got == asked)
    if header.carries == "method":
        return bool(got == message.get("method"))
    member = header.methods.get(str(message.get("method")))
    params = message.get("params")
    value = params.get(member) if member and isinstance(params, dict) else None
    return value is None or bool(decode_header_value(got) == value)


def _modern_status(reply: Message) -> int:
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return MODERN_STATUS.get(code, 200) if isinstance(code, int) else 200

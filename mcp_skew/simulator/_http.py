"""Streamable HTTP, sans I/O: what one HTTP request gets from a simulated server, and what
a simulated client sends and how it reads the answer.

One implementation serves everything: the in-memory HTTP link of the simulator
(:mod:`._httplink`) runs it on the simulated clock, ``mcp-skew serve --http``
(:mod:`mcp_skew.serve._http`) puts sockets and threads around the server side,
and the real HTTP link of the probe (:mod:`mcp_skew.wire.http`) builds its
headers and reads bodiless errors with the client side.

The server side: :class:`HttpEndpoint`
--------------------------------------
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

The client side: :class:`HttpClient`
------------------------------------
What a client of a revision sends, read from the profiles:

- every message is a POST with ``Accept: application/json, text/event-stream``
  (2025-03-26 on, ``basic/transports.mdx`` §Sending Messages to the Server);
- a modern request carries ``MCP-Protocol-Version`` equal to its ``_meta``
  version, and the headers of its revision's ``http_headers`` table:
  ``Mcp-Method`` and, for ``tools/call``, ``resources/read`` and
  ``prompts/get``, ``Mcp-Name`` (Base64 sentinel-encoded when unsafe; 2026-07-28
  ``streamable-http.mdx`` §Request Metadata), and no session (its revision's
  ``sessions`` setting is false);
- after ``initialize``, the ``Mcp-Session-Id`` the server assigned, and
  ``MCP-Protocol-Version`` with the negotiated revision where that revision's
  ``http_headers`` has it (2025-06-18 on);
- a 404 to a request that carried a session id means the session is gone
  (:meth:`HttpClient.session_lost`): the client starts a new one with a new
  ``initialize`` without a session id (2025-03-26 and later ``basic/transports.mdx``
  §Session Management; :mod:`._httplink` does it).

And how an answer becomes the client's event (:meth:`HttpClient.read`): a JSON
body is the message; an SSE body is its ``message`` events, an event with empty
data (the priming event) being no message; an error status with a JSON-RPC
error in the body is that error (so a dual-era client can tell a modern -32022
in a 400 from a legacy refusal, 2026-07-28 ``streamable-http.mdx`` §Backward
Compatibility); an error status without one becomes a synthesized error whose
``data`` says so (404 and 405: -32601; other 4xx: -32600; 5xx: -32603).
"""

from __future__ import annotations

import base64
import ipaddress
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .._jsontext import dumps, loads
from ..versions import REGISTRY, Era, Message, Profile, Registry, UnknownRevision
from . import _wire as w
from ._decode import Junk, check_message, decode_rpc
from ._negotiation import modern_codes_of
from ._peers import PeerSpec
from ._server import PARAM_HEADER, Reaction, SimServer, param_headers
from ._sse import SseEvent, SseParser

__all__ = [
    "ACCEPT",
    "MODERN_STATUS",
    "NAME_PARAMS",
    "REASONS",
    "SSE_FALLBACK_STATUS",
    "SSE_POST_PATH",
    "BodyPart",
    "HttpClient",
    "HttpEndpoint",
    "HttpReading",
    "HttpRequest",
    "HttpResponse",
    "decode_header_value",
    "describe",
    "encode_header_value",
    "is_jsonrpc_error",
    "is_loopback",
    "is_priming",
    "modern_error_codes",
    "opens_http_sse",
    "parse_body",
    "request_headers",
    "sse_messages",
    "synthesized_error",
    "wants_sse_fallback",
]

#: What a client accepts on every POST (2025-03-26 on).
ACCEPT: Final = "application/json, text/event-stream"
#: JSON-RPC error code -> HTTP status on the modern path (2026-07-28 status cheat-sheet).
MODERN_STATUS: Final[Mapping[int, int]] = {
    -32700: 400, -32600: 400, -32602: 400, -32020: 400, -32021: 400, -32022: 400, -32601: 404,
}
#: Methods whose request mirrors a parameter in ``Mcp-Name`` (2026-07-28 streamable-http.mdx).
NAME_PARAMS: Final[Mapping[str, str]] = {
    "tools/call": "name", "resources/read": "uri", "prompts/get": "name",
}
#: Status codes after which a client may try the deprecated HTTP+SSE transport.
SSE_FALLBACK_STATUS: Final = frozenset({400, 404, 405})
#: Where a simulated HTTP+SSE server takes the POSTs of a stream (its ``endpoint`` event).
SSE_POST_PATH: Final = "/messages"
#: Reason phrases of the statuses the simulated peers meet (RFC 9110).
REASONS: Final[Mapping[int, str]] = {
    200: "OK", 201: "Created", 202: "Accepted", 302: "Found", 400: "Bad Request",
    401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 500: "Internal Server Error", 502: "Bad Gateway",
}
LOOPBACK_NAMES: Final = frozenset({"localhost", "ip6-localhost"})
_SENTINEL: Final = ("=?base64?", "?=")
#: Change ids (profile changelogs) that start and end the SSE priming event.
_PRIMING_ADDED, _PRIMING_REMOVED = "sse-polling", "resumability-removed"


# -- values ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One HTTP request, as the server reads it."""

    method: str
    path: str
    headers: Mapping[str, str]  #: lower-case names
    body: bytes = b""


@dataclass(slots=True)
class HttpResponse:
    """What the server answers one request with."""

    status: int
    body: Any = None  #: JSON to send; None sends no body
    headers: dict[str, str] = field(default_factory=dict)
    hold: bool = False  #: never answer: keep the request open until the client leaves
    exit: bool = False  #: the server process ends: close unanswered and stop
    stream: bool = False  #: send the body as an SSE stream, not as JSON
    priming: str | None = None  #: the id of the priming event that opens the stream
    #: named SSE events that open a long-lived stream (HTTP+SSE: ``endpoint``), body None
    events: tuple[tuple[str, str], ...] = ()
    #: messages sent after ``body`` on the same SSE response, before it ends (the result
    #: that closes a ``subscriptions/listen`` stream); the in-memory link does not read them
    then: tuple[Message, ...] = ()

    @property
    def content_type(self) -> str | None:
        if self.events:
            return "text/event-stream"
        if self.body is None:
            return None
        return "text/event-stream" if self.stream else "application/json"

    def encoded(self) -> bytes:
        if self.events:
            return "".join(f"event: {name}\ndata: {data}\n\n" for name, data in self.events
                           ).encode()
        if self.body is None:
            return b""
        text = dumps(self.body, separators=(",", ":"))
        if not self.stream:
            return text.encode()
        more = "".join(f"event: message\ndata: {dumps(m, separators=(',', ':'))}\n\n"
                       for m in self.then)
        if self.priming is None:
            return f"event: message\ndata: {text}\n\n{more}".encode()
        return f"id: {self.priming}\ndata:\n\nid: {self.priming}-1\nevent: message\n" \
               f"data: {text}\n\n".encode()


# -- shared words ------------------------------------------------------------------------------

def describe(message: Any) -> str:
    """A few words about a message, for a log a person reads."""
    if not isinstance(message, dict):
        return f"batch of {len(message)}" if isinstance(message, list) else "not an object"
    ident = f" id={json.dumps(message['id'])}" if "id" in message else ""
    if "method" in message:
        return f"{message['method']}{ident}"
    error = message.get("error")
    if isinstance(error, dict):
        return f"error {error.get('code')}{ident}"
    result = message.get("result")
    if isinstance(result, dict) and "protocolVersion" in result:
        return f"result{ident} (protocolVersion {result['protocolVersion']})"
    return f"result{ident}"


def encode_header_value(value: str) -> str:
    """``value`` as is when it is a safe header value, else in the Base64 sentinel form."""
    safe = (
        all(0x20 <= ord(ch) <= 0x7E for ch in value)
        and value == value.strip()
        and not (value.startswith(_SENTINEL[0]) and value.endswith(_SENTINEL[1]))
    )
    if safe:
        return value
    return _SENTINEL[0] + base64.b64encode(value.encode()).decode() + _SENTINEL[1]


def decode_header_value(value: str | None) -> str | None:
    """A header value, with the ``=?base64?...?=`` sentinel of 2026-07-28 undone."""
    if value is None or not (value.startswith(_SENTINEL[0]) and value.endswith(_SENTINEL[1])):
        return value
    decoded = _strict_base64(value[len(_SENTINEL[0]):-len(_SENTINEL[1])])
    return value if decoded is None else decoded


def _strict_base64(text: str) -> str | None:
    """``text`` decoded as Base64 (standard alphabet, padded) and then UTF-8; None when it
    is not: a character outside the alphabet is rejected, not skipped (RFC 4648 §3.3:
    implementations MUST reject encoded data with characters outside the base alphabet)."""
    try:
        return base64.b64decode(text, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def invalid_base64_header(headers: Mapping[str, str]) -> str | None:
    """The first ``Mcp-Name`` or ``Mcp-Param-*`` header whose ``=?base64?...?=`` value is not
    valid Base64 (RFC 4648 §3.3), by its lower-case name; None when there is none."""
    for name, value in sorted(headers.items()):
        if name != "mcp-name" and not name.startswith("mcp-param-"):
            continue
        if value.startswith(_SENTINEL[0]) and value.endswith(_SENTINEL[1]) and \
                len(value) >= len(_SENTINEL[0]) + len(_SENTINEL[1]) and \
                _strict_base64(value[len(_SENTINEL[0]):-len(_SENTINEL[1])]) is None:
            return name
    return None


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _origin_host(origin: str) -> str:
    """The host of an ``Origin`` (``scheme://host[:port]``), without brackets."""
    rest = origin.partition("://")[2] if "://" in origin else origin
    authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rpartition("@")[2]
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    return authority.partition(":")[0]


def _path_of(target: str) -> str:
    """The path of a request target (origin form, or absolute form)."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if "://" in path:
        path = "/" + path.partition("://")[2].partition("/")[2]
    return path


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
        self.http_sse = http_sse and not self.policy.http_no_get and any(
            self.spec.profile(r).settings.get("http_transport") == "http+sse"
            for r in self.spec.legacy)
        #: whether POST on the MCP endpoint is Streamable HTTP (a revision after 2024-11-05,
        #: or a 2024-11-05 server without the SSE endpoint: quirk no-get)
        self.streamable = self.policy.http_no_get or any(
            self.spec.profile(r).settings.get("http_transport") != "http+sse"
            for r in self.spec.revisions)

    @property
    def startup_ms(self) -> int:
        return self.presession.startup_ms

    # -- entry point ------------------------------------------------------------------
    def handle(self, request: HttpRequest) -> HttpResponse:
        origin = request.headers.get("origin")
        if origin and not self.allow_remote and not is_loopback(_origin_host(origin)):
            return HttpResponse(403)
        path = _path_of(request.path).rstrip("/")
        if self.http_sse and path == SSE_POST_PATH and request.method == "POST":
            return HttpResponse(0, exit=True) if self.doomed else self._sse_post(request)
        if path not in ("", "/mcp"):
            return HttpResponse(404)
        if request.method == "GET" and self.http_sse:
            return self._open_sse()
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

    # -- HTTP+SSE (2024-11-05) ------------------------------------------------------------
    def _open_sse(self) -> HttpResponse:
        """GET: a new SSE stream, a server of its own, and the ``endpoint`` event naming where
        to POST (2024-11-05 ``basic/transports.mdx`` §HTTP with SSE)."""
        sid = self._session_ids()
        self.streams[sid] = SimServer(self.spec)
        self.outbox[sid] = []
        self.say(f"HTTP+SSE stream {sid[:8]} opened")
        return HttpResponse(200, events=(("endpoint", f"{SSE_POST_PATH}?session_id={sid}"),))

    def _sse_post(self, request: HttpRequest) -> HttpResponse:
        """POST to the endpoint an SSE stream named: 202, the answer goes on the stream."""
        query = request.path.partition("?")[2]
        sid = next((v for k, _, v in (p.partition("=") for p in query.split("&"))
                    if k == "session_id"), "")
        server = self.streams.get(sid)
        if server is None:
            return HttpResponse(404)
        decoded = decode_rpc(request.body)
        if isinstance(decoded, Junk) or not isinstance(decoded.value, dict):
            return HttpResponse(400)
        reaction = self._feed(server, decoded.value)
        if reaction.exit:
            self.say("the simulated server exits now (quirk), without answering")
            return HttpResponse(0, exit=True)
        self.outbox[sid] += reaction.replies
        return HttpResponse(202)

    def take_events(self, sid: str) -> list[Message]:
        """The messages the server of stream ``sid`` has said since the last call."""
        said, self.outbox[sid] = self.outbox.get(sid, []), []
        return said

    def close_stream(self, sid: str) -> None:
        """The client closed its GET: the stream and its server are gone."""
        if self.streams.pop(sid, None) is not None:
            self.outbox.pop(sid, None)
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
            return HttpResponse(400, w.error(None, -32600, f"Invalid request: no JSON-RPC "
                                             f"batches here ({revs}, session required)"))
        replies: list[Any] = []
        for item in batch:  # JSON-RPC 2.0 §6: each invalid element gets its own error
            checked = check_message(item)
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
                self.say(f"recv {describe(message)}: a new transport; the one server is taken "
                         "(quirk): 500")
                return HttpResponse(500, w.error(message.get("id"), -32603,
                                                 "Internal server error"))
            self.transport_taken = True
        if w.VERSION_KEY in _meta(message) and self.spec.modern and "method" in message:
            return self._modern(message, headers)
        if sid is None and self.spec.modern and "method" in message and \
                self._names_modern(headers.get("mcp-protocol-version")):
            return self._meta_missing(message)
        if sid is not None and sid in self.sessions:
            return self._in_session(sid, message, headers)
        if sid is not None and self.spec.legacy:
            return HttpResponse(404, w.error(message.get("id"), -32600,
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
        self.say(f"recv {describe(message)}")
        served = len(server.served_eras)
        reaction = server.receive(message)
        self.served_eras += server.served_eras[served:]
        if server.exit_on_next:
            self.doomed = True
        for reply in reaction.replies:
            self.say(f"send {describe(reply)}")
        return reaction

    def _reply(self, message: Message, reaction: Reaction, status_of: Callable[[Message], int],
               headers: dict[str, str] | None = None, profile: Profile | None = None
               ) -> HttpResponse:
        if reaction.exit:
            self.say("the simulated server exits now (quirk), without answering")
            return HttpResponse(0, exit=True)
        if "id" not in message or "method" not in message:
            return HttpResponse(202, None, headers or {})
        if not reaction.replies:
            self.say(f"no answer to {describe(message)} (holding the request open)")
            return HttpResponse(0, hold=True)
        reply = reaction.replies[0]
        response = HttpResponse(status_of(reply), reply, headers or {})
        if "id" not in reply:  # a stream's first notification (subscriptions/listen): SSE
            response.stream = True
            if profile is not None and message.get("method") == "subscriptions/listen":
                # the stateless server ends the stream with the response: it says so
                response.then = (SimServer(self.spec).closing(message["id"], profile),)
        elif self.sse and response.status == 200:
            response.stream = True
            if profile is not None and primes_streams(profile):
                response.priming = str(message["id"])
        return response

    # -- the modern era -----------------------------------------------------------------
    def _modern(self, message: Message, headers: Mapping[str, str]) -> HttpResponse:
        meta = _meta(message)
        asked = meta.get(w.VERSION_KEY)
        profile = self._profile(asked)
        if w.CAPS_KEY in meta and "Mcp-Method" in profile.names("http_headers"):
            mismatch = self._header_mismatch(message, headers, asked, self.spec.registry)
            if mismatch is not None:
                self.say(f"recv {describe(message)}: {mismatch} (-32020)")
                if "id" not in message:
                    return HttpResponse(400)
                return HttpResponse(400, w.error(message["id"], -32020, mismatch))
        reaction = self._feed(SimServer(self.spec), message)
        return self._reply(message, reaction, _modern_status, profile=profile)

    def _profile(self, asked: Any) -> Profile:
        if isinstance(asked, str) and asked in self.spec.modern:
            return self.spec.profile(asked)
        return self.spec.profile(self.spec.modern[0])

    @staticmethod
    def _header_mismatch(message: Message, headers: Mapping[str, str], asked: Any,
                         registry: Registry) -> str | None:
        bad = invalid_base64_header(headers)
        if bad is not None:
            return f"Invalid header: {bad} is not valid Base64 (RFC 4648 §3.3)"
        if headers.get("mcp-protocol-version") != asked:
            return "Header mismatch: MCP-Protocol-Version must equal _meta protocolVersion"
        if headers.get("mcp-method") != message.get("method"):
            return "Header mismatch: Mcp-Method must equal the method"
        key = NAME_PARAMS.get(str(message.get("method")))
        params = message.get("params")
        value = params.get(key) if key and isinstance(params, dict) else None
        if value is not None and decode_header_value(headers.get("mcp-name")) != value:
            return f"Header mismatch: Mcp-Name must equal params.{key}"
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
        self.say(f"recv {describe(message)}: a modern header, no _meta version; answering -32602")
        return HttpResponse(400, SimServer(self.spec).missing_version(message))

    def _not_modern(self, message: Message) -> HttpResponse:
        """A request without ``_meta`` to a modern-only server: it fails server validation."""
        if "id" not in message or "method" not in message:
            return HttpResponse(202)
        if message.get("method") == "initialize":
            reaction = self._feed(SimServer(self.spec), message)
            return self._reply(message, reaction, lambda reply: 400)
        self.say(f"recv {describe(message)}: no _meta; answering -32602")
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
        self.say(f"recv {describe(message)}: MCP-Protocol-Version {version} on initialize "
                 "(quirk): 400")
        return HttpResponse(400, w.error(message.get("id"), -32600, "Bad Request: Unsupported "
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
            return HttpResponse(400, w.error(message.get("id"), -32600, text),
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
            self.say(f"recv {describe(message)}: no session; 400 with no body (quirk)")
            return HttpResponse(400)
        if self.policy.http_presession == "-32000":  # quirk not-initialized-32000
            self.say(f"recv {describe(message)}: no session; -32000 (quirk)")
            return HttpResponse(400, w.error(None, -32000, "Bad Request: Server not initialized"))
        if self.policy.http_presession == "-32600":  # quirk missing-session-32600
            self.say(f"recv {describe(message)}: no session; -32600 (quirk)")
            return HttpResponse(400, w.error(None, -32600, "Bad Request: Missing session ID"))
        reaction = self._feed(self.presession, message)
        return self._reply(message, reaction, lambda reply: 400 if "error" in reply else 200,
                           profile=self.spec.profile(self.spec.legacy[0]))


def header_value(value: Any) -> str | None:
    """A tool parameter's value as its ``Mcp-Param-{Name}`` header carries it (before the
    Base64 sentinel): strings as is, integers in decimal, booleans ``true``/``false``; None for
    an absent or null value, or one of another type (no header; 2026-07-28
    ``streamable-http.mdx`` §Value Encoding)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int)):
        return str(value)
    return None


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


def _modern_status(reply: Message) -> int:
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return MODERN_STATUS.get(code, 200) if isinstance(code, int) else 200


# -- the client side -----------------------------------------------------------------------------

def modern_error_codes(registry: Registry) -> frozenset[int]:
    """Codes that mark a modern server, from every modern profile of ``registry``."""
    return modern_codes_of(registry)


def _profile_of(revision: Any, era: Era, registry: Registry) -> Profile | None:
    """The profile of a revision; for one the registry does not know, the newest of its era."""
    try:
        return registry.get(str(revision))
    except UnknownRevision:
        newest = registry.ordered(registry.of_era(era))
        return registry.get(newest[0]) if newest else None


def request_headers(message: Any, *, session_id: str | None = None,
                    legacy_revision: str | None = None, extra: Mapping[str, str] | None = None,
                    registry: Registry = REGISTRY,
                    tool_headers: Mapping[str, tuple[tuple[str, str], ...]] | None = None,
                    ) -> dict[str, str]:
    """The headers a client POSTs ``message`` with (see the module docstring)."""
    headers = {"Content-Type": "application/json", "Accept": ACCEPT, **(extra or {})}
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    modern = meta.get(w.VERSION_KEY) if isinstance(meta, dict) else None
    if modern is not None:
        profile = _profile_of(modern, Era.MODERN, registry)
        known = profile.names("http_headers") if profile is not None else frozenset()
        headers["MCP-Protocol-Version"] = str(modern)
        method = str(message.get("method", ""))
        if "Mcp-Method" in known and "method" in message:
            headers["Mcp-Method"] = method
        name_param = NAME_PARAMS.get(method)
        if "Mcp-Name" in known and name_param and isinstance(params, dict):
            value = params.get(name_param)
            if isinstance(value, str):
                headers["Mcp-Name"] = encode_header_value(value)
        if PARAM_HEADER in known and method == "tools/call" and isinstance(params, dict):
            args = params.get("arguments")
            args = args if isinstance(args, dict) else {}
            for prop, name in (tool_headers or {}).get(str(params.get("name")), ()):
                mirrored = header_value(args.get(prop))
                if mirrored is not None:
                    headers[f"Mcp-Param-{name}"] = encode_header_value(mirrored)
        if session_id is not None and profile is not None and profile.settings.get("sessions"):
            headers["Mcp-Session-Id"] = session_id
        return headers
    if session_id is not None:
        headers["Mcp-Session-Id"] = session_id
    if legacy_revision:
        profile = _profile_of(legacy_revision, Era.LEGACY, registry)
        if profile is not None and "MCP-Protocol-Version" in profile.names("http_headers"):
            headers["MCP-Protocol-Version"] = legacy_revision
    return headers


def opens_http_sse(message: Any, registry: Registry) -> bool:
    """Whether ``message`` is an ``initialize`` at a revision whose HTTP transport is HTTP+SSE
    (2024-11-05: the client GETs the SSE endpoint first)."""
    if not (isinstance(message, dict) and message.get("method") == "initialize"):
        return False
    asked = (message.get("params") or {}).get("protocolVersion")
    try:
        return bool(registry.get(str(asked)).settings["http_transport"] == "http+sse")
    except UnknownRevision:
        return False


def synthesized_error(msg_id: Any, status: int, reason: str, body: str) -> Message:
    """The JSON-RPC error a client reads an HTTP error status without a JSON-RPC body as."""
    code = -32601 if status in (404, 405) else -32603 if status >= 500 else -32600
    return {"jsonrpc": "2.0", "id": msg_id, "error": {
        "code": code, "message": f"HTTP {status} {reason}".strip(),
        "data": {"httpStatus": status, "body": body[:500],
                 "mcpSkew": "synthesized: the HTTP response had no JSON-RPC body"}}}


def is_jsonrpc_error(parsed: Any) -> bool:
    return isinstance(parsed, dict) and isinstance(parsed.get("error"), dict)


def wants_sse_fallback(message: Any, status: int, parsed: Any, modern_codes: frozenset[int],
                       ) -> bool:
    """Whether a client that also speaks 2024-11-05 tries HTTP+SSE after this answer.

    An ``initialize`` POST that got 400, 404 or 405 whose body is not a recognised
    modern JSON-RPC error (2026-07-28 ``streamable-http.mdx`` §HTTP+SSE Transport;
    a 404 with -32601 is a modern server's unknown method).
    """
    if message.get("method") != "initialize" or status not in SSE_FALLBACK_STATUS:
        return False
    if is_jsonrpc_error(parsed):
        code = parsed["error"].get("code")
        if code in modern_codes or (status == 404 and code == -32601):
            return False  # a modern server answered: no HTTP+SSE here
    return True


def marked_params(answer: Any) -> dict[str, tuple[tuple[str, str], ...]]:
    """tool -> (property, x-mcp-header name) for the top-level properties a ``tools/list``
    result marks (2026-07-28 ``streamable-http.mdx`` §Schema Extension; nested properties are
    not read here)."""
    result = answer.get("result") if isinstance(answer, dict) else None
    tools = result.get("tools") if isinstance(result, dict) else None
    found: dict[str, tuple[tuple[str, str], ...]] = {}
    for tool in tools if isinstance(tools, list) else ():
        schema = tool.get("inputSchema") if isinstance(tool, dict) else None
        props = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(props, dict) or not isinstance(tool.get("name"), str):
            continue
        marked = tuple((k, v["x-mcp-header"]) for k, v in props.items()
                       if isinstance(v, dict) and isinstance(v.get("x-mcp-header"), str))
        if marked:
            found[tool["name"]] = marked
    return found


def parse_body(text: str) -> Any:
    """A body's JSON value, or the text itself when it is not JSON (or over a limit:
    :func:`mcp_skew._jsontext.loads`)."""
    try:
        return loads(text)
    except ValueError:
        return text


def is_priming(event: SseEvent) -> bool:
    """Whether an SSE event carries no message: the priming event of 2025-11-25 (an event id
    and an empty ``data`` field, ``basic/transports.mdx`` §Sending Messages to the Server)."""
    return event.data == ""


def sse_messages(events: Iterable[SseEvent]) -> list[tuple[Any, str | None]]:
    """The messages of SSE events, with their event ids: ``message`` events with data.

    An event with empty data carries no message (:func:`is_priming`).
    """
    return [(parse_body(e.data), e.id) for e in events if e.event == "message" and not is_priming(e)]


@dataclass(frozen=True, slots=True)
class BodyPart:
    """One message an HTTP response body carried (a JSON body is one; an SSE body, one per event)."""

    message: Any  #: the parsed message, or the text when it was not JSON
    event_id: str | None = None  #: the SSE event's id


@dataclass(frozen=True, slots=True)
class HttpReading:
    """What a client makes of one HTTP response."""

    status: int
    parts: tuple[BodyPart, ...] = ()  #: the messages the body carried, in order
    primed: tuple[str, ...] = ()  #: ids of SSE events without data (priming), not messages
    #: the answer to the request: from the body, or synthesized from a bodiless error status
    answer: Message | None = None
    synthesized: bool = False


class HttpClient:
    """The client side of Streamable HTTP, sans I/O: the headers it sends, how it reads answers.

    It keeps what the transport carries from one request to the next: the session
    id a server assigned, and the revision ``initialize`` agreed on.
    """

    def __init__(self, registry: Registry = REGISTRY, *, post_first: bool = False,
                 version_on_initialize: bool = False, drops_session: bool = False) -> None:
        self.registry = registry
        #: a 2024-11-05 initialize is POSTed first too (client quirk ``post-first``)
        self.post_first = post_first
        #: ``initialize`` carries ``MCP-Protocol-Version`` (client quirk ``header-on-initialize``)
        self.version_on_initialize = version_on_initialize
        #: the assigned ``Mcp-Session-Id`` is never sent (client quirk ``drops-session-id``)
        self.drops_session = drops_session
        self.session_id: str | None = None
        self.legacy_revision: str | None = None
        self.modern_codes = modern_error_codes(registry)
        #: tool -> (property, x-mcp-header name), learnt from ``tools/list`` results
        self.tool_headers: dict[str, tuple[tuple[str, str], ...]] = {}
        #: the ``Authorization`` header value, once the client has a token (scenario auth)
        self.authorization: str | None = None

    def opens_sse(self, message: Any) -> bool:
        """Whether this client GETs an HTTP+SSE stream before POSTing ``message``: an
        ``initialize`` at 2024-11-05 (its only HTTP transport), unless it POSTs first."""
        return not self.post_first and opens_http_sse(message, self.registry)

    def wants_sse(self, message: Any, reading: HttpReading) -> bool:
        """Whether this answer to ``message`` sends the client to HTTP+SSE
        (:func:`wants_sse_fallback`; a synthesized error stands for no body)."""
        parsed = None if reading.synthesized else reading.answer
        return wants_sse_fallback(message, reading.status, parsed, self.modern_codes)

    def headers(self, message: Any) -> dict[str, str]:
        extra = {"Authorization": self.authorization} if self.authorization else None
        found = request_headers(message, session_id=self.session_id,
                                legacy_revision=self.legacy_revision, registry=self.registry,
                                tool_headers=self.tool_headers, extra=extra)
        if self.version_on_initialize and isinstance(message, dict) and \
                message.get("method") == "initialize":
            asked = (message.get("params") or {}).get("protocolVersion")
            if isinstance(asked, str):  # the revision it asks for, before any is agreed
                found["MCP-Protocol-Version"] = asked
        if self.drops_session:
            found.pop("Mcp-Session-Id", None)
        return found

    def session_lost(self, message: Any, reading: HttpReading, sent_session: str | None) -> bool:
        """Whether this answer says the server no longer knows the session: 404 to a request
        that carried an ``Mcp-Session-Id`` (not ``initialize``). The client MUST then start a
        new session with a new ``initialize`` without a session id (2025-03-26 and later
        ``basic/transports.mdx`` §Session Management)."""
        return (sent_session is not None and reading.status == 404
                and isinstance(message, dict) and "id" in message
                and message.get("method") not in (None, "initialize"))

    def forget(self) -> None:
        """A new connection: no session, no negotiated revision."""
        self.session_id = self.legacy_revision = None

    def read(self, message: Any, status: int, headers: Mapping[str, str],
             body: bytes) -> HttpReading:
        """What the response to ``message`` means; learns its session id and revision."""
        msg_id = message.get("id") if isinstance(message, dict) else None
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        lower = {k.lower(): v for k, v in headers.items()}
        sid = lower.get("mcp-session-id")
        if sid and (message.get("method") == "initialize" or self.session_id is None):
            self.session_id = sid
        text = body.decode("utf-8", errors="replace")
        if "text/event-stream" in lower.get("content-type", "") and status < 300:
            events = SseParser().feed(text + "\n\n")
            primed = tuple(e.id or "" for e in events if is_priming(e))
            parts = tuple(BodyPart(m, i) for m, i in sse_messages(events))
            answer = next((p.message for p in parts if isinstance(p.message, dict)
                           and p.message.get("id") == msg_id and "method" not in p.message), None)
            self.learn(message, answer)
            return HttpReading(status, parts, primed, answer if is_request else None)
        if status == 202 or (status < 300 and not text.strip()):
            return HttpReading(status)
        parsed = parse_body(text)
        if status >= 300 and not is_jsonrpc_error(parsed):
            if not is_request:
                return HttpReading(status)
            made = synthesized_error(msg_id, status, REASONS.get(status, ""), text)
            return HttpReading(status, answer=made, synthesized=True)
        self.learn(message, parsed)
        answer = None
        if is_request and isinstance(parsed, dict) and "method" not in parsed:
            if parsed.get("id") == msg_id:
                answer = parsed
            elif "error" in parsed and parsed.get("id") is None:
                answer = {**parsed, "id": msg_id}
        return HttpReading(status, (BodyPart(parsed),), (), answer)

    def learn(self, message: Any, answer: Any) -> None:
        """Remember the revision an initialize agreed on, for the version header, and the
        tool parameters a ``tools/list`` result marks with ``x-mcp-header``."""
        if isinstance(message, dict) and message.get("method") == "tools/list":
            self.tool_headers.update(marked_params(answer))
            return
        if not (isinstance(message, dict) and message.get("method") == "initialize"):
            return
        if isinstance(answer, dict) and isinstance(answer.get("result"), dict):
            version = answer["result"].get("protocolVersion")
            self.legacy_revision = str(version) if version is not None else None

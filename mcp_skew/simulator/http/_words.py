"""Streamable HTTP, sans I/O: the words the simulated server and client share.

The simulator's HTTP is this package (:mod:`mcp_skew.simulator.http`): these shared words
(one request and one response as values, the header value encoding, loopback hosts), the
server side (:mod:`._endpoint`), the
client side (:mod:`._client`), the SSE parser (:mod:`._sse`) and the
in-memory HTTP link on the simulated clock (:mod:`._link`).

One implementation serves everything: the in-memory HTTP link of the simulator
runs it on the simulated clock, ``mcp-skew serve --http``
(:mod:`mcp_skew.serve._http`) puts sockets and threads around the server side,
and the real HTTP link of the probe (:mod:`mcp_skew.wire.http`) builds its
headers and reads bodiless errors with the client side.
"""

from __future__ import annotations

import base64
import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..._jsontext import dumps, loads
from ...versions import HTTP_HEADERS, Message

__all__ = [
    "ACCEPT",
    "NAME_PARAMS",
    "REASONS",
    "HttpRequest",
    "HttpResponse",
    "RequestTarget",
    "decode_header_value",
    "encode_header_value",
    "header_value",
    "invalid_base64_header",
    "is_loopback",
    "parse_target",
]

#: What a client accepts on every POST (2025-03-26 on).
ACCEPT: Final = "application/json, text/event-stream"
#: Methods whose request mirrors a parameter in ``Mcp-Name`` (the profiles' header table).
NAME_PARAMS: Final[Mapping[str, str]] = HTTP_HEADERS.named("name").methods
#: The lower-case names (or ``{Name}`` prefixes) of the headers sent Base64-encoded when unsafe.
_BASE64_KEYS: Final = tuple(h.key for h in HTTP_HEADERS if h.base64)
#: Reason phrases of the statuses the simulated peers meet (RFC 9110).
REASONS: Final[Mapping[int, str]] = {
    200: "OK", 201: "Created", 202: "Accepted", 302: "Found", 400: "Bad Request",
    401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 413: "Content Too Large", 500: "Internal Server Error", 502: "Bad Gateway",
}
LOOPBACK_NAMES: Final = frozenset({"localhost", "ip6-localhost"})
_SENTINEL: Final = ("=?base64?", "?=")


# -- values ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RequestTarget:
    """A request target as every rule that routes on it reads it (:func:`parse_target`)."""

    path: str  #: as sent (not percent-decoded), ``/`` at least
    query: str = ""  #: after the first ``?``, as sent
    #: ``scheme://host[:port]`` (lower case) of an absolute-form target; None: origin form
    origin: str | None = None

    @property
    def route(self) -> str:
        """The path without trailing slashes: what the endpoint and the guard both match
        (``""`` is the root)."""
        return self.path.rstrip("/")

    def param(self, name: str) -> str | None:
        """The first value of query parameter ``name`` (as sent, not decoded), or None."""
        for pair in self.query.split("&"):
            key, eq, value = pair.partition("=")
            if key == name and eq:
                return value
        return None


#: A request target's allowed characters: RFC 3986's unreserved, sub-delims, ``:@/?%[]``.
_TARGET_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                 "0123456789-._~!$&'()*+,;=:@/?%[]")


def parse_target(text: str) -> RequestTarget | None:
    """The one reading of a request target (RFC 9112 §3.2), shared by the guard of a
    protected server and the endpoint's routing, so that both see the same path; None for a
    target to refuse (400).

    The origin form (``/path?query``) and the absolute form (``http://host/path?query``,
    which a server MUST accept, RFC 9112 §3.2.2) are read; a ``#`` anywhere is refused (no
    form of request target has a fragment: RFC 9112 §3.2, RFC 9110 §4.2.5 "the fragment is
    not sent"), and so are the asterisk and authority forms, userinfo (RFC 9110 §4.2.4), an
    empty host, and characters outside RFC 3986's (whitespace, controls, non-ASCII)."""
    if not text or not set(text) <= _TARGET_CHARS:
        return None  # "#" is not in the set: a fragment is refused here
    if text.startswith("/"):
        path, _, query = text.partition("?")
        return RequestTarget(path, query)
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return None
    cut = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    authority, rest = rest[:cut], rest[cut:]
    if not authority or "@" in authority or authority.startswith(":"):
        return None
    path, _, query = rest.partition("?")
    return RequestTarget(path or "/", query, f"{scheme.lower()}://{authority.lower()}")


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One HTTP request: the one request type of mcp-skew's HTTP, whoever sends it (the
    simulated client, the authorization flow, the real HTTP client of :mod:`mcp_skew.wire`)
    and whoever reads it (the simulated server, ``serve --http``)."""

    method: str
    #: the request target as sent: the origin form (``/mcp?x=1``), or an absolute URL (read
    #: it through :attr:`target`)
    path: str
    #: lower-case names where a server reads it; as the sender writes them where it sends it
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def target(self) -> RequestTarget | None:
        """The request target, read by :func:`parse_target` (None: refuse it, 400)."""
        return parse_target(self.path)


@dataclass(slots=True)
class HttpResponse:
    """One HTTP response: the one response type of mcp-skew's HTTP, what a server answers
    (the simulated one, ``serve --http``) and what a client received (the simulated client,
    the authorization flow, the real HTTP client of :mod:`mcp_skew.wire`): a status, headers
    and a body. What a server answers may also say how it is sent (an SSE stream, held
    open, the process ending); what a client received may say why it is not whole
    (:attr:`error`)."""

    status: int  #: 0: no answer came (:attr:`error` says why)
    #: JSON to send; ``bytes``: the body as it is (as received); None: no body
    body: Any = None
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
    #: the reason phrase as received (a server's own words; the simulated ones: :data:`REASONS`)
    reason: str = ""
    #: received: why there is no (whole) answer: status 0, or a body cut or not read
    error: str = ""

    @property
    def content_type(self) -> str | None:
        """The content type the body is sent with (None: no body, or ``bytes`` whose headers
        say it)."""
        if self.events:
            return "text/event-stream"
        if self.body is None or isinstance(self.body, bytes):
            return None
        return "text/event-stream" if self.stream else "application/json"

    def encoded(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
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

    def json(self) -> Any:
        """The body's JSON value (read with the limits of every JSON text from outside:
        100,000 ``[`` are no value, never a RecursionError), or None."""
        try:
            return loads(self.encoded() or b"null")
        except ValueError:
            return None

    def problem(self) -> str | None:
        """Why this answer is no usable JSON object, said in an auth path's hop; None when
        it is one, or when its status says enough."""
        if self.error:
            return self.error
        if self.status != 200:
            return None
        try:
            value = loads(self.encoded() or b"null")
        except ValueError as exc:
            return f"the body is not JSON: {exc}"
        return None if isinstance(value, dict) else "the body is not a JSON object"


# -- shared words ------------------------------------------------------------------------------

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
    """The first ``Mcp-Name`` or ``Mcp-Param-*`` header (those the table sends Base64-encoded)
    whose ``=?base64?...?=`` value is not valid Base64 (RFC 4648 §3.3), by its lower-case
    name; None when there is none."""
    for name, value in sorted(headers.items()):
        if not any(name == key or (key.endswith("-") and name.startswith(key))
                   for key in _BASE64_KEYS):
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

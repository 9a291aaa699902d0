"""Streamable HTTP, sans I/O, the client side: what a simulated client sends and how it
reads the answer (:class:`HttpClient`).

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
  §Session Management; :mod:`._link` does it).

And how an answer becomes the client's event (:meth:`HttpClient.read`): a JSON
body is the message; an SSE body is its ``message`` events, an event with empty
data (the priming event) being no message; an error status with a JSON-RPC
error in the body is that error (so a dual-era client can tell a modern -32022
in a 400 from a legacy refusal, 2026-07-28 ``streamable-http.mdx`` §Backward
Compatibility); an error status without one becomes a synthesized error whose
``data`` says so (404 and 405: -32601; other 4xx: -32600; 5xx: -32603).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..._jsontext import loads
from ...versions import (
    HTTP_HEADERS,
    REGISTRY,
    Era,
    HttpHeader,
    Message,
    Profile,
    Registry,
    UnknownRevision,
)
from .._negotiation import modern_codes_of
from ..messages import _wire
from ._sse import SseEvent, SseParser
from ._words import ACCEPT, REASONS, HttpResponse, encode_header_value, header_value

__all__ = [
    "SSE_FALLBACK_STATUS",
    "BodyPart",
    "HttpClient",
    "HttpReading",
    "is_jsonrpc_error",
    "is_priming",
    "marked_params",
    "modern_error_codes",
    "opens_http_sse",
    "parse_body",
    "request_headers",
    "sse_messages",
    "synthesized_error",
    "wants_sse_fallback",
]

#: Status codes after which a client may try the deprecated HTTP+SSE transport.
SSE_FALLBACK_STATUS: Final = frozenset({400, 404, 405})


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
    modern = meta.get(_wire.VERSION_KEY) if isinstance(meta, dict) else None
    if modern is not None:
        profile = _profile_of(modern, Era.MODERN, registry)
        known = profile.names("http_headers") if profile is not None else frozenset()
        sessions = profile is not None and bool(profile.settings.get("sessions"))
        for header in HTTP_HEADERS:
            headers.update(_modern_header(header, message, version=str(modern), known=known,
                                          session_id=session_id if sessions else None,
                                          tool_headers=tool_headers or {}))
        return headers
    version, session = HTTP_HEADERS.named("version").name, HTTP_HEADERS.named("session").name
    if session_id is not None:
        headers[session] = session_id
    if legacy_revision:
        profile = _profile_of(legacy_revision, Era.LEGACY, registry)
        if profile is not None and version in profile.names("http_headers"):
            headers[version] = legacy_revision
    return headers


def _modern_header(header: HttpHeader, message: dict[str, Any], *, version: str,
                   known: frozenset[str], session_id: str | None,
                   tool_headers: Mapping[str, tuple[tuple[str, str], ...]]) -> dict[str, str]:
    """What a modern request carries in ``header`` (the profiles' header table): the version
    its ``_meta`` names (always), the session where its revision has sessions, and the
    other headers where its revision's ``http_headers`` has them."""
    params = message.get("params")
    params = params if isinstance(params, dict) else None
    method = str(message.get("method", ""))
    if header.carries == "version":
        return {header.name: version}
    if header.carries == "session":
        return {} if session_id is None else {header.name: session_id}
    if header.name not in known:
        return {}
    if header.carries == "method":
        return {header.name: method} if "method" in message else {}
    if header.carries == "name":
        member = header.methods.get(method)
        value = params.get(member) if member and params is not None else None
        return {header.name: encode_header_value(value)} if isinstance(value, str) else {}
    if method != "tools/call" or params is None:
        return {}
    args = params.get("arguments")
    args = args if isinstance(args, dict) else {}
    found = {}
    for prop, name in tool_headers.get(str(params.get("name")), ()):
        mirrored = header_value(args.get(prop))
        if mirrored is not None:
            found[header.name.replace("{Name}", name)] = encode_header_value(mirrored)
    return found


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
    """What a client makes of one HTTP response (the response, and what its body meant)."""

    response: HttpResponse  #: as received: its status, headers and body's bytes
    parts: tuple[BodyPart, ...] = ()  #: the messages the body carried, in order
    primed: tuple[str, ...] = ()  #: ids of SSE events without data (priming), not messages
    #: the answer to the request: from the body, or synthesized from a bodiless error status
    answer: Message | None = None
    synthesized: bool = False

    @property
    def status(self) -> int:
        """The response's status."""
        return self.response.status


class HttpClient:
    """The client side of Streamable HTTP, sans I/O: the headers it sends, how it reads answers.

    It keeps what the transport carries from one request to the next: the session
    id a server assigned, and the revision ``initialize`` agreed on.
    """

    def __init__(self, registry: Registry = REGISTRY, *, post_first: bool = False,
                 version_on_initialize: bool = False, drops_session: bool = False,
                 extra: Mapping[str, str] | None = None) -> None:
        self.registry = registry
        #: headers sent with every request (a real link's ``--header`` values)
        self.extra = dict(extra or {})
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
        return self.falls_back(message, reading.status, parsed)

    def falls_back(self, message: Any, status: int, parsed: Any) -> bool:
        """Whether an answer of ``status`` with the body ``parsed`` (None: no body) to
        ``message`` sends the client to HTTP+SSE (:func:`wants_sse_fallback`)."""
        return wants_sse_fallback(message, status, parsed, self.modern_codes)

    def headers(self, message: Any) -> dict[str, str]:
        auth = {"Authorization": self.authorization} if self.authorization else {}
        extra = {**self.extra, **auth} or None
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

    def read(self, message: Any, response: HttpResponse) -> HttpReading:
        """What ``response`` (as received: its body's bytes) to ``message`` means; learns its
        session id and revision."""
        status, headers, body = response.status, response.headers, response.encoded()
        msg_id = message.get("id") if isinstance(message, dict) else None
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        lower = {k.lower(): v for k, v in headers.items()}
        sid = lower.get("mcp-session-id")
        initialize = isinstance(message, dict) and message.get("method") == "initialize"
        text = body.decode("utf-8", errors="replace")
        if "text/event-stream" in lower.get("content-type", "") and status < 300:
            events = SseParser().feed(text + "\n\n")
            primed = tuple(e.id or "" for e in events if is_priming(e))
            parts = tuple(BodyPart(m, i) for m, i in sse_messages(events))
            answer = next((p.message for p in parts if isinstance(p.message, dict)
                           and p.message.get("id") == msg_id and "method" not in p.message), None)
            self.learn(message, answer)
            self._adopt(sid, initialize, answer)
            return HttpReading(response, parts, primed, answer if is_request else None)
        if status == 202 or (status < 300 and not text.strip()):
            return HttpReading(response)
        parsed = parse_body(text)
        if status >= 300 and not is_jsonrpc_error(parsed):
            if not is_request:
                return HttpReading(response)
            made = synthesized_error(msg_id, status, REASONS.get(status, ""), text)
            return HttpReading(response, answer=made, synthesized=True)
        self.learn(message, parsed)
        answer = None
        if is_request and isinstance(parsed, dict) and "method" not in parsed:
            if parsed.get("id") == msg_id:
                answer = parsed
            elif "error" in parsed and (parsed.get("id") is None or status >= 300):
                # an error body in a 4xx/5xx answers the POST whatever its id (Python mcp
                # 1.x: "server-error"); on a 2xx only with id null
                answer = {**parsed, "id": msg_id}
        self._adopt(sid, initialize, answer)
        return HttpReading(response, (BodyPart(parsed),), (), answer)

    def _adopt(self, sid: str | None, initialize: bool, answer: Any) -> None:
        """Take the session id of a successful initialize's answer, and of nothing else
        (2025-03-26 on, basic/transports.mdx §Session Management: the server assigns it "at
        initialization time"): a 400 that carries one starts no session."""
        if sid and initialize and isinstance(answer, dict) and "result" in answer:
            self.session_id = sid

    def learn(self, message: Any, answer: Any) -> None:
        """Remember the revision an initialize agreed on, for the version header, and the
        tool parameters a ``tools/list`` result marks with ``x-mcp-header``."""
        if isinstance(message, dict) and message.get("method") == "tools/list":
            self.tool_headers.update(marked_params(answer))
            return
        self.learn_revision(message, answer)

    def learn_revision(self, message: Any, answer: Any) -> None:
        """Remember the revision an initialize agreed on, for the version header (the real
        link learns this alone: it mirrors no ``x-mcp-header`` parameters)."""
        if not (isinstance(message, dict) and message.get("method") == "initialize"):
            return
        if isinstance(answer, dict) and isinstance(answer.get("result"), dict):
            version = answer["result"].get("protocolVersion")
            self.legacy_revision = str(version) if version is not None else None

    # -- the body as it arrives: what a real link (mcp_skew.wire.http) reads with ----------
    @staticmethod
    def parse(text: str) -> Any:
        """A body's (or an SSE event's data's) JSON value, or the text (:func:`parse_body`)."""
        return parse_body(text)

    @staticmethod
    def bodiless_error(status: int, parsed: Any) -> bool:
        """Whether an answer of ``status`` is an error status whose body is no JSON-RPC error:
        the client reads it as :meth:`synthesize` makes it."""
        return status >= 300 and not is_jsonrpc_error(parsed)

    @staticmethod
    def synthesize(msg_id: Any, status: int, reason: str, body: str) -> Message:
        """The JSON-RPC error a bodiless error status is read as (:func:`synthesized_error`)."""
        return synthesized_error(msg_id, status, reason, body)

    @staticmethod
    def stream() -> SseParser:
        """A parser for one ``text/event-stream`` body, fed as it arrives."""
        return SseParser()

    @staticmethod
    def primes(event: SseEvent) -> bool:
        """Whether an SSE event carries no message (the priming event, :func:`is_priming`)."""
        return is_priming(event)

"""The Streamable HTTP transport (and the deprecated HTTP+SSE one), on the standard library.

Rules followed, per revision (the profile says which apply):

- every message is a POST to the MCP endpoint with ``Accept: application/json,
  text/event-stream``; the answer is a JSON body or an SSE stream ending with
  the response (2025-03-26 on, ``basic/transports.mdx`` §Sending Messages);
- ``Mcp-Session-Id`` from the initialize response is sent back on every later
  request (2025-03-26 to 2025-11-25, §Session Management);
- ``MCP-Protocol-Version`` after legacy negotiation, where the negotiated
  revision defines the header (2025-06-18 on);
- a 2026-07-28 request carries ``MCP-Protocol-Version``, ``Mcp-Method`` and, for
  ``tools/call``, ``resources/read`` and ``prompts/get``, ``Mcp-Name``, Base64
  sentinel-encoded when the value is not a safe header value
  (2026-07-28 ``basic/transports/streamable-http.mdx`` §Request Metadata);
- an HTTP error status is never read blind: a JSON-RPC error in the body is the
  answer (so a dual-era client can tell a modern -32022 from a legacy refusal);
  a body without one becomes a synthesized error whose ``data`` says so
  (404 and 405: -32601; other 4xx: -32600; 5xx: -32603);
- an SSE event with empty data (the priming event of 2025-11-25: an id and an
  empty ``data`` field) is no message; the transcript notes it;
- HTTP+SSE (2024-11-05): GET the SSE URL, wait for the ``endpoint`` event,
  POST there, read answers from the stream. Every client, a 2024-11-05 one
  too, POSTs ``initialize`` first and falls back to it when that POST gets 400,
  404 or 405 without a recognised modern error (2025-11-25 ``basic/transports.mdx``
  §Backwards Compatibility; 2026-07-28 ``streamable-http.mdx`` §HTTP+SSE Transport).

The headers, the session and the negotiated revision, the synthesized errors and the
HTTP+SSE decisions are the simulator's HTTP client side, sans I/O
(:class:`mcp_skew.simulator.http.HttpClient`, which the in-memory HTTP link drives too):
the link drives one, and adds sockets, threads and streaming.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Final

from ..simulator.http import HttpClient, HttpRequest, HttpResponse
from ..simulator.machine import Closed, Event, Reply
from ..versions import REGISTRY, Message, Registry
from ._base import Limits, RealLink, Recorder, TransportError
from ._deadline import Deadline, connection, opener

__all__ = ["HttpLink", "send"]

_BODY_CAP: Final = 16 << 20
#: How long an exchange no request's timeout bounds may take in all (a notification's POST,
#: the answer to a server's request) when the link is given no ``timeout_ms``.
_EXCHANGE_MS: Final = 30_000
#: The DELETE that ends a session, in all.
_DELETE_S: Final = 2.0


class _Stream:
    """A long-lived GET (an HTTP+SSE stream) that another thread can end at once.

    Closing a response another thread is reading blocks on its buffer lock, so
    the socket itself is shut down instead; the reader sees end of stream.
    """

    def __init__(self, url: str, headers: dict[str, str], deadline: Deadline) -> None:
        parts = urllib.parse.urlsplit(url)
        self.conn = connection(deadline, parts.scheme == "https", parts.hostname or "",
                               port=parts.port)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.sock: socket.socket | None = None
        self.stopped = threading.Event()
        try:
            self.conn.request("GET", path, headers=headers)
            self.sock = self.conn.sock
            self.resp = self.conn.getresponse()
        except BaseException:
            self.close()
            raise
        # the status line and headers came within the exchange's deadline; an idle stream
        # is fine from now on (shutdown() ends it, at close() or a restart)
        deadline.release(self.sock)
        if self.sock is not None:
            self.sock.settimeout(None)

    def shutdown(self) -> None:
        self.stopped.set()
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        with contextlib.suppress(OSError, AttributeError):  # no resp: the GET failed
            self.resp.close()
        with contextlib.suppress(OSError):
            self.conn.close()


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port or default


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only within the probed origin (scheme, host, port): the headers a
    user gave (``--header "Authorization: ..."``) go to that origin and nowhere else. A
    redirect elsewhere is not followed; the 3xx is the answer, and the probe reports it."""

    def redirect_request(  # noqa: PLR0917 - urllib's signature
            self, req: urllib.request.Request, fp: Any, code: int, msg: str,
            headers: Any, newurl: str) -> urllib.request.Request | None:
        if _origin(newurl) != _origin(req.full_url):
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Follows no redirect: the 3xx is the answer."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def send(request: HttpRequest, deadline: Deadline,
         redirects: urllib.request.HTTPRedirectHandler | None = None,
         ) -> tuple[HttpResponse, Any]:
    """The one real HTTP client of mcp-skew (the HTTP link's POSTs and DELETE, the probe's
    authorization discovery, the census's registry pages): ``request``, whose ``path`` is
    an absolute http(s) URL, sent within ``deadline`` (:func:`opener`: http(s) only, every
    connection watched); redirects as ``redirects`` says (None: none followed, the 3xx is the
    answer). It gives the answer's status, reason and headers (lower-case names; the body
    not read) and the open response to read the body from, which the caller closes. An
    error status is an answer; no answer raises (:class:`OSError`, :class:`ValueError`,
    :class:`http.client.HTTPException`)."""
    req = urllib.request.Request(request.path, data=request.body or None,
                                 headers=dict(request.headers), method=request.method)
    try:
        resp = opener(deadline, redirects or _NoRedirects()).open(req, timeout=deadline.left())
    except urllib.error.HTTPError as err:
        return _answer(err.code, err.reason, err.headers), err
    return _answer(resp.status, resp.reason, resp.headers), resp


def _answer(status: int, reason: Any, headers: Any) -> HttpResponse:
    lower = {k.lower(): v for k, v in headers.items()} if headers is not None else {}
    return HttpResponse(status, headers=lower, reason=str(reason or ""))


def endpoint_refused(stream_url: str, endpoint: str) -> str | None:
    """Why an HTTP+SSE ``endpoint`` event's URI (already resolved against the stream's URL)
    is not POSTed to, or None. The 2024-11-05 transport sends "all subsequent client
    messages" to it (``basic/transports.mdx`` §HTTP with SSE), the user's ``--header`` and
    ``--token`` values with them: so it must be an http(s) URL on the stream's own origin
    (scheme, host, port), as the official TypeScript SDK's SSE client also requires."""
    shown = repr(endpoint[:200])
    try:
        parts = urllib.parse.urlsplit(endpoint)
    except ValueError:  # an unclosed "[" (an IPv6 literal)
        return f"{shown}: not a URL"
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is no port
    except ValueError:
        return f"{shown}: its port is not a port"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{shown}: not an http(s) URL"
    if _origin(endpoint) != _origin(stream_url):
        return f"{shown}: another origin than the stream's (credentials are not sent there)"
    return None


class HttpLink(RealLink):
    """A real server over Streamable HTTP, with the HTTP+SSE fallback."""

    def __init__(self, url: str, *, sse_url: str | None = None,
                 headers: Mapping[str, str] | None = None, deadline_ms: int | None = None,
                 recorder: Recorder | None = None, limits: Limits | None = None,
                 registry: Registry = REGISTRY, timeout_ms: int = _EXCHANGE_MS) -> None:
        super().__init__(deadline_ms=deadline_ms, recorder=recorder, limits=limits)
        #: the bound, in all, of an exchange no request's own timeout bounds (a notification,
        #: the answer to a server's request, an HTTP+SSE GET until its endpoint event)
        self.timeout_ms = timeout_ms
        #: where the revisions of the headers and the modern error codes are looked up
        self.registry = registry
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TransportError(f"not an http(s) URL: {url!r}")
        self.url = url
        self.sse_url = sse_url or url
        self.extra_headers = dict(headers or {})
        #: the client side, sans I/O: the headers, the session id, the negotiated revision
        self.client = HttpClient(registry, extra=self.extra_headers)
        self._post_url: str | None = None  #: set by an HTTP+SSE ``endpoint`` event
        self._refused: str | None = None  #: why the last ``endpoint`` event was not followed
        self._request_ms: int | None = None  #: the timeout of the request being sent
        self._stream: _Stream | None = None
        #: a 2024-11-05 initialize GETs the HTTP+SSE stream first (False: POST first)
        self.sse_first = False
        self._note(f"HTTP endpoint {url}")

    # -- the client side's state ----------------------------------------------------------
    @property
    def session_id(self) -> str | None:
        """The ``Mcp-Session-Id`` the server assigned (None: no session)."""
        return self.client.session_id

    @session_id.setter
    def session_id(self, value: str | None) -> None:
        self.client.session_id = value

    # -- writing ------------------------------------------------------------------------
    def request(self, message: Message, timeout_ms: int) -> Event:
        self._request_ms = timeout_ms  # the exchange of this request ends when its wait does
        return super().request(message, timeout_ms)

    def _write(self, message: Any) -> bool:
        self._record("c2s", message)
        deadline = Deadline(self._exchange_ms(message) / 1000)
        if isinstance(message, dict) and "id" not in message:
            # a notification is POSTed before the next message goes, as SDK clients await its
            # 202 (servers that act on notifications/initialized would race a request otherwise)
            with deadline:
                self._exchange(message, self._inbox, deadline)
            return True
        thread = threading.Thread(target=self._exchange_until, args=(message, deadline),
                                  daemon=True, name="mcp-skew-http")
        thread.start()
        return True

    def _exchange_ms(self, message: Any) -> int:
        """How long the exchange of ``message`` may take in all: a request's own wait (its
        timeout, within the link's overall deadline), else :attr:`timeout_ms`."""
        asked = self._request_ms if isinstance(message, dict) and "method" in message \
            and "id" in message and self._request_ms is not None else self.timeout_ms
        return max(1, self._budget_ms(asked + self.startup_allowance_ms))

    def _exchange_until(self, message: Any, deadline: Deadline) -> None:
        with deadline:
            self._exchange(message, self._inbox, deadline)

    def _exchange(self, message: Any, inbox: queue.Queue[Any], deadline: Deadline) -> None:
        """One POST and its answer (in a thread of its own for a request), all of it by
        ``deadline``."""
        msg_id = message.get("id") if isinstance(message, dict) else None
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        opening = self._post_url is None and self._starts_sse(message)
        if opening and not self._open_sse(msg_id, inbox, deadline):
            return
        target = self._post_url or self.url
        try:
            answer, resp = self._post(target, message, deadline)
            with contextlib.closing(resp):
                self._read_answer(message, answer, resp, inbox, deadline)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            # a refused connection, a 1 MB header (LineTooLong), bad chunking (ValueError,
            # IncompleteRead), the deadline: the request failed, said once, never a traceback
            cut = self._cut(deadline)
            self._note(cut or f"HTTP request failed: {getattr(exc, 'reason', None) or exc}")
            if is_request and cut is None:  # cut: the request's own wait ends as a timeout
                self._bind(msg_id, Closed(f"HTTP request failed: "
                                          f"{getattr(exc, 'reason', None) or exc}"), inbox)
            return
        if deadline.expired:
            self._note(self._cut(deadline) or "")

    @staticmethod
    def _cut(deadline: Deadline) -> str | None:
        if not deadline.passed:
            return None
        return (f"HTTP exchange cut at its deadline ({int(deadline.seconds * 1000)} ms in "
                "all): the answer did not come in time")

    def _post(self, url: str, message: Any, deadline: Deadline) -> tuple[HttpResponse, Any]:
        data = json.dumps(message, ensure_ascii=False).encode()
        return send(HttpRequest("POST", url, self.client.headers(message), data), deadline,
                    _SameOriginRedirects())

    def _read_answer(self, message: Any, answer: HttpResponse, resp: Any,
                     inbox: queue.Queue[Any], deadline: Deadline) -> None:
        status, reason = answer.status, answer.reason
        ctype = answer.headers.get("content-type", "")
        msg_id = message.get("id") if isinstance(message, dict) else None
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        sid = answer.headers.get("mcp-session-id")
        # a session id is adopted only from a successful initialize (2025-03-26 on,
        # basic/transports.mdx §Session Management: assigned "at initialization time", with
        # the InitializeResult), never from an error: a 400 that carries one is no session
        initialize = isinstance(message, dict) and message.get("method") == "initialize"
        if "text/event-stream" in ctype and status < 300:
            if sid and initialize:
                self.session_id = sid
            self._read_sse_body(resp, message, inbox)
            return
        body = self._read_body(resp)
        if status == 202 or (status < 300 and not body.strip()):
            return  # accepted; in HTTP+SSE mode the answer comes on the stream
        parsed = self.client.parse(body)
        if self.client.bodiless_error(status, parsed):
            self._note(f"HTTP {status} {reason} to id {msg_id}: {body[:200]!r}", "http",
                       http={"status": status})
            if is_request and self._fallback_to_sse(message, status, inbox, deadline):
                return
            if is_request:
                synthesized = self.client.synthesize(msg_id, status, reason, body)
                self._deliver(synthesized, inbox, hand=False, http={"status": status})
                self._bind(msg_id, Reply(synthesized, status=status), inbox)
            return
        if status >= 300:
            self._note(f"HTTP {status} {reason} to id {msg_id}, with a JSON-RPC error", "http",
                       http={"status": status})
            if is_request and self._fallback_to_sse(message, status, inbox, deadline, parsed):
                return
        if sid and initialize and status < 300 and isinstance(parsed, dict) \
                and "result" in parsed:
            self.session_id = sid
        self.client.learn_revision(message, parsed)
        self._deliver(parsed, inbox)
        # an error body answers the request it came with: with id null or the request's on
        # any status, and on a 4xx/5xx whatever its id (Python mcp 1.x sends the constant
        # "server-error" with its 400s, mcp/server/streamable_http.py)
        if is_request and isinstance(parsed, dict) and "error" in parsed and "method" not in \
                parsed and (parsed.get("id") in (None, msg_id) or status >= 300):
            self._bind(msg_id, Reply({**parsed, "id": msg_id}), inbox)

    @staticmethod
    def _read_body(resp: Any) -> str:
        try:
            data: bytes = resp.read(_BODY_CAP)
        except (OSError, ValueError):
            return ""
        return data.decode("utf-8", errors="replace")

    def _read_sse_body(self, resp: Any, message: Any, inbox: queue.Queue[Any]) -> None:
        want_id = message.get("id") if isinstance(message, dict) else None
        parser = self.client.stream()
        left = self.limits.output_bytes
        while True:
            try:
                chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            except (OSError, ValueError, http.client.HTTPException):
                return
            if not chunk:
                return
            left -= len(chunk)
            if left < 0:
                self._flood(f"the SSE answer to id {want_id}")
                return
            for event in parser.feed(chunk):
                if event.event != "message":
                    continue
                if self.client.primes(event):  # 2025-11-25: an id and empty data, not a message
                    self._note(f"SSE priming event (id {event.id}, empty data): not a message",
                               "http")
                    continue
                parsed = self.client.parse(event.data)
                self.client.learn_revision(message, parsed)
                self._deliver(parsed, inbox)
                if isinstance(parsed, dict) and parsed.get("id") == want_id and \
                        "method" not in parsed:
                    return  # the response ends the request's stream

    # -- HTTP+SSE (2024-11-05) ----------------------------------------------------------
    def _starts_sse(self, message: Any) -> bool:
        """Whether ``message`` opens an HTTP+SSE stream before any POST: never here. The
        probe's 2024-11-05 client POSTs ``initialize`` first (a server may speak 2024-11-05
        over Streamable HTTP) and GETs the stream only on 400, 404 or 405, as the later
        revisions' backwards-compatibility sections say: the simulator's client quirk
        ``post-first``."""
        return self.sse_first and self.client.opens_sse(message)

    def check_listening(self) -> None:
        """Raise :class:`TransportError` ("connection refused") when nothing listens at the URL,
        as a stdio command that cannot start does."""
        parts = urllib.parse.urlsplit(self.url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            with socket.create_connection((parts.hostname or "", port), timeout=5.0):
                return
        except TimeoutError:
            return  # slow, not refused: let the requests find out
        except ConnectionRefusedError:
            raise TransportError(f"{self.url}: connection refused") from None
        except OSError as exc:
            raise TransportError(f"{self.url}: cannot connect: {exc}") from None

    def _fallback_to_sse(self, message: Any, status: int, inbox: queue.Queue[Any],
                         deadline: Deadline, parsed: Any = None) -> bool:
        if self._post_url is not None:  # the POST went to the stream's endpoint: no new GET
            return False
        if not self.client.falls_back(message, status, parsed):
            return False
        self._note(f"HTTP {status} to initialize: trying the HTTP+SSE transport (GET "
                   f"{self.sse_url})")
        if not self._open_sse(None, inbox, deadline):
            if self._refused is None:
                return False
            # the server's endpoint is not followed: that, not the first 404, is the answer
            self._synthesize(message.get("id"), inbox, 502,
                             f"(HTTP+SSE endpoint refused: {self._refused})", self._refused)
            return True
        self._exchange(message, inbox, deadline)
        return True

    def _open_sse(self, msg_id: Any, inbox: queue.Queue[Any], deadline: Deadline) -> bool:
        """GET the SSE URL and wait for the ``endpoint`` event, all by ``deadline``; False
        when it does not come, or names a URI not POSTed to (:func:`endpoint_refused`)."""
        headers = {"Accept": "text/event-stream", **self.extra_headers}
        self._refused = None
        try:
            stream = _Stream(self.sse_url, headers, deadline)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            cut = self._cut(deadline)
            if cut is not None:  # the request's own wait ends as a timeout
                self._note(f"HTTP+SSE: GET {self.sse_url}: {cut}")
                return False
            return self._no_stream(msg_id, inbox, 502, f"GET {self.sse_url}: {exc}")
        status = stream.resp.status
        if status != 200 or "text/event-stream" not in stream.resp.getheader("Content-Type", ""):
            stream.shutdown()
            return self._no_stream(msg_id, inbox, status, f"GET {self.sse_url}: HTTP {status}")
        found = threading.Event()
        thread = threading.Thread(target=self._read_stream, args=(stream, found, inbox),
                                  daemon=True, name="mcp-skew-sse")
        thread.start()
        came = found.wait(timeout=min(deadline.left(), 10.0))
        if came and self._post_url:
            self._stream = stream
            return True
        stream.shutdown()
        if self._refused is not None:
            return self._no_stream(msg_id, inbox, 502, self._refused,
                                   f"(HTTP+SSE endpoint refused: {self._refused})")
        if not came and deadline.left() <= 0:  # the request's own wait ends as a timeout
            self._note("HTTP+SSE: no endpoint event on the stream before the deadline")
            return False
        return self._no_stream(msg_id, inbox, 502, "no endpoint event on the stream")

    def _no_stream(self, msg_id: Any, inbox: queue.Queue[Any], status: int, detail: str,
                   reason: str = "(HTTP+SSE GET failed)") -> bool:
        self._note(f"HTTP+SSE: {detail}")
        if msg_id is not None:
            self._synthesize(msg_id, inbox, status, reason, detail)
        return False

    def _synthesize(self, msg_id: Any, inbox: queue.Queue[Any], status: int, reason: str,
                    detail: str) -> None:
        synthesized = self.client.synthesize(msg_id, status, reason, detail)
        self._deliver(synthesized, inbox, hand=False, http={"status": status})
        self._bind(msg_id, Reply(synthesized, status=status), inbox)

    def _read_stream(self, stream: _Stream, found: threading.Event,
                     inbox: queue.Queue[Any]) -> None:
        parser = self.client.stream()
        left = self.limits.output_bytes
        while True:
            try:
                chunk = stream.resp.read1(65536)
            except (OSError, ValueError, http.client.HTTPException):  # IncompleteRead: cut off
                chunk = b""
            left -= len(chunk)
            if left < 0:  # read no further: the stream ends here, as if closed
                self._flood("the HTTP+SSE stream")
                chunk = b""
            if not chunk:
                found.set()
                if not stream.stopped.is_set() and not self._closed:
                    self._end("the HTTP+SSE stream closed", inbox, "eof", side="s2c")
                stream.close()
                return
            for event in parser.feed(chunk):
                if event.event == "endpoint" and not found.is_set():
                    self._endpoint(event.data.strip())
                    found.set()
                elif event.event == "message" and not self.client.primes(event):
                    self._deliver(self.client.parse(event.data), inbox)

    def _flood(self, what: str) -> None:
        """More than :attr:`Limits.output_bytes` on one SSE stream: it is read no further."""
        self.flooded = f"{what} went past {self.limits.output_bytes} bytes; read no further"
        self._note(self.flooded, "http")

    def _endpoint(self, data: str) -> None:
        """An ``endpoint`` event: its URI, resolved against the stream's URL, is where the
        messages go, or it is refused (:func:`endpoint_refused`) and nothing is sent."""
        try:
            where = urllib.parse.urljoin(self.sse_url, data)
        except ValueError:  # an unclosed "[": no URL at all
            where = data
        refused = endpoint_refused(self.sse_url, where)
        if refused is not None:
            self._refused = refused
            self._note(f"HTTP+SSE endpoint refused: {refused}", "http")
            return
        self._post_url = where
        self._note(f"HTTP+SSE endpoint: {self._post_url}")

    # -- lifecycle ----------------------------------------------------------------------
    def _drop_stream(self) -> None:
        stream, self._stream, self._post_url = self._stream, None, None
        if stream is not None:
            stream.shutdown()

    def _end_session(self) -> None:
        if self.session_id is None or self._post_url is not None:
            self.session_id = None
            return
        headers = {"Mcp-Session-Id": self.session_id, **self.extra_headers}
        try:
            with Deadline(_DELETE_S) as deadline:
                answer, resp = send(HttpRequest("DELETE", self.url, headers), deadline,
                                    _SameOriginRedirects())
                resp.close()
            # an error status as urllib's HTTPError said it (the log's words unchanged)
            self._note(f"DELETE session: HTTP {answer.status}" if answer.status < 300
                       else f"DELETE session: {answer.status}")
        except (OSError, ValueError, http.client.HTTPException) as exc:
            self._note(f"DELETE session: {exc}")
        self.session_id = None

    def restart(self) -> bool:
        self._note("client starts a new connection", "restart")
        self._end_session()
        self._drop_stream()
        self.client.legacy_revision = None
        self._fresh_inbox()
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._note("client closes the connection", "client-eof")
        self._end_session()
        with self._lock:
            self._closed = True
        self._drop_stream()

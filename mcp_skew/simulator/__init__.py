"""The negotiation simulator: peers, quirks, links, scenarios and runs.

Public API: :func:`parse_peer`, :class:`PeerSpec`, :data:`QUIRKS`, :func:`run`,
:class:`RunRecord`, :data:`SCENARIOS`, :class:`SimClient`, :class:`SimServer`,
:class:`MemoryLink`, :class:`Transcript`, :class:`Finding`; over Streamable HTTP
(``run(..., transport="http")``): :class:`HttpMemoryLink`, the sans-I/O server
and client sides :class:`HttpEndpoint` and :class:`HttpClient`, the SSE parser
(:class:`SseParser`, :class:`SseEvent`), and the transport rules
(:data:`TRANSPORTS`, :class:`TransportRule`). The simulator's HTTP is in its
``_http_*`` modules.

Shared with mcp-skew's other packages (internal: importable, no promise between
versions): the driven machine (:class:`Machine`, :data:`Steps`, :func:`ask`,
:func:`drive`, :class:`Notify`, :class:`Restart`) and the path's step constructors
(:mod:`path_steps`, :func:`describe_event`) for the probe's own clients and the
annotation of logs; the message words (:data:`CAPS_KEY`, :data:`CLIENT_INFO_KEY`,
:data:`SERVER_INFO_KEY`, :func:`notification`); scenario pieces (:func:`play`,
:data:`LIST_RESOURCES`, :data:`STDIO`, :func:`rule_for`); the decoder of a raw line
(:func:`decode_rpc`, :func:`batch_element`, :func:`unbatched_methods`, :class:`Junk`,
:data:`PARSE_ERROR`) and :func:`describe_message` for ``serve``; the HTTP client side's
pure rules that the real HTTP link applies (:func:`request_headers`, :func:`parse_body`,
:func:`is_jsonrpc_error`, :func:`is_priming`, :func:`modern_error_codes`,
:func:`opens_http_sse`, :func:`synthesized_error`, :func:`wants_sse_fallback`,
:func:`encode_header_value`, :data:`NAME_PARAMS`); the trace (:func:`render_trace`,
:func:`summary_line`), the number parsers of options (:func:`parse_int`,
:func:`parse_seconds`) and the matrix's memo (:func:`by_identity2`).

The package is pure: no process, socket, thread or wall clock, and it imports
nothing of mcp-skew but :mod:`mcp_skew.versions`, :mod:`mcp_skew.transcript` (the record
it keeps of a run) and :mod:`mcp_skew.errors`
(``tests/unit/test_layers.py`` checks it). Real transports live in
:mod:`mcp_skew.wire`; named and saved (``@FILE``) peers are resolved by
:func:`mcp_skew.peers.resolve_peer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import _negotiation as negotiation
from . import _path as path_steps
from ._cache import ClientCache
from ._client import Mark, Session, SimClient, check_result, untyped_tools
from ._client import describe as describe_event
from ._decode import PARSE_ERROR, Junk, batch_element, decode_rpc, unbatched_methods
from ._finding_codes import FINDING_CODES, FindingCode, Severity
from ._findings import FINDINGS, Finding
from ._link import Closed, Entry, Event, Link, MemoryLink, Note, Reply, Timeout, Transcript
from ._machine import Machine, Notify, Restart, Steps, ask, drive
from ._memo import by_identity2
from ._numbers import parse_int, parse_seconds
from ._path import Step as PathStep
from ._peers import KINDS, PeerSpec, parse_peer, with_quirks
from ._policy import ClientPolicy
from ._quirks import QUIRKS, Quirk
from ._run import RunRecord, run
from ._scenario import LIST_RESOURCES, LIST_TOOLS, SCENARIOS, Scenario, Step, StepResult, play
from ._server import Reaction, SimServer
from ._transport import NOT_OVER_STDIO, STDIO, TRANSPORTS, Transport, TransportRule, rule_for
from ._wire import CAPS_KEY, CLIENT_INFO_KEY, SERVER_INFO_KEY, VERSION_KEY, notification, request_text

if TYPE_CHECKING:  # the names read on first use (see _LATER), for type checkers
    from ._auth_client import AuthResult, Fetch, Fetched, authorize, plan_for
    from ._auth_server import AS_WELL_KNOWN, AUTH_BODY_BYTES, AuthServer, auth_server_for, guard
    from ._http_client import (
        HttpClient,
        is_jsonrpc_error,
        is_priming,
        modern_error_codes,
        opens_http_sse,
        parse_body,
        request_headers,
        synthesized_error,
        wants_sse_fallback,
    )
    from ._http_endpoint import HttpEndpoint, mcp_route
    from ._http_link import HttpMemoryLink
    from ._http_sse import SseEvent, SseParser
    from ._http_words import (
        NAME_PARAMS,
        HttpRequest,
        HttpResponse,
        RequestTarget,
        decode_header_value,
        encode_header_value,
        is_loopback,
        parse_target,
    )
    from ._http_words import describe as describe_message
    from ._trace import render_trace, summary_line

__all__ = [
    "AS_WELL_KNOWN",
    "AUTH_BODY_BYTES",
    "CAPS_KEY",
    "CLIENT_INFO_KEY",
    "FINDINGS",
    "FINDING_CODES",
    "KINDS",
    "LIST_RESOURCES",
    "LIST_TOOLS",
    "NAME_PARAMS",
    "NOT_OVER_STDIO",
    "PARSE_ERROR",
    "QUIRKS",
    "SCENARIOS",
    "SERVER_INFO_KEY",
    "STDIO",
    "TRANSPORTS",
    "VERSION_KEY",
    "AuthResult",
    "AuthServer",
    "ClientCache",
    "ClientPolicy",
    "Closed",
    "Entry",
    "Event",
    "Fetch",
    "Fetched",
    "Finding",
    "FindingCode",
    "HttpClient",
    "HttpEndpoint",
    "HttpMemoryLink",
    "HttpRequest",
    "HttpResponse",
    "Junk",
    "Link",
    "Machine",
    "Mark",
    "MemoryLink",
    "Note",
    "Notify",
    "PathStep",
    "PeerSpec",
    "Quirk",
    "Reaction",
    "Reply",
    "RequestTarget",
    "Restart",
    "RunRecord",
    "Scenario",
    "Session",
    "Severity",
    "SimClient",
    "SimServer",
    "SseEvent",
    "SseParser",
    "Step",
    "StepResult",
    "Steps",
    "Timeout",
    "Transcript",
    "Transport",
    "TransportRule",
    "ask",
    "auth_server_for",
    "authorize",
    "batch_element",
    "by_identity2",
    "check_result",
    "decode_header_value",
    "decode_rpc",
    "describe_event",
    "describe_message",
    "drive",
    "encode_header_value",
    "guard",
    "is_jsonrpc_error",
    "is_loopback",
    "is_priming",
    "mcp_route",
    "modern_error_codes",
    "negotiation",
    "notification",
    "opens_http_sse",
    "parse_body",
    "parse_int",
    "parse_peer",
    "parse_seconds",
    "parse_target",
    "path_steps",
    "plan_for",
    "play",
    "render_trace",
    "request_headers",
    "request_text",
    "rule_for",
    "run",
    "summary_line",
    "synthesized_error",
    "unbatched_methods",
    "untyped_tools",
    "wants_sse_fallback",
    "with_quirks",
]

#: HTTP and authorization (and the trace, which names HTTP statuses): name -> its module
#: (``module:name there`` for a name renamed at the door), imported when a name of theirs is
#: first read (PEP 562, :func:`__getattr__`): a stdio run loads none of them.
_LATER: Final[dict[str, str]] = {
    **dict.fromkeys(("AuthResult", "Fetch", "Fetched", "authorize", "plan_for"), "_auth_client"),
    **dict.fromkeys(("AS_WELL_KNOWN", "AUTH_BODY_BYTES", "AuthServer", "auth_server_for", "guard"),
                    "_auth_server"),
    **dict.fromkeys(("HttpClient", "is_jsonrpc_error", "is_priming", "modern_error_codes",
                     "opens_http_sse", "parse_body", "request_headers", "synthesized_error",
                     "wants_sse_fallback"), "_http_client"),
    **dict.fromkeys(("HttpEndpoint", "mcp_route"), "_http_endpoint"),
    "HttpMemoryLink": "_http_link",
    **dict.fromkeys(("SseEvent", "SseParser"), "_http_sse"),
    **dict.fromkeys(("NAME_PARAMS", "HttpRequest", "HttpResponse", "RequestTarget",
                     "decode_header_value", "encode_header_value", "is_loopback",
                     "parse_target"), "_http_words"),
    "describe_message": "_http_words:describe",
    **dict.fromkeys(("render_trace", "summary_line"), "_trace"),
}


def __getattr__(name: str) -> Any:
    """A name of :data:`_LATER`: its module is imported now (static imports, no import by
    name: the simulator stays pure), and the name kept here."""
    home = _LATER.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, there = home.partition(":")
    if module == "_trace":  # a stdio run's trace (simulate --trace): with the HTTP words only
        from . import _trace  # noqa: PLC0415

        value = getattr(_trace, there or name)
    else:
        from . import (  # noqa: PLC0415 - HTTP and authorization: on first use
            _auth_client,
            _auth_server,
            _http_client,
            _http_endpoint,
            _http_link,
            _http_sse,
            _http_words,
        )

        modules = {"_auth_client": _auth_client, "_auth_server": _auth_server,
                   "_http_client": _http_client, "_http_endpoint": _http_endpoint,
                   "_http_link": _http_link, "_http_sse": _http_sse, "_http_words": _http_words}
        value = getattr(modules[module], there or name)
    globals()[name] = value  # read once
    return value

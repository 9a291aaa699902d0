"""The negotiation simulator: peers, quirks, links, scenarios and runs.

Public API: :func:`parse_peer`, :class:`PeerSpec`, :data:`QUIRKS`, :func:`run`,
:class:`RunRecord`, :data:`SCENARIOS`, :class:`SimClient`, :class:`SimServer`,
:class:`MemoryLink`, :class:`Transcript`, :class:`Finding`; over Streamable HTTP
(``run(..., transport="http")``): :class:`HttpMemoryLink`, the sans-I/O server
and client sides :class:`HttpEndpoint` and :class:`HttpClient`, the SSE parser
(:class:`SseParser`, :class:`SseEvent`), and the transport rules
(:data:`TRANSPORTS`, :class:`TransportRule`). The simulator's HTTP is in its
``_http_*`` modules.

The package is pure: no process, socket, thread or wall clock, and it imports
nothing of mcp-skew but :mod:`mcp_skew.versions`, :mod:`mcp_skew.transcript` (the record
it keeps of a run) and :mod:`mcp_skew.errors`
(``tests/unit/test_layers.py`` checks it). Real transports live in
:mod:`mcp_skew.wire`; named and saved (``@FILE``) peers are resolved by
:func:`mcp_skew.peers.resolve_peer`.
"""

from __future__ import annotations

from . import _negotiation as negotiation
from ._auth_client import AuthResult, Fetch, Fetched, authorize, plan_for
from ._auth_link import NOT_OVER_STDIO
from ._auth_server import AS_WELL_KNOWN, AuthServer, auth_server_for, guard
from ._cache import ClientCache
from ._client import Mark, Session, SimClient, check_result, untyped_tools
from ._finding_codes import FINDING_CODES, FindingCode, Severity
from ._findings import FINDINGS, Finding
from ._http_client import HttpClient
from ._http_endpoint import HttpEndpoint
from ._http_link import HttpMemoryLink
from ._http_sse import SseEvent, SseParser
from ._http_words import HttpRequest, HttpResponse, decode_header_value, is_loopback
from ._link import Closed, Entry, Event, Link, MemoryLink, Note, Reply, Timeout, Transcript
from ._numbers import parse_int
from ._path import Step as PathStep
from ._peers import KINDS, PeerSpec, parse_peer, with_quirks
from ._policy import ClientPolicy
from ._quirks import QUIRKS, Quirk
from ._run import RunRecord, run
from ._scenario import LIST_TOOLS, SCENARIOS, Scenario, Step, StepResult, play
from ._server import Reaction, SimServer
from ._transport import TRANSPORTS, Transport, TransportRule
from ._wire import VERSION_KEY, request_text

__all__ = [
    "AS_WELL_KNOWN",
    "FINDINGS",
    "FINDING_CODES",
    "KINDS",
    "LIST_TOOLS",
    "NOT_OVER_STDIO",
    "QUIRKS",
    "SCENARIOS",
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
    "Link",
    "Mark",
    "MemoryLink",
    "Note",
    "PathStep",
    "PeerSpec",
    "Quirk",
    "Reaction",
    "Reply",
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
    "Timeout",
    "Transcript",
    "Transport",
    "TransportRule",
    "auth_server_for",
    "authorize",
    "check_result",
    "decode_header_value",
    "guard",
    "is_loopback",
    "negotiation",
    "parse_int",
    "parse_peer",
    "plan_for",
    "play",
    "request_text",
    "run",
    "untyped_tools",
    "with_quirks",
]

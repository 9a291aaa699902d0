"""The simulator's Streamable HTTP, sans I/O: requests and responses, the server side, the
client side, the SSE parser and the in-memory link.

:class:`HttpEndpoint` is the server side (a :class:`~mcp_skew.simulator.SimServer` behind
the MCP endpoint: sessions, the MCP request headers, SSE streams), :class:`HttpClient` the
client side (the headers a request carries, how a response is read, the HTTP+SSE
fallback), :class:`HttpMemoryLink` the two on the virtual clock (``run(...,
transport="http")``), :class:`SseParser` the ``text/event-stream`` parser. Authorization
(OAuth 2.1 over HTTP) is the subpackage :mod:`mcp_skew.simulator.http.auth`.

Shared with mcp-skew's other packages (internal: importable, no promise between versions):
the request and response words ``serve`` answers with (:class:`HttpRequest`,
:class:`HttpResponse`, :class:`RequestTarget`, :func:`parse_target`, :func:`mcp_route`,
:func:`is_loopback`, :func:`decode_header_value`); the client side, :class:`HttpClient`,
which the real HTTP link in :mod:`mcp_skew.wire` drives as the in-memory link does (its
headers, session and negotiated revision, how a body reads, the HTTP+SSE fallback): the
rules stay in this room.

Pure like the rest of the simulator: no socket, no clock.
"""

from __future__ import annotations

from ._client import HttpClient
from ._endpoint import HttpEndpoint, mcp_route
from ._link import HttpMemoryLink
from ._words import (
    HttpRequest,
    HttpResponse,
    RequestTarget,
    decode_header_value,
    is_loopback,
    parse_target,
)

__all__ = [
    "HttpClient",
    "HttpEndpoint",
    "HttpMemoryLink",
    "HttpRequest",
    "HttpResponse",
    "RequestTarget",
    "decode_header_value",
    "is_loopback",
    "mcp_route",
    "parse_target",
]

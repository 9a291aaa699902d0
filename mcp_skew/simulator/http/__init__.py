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
:func:`is_loopback`, :func:`decode_header_value`); the client side's pure rules the real
HTTP link in :mod:`mcp_skew.wire` applies (:func:`request_headers`, :func:`parse_body`,
:func:`is_jsonrpc_error`, :func:`is_priming`, :func:`modern_error_codes`,
:func:`opens_http_sse`, :func:`synthesized_error`, :func:`wants_sse_fallback`, :class:`SseParser`).

Pure like the rest of the simulator: no socket, no clock.
"""

from __future__ import annotations

from ._client import (
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
from ._endpoint import HttpEndpoint, mcp_route
from ._link import HttpMemoryLink
from ._sse import SseParser
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
    "SseParser",
    "decode_header_value",
    "is_jsonrpc_error",
    "is_loopback",
    "is_priming",
    "mcp_route",
    "modern_error_codes",
    "opens_http_sse",
    "parse_body",
    "parse_target",
    "request_headers",
    "synthesized_error",
    "wants_sse_fallback",
]

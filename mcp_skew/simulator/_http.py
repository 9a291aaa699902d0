"""The old import path of the simulator's Streamable HTTP, now in the ``_http_*`` modules.

The shared words are in :mod:`._http_words`, the server side in :mod:`._http_endpoint`,
the client side in :mod:`._http_client`, the SSE parser in :mod:`._http_sse` and the
in-memory link in :mod:`._http_link`. This module only re-exports their names for the
modules that still import it here (``serve/_http``, ``serve/_asgi`` and the
authorization modules, changed in parallel); import from the modules above, or from
the :mod:`mcp_skew.simulator` face, instead.
"""

from __future__ import annotations

from ._http_client import (
    SSE_FALLBACK_STATUS,
    BodyPart,
    HttpClient,
    HttpReading,
    is_jsonrpc_error,
    is_priming,
    marked_params,
    modern_error_codes,
    opens_http_sse,
    parse_body,
    request_headers,
    sse_messages,
    synthesized_error,
    wants_sse_fallback,
)
from ._http_endpoint import MODERN_STATUS, SSE_POST_PATH, HttpEndpoint, primes_streams
from ._http_words import (
    ACCEPT,
    NAME_PARAMS,
    REASONS,
    HttpRequest,
    HttpResponse,
    decode_header_value,
    describe,
    encode_header_value,
    header_value,
    invalid_base64_header,
    is_loopback,
)

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
    "header_value",
    "invalid_base64_header",
    "is_jsonrpc_error",
    "is_loopback",
    "is_priming",
    "marked_params",
    "modern_error_codes",
    "opens_http_sse",
    "parse_body",
    "primes_streams",
    "request_headers",
    "sse_messages",
    "synthesized_error",
    "wants_sse_fallback",
]

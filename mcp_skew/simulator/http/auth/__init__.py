"""Authorization over Streamable HTTP, sans I/O: the client's flow, the test authorization
server, and the link between them.

MCP authorization is defined for HTTP only (2025-06-18 ``basic/authorization.mdx``
§Protocol Requirements: "Implementations using an HTTP-based transport SHOULD conform to
this specification"; "Implementations using an STDIO transport SHOULD NOT follow this
specification"), and every part of it speaks HTTP requests and responses: so it lives
inside :mod:`mcp_skew.simulator.http`, and the in-memory HTTP link drives it.

:func:`plan_for` reads a revision's rules into a plan, :func:`authorize` runs the
discovery, registration and token exchange as a driven machine of HTTP requests and
responses (the package's one :class:`~mcp_skew.simulator.http.HttpRequest` and
:class:`~mcp_skew.simulator.http.HttpResponse`; an :class:`AuthResult` at the end);
:class:`AuthServer` (made by :func:`auth_server_for`, in front of an endpoint by
:func:`guard`) is the test authorization server and protected resource.

Shared with mcp-skew's other packages (internal): :data:`AS_WELL_KNOWN`,
:data:`AUTH_BODY_BYTES` (the probe's discovery, ``serve --http``'s limits).
"""

from __future__ import annotations

from ._client import AuthResult, authorize, plan_for
from ._server import AS_WELL_KNOWN, AUTH_BODY_BYTES, AuthServer, auth_server_for, guard

__all__ = [
    "AS_WELL_KNOWN",
    "AUTH_BODY_BYTES",
    "AuthResult",
    "AuthServer",
    "auth_server_for",
    "authorize",
    "guard",
    "plan_for",
]

"""The attacks on ``serve --http ... +auth=LAYOUT`` of issue 33, as data: request targets that
once slipped past the guard, redirect URIs a test authorization server must refuse. The
fast tests (``tests/unit/test_auth_hardening.py``), the socket tests
(``tests/slow/unit/test_serve_auth_hardening_slow.py``) and the fuzz generators
(``tests/_fuzz_inputs.py``: :func:`request_targets`) draw on them, so each stays covered."""

from __future__ import annotations

from typing import Any, Final

__all__ = [
    "BAD_REDIRECT_URIS",
    "BYPASS_TARGETS",
    "FOREIGN_REDIRECTS",
    "GOOD_REDIRECT_URIS",
    "MALFORMED_TARGETS",
]

#: Targets that name (or once were read as) the MCP endpoint or ``/messages``: without a
#: token, none may be served (before: those with a fragment or in absolute form were).
BYPASS_TARGETS: Final[tuple[str, ...]] = (
    "/mcp#x", "/mcp#", "/#", "/mcp?x=1#y", "/mcp/#/", "/mcp%23x",
    "http://mcp.example/mcp", "HTTP://MCP.EXAMPLE/mcp", "http://127.0.0.1:8000/mcp",
    "http://other.example/mcp", "https://mcp.example/mcp?x", "http://mcp.example",
    "http://mcp.example?x=1", "http://mcp.example/mcp#frag", "http://mcp.example/mcp/",
    "/mcp/", "/", "//mcp", "/mcp//", "/messages?session_id=x",
    "http://mcp.example/messages?session_id=x", "/messages#?session_id=x",
)

#: Targets that are no request target served here (RFC 9112 §3.2): 400.
MALFORMED_TARGETS: Final[tuple[str, ...]] = (
    "", "*", "mcp", "mcp.example:80", "/mcp#x", "/mcp x", "/mcp\t", "/mcp\x00", "/mcp\u00e9",
    "http://user@mcp.example/mcp", "http:///mcp", "http://:80/mcp", "ftp://mcp.example/mcp",
    "http:/mcp", "//mcp#", "http://mcp.example/mcp#",
)

#: Redirect URIs a registration must refuse: not https, not http on the loopback (2025-11-25
#: ``basic/authorization.mdx`` §Communication Security), with a fragment (RFC 6749 §3.1.2),
#: userinfo, relative, too long, not a string.
BAD_REDIRECT_URIS: Final[tuple[Any, ...]] = (
    "javascript:alert(1)", "JavaScript://127.0.0.1/%0aalert(1)", "file:///etc/passwd",
    "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "http://evil.example/cb",
    "http://127.0.0.1.evil.example/cb", "http://localhost.evil.example/cb",
    "https://app.example/cb#frag", "http://127.0.0.1:1/cb#", "https://user@app.example/cb",
    "https://127.0.0.1@evil.example/cb", "//evil.example/cb", "/cb", "", "https://",
    "https:///cb", "com.example.app:/cb", "https://app.example/" + "a" * 3000,
    "https://app .example/cb", 12, None, ["https://app.example/cb"], {"uri": "x"},
)

#: Redirect URIs a registration takes.
GOOD_REDIRECT_URIS: Final[tuple[str, ...]] = (
    "http://127.0.0.1:33418/callback", "http://localhost:8080/cb", "http://[::1]:9000/cb",
    "http://127.0.0.1/cb", "https://app.example/cb", "https://app.example:8443/oauth/cb",
)

#: Where a client id metadata document at ``https://attacker.example/client.json`` must
#: not get the code sent (not its own origin, not the loopback).
FOREIGN_REDIRECTS: Final[tuple[str, ...]] = (
    "https://evil.example/cb", "http://evil.example/cb", "javascript:alert(1)",
    "data:,x", "https://attacker.example.evil.example/cb",
    "https://attacker.example@evil.example/cb", "https://attacker.example:444/cb",
    "http://attacker.example/cb", "https://attacker.example/cb#x", "file:///cb",
)

"""What each finding about a server's authorization means: the ``auth-*`` codes, as
``probe --url`` reports them of a protected server (data; the sections of
``docs/findings.md``, in the order of :data:`~._codes.FindingCode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...versions import Cite
from ._codes import LEGACY, MODERN, FindingCode, FindingInfo

__all__ = ["AUTH_FINDINGS"]

#: The authorization codes, in the order of :data:`~._codes.FindingCode`.
AUTH_FINDINGS: Final[Mapping[FindingCode, FindingInfo]] = {
    "auth-required": FindingInfo(
        summary="the server requires authorization: its first request got HTTP 401 (or 403)",
        when="probe --url: a client's first request got 401 or 403. The clients' verdicts are "
        "then about authorization, not eras: a 401 is never evidence of a legacy server. The "
        "probe runs each revision's discovery (GETs only, no credentials) and says what it "
        "found; with `--token` or `--header 'Authorization: ...'` it probes as an authorized "
        "client.",
        rule="Invalid or expired tokens MUST receive a HTTP 401; on 401 the client discovers "
        "the authorization server (each revision's basic/authorization page). A 401 or 403 "
        "is not one of the statuses a dual-era client falls back on.",
        fix="Nothing, if the server is meant to be protected: probe again with `--token TOKEN` "
        "to check the protocol behind it. Read `auth-undiscoverable` for the revisions whose "
        "clients cannot get a token.",
        severities=("info",),
        cites=(Cite("2025-06-18", "basic/authorization.mdx", "Token Handling"),
               Cite(MODERN, "basic/transports/streamable-http.mdx", "Backward Compatibility")),
        reported_by=("probe",),
    ),
    "auth-undiscoverable": FindingInfo(
        summary="clients of a revision cannot find the server's authorization server",
        when="probe --url of a protected server: the discovery of one revision's rules found "
        "no protected resource metadata, no authorization server metadata, or no way to "
        "register; the message says which URL was missing and what to serve.",
        rule="2025-03-26: metadata at the MCP origin's /.well-known/oauth-authorization-server, "
        "else default endpoints; 2025-06-18: protected resource metadata named by "
        "WWW-Authenticate; 2025-11-25: the header, then the path-inserted and root "
        "well-known URLs, and RFC 8414 or OpenID discovery, in order.",
        fix="Servers: publish what each revision's clients look for (`docs/auth.md`): "
        "protected resource metadata at /.well-known/oauth-protected-resource/<path> and in "
        "WWW-Authenticate, and the authorization server's metadata at the MCP origin too for "
        "2025-03-26 clients (the `compat` layout).",
        severities=("error", "warning"),
        severity_rule="error for a revision whose clients MUST find it by these rules "
        "(2025-06-18 on); warning for 2025-03-26",
        cites=(Cite("2025-03-26", "basic/authorization.mdx", "Server Metadata Discovery"),
               Cite("2025-06-18", "basic/authorization.mdx", "Authorization Server Location"),
               Cite(LEGACY, "basic/authorization.mdx", "Authorization Server Discovery")),
        reported_by=("probe",),
        quirks=("auth",),
    ),
    "auth-metadata-inconsistent": FindingInfo(
        summary="the authorization metadata does not agree with itself or with the server's URL",
        when="probe --url of a protected server: the protected resource metadata's `resource` "
        "is not the MCP server's URL, or the authorization server metadata's `issuer` is not "
        "the issuer the URL was built from, or it lacks `code_challenge_methods_supported`.",
        rule="The issuer value in the document MUST be identical to the issuer identifier "
        "used to construct the well-known URL; clients MUST use the canonical URI of the MCP "
        "server as `resource`; without code_challenge_methods_supported clients MUST refuse to "
        "proceed.",
        fix="Servers: make `resource` the MCP URL clients are given, `issuer` the URL the "
        "metadata is served for, and list S256 in `code_challenge_methods_supported`.",
        severities=("error",),
        cites=(Cite(MODERN, "basic/authorization/authorization-server-discovery.mdx",
                    "Authorization Server Metadata Discovery"),
               Cite("2025-06-18", "basic/authorization.mdx", "Canonical Server URI"),
               Cite(LEGACY, "basic/authorization.mdx", "Authorization Code Protection")),
        reported_by=("probe",),
    ),
}

"""The limits of the test authorization server (:mod:`._server`): how much of a request
it reads and keeps, and which redirect URIs it takes. Pure, no I/O.

Anyone who reaches ``serve --http ... +auth=LAYOUT`` reaches its authorization URLs
unauthenticated; these caps keep what one client can make it parse and keep small
(docs/auth.md §Limits of the test authorization server).
"""

from __future__ import annotations

from typing import Any, Final

from .._words import is_loopback

__all__ = [
    "AUTH_BODY_BYTES",
    "FIELD_CHARS",
    "MAX_CLIENTS",
    "MAX_CODES",
    "MAX_REDIRECT_URIS",
    "MAX_TOKENS",
    "bounded",
    "origin_of",
    "redirect_ok",
    "too_long",
]

#: The largest body the token and registration endpoints read (more: 413, not parsed).
AUTH_BODY_BYTES: Final = 16 * 1024
#: The longest value of a field kept or echoed (a client id, a redirect URI, a scope, a
#: state, a code challenge, a resource): longer is refused, ``invalid_request``.
FIELD_CHARS: Final = 2048
#: Redirect URIs one registration may name.
MAX_REDIRECT_URIS: Final = 8
#: Registered clients, unused authorization codes and live tokens kept at most; past it the
#: oldest is dropped (its client must register again, its code or token is refused).
MAX_CLIENTS: Final = 1000
MAX_CODES: Final = 1000
MAX_TOKENS: Final = 10_000


def too_long(*values: str | None) -> bool:
    return any(v is not None and len(v) > FIELD_CHARS for v in values)


def redirect_ok(uri: str) -> bool:
    """Whether ``uri`` may be a redirect URI: ``https``, or ``http`` on the loopback (2025-11-25
    ``basic/authorization.mdx`` §Communication Security), absolute, with a host, no fragment
    (RFC 6749 §3.1.2) and no userinfo."""
    origin = origin_of(uri)[0]
    if origin is None or "#" in uri or len(uri) > FIELD_CHARS:
        return False
    scheme, _, host = origin.partition("://")
    return scheme == "https" or (scheme == "http" and is_loopback(_hostname(host)))


def origin_of(uri: str) -> tuple[str | None, str, str]:
    """``(scheme://authority, path, query)`` of an absolute http(s) URL (scheme and authority
    in lower case; None when ``uri`` is not one, or has userinfo or no host)."""
    scheme, sep, rest = uri.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or any(c.isspace() for c in uri):
        return None, "", ""
    cut = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0),
              default=len(rest))
    authority, rest = rest[:cut], rest[cut:]
    if not authority or "@" in authority or not _hostname(authority):
        return None, "", ""
    path, _, query = rest.split("#", 1)[0].partition("?")
    return f"{scheme.lower()}://{authority.lower()}", path, query


def _hostname(authority: str) -> str:
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    return authority.rpartition(":")[0] if authority.count(":") == 1 else authority


def bounded(table: dict[str, Any], cap: int) -> None:
    """Drop ``table``'s oldest entries (dicts keep insertion order) until one more fits."""
    while len(table) >= cap:
        del table[next(iter(table))]

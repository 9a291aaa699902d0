"""URLs and HTML form bodies, as the authorization's requests use them; pure, no I/O.

The simulator imports nothing that can reach the network (a layer test says so), so it
does not use ``urllib``: these few functions split an absolute URL into its origin, path
and query, and write and read ``application/x-www-form-urlencoded`` text (the WHATWG URL
standard's form encoding, which OAuth 2.1 §3.2 and RFC 6749 Appendix B use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["form_decode", "form_encode", "split_url"]

_UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def split_url(url: str) -> tuple[str, str, str]:
    """``(origin, path, query)`` of an absolute URL (``("", url-path, query)`` for a path);
    the fragment is dropped."""
    url = url.split("#", 1)[0]
    rest, _, query = url.partition("?")
    if "://" not in rest:
        return "", rest or "/", query
    scheme, _, after = rest.partition("://")
    host, slash, path = after.partition("/")
    return f"{scheme.lower()}://{host.lower()}", slash + path if slash else "", query


def _quote(text: str) -> str:
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        out.append(char if char in _UNRESERVED else "+" if char == " " else f"%{byte:02X}")
    return "".join(out)


def _unquote(text: str) -> str:
    raw = bytearray()
    i, data = 0, text.replace("+", " ")
    while i < len(data):
        if data[i] == "%" and _is_hex(data[i + 1:i + 3]):
            raw.append(int(data[i + 1:i + 3], 16))
            i += 3
        else:
            raw += data[i].encode("utf-8")
            i += 1
    return raw.decode("utf-8", errors="replace")


def _is_hex(pair: str) -> bool:
    return len(pair) == 2 and all(c in "0123456789abcdefABCDEF" for c in pair)


def form_encode(fields: Mapping[str, str]) -> str:
    """``a=1&b=x+y``: the fields, in order, form-encoded."""
    return "&".join(f"{_quote(k)}={_quote(v)}" for k, v in fields.items())


def form_decode(text: str) -> dict[str, str]:
    """The fields of a form-encoded text (the first value of a repeated name)."""
    fields: dict[str, str] = {}
    for part in text.split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        fields.setdefault(_unquote(name), _unquote(value))
    return fields

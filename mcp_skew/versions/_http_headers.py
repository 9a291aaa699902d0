"""The MCP request headers of Streamable HTTP, as data: what each carries, where it applies,
how a server checks it, and who keeps it.

Which headers a revision has is its profile's ``http_headers`` table (names only:
``Mcp-Session-Id`` from 2025-03-26, ``MCP-Protocol-Version`` from 2025-06-18,
``Mcp-Method``, ``Mcp-Name`` and ``Mcp-Param-{Name}`` from 2026-07-28, the session
header gone in 2026-07-28). What each name means is this table, read by the simulated
client (the headers it sends), the simulated server (the checks it makes, with their
-32020 messages), the in-memory link (what a transcript records), ``serve`` (what a wire
log keeps) and the annotation of a log (what it shows):

- ``MCP-Protocol-Version``: the request's ``_meta`` protocol version (a legacy session
  sends the negotiated revision); a modern server answers -32020 when it differs
  (2026-07-28 ``basic/transports/streamable-http.mdx`` §Server Validation);
- ``Mcp-Method``: the JSON-RPC method, checked the same way (§Request Metadata);
- ``Mcp-Name``: for ``tools/call``, ``resources/read`` and ``prompts/get``, the
  ``params`` member they name (``name`` or ``uri``), Base64 sentinel-encoded when
  unsafe, checked decoded (§Request Metadata);
- ``Mcp-Param-{Name}``: the tool arguments a ``tools/list`` result marks with
  ``x-mcp-header`` (§Schema Extension), checked per tool;
- ``Mcp-Session-Id``: the session the server assigned (2025-03-26
  ``basic/transports.mdx`` §Session Management).

The order of the table is the order a client adds them and a server checks them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

__all__ = ["HTTP_HEADERS", "HeaderTable", "HttpHeader"]

#: What a header's value is: the ``_meta`` protocol version, the method, a ``params``
#: member (per method), marked tool arguments, the session id.
Carries = Literal["version", "method", "name", "params", "session"]


@dataclass(eq=False, frozen=True, slots=True)
class HttpHeader:
    """One MCP request header (see the module docstring)."""

    name: str  #: as a client sends it
    carries: Carries
    #: ``name`` headers: method -> the ``params`` member the header mirrors
    methods: Mapping[str, str] = field(default_factory=dict)
    #: the server's -32020 message when the header does not match the body (``{param}``:
    #: the member); empty when it is checked elsewhere or not at all
    mismatch: str = ""
    recorded: bool = True  #: kept in a simulated transcript's ``http`` record
    logged: bool = True  #: kept in ``serve``'s wire log
    shown: str | None = None  #: its label where show-log annotates a request
    #: its value is sent in the Base64 sentinel form when unsafe (``=?base64?...?=``)
    base64: bool = False

    @property
    def key(self) -> str:
        """The lower-case name a server reads (``{Name}`` headers: the prefix)."""
        return self.name.lower().partition("{")[0]


@dataclass(eq=False, frozen=True, slots=True)
class HeaderTable:
    """The MCP request headers, one :class:`HttpHeader` a row (iterating the table gives its
    rows), with the other request headers a transcript records and a wire log keeps."""

    rows: tuple[HttpHeader, ...]
    #: other request headers a simulated transcript records (lower case)
    recorded_also: tuple[str, ...]
    #: other request headers ``serve`` keeps in a wire log (lower case)
    logged_also: tuple[str, ...]

    def __iter__(self) -> Iterator[HttpHeader]:
        return iter(self.rows)

    def named(self, carries: Carries) -> HttpHeader:
        """The header of the table that carries ``carries``."""
        return next(h for h in self.rows if h.carries == carries)


_ROWS: Final[tuple[HttpHeader, ...]] = (
    HttpHeader("MCP-Protocol-Version", "version", shown="MCP-Protocol-Version",
               mismatch="Header mismatch: MCP-Protocol-Version must equal _meta protocolVersion"),
    HttpHeader("Mcp-Method", "method", shown="Mcp-Method",
               mismatch="Header mismatch: Mcp-Method must equal the method"),
    HttpHeader("Mcp-Name", "name", shown="Mcp-Name", base64=True,
               methods={"tools/call": "name", "resources/read": "uri", "prompts/get": "name"},
               mismatch="Header mismatch: Mcp-Name must equal params.{param}"),
    HttpHeader("Mcp-Param-{Name}", "params", logged=False, base64=True),
    HttpHeader("Mcp-Session-Id", "session", shown="session"),
)
HTTP_HEADERS: Final = HeaderTable(_ROWS, recorded_also=("authorization",),
                                  logged_also=("accept", "content-type", "origin"))

"""Extensions: the second axis beside revisions, as a table (data).

An extension is an optional protocol addition with an identifier of its own
(``io.modelcontextprotocol/ui``), negotiated in ``capabilities.extensions``: a map from
extension id to a settings object, ``{}`` meaning "supported, no settings" (2026-07-28
``basic/versioning.mdx`` §Extension Negotiation; schema ``ClientCapabilities.extensions``
and ``ServerCapabilities.extensions``, which first appear in the 2026-07-28 schema). "If
one party supports an extension but the other does not, the supporting party MUST either
revert to core protocol behavior or reject the request with an appropriate error" (same
section).

Where a revision carries it is derived from the profile, never from the revision string
(:meth:`ExtensionTable.carrier`):

- a revision whose requests carry the client's capabilities in ``params._meta``
  (``io.modelcontextprotocol/clientCapabilities`` in ``request_meta_required``: 2026-07-28
  ``basic/index.mdx`` §_meta) carries the client's extensions **per request**, and the
  server's in its ``server/discover`` result;
- a handshake revision carries them once, in ``initialize``: the client's in
  ``params.capabilities.extensions``, the server's in the result's capabilities. The
  legacy schemas do not define the key (their capability objects admit extra keys), and
  the MCP Apps extension uses it there all the same: its own text shows a client
  advertising it in an ``initialize`` of protocol 2024-11-05 (ext-apps
  ``specification/2026-01-26/apps.mdx`` §Client<>Server Capability Negotiation).

A new extension is a row of :data:`EXTENSIONS`, not code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

from ._profile import Cite, Profile

__all__ = ["EXTENSIONS", "Extension", "ExtensionTable"]

#: Where a revision carries the client's extensions.
Carrier = Literal["initialize", "request-meta", "none"]

#: The ``_meta`` key a modern request carries the client's capabilities under.
_CAPS_KEY: Final = "io.modelcontextprotocol/clientCapabilities"

_APPS = "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx"
_TASKS = ("https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/"
          "extensions/tasks/overview.mdx")


@dataclass(frozen=True, slots=True)
class Extension:
    """One extension: its id, short name, the settings each side declares, what it adds."""

    id: str  #: the identifier, with its mandatory prefix
    short: str  #: the name in peer specs (``+ext=ui``)
    title: str
    #: what a client that supports it declares under ``capabilities.extensions[id]``
    client_settings: Mapping[str, Any]
    #: what a server that supports it declares
    server_settings: Mapping[str, Any]
    cite: Cite  #: where the extension is specified
    #: the URI scheme of the resources it serves (MCP Apps: ``ui://``), "" for none
    resource_scheme: str = ""
    #: where a tool points at such a resource: a path into the tool's ``_meta``
    tool_meta: tuple[str, ...] = ()
    #: the MIME type of that resource's contents
    mime_type: str = ""
    #: a core capability that carried the same feature in the revisions whose profile still
    #: has it (tasks: ``tasks`` until 2025-11-25), "" for none
    core_capability: str = ""
    #: real reports of how it breaks between peers, for the docs
    sources: tuple[str, ...] = field(default=())

    def settings(self, role: str) -> dict[str, Any]:
        """A fresh copy of what ``role`` (``client`` or ``server``) declares."""
        chosen = self.client_settings if role == "client" else self.server_settings
        return {k: list(v) if isinstance(v, list | tuple) else v for k, v in chosen.items()}

    def core_in(self, profile: Profile, role: str) -> bool:
        """Whether ``profile`` still carries this feature as a core capability of ``role``."""
        table = "client_capabilities" if role == "client" else "server_capabilities"
        return bool(self.core_capability) and profile.has(table, self.core_capability)

    def tool_resource(self, tool: Mapping[str, Any]) -> str | None:
        """The resource URI a tool's ``_meta`` points at under this extension, if any."""
        if not self.tool_meta:
            return None
        node: Any = tool.get("_meta")
        for part in self.tool_meta:
            if not isinstance(node, Mapping):
                return None
            node = node.get(part)
        if isinstance(node, str) and node.startswith(self.resource_scheme):
            return node
        return None


class ExtensionTable:
    """The known extensions, by id and by short name; reads a capability object."""

    def __init__(self, rows: Iterable[Extension]) -> None:
        self._rows = MappingProxyType({row.id: row for row in rows})
        self._short = MappingProxyType({row.short: row for row in self._rows.values()})

    def __iter__(self) -> Iterator[Extension]:
        return iter(self._rows.values())

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, ext_id: str) -> Extension | None:
        return self._rows.get(ext_id)

    def named(self, text: str) -> Extension | None:
        """The row a peer spec names, by short name or full id."""
        return self._short.get(text) or self._rows.get(text)

    def names(self) -> tuple[str, ...]:
        """The short names, in table order."""
        return tuple(self._short)

    def label(self, ext_id: str) -> str:
        """``io.modelcontextprotocol/ui (MCP Apps)``; an unknown id as it is."""
        row = self._rows.get(ext_id)
        return f"{ext_id} ({row.title})" if row is not None else ext_id

    @staticmethod
    def carrier(profile: Profile) -> Carrier:
        """Where ``profile`` carries the client's extensions (see the module docstring)."""
        if _CAPS_KEY in profile.names("request_meta_required"):
            return "request-meta"
        if "initialize" in profile.methods:
            return "initialize"
        return "none"

    @staticmethod
    def in_schema(profile: Profile) -> bool:
        """Whether ``profile``'s schema defines ``capabilities.extensions`` (2026-07-28 on)."""
        return profile.has("client_capabilities", "extensions")

    @staticmethod
    def declared(capabilities: Any) -> dict[str, Any]:
        """The ``extensions`` map of a capability object, ``{}`` where it has none; entries
        whose settings are not an object are left out (the schema's ``JSONObject``)."""
        if not isinstance(capabilities, Mapping):
            return {}
        found = capabilities.get("extensions")
        if not isinstance(found, Mapping):
            return {}
        return {str(k): v for k, v in found.items() if isinstance(v, Mapping)}


#: The extensions mcp-skew knows: MCP Apps and tasks first.
EXTENSIONS: Final = ExtensionTable((
    Extension(
        id="io.modelcontextprotocol/ui",
        short="ui",
        title="MCP Apps",
        # a host lists the content types it renders; mimeTypes is REQUIRED (§Client (Host)
        # Capabilities); servers declare the extension with no settings
        client_settings=MappingProxyType({"mimeTypes": ("text/html;profile=mcp-app",)}),
        server_settings=MappingProxyType({}),
        cite=Cite("ext-apps 2026-01-26", _APPS, "Client<>Server Capability Negotiation"),
        resource_scheme="ui://",
        # §Resource Discovery: ``_meta.ui.resourceUri``; "Host MUST use resources/read to
        # fetch the referenced resource URI"
        tool_meta=("ui", "resourceUri"),
        mime_type="text/html;profile=mcp-app",
        sources=(
            "anthropics/claude-code issue 95149: the host connects and calls tools, but its "
            "capabilities.extensions does not advertise io.modelcontextprotocol/ui, so "
            "servers fall back to text",
            "anthropics/claude-ai-mcp issue 1060 and modelcontextprotocol/ext-apps issue 671: "
            "the host negotiates the extension, calls the tool, and never sends resources/read "
            "for the ui:// resource",
            "airbytehq/PyAirbyte PR 1097, tableau/tableau-mcp PR 861: a server that reads the "
            "client's extensions once per connection (at initialize) never sees them where "
            "they arrive per request (stateless HTTP), and hides its app tools",
        ),
    ),
    Extension(
        id="io.modelcontextprotocol/tasks",
        short="tasks",
        title="tasks",
        client_settings=MappingProxyType({}),
        server_settings=MappingProxyType({}),
        # 2026-07-28 changelog, major change 6 (SEP-2663): the core tasks/* methods and the
        # tasks capabilities are gone; long-running work is this extension
        cite=Cite("2026-07-28", _TASKS),
        core_capability="tasks",
    ),
))

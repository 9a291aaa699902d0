"""The extension quirks (a peer's ``+ext=...``): how real peers lose an extension they
both support. Part of :data:`~._table.QUIRKS`, in its order: after the clients' and
servers' other quirks, before the clients' waits (``probe-timeout``).
"""

from __future__ import annotations

from typing import Final

from ._policy import Effect
from ._quirk import Quirk

__all__ = ["EXTENSION_QUIRKS"]

#: The quirks that show only on a peer with extensions (``extensions_only``).
EXTENSION_QUIRKS: Final[tuple[Quirk, ...]] = (
    Quirk("ext-unadvertised", "client",
       "declares none of its extensions in capabilities.extensions (initialize, or each "
       "request's _meta): a server offering MCP Apps serves it text only",
       "Claude Code (anthropics/claude-code issue 95149: capabilities.extensions does not "
       "advertise io.modelcontextprotocol/ui; the same server's app mounts in other hosts)",
       effects=(Effect("ext_unadvertised"),), extensions_only=True),
    Quirk("no-ui-read", "client",
       "advertises MCP Apps (io.modelcontextprotocol/ui) and calls the tool, but never "
       "sends resources/read for the ui:// resource the tool's _meta.ui.resourceUri names "
       "(the extension says the host MUST): the app never mounts",
       "claude.ai remote connectors on 2026-07-28 (anthropics/claude-ai-mcp issue 1060; "
       "modelcontextprotocol/ext-apps issue 671: capability negotiated, tool invoked, text "
       "fallback)",
       effects=(Effect("no_ui_read"),), extensions_only=True),
    Quirk("ext-once", "server",
       "reads the client's extensions once per connection, from initialize; on 2026-07-28, "
       "where they arrive in each request's _meta, it never sees them and lists its tools "
       "without their app (_meta.ui)",
       "FastMCP's client_supports_extension reads the capabilities captured at initialize "
       "(airbytehq/PyAirbyte PR 1097: app tools missing over stateless HTTP; "
       "tableau/tableau-mcp PR 861's known limitation; modelcontextprotocol/ext-apps "
       "issue 671)",
       effects=(Effect("ext_once"),), extensions_only=True),
)

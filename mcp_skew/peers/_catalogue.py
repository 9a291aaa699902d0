"""The catalogue of named peers: real MCP implementations, by family, and the named
peers of the real-world matrix (data).

:data:`FAMILIES` gathers the family tables (:mod:`._python_sdk`,
:mod:`._typescript_sdk`, :mod:`._typescript_apps`; their shape is :mod:`._family`);
:data:`DEFAULT_MODE` and :data:`DEFAULT_LABEL` say what a bare name means where a
package has several set-ups; :data:`REAL_CLIENTS` and :data:`REAL_SERVERS` are the
rows and columns of ``matrix --set real``. A name is resolved against it by
:mod:`._lookup`.
"""

from __future__ import annotations

from typing import Final

from ..versions import Role
from ._apps import APP_FAMILIES
from ._family import Family
from ._python_sdk import FASTMCP, PY_MCP
from ._typescript_apps import INSPECTOR, MCP_REMOTE, SERVER_EVERYTHING
from ._typescript_sdk import TS_CLIENT, TS_SDK, TS_SERVER

__all__ = ["APP_CLIENTS", "APP_SERVERS", "DEFAULT_LABEL", "DEFAULT_MODE", "FAMILIES",
           "REAL_CLIENTS", "REAL_SERVERS"]

FAMILIES: Final[dict[str, Family]] = {f.name: f for f in (PY_MCP, FASTMCP, TS_SDK, TS_SERVER,
                                                          TS_CLIENT, SERVER_EVERYTHING,
                                                          INSPECTOR, MCP_REMOTE,
                                                          *APP_FAMILIES)}

#: The mode a bare name means, where a package has several (shown in labels and notes).
DEFAULT_MODE: Final[dict[Role, dict[str, str]]] = {
    "server": {"ts-server": "dual"},
    "client": {"ts-client": "legacy", "inspector": "legacy"},
}
DEFAULT_LABEL: Final[dict[Role, dict[str, str]]] = {
    "server": {"ts-server": "dual"},
    "client": {"ts-client": "legacy", "py-mcp": "auto", "inspector": "legacy"},
}

#: The real-world matrix: named clients (rows) and servers (columns).
REAL_CLIENTS: Final[tuple[str, ...]] = (
    "py-mcp@1.0", "py-mcp@1.22", "py-mcp@2.3", "py-mcp@2.3:legacy",
    "ts-sdk@1", "ts-client@2.4:legacy", "ts-client@2.4:auto", "ts-client@2.4:pin",
    "inspector@2.12:legacy", "inspector@2.12:auto", "inspector@2.12:modern",
)
REAL_SERVERS: Final[tuple[str, ...]] = (
    "py-mcp@1.0", "py-mcp@1.9", "py-mcp@1.9.4", "py-mcp@1.10", "py-mcp@1.22", "py-mcp@1.30",
    "py-mcp@2.3", "fastmcp@4", "ts-sdk@1", "ts-server@2.4:dual", "ts-server@2.4:modern",
    "ts-server@2.4:legacy", "server-everything@2025.1.14", "server-everything@2025.5.12",
    "server-everything@2025.11.25", "server-everything@2026.8.31",
)

#: The apps matrix (``matrix --set apps``, docs/apps.md): the AI apps' named peers (rows),
#: measured ones first, then those built from public reports (marked ``reported``).
APP_CLIENTS: Final[tuple[str, ...]] = (
    "claude-code@2.1.332", "gemini-cli@0.61", "opencode@1.18",
    "claude-code@2.1.280", "copilot-cli@1.0.79", "copilot-cli@1.0.81",
)
#: Servers the apps matrix adds to the built-in server kinds: a server that fixes the modern
#: era on its first modern request (Python mcp 2.x's stdio runner, FastMCP 4.x: the servers
#: of the initialize-after-discover reports).
APP_SERVERS: Final[tuple[str, ...]] = ("dual:2026-07-28,2025-11-25+sticky-era",)

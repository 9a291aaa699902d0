"""A Python ``mcp`` 1.x FastMCP server over Streamable HTTP (the most common Python deployment):
``python fastmcp1_http_server.py PORT [--stateless]`` serves ``/mcp`` on 127.0.0.1:PORT
with one tool, ``echo``. Its session manager answers a POST without a session (or for a
revision it does not serve) with HTTP 400 and a JSON-RPC error whose id is the constant
``"server-error"`` (``mcp/server/streamable_http.py``).

Run with the interpreter of an environment holding ``mcp`` 1.x; not imported by mcp_skew.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def echo(text: str) -> str:
    """Echo the text back."""
    return text


def main() -> None:
    fastmcp: Any = importlib.import_module("mcp.server.fastmcp")
    app = fastmcp.FastMCP("fastmcp1-drift", host="127.0.0.1", port=int(sys.argv[1]),
                          stateless_http="--stateless" in sys.argv)
    app.tool()(echo)
    app.run(transport="streamable-http")


if __name__ == "__main__":
    main()

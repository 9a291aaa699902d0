"""Minimal stdio MCP server on ``fastmcp`` (4.x): tools ``echo`` and ``fail``, resource ``mem://hello``.

Run with the interpreter of an environment holding ``fastmcp``; not imported by mcp_skew.
"""

from __future__ import annotations

import importlib
from typing import Any


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def fail(text: str = "") -> str:
    """Always fails."""
    raise ValueError(f"fail tool called: {text}")


def hello() -> str:
    """A fixed greeting."""
    return "hello from mcp-skew"


def main() -> None:
    fastmcp: Any = importlib.import_module("fastmcp")
    app = fastmcp.FastMCP("mcp-skew-fastmcp-server")
    app.tool()(echo)
    app.tool()(fail)
    app.resource("mem://hello")(hello)
    app.run(show_banner=False)


if __name__ == "__main__":
    main()

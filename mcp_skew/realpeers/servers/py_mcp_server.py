"""Minimal stdio MCP server on the official Python SDK ``mcp``, any release line.

Offers tools ``echo`` (returns its ``text``) and ``fail`` (always errors), the
resource ``mem://hello``, and no prompts.  It picks whichever high-level API the
installed release has:

* ``mcp.server.mcpserver.MCPServer`` (2.x; ``mcp.server.fastmcp`` was removed),
* ``mcp.server.fastmcp.FastMCP`` (1.2 and later 1.x),
* the low-level ``mcp.server.Server`` (1.0 and 1.1, which predate FastMCP).

Run it as a script with the interpreter of an environment built by
``mcp_skew.realpeers._envs``: ``<venv>/bin/python py_mcp_server.py``.
This file is executed by a foreign interpreter, not imported by mcp_skew.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

NAME = "mcp-skew-py-mcp-server"
HELLO_URI = "mem://hello"
HELLO_TEXT = "hello from mcp-skew"


def _attr(module: str, name: str) -> Any:
    """``module.name`` from the installed SDK, or None when this release lacks it."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def _high_level_class() -> Any:
    # mcp 2.x renamed FastMCP to MCPServer (importing mcp.server.fastmcp raises there).
    return _attr("mcp.server.mcpserver", "MCPServer") or _attr("mcp.server.fastmcp", "FastMCP")


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def fail(text: str = "") -> str:
    """Always fails."""
    raise ValueError(f"fail tool called: {text}")


def hello() -> str:
    """A fixed greeting."""
    return HELLO_TEXT


def run_high_level(cls: Any) -> None:
    app = cls(NAME)
    app.tool()(echo)
    app.tool()(fail)
    app.resource(HELLO_URI)(hello)
    app.run()  # stdio is the default transport in every release line


def run_low_level() -> None:
    anyio: Any = importlib.import_module("anyio")
    types: Any = importlib.import_module("mcp.types")
    server: Any = _attr("mcp.server", "Server")(NAME)
    stdio_server: Any = _attr("mcp.server.stdio", "stdio_server")
    schema = {"type": "object", "properties": {"text": {"type": "string"}}}

    async def list_tools() -> list[Any]:
        return [
            types.Tool(name="echo", description="Return the text unchanged.", inputSchema=schema),
            types.Tool(name="fail", description="Always fails.", inputSchema=schema),
        ]

    async def call_tool(name: str, arguments: dict[str, Any] | None) -> list[Any]:
        args = arguments or {}
        if name == "echo":
            return [types.TextContent(type="text", text=str(args.get("text", "")))]
        if name == "fail":
            raise ValueError(f"fail tool called: {args.get('text', '')}")
        raise ValueError(f"Unknown tool: {name}")

    async def list_resources() -> list[Any]:
        return [types.Resource(uri=HELLO_URI, name="hello", mimeType="text/plain")]

    async def read_resource(uri: Any) -> str:
        if str(uri) == HELLO_URI:
            return HELLO_TEXT
        raise ValueError(f"Unknown resource: {uri}")

    server.list_tools()(list_tools)
    server.call_tool()(call_tool)
    server.list_resources()(list_resources)
    server.read_resource()(read_resource)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def main() -> None:
    cls = _high_level_class()
    if cls is None or "--low-level" in sys.argv[1:]:
        run_low_level()
    else:
        run_high_level(cls)


if __name__ == "__main__":
    main()

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

import sys
from typing import Any

NAME = "mcp-skew-py-mcp-server"
HELLO_URI = "mem://hello"
HELLO_TEXT = "hello from mcp-skew"


def _high_level_class() -> Any:
    try:
        from mcp.server.mcpserver import MCPServer  # mcp 2.x

        return MCPServer
    except ImportError:
        pass
    try:
        from mcp.server.fastmcp import FastMCP  # mcp 1.2 .. 1.x

        return FastMCP
    except ImportError:
        return None


def run_high_level(cls: Any) -> None:
    app = cls(NAME)

    @app.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @app.tool()
    def fail(text: str = "") -> str:
        """Always fails."""
        raise ValueError(f"fail tool called: {text}")

    @app.resource(HELLO_URI)
    def hello() -> str:
        """A fixed greeting."""
        return HELLO_TEXT

    app.run()  # stdio is the default transport in every release line


def run_low_level() -> None:
    import anyio
    import mcp.types as types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    server: Any = Server(NAME)

    @server.list_tools()  # type: ignore[untyped-decorator]
    async def list_tools() -> list[Any]:
        schema = {"type": "object", "properties": {"text": {"type": "string"}}}
        return [
            types.Tool(name="echo", description="Return the text unchanged.", inputSchema=schema),
            types.Tool(name="fail", description="Always fails.", inputSchema=schema),
        ]

    @server.call_tool()  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> list[Any]:
        args = arguments or {}
        if name == "echo":
            return [types.TextContent(type="text", text=str(args.get("text", "")))]
        if name == "fail":
            raise ValueError(f"fail tool called: {args.get('text', '')}")
        raise ValueError(f"Unknown tool: {name}")

    @server.list_resources()  # type: ignore[untyped-decorator]
    async def list_resources() -> list[Any]:
        return [types.Resource(uri=HELLO_URI, name="hello", mimeType="text/plain")]  # type: ignore[arg-type]

    @server.read_resource()  # type: ignore[untyped-decorator]
    async def read_resource(uri: Any) -> str:
        if str(uri) == HELLO_URI:
            return HELLO_TEXT
        raise ValueError(f"Unknown resource: {uri}")

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

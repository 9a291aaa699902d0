"""Minimal stdio MCP server on the official Python SDK ``mcp``, any release line.

Offers tools ``echo`` (returns its ``text``) and ``fail`` (always errors), the
resource ``mem://hello``, and no prompts.  It picks whichever high-level API the
installed release has:

* ``mcp.server.mcpserver.MCPServer`` (2.x; ``mcp.server.fastmcp`` was removed),
* ``mcp.server.fastmcp.FastMCP`` (1.2 and later 1.x),
* the low-level ``mcp.server.Server`` (1.0 and 1.1, which predate FastMCP).

Run it as a script with the interpreter of an environment built by
``mcp_skew.realpeers._envs``: ``<venv>/bin/python py_mcp_server.py``; with
``--http PORT`` a high-level server speaks Streamable HTTP on 127.0.0.1:PORT
(path ``/mcp``) instead of stdio.
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
    port = _http_port()
    if port is None:
        app.run()  # stdio is the default transport in every release line
    else:  # Streamable HTTP at http://127.0.0.1:PORT/mcp (releases that have it)
        app.run(transport="streamable-http", host="127.0.0.1", port=port)


def _http_port() -> int | None:
    """``--http PORT``: serve Streamable HTTP on that loopback port instead of stdio."""
    args = sys.argv[1:]
    if "--http" not in args:
        return None
    return int(args[args.index("--http") + 1])


def _low_level_handlers(types: Any) -> dict[str, Any]:
    """Handlers built from wire-shaped dicts, so they validate in every release line."""
    schema = {"type": "object", "properties": {"text": {"type": "string"}}}
    tools = [
        {"name": "echo", "description": "Return the text unchanged.", "inputSchema": schema},
        {"name": "fail", "description": "Always fails.", "inputSchema": schema},
    ]

    def call(name: str, args: dict[str, Any]) -> list[Any]:
        if name == "echo":
            return [types.TextContent.model_validate({"type": "text", "text": args.get("text", "")})]
        if name == "fail":
            raise ValueError(f"fail tool called: {args.get('text', '')}")
        raise ValueError(f"Unknown tool: {name}")

    def read(uri: Any) -> str:
        if str(uri) == HELLO_URI:
            return HELLO_TEXT
        raise ValueError(f"Unknown resource: {uri}")

    return {
        "tools": [types.Tool.model_validate(t) for t in tools],
        "resources": [
            types.Resource.model_validate({"uri": HELLO_URI, "name": "hello", "mimeType": "text/plain"})
        ],
        "call": call,
        "read": read,
    }


def run_low_level() -> None:
    """The low-level ``Server``: decorators in 1.x, ``on_*`` constructor arguments in 2.x."""
    anyio: Any = importlib.import_module("anyio")
    types: Any = importlib.import_module("mcp.types")
    server_cls: Any = _attr("mcp.server", "Server")
    stdio_server: Any = _attr("mcp.server.stdio", "stdio_server")
    h = _low_level_handlers(types)

    if hasattr(server_cls, "list_tools"):  # 1.x decorator API
        server: Any = server_cls(NAME)

        async def list_tools() -> list[Any]:
            return list(h["tools"])

        async def call_tool(name: str, arguments: dict[str, Any] | None) -> list[Any]:
            return list(h["call"](name, arguments or {}))

        async def list_resources() -> list[Any]:
            return list(h["resources"])

        async def read_resource(uri: Any) -> str:
            return str(h["read"](uri))

        server.list_tools()(list_tools)
        server.call_tool()(call_tool)
        server.list_resources()(list_resources)
        server.read_resource()(read_resource)
    else:  # 2.x: handlers are constructor arguments taking (ctx, params)

        async def on_list_tools(ctx: Any, params: Any) -> Any:
            return types.ListToolsResult(tools=h["tools"])

        async def on_call_tool(ctx: Any, params: Any) -> Any:
            content = h["call"](params.name, dict(params.arguments or {}))
            return types.CallToolResult(content=content)

        async def on_list_resources(ctx: Any, params: Any) -> Any:
            return types.ListResourcesResult(resources=h["resources"])

        async def on_read_resource(ctx: Any, params: Any) -> Any:
            text = h["read"](params.uri)
            return types.ReadResourceResult.model_validate(
                {"contents": [{"uri": str(params.uri), "mimeType": "text/plain", "text": text}]}
            )

        server = server_cls(
            NAME,
            on_list_tools=on_list_tools,
            on_call_tool=on_call_tool,
            on_list_resources=on_list_resources,
            on_read_resource=on_read_resource,
        )

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

"""Minimal stdio MCP server on ``fastmcp`` (4.x): tools ``echo`` and ``fail``, resource ``mem://hello``.

Run with the interpreter of an environment holding ``fastmcp``; not imported by mcp_skew.
"""

from __future__ import annotations

from typing import Any


def main() -> None:
    from fastmcp import FastMCP

    app: Any = FastMCP("mcp-skew-fastmcp-server")

    @app.tool()  # type: ignore[untyped-decorator]
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @app.tool()  # type: ignore[untyped-decorator]
    def fail(text: str = "") -> str:
        """Always fails."""
        raise ValueError(f"fail tool called: {text}")

    @app.resource("mem://hello")  # type: ignore[untyped-decorator]
    def hello() -> str:
        """A fixed greeting."""
        return "hello from mcp-skew"

    app.run(show_banner=False)


if __name__ == "__main__":
    main()

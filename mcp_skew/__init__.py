"""mcp-skew: simulate every MCP revision and show what happens at the seams."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"

"""``python -m mcp_skew``: the same as the ``mcp-skew`` command."""

from .cli import run

run()

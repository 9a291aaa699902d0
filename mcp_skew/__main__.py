"""``python -m mcp_skew``: the same as the ``mcp-skew`` command."""

from .cli import main

raise SystemExit(main())

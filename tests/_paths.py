"""Where things are, for tests in any folder (``tests/<kind>/`` or ``tests/slow/<kind>/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["ADVERSARY", "ROOT", "SERVERS", "TESTS"]

#: the tests/ folder
TESTS: Final = Path(__file__).resolve().parent
#: the project's root (pyproject.toml, docs/, mcp_skew/)
ROOT: Final = TESTS.parent
#: small MCP servers the tests start as processes
SERVERS: Final = TESTS / "servers"
#: the adversarial server (setsid grandchildren, floods, hangs)
ADVERSARY: Final = TESTS / "_adversaries" / "server.py"

"""The version of mcp-skew, a literal: reading it imports nothing.

``tests/unit/test_cli_basics.py`` keeps it equal to ``pyproject.toml``'s ``version``
and to the installed metadata (``importlib.metadata``, which ``--help`` and every
command would otherwise import, with :mod:`email`, to read it).
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"

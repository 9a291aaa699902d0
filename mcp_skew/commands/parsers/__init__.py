"""Each command's name, help and arguments, without its implementation.

``mcp_skew.commands.parsers.<name>`` defines ``register(subparsers) -> None``, which adds
the command's parser(s) and sets ``func`` to a :class:`Later`: the implementation
(``mcp_skew.commands.<name>``, with the feature packages behind it) is imported when the
command runs, so ``mcp-skew --help`` and a parse error load none of them, and a command
loads only its own.

The choices an option offers are written here as literals (:data:`SCENARIOS`, ...), as
the packages that define them would be imported to read them;
``tests/unit/test_parsers.py`` keeps each equal to its source. This package imports
nothing of mcp-skew but itself (``tests/slow/unit/test_startup_imports.py`` checks what
building the parser loads).
"""

from __future__ import annotations

import argparse
import importlib

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Final

__all__ = ["BALANCERS", "INSTALL_HINT", "MATRIX_FORMATS", "MIGRATE_FORMATS", "MIGRATE_ROLES",
           "PROBE_FORMATS", "ROLES", "SCENARIOS", "TRANSPORTS", "VERSIONS_FORMATS", "VIEWS",
           "Later"]

#: The names of :data:`mcp_skew.simulator.SCENARIOS`, sorted.
SCENARIOS: Final = ("auth", "cache", "default", "era-gated", "handshake", "listen", "lists",
                    "long")
#: :data:`mcp_skew.simulator.TRANSPORTS`.
TRANSPORTS: Final = ("stdio", "http")
#: :data:`mcp_skew.matrix.FORMATS` and :data:`mcp_skew.matrix.VIEWS`.
MATRIX_FORMATS: Final = ("text", "markdown", "github", "grid", "html", "json", "csv", "junit")
VIEWS: Final = ("pairs", "features")
#: :data:`mcp_skew.migrate.CHOICES` (the roles) and :data:`mcp_skew.migrate.FORMATS`.
MIGRATE_ROLES: Final = ("server", "client", "both")
MIGRATE_FORMATS: Final = ("markdown", "json", "html")
#: :data:`mcp_skew.probe.FORMATS`, sorted, and :data:`mcp_skew.probe.INSTALL_HINT`.
PROBE_FORMATS: Final = ("html", "json", "junit", "markdown", "summary", "terminal")
INSTALL_HINT: Final = "pip install 'mcp-skew[schemas]'"
#: :data:`mcp_skew.rollout.BALANCERS`.
BALANCERS: Final = ("sticky", "round-robin", "random")
#: :data:`mcp_skew.peers.ROLES`.
ROLES: Final = ("server", "client")
#: :data:`mcp_skew.versions.FORMATS`.
VERSIONS_FORMATS: Final = ("text", "markdown", "json")


class Later:
    """A command's ``func``: ``function`` of ``mcp_skew.commands.<module>``, imported on call."""

    def __init__(self, module: str, function: str) -> None:
        self.module, self.function = module, function

    def __call__(self, args: argparse.Namespace) -> int:
        implementation = importlib.import_module(f"mcp_skew.commands.{self.module}")
        code = getattr(implementation, self.function)(args)
        assert isinstance(code, int)
        return code

    def __repr__(self) -> str:
        return f"Later({self.module!r}, {self.function!r})"

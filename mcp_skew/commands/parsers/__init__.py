"""Each command's name, help and arguments, without its implementation.

``mcp_skew.commands.parsers.<name>`` defines ``register(subparsers) -> None``, which adds
the command's parser(s) and sets ``func`` to a :class:`Later`: the implementation
(``mcp_skew.commands.<name>``, or the entry point a feature's face names, with the feature
packages behind it) is imported when the
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
    from typing import Any, Final

#: The face: what the command line (``cli``) builds its parser with. The choices below and
#: :class:`Later` are the command parsers' own vocabulary (``from . import SCENARIOS``).
__all__ = ["Commands"]

#: The names of :data:`mcp_skew.simulator.SCENARIOS`, sorted.
SCENARIOS: Final = ("apps", "auth", "cache", "default", "era-gated", "features", "handshake",
                    "listen", "lists", "long")
#: :data:`mcp_skew.simulator.TRANSPORTS`.
TRANSPORTS: Final = ("stdio", "http")
#: :data:`mcp_skew.matrix.FORMATS` and :data:`mcp_skew.matrix.VIEWS`.
MATRIX_FORMATS: Final = ("text", "markdown", "github", "grid", "html", "json", "csv", "junit")
VIEWS: Final = ("pairs", "features")
#: :data:`mcp_skew.migrate.CHOICES` (the roles) and :data:`mcp_skew.migrate.FORMATS`.
MIGRATE_ROLES: Final = ("server", "client", "both")
MIGRATE_FORMATS: Final = ("markdown", "json", "html")
#: :data:`mcp_skew.probe._report.FORMATS`, sorted, and :data:`mcp_skew.probe._schemas.INSTALL_HINT`.
PROBE_FORMATS: Final = ("html", "json", "junit", "markdown", "summary", "terminal")
INSTALL_HINT: Final = "pip install 'mcp-skew[schemas]'"
#: :data:`mcp_skew.rollout.BALANCERS`.
BALANCERS: Final = ("sticky", "round-robin", "random")
#: :data:`mcp_skew.peers.ROLES`.
ROLES: Final = ("server", "client")
#: :data:`mcp_skew.versions.FORMATS`.
VERSIONS_FORMATS: Final = ("text", "markdown", "json")


#: Each command, in the order ``--help`` lists them: (its parser module here, its line in
#: ``mcp-skew --help``). A command's arguments are added when it is parsed (:class:`Commands`).
COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "matrix": ("matrix", "every client against every server: the compatibility matrix"),
    "simulate": ("simulate", "one run: a simulated client against a simulated server"),
    "rollout": ("rollout", "a client population against a fleet that is upgraded, rolled back "
                "or pruned"),
    "versions": ("versions", "list the known revisions: era, method counts, headline changes"),
    "show": ("versions", "the full derived profile of one revision"),
    "diff": ("versions", "every change between two revisions (either may be the older)"),
    "migrate": ("migrate", "the migration guide from one revision to another (either may be "
                "the older)"),
    "probe": ("probe", "drive a real server with clients of every revision and era; a report "
              "card"),
    "probe-client": ("probe_client", "drive a real client against simulated servers of every "
                     "revision and era; a card"),
    "serve": ("serve", "run a simulated server as a real MCP server (stdio, or HTTP with "
              "--http)"),
    "record": ("record", "a transparent stdio proxy that logs every line between a client and "
               "a server"),
    "show-log": ("record", "print a wire log as a person reads it, with the negotiation "
                 "explained"),
    "replay": ("record", "replay a log's client side against a server and compare the answers"),
    "verify-peer": ("verify_peer", "check a named real peer's model against the real package"),
    "census": ("census", "probe every server of an MCP Registry listing; `census report` reads "
               "it"),
}


class Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The sub-commands of ``mcp-skew``: each named with its help line (:data:`COMMANDS`)
    at once, its parser built from its module's ``register`` when it is first needed
    (:meth:`built`: parsing it, its ``--help``, a suggestion for a mistyped option), so that
    ``mcp-skew --help`` and a command build one parser, not sixteen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (_, line) in COMMANDS.items():
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), line))
            self._name_parser_map[name] = None  # a name for the choices and the help

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """A command's parser, from its module's ``register``, in its place of the choices
        (argparse's own would add the name again)."""
        if name not in COMMANDS:
            raise ValueError(f"command {name!r} is not in mcp_skew.commands.parsers.COMMANDS")
        kwargs.pop("help", None)  # listed from COMMANDS
        kwargs.setdefault("prog", f"{self._prog_prefix} {name}")
        parser: argparse.ArgumentParser = self._parser_class(**kwargs)
        self._name_parser_map[name] = parser
        return parser

    def built(self, name: str) -> argparse.ArgumentParser:
        """The parser of command ``name``, built now if it was not."""
        parser = self._name_parser_map[name]
        if parser is None:
            module = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")
            module.register(self)
            parser = self._name_parser_map[name]
        assert isinstance(parser, argparse.ArgumentParser)
        return parser

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if values and values[0] in COMMANDS:
            self.built(values[0])
        super().__call__(parser, namespace, values, option_string)


class Later:
    """A command's ``func``: ``function`` of ``mcp_skew.commands.<module>``, imported on call;
    with ``feature=True``, of the feature package ``mcp_skew.<module>`` (its face names the
    command's entry point: the command's implementation lives in its feature's room)."""

    def __init__(self, module: str, function: str, *, feature: bool = False) -> None:
        self.module, self.function = module, function
        #: the module imported on call
        self.path = f"mcp_skew.{module}" if feature else f"mcp_skew.commands.{module}"

    def __call__(self, args: argparse.Namespace) -> int:
        implementation = importlib.import_module(self.path)
        code = getattr(implementation, self.function)(args)
        assert isinstance(code, int)
        return code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Later) and (self.path, self.function) == (
            other.path, other.function)

    def __hash__(self) -> int:
        return hash((self.path, self.function))

    def __repr__(self) -> str:
        feature = ", feature=True" if self.path == f"mcp_skew.{self.module}" else ""
        return f"Later({self.module!r}, {self.function!r}{feature})"

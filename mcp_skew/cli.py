"""The ``mcp-skew`` command: one sub-command per module in ``mcp_skew.commands``.

Each command module defines ``register(subparsers) -> None``, which adds its
parser and sets ``func`` (taking the parsed arguments, returning an exit code).
Bad input is one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .errors import UsageError
from .versions import (
    REGISTRY,
    ProfileFileError,
    UnknownRevision,
    load_entry_points,
    load_profile_file,
)

__all__ = ["COMMANDS", "main"]

#: Command modules under ``mcp_skew.commands``, in the order ``--help`` lists them.
COMMANDS = (
    "matrix",
    "simulate",
    "versions",
    "migrate",
    "probe",
    "serve",
    "record",
    "verify_peer",
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-skew",
        description="Simulate MCP revisions and show what happens when a client of one "
        "meets a server of another.",
    )
    parser.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="PATH",
        help="load a third-party profile (TOML or JSON) that extends a built-in revision",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"mcp_skew.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"mcp_skew.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    before = set(REGISTRY.revisions())
    try:
        load_entry_points()
        for path in args.profile:
            load_profile_file(path)
        code = args.func(args)
    except (ProfileFileError, UsageError, UnknownRevision) as exc:
        print(f"mcp-skew: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    finally:
        # third-party profiles live for one invocation, so main() can run again in-process
        for revision in reversed(REGISTRY.revisions()):
            if revision not in before:
                REGISTRY.unregister(revision)
    assert isinstance(code, int)
    return code


if __name__ == "__main__":
    raise SystemExit(main())

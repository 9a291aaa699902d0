"""The ``mcp-skew`` command: one sub-command per module in ``mcp_skew.commands``.

Each command module defines ``register(subparsers) -> None``, which adds its
parser and sets ``func`` (taking the parsed arguments, returning an exit code).
Bad input is one clear line on stderr and exit code 2, never a traceback.

``mcp-skew --version`` is answered before any command module (or pydantic) is
imported, so it stays fast; ``--help`` builds the whole parser.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ._output import terminal_safe
from ._stopping import exit_code, stopping
from .errors import UsageError

__all__ = ["COMMANDS", "main", "version_line"]

#: Command modules under ``mcp_skew.commands``, in the order ``--help`` lists them.
COMMANDS = (
    "matrix",
    "simulate",
    "rollout",
    "versions",
    "migrate",
    "probe",
    "serve",
    "record",
    "verify_peer",
    "census",
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
    # main() answers an exact --version before building this parser; the action covers the rest
    # (an abbreviation such as --vers) and lists the option in --help.
    parser.add_argument("--version", action="version", version=version_line(),
                        help="print the version of mcp-skew and exit")
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


def version_line() -> str:
    """``mcp-skew X.Y.Z``: what ``--version`` prints."""
    from . import __version__  # noqa: PLC0415 - read from the package metadata on first use

    return f"mcp-skew {__version__}"


def _wants_version(argv: Sequence[str]) -> bool:
    """Whether argparse would act on ``--version`` first: it comes before the command and help."""
    args = iter(argv)
    for arg in args:
        if arg == "--version":
            return True
        if arg in ("-h", "--help", "--") or not arg.startswith("-"):
            return False  # help comes first, or this is the command (its options are its own)
        if arg == "--profile":
            next(args, None)  # its value, even one that looks like an option (argparse errors)
    return False


def _stderr_somewhere() -> None:
    """With standard error closed (``2>&-``) Python's ``sys.stderr`` is None, and
    ``print(..., file=sys.stderr)`` writes to standard output: into ``serve``'s JSON-RPC
    stream. Diagnostics go to the null device instead, and fd 2 is taken, so no file opened
    later lands on it (nor a child's standard error)."""
    if sys.stderr is not None:
        return
    fd = os.open(os.devnull, os.O_WRONLY)  # fd 2 itself when it is free
    if fd != 2:
        try:
            os.fstat(2)
        except OSError:  # free after all: take it
            os.dup2(fd, 2)
            os.close(fd)
            fd = 2
    sys.stderr = open(fd, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      closefd=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    _stderr_somewhere()
    argv = sys.argv[1:] if argv is None else list(argv)
    if _wants_version(argv):
        print(version_line())
        return 0
    # the registry imports pydantic: only for a command
    from .versions import (  # noqa: PLC0415
        ProfileFileError,
        UnknownRevision,
        load_entry_points,
        with_profile_files,
    )

    parser = _parser()
    args = parser.parse_args(argv)
    try:
        # the registry of this invocation: the built-ins, installed plugins, --profile files;
        # a new value every command reads from args.registry (nothing global changes)
        args.registry = with_profile_files(args.profile, load_entry_points())
        with stopping():  # SIGTERM and SIGHUP stop it as Ctrl-C does; no process outlives it
            code = args.func(args)
    except KeyboardInterrupt as exc:
        print(f"mcp-skew: stopped ({exc or 'SIGINT'})", file=sys.stderr)
        return exit_code(exc)
    except (ProfileFileError, UsageError, UnknownRevision) as exc:
        print(terminal_safe(f"mcp-skew: error: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    assert isinstance(code, int)
    return code


if __name__ == "__main__":
    raise SystemExit(main())

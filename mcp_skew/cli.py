"""The ``mcp-skew`` command: one sub-command per module in ``mcp_skew.commands``.

Each command's parser module (:mod:`mcp_skew.commands.parsers`) defines
``register(subparsers) -> None``, which adds its parser and sets ``func`` (taking the
parsed arguments, returning an exit code): the command's implementation, imported only
when the command runs.
Bad input is one clear line on stderr and exit code 2, never a traceback.

``mcp-skew --version`` (``-V``) is answered before any command module (or pydantic) is
imported, so it stays fast; ``--help`` builds the whole parser, and imports no command's
implementation.

Standard streams are made safe here, once, for every command (:func:`_safe_streams`):
a closed standard input reads as empty; a closed standard output is a stand-in whose
first write is one error line and exit code 2 (a command writing only to ``--out``
still runs), and the descriptor is held on ``/dev/null`` so that no file opened later
takes its number; an encoding that cannot say every character (``PYTHONIOENCODING=ascii``)
gets escapes (``\u2717``) instead of an error. A reader that goes away (``| head``) ends
the command quietly with exit code 141, as a command killed by SIGPIPE reports in a shell.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
import sys
from collections.abc import Sequence

from ._stopping import check, exit_code, stopping
from ._version import __version__
from .errors import UsageError

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from .versions import Registry

__all__ = ["main", "run", "version_line"]


class _Parser(argparse.ArgumentParser):
    """argparse, with an error that is one line and suggests the option or command meant
    (a mistyped ``--fromm`` or ``matrx``; :mod:`difflib`). Sub-command parsers are of
    this class too (argparse makes them of their parent's)."""

    def error(self, message: str) -> NoReturn:
        hint = self._suggestion(message)
        words = sys.argv[1:] if _ARGV is None else _ARGV
        command = next((w for w in words if w in self._commands()), None)
        helps = f"{self.prog} {command}" if command and self.prog == "mcp-skew" else self.prog
        self.exit(2, f"{self.prog}: error: {message}{hint} (see {helps} --help)\n")

    def _commands(self) -> set[str]:
        return {name for a in self._actions if isinstance(a, argparse._SubParsersAction)
                for name in a.choices}

    def _suggestion(self, message: str) -> str:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:
            known = re.findall(r"'([^']*)'", choice.group(2)) or \
                [c.strip() for c in choice.group(2).split(",")]
            return _closest(choice.group(1), known)
        unknown = re.search(r"unrecognized arguments: (\S+)", message)
        if unknown and unknown.group(1).startswith("-"):
            return _closest(unknown.group(1).partition("=")[0], self._options())
        return ""

    def _options(self) -> list[str]:
        """This parser's options, and those of the sub-command named on the command line."""
        options = [o for a in self._actions for o in a.option_strings]
        words = set(sys.argv[1:] if _ARGV is None else _ARGV)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name in action.choices:
                    if name in words:  # the command's parser, built now (parsers.Commands)
                        options += [o for a in action.built(name)._actions  # type: ignore[attr-defined]
                                    for o in a.option_strings]
        return options


_ARGV: list[str] | None = None  #: the command line being parsed (for the suggestions)


def _closest(word: str, known: Sequence[str]) -> str:
    import difflib  # noqa: PLC0415 - only for a mistyped word

    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"; did you mean {found[0]}?" if found else ""


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    parser.add_argument("-V", "--version", action="version", version=version_line(),
                        help="print the version of mcp-skew and exit")
    # each command named with its help line; its parser is built when it is used, and its
    # implementation imported when it runs (not for --version: answered before this)
    from .commands.parsers import Commands  # noqa: PLC0415

    parser.add_subparsers(dest="command", metavar="COMMAND", required=True, action=Commands)
    return parser


def version_line() -> str:
    """``mcp-skew X.Y.Z``: what ``--version`` prints."""
    return f"mcp-skew {__version__}"


def _wants_version(argv: Sequence[str]) -> bool:
    """Whether argparse would act on ``--version`` first: it comes before the command and help."""
    args = iter(argv)
    for arg in args:
        if arg in ("-V", "--version"):
            return True
        if arg in ("-h", "--help", "--") or not arg.startswith("-"):
            return False  # help comes first, or this is the command (its options are its own)
        if arg == "--profile":
            next(args, None)  # its value, even one that looks like an option (argparse errors)
    return False


class StdoutClosed(OSError):
    """A write to a standard output that was closed when the command started."""


class _ClosedOutput(io.TextIOBase):
    """What ``sys.stdout`` is when descriptor 1 was closed: every write fails, once, with
    :class:`StdoutClosed` (``buffer`` too)."""

    def writable(self) -> bool:
        return True

    def write(self, text: Any) -> int:
        raise StdoutClosed(9, "standard output is closed; nothing was written")

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self) -> _ClosedOutput:
        return self

    def flush(self) -> None:
        pass


def _hold(fd: int, flags: int) -> None:
    """Put ``/dev/null`` at ``fd`` when it is closed, so that nothing opened later gets it."""
    try:
        os.fstat(fd)
    except OSError:
        null = os.open(os.devnull, flags)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)


def _safe_streams() -> None:
    """See the module docstring."""
    if sys.stdin is None:
        _hold(0, os.O_RDONLY)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the process
    if sys.stdout is None:
        _hold(1, os.O_WRONLY)
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        _hold(2, os.O_WRONLY)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        reconfigure = getattr(stream, "reconfigure", None)
        try:
            "\u2717\u2192".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def _quiet_broken_pipe() -> int:
    """The reader went away: no more output, no error at exit (Python flushes stdout)."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    return 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    _safe_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        # first of all: SIGTERM and SIGHUP stop the command as Ctrl-C does, also while the
        # parser and the registry load; no process it starts outlives it
        with stopping():
            return _main(argv)
    except KeyboardInterrupt as exc:
        print(f"mcp-skew: stopped ({str(exc) or 'SIGINT'})", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except StdoutClosed as exc:
        print(f"mcp-skew: error: {exc.strerror}", file=sys.stderr)
        return 2


def run() -> NoReturn:
    """The ``mcp-skew`` console script and ``python -m mcp_skew``: :func:`main`, then the
    process exits with its code.

    What is alive then is left to the exit: the collector's objects are frozen first
    (:func:`gc.freeze`), so the interpreter's last collections do not walk them all (the
    modules, the profiles, a matrix's cells) to free what the process's end frees anyway:
    some 9 ms of the default matrix's 140 ms of CPU (``benchmarks/bench_startup.py``). Only
    here, where the process ends: :func:`main` called in a process that goes on (a test)
    freezes nothing.
    """
    code = main()
    import gc  # noqa: PLC0415 - not for --help (its SystemExit leaves before this)

    gc.freeze()
    sys.exit(code)


def _with_named_drafts(argv: list[str], registry: Registry) -> Registry:
    """``registry`` with the built-in drafts the arguments name (``diff 2026-07-28 next``,
    ``--servers modern:next+sep-3279``, ``--with next``), not those after ``--`` (a server's
    own command line); the default matrix names none, so it never meets them (nor loads
    the drafts' layers: every draft's name has ``_DRAFT`` in it)."""
    ours = argv[: argv.index("--")] if "--" in argv else argv
    named = [word for before, word in zip(["", *ours], ours, strict=False)
             if before not in _FREE_TEXT and word.partition("=")[0] not in _FREE_TEXT]
    if not any(_DRAFT in word for word in named):
        return registry
    from .versions import with_drafts_named  # noqa: PLC0415

    return with_drafts_named(named, registry)  # a bad layer: ProfileFileError


#: The built-in draft's name (``versions._seps.DRAFT``, not imported for it: a test keeps
#: them equal), in each name of a draft and its layers (``next``, ``next+sep-3279``).
_DRAFT = "next"


#: Options whose value is a name, a path or text, never a revision: a value ``next`` there
#: (``--label next``, ``--out next``) names no draft.
_FREE_TEXT = frozenset({
    "--args", "--cwd", "--env", "--header", "--label", "--log", "--out", "--record",
    "--save-peer", "--schemas", "--sse-url", "--token", "--tool", "--url", "--from",
})


def _main(argv: list[str]) -> int:
    if _wants_version(argv):
        print(version_line())
        return 0
    global _ARGV  # noqa: PLW0603 - read by the parser's error, in this call only
    _ARGV = argv
    parser = _parser()
    args = parser.parse_args(argv)
    from ._memo import collector_paused  # noqa: PLC0415 - not for --help (typing)

    # the profiles and the command's implementation: what a module defines lives as long as
    # the process, so the collector's young passes while they load (some thirty for the
    # default matrix, a few per cent of its start) would find nothing to free
    with collector_paused():
        # the registry (the profiles of every revision): only for a command, not for --help
        from .versions import (  # noqa: PLC0415
            ProfileFileError,
            UnknownRevision,
            load_entry_points,
            with_profile_files,
        )

        # the command's implementation (``func`` imports it on call: a Later of the parsers)
        implementation = getattr(args.func, "path", None)
        if isinstance(implementation, str):
            importlib.import_module(implementation)
    try:
        # the registry of this invocation: the built-ins, installed plugins, --profile files;
        # a new value every command reads from args.registry (nothing global changes)
        args.registry = with_profile_files(args.profile, load_entry_points())
        args.registry = _with_named_drafts(argv, args.registry)
        check()  # a stop that came while the parser and registry loaded: nothing starts
        code = args.func(args)
    except (ProfileFileError, UsageError, UnknownRevision) as exc:
        from ._output import terminal_safe  # noqa: PLC0415 - shutil, tempfile: not for --help

        print(terminal_safe(f"mcp-skew: error: {exc}"), file=sys.stderr)
        return 2
    assert isinstance(code, int)
    return code


if __name__ == "__main__":
    run()

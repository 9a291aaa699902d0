"""``mcp-skew record``, ``show-log`` and ``replay``: wire logs of real MCP traffic.

The command line reads what only it knows (the server command after ``--``, the options
written after a log's FILE, which its parser defines); the work is the serve feature's
(:func:`mcp_skew.serve.run_record`, ``run_show_log``, ``run_replay``)."""

from __future__ import annotations

import argparse

from ..errors import UsageError
from .parsers.record import replay_options

# ``mcp_skew.serve`` (its logs: pydantic) is imported by each command when it runs, not for --help

__all__: list[str] = []  # run through the parser's func (commands.parsers.Later)


def _command(values: list[str], name: str) -> list[str]:
    argv = values[1:] if values and values[0] == "--" else values
    if not argv:
        raise UsageError(f"{name}: give the server command after --, e.g. "
                         f"mcp-skew {name} ... -- python server.py")
    return argv


def _split_replay(args: argparse.Namespace) -> list[str]:
    """Options given after FILE land in the remainder: read them, return the command.

    argparse drops a ``--`` right after FILE, so a remainder without ``--`` is the
    command itself unless it starts with an option.
    """
    rest = list(args.command)
    if "--" in rest:
        cut = rest.index("--")
        options, command = rest[:cut], rest[cut + 1:]
    elif rest and rest[0].startswith("-"):
        options, command = rest, []
    else:
        options, command = [], rest
    if options:
        late = argparse.ArgumentParser(prog="mcp-skew replay", add_help=False)
        replay_options(late)
        parsed, unknown = late.parse_known_args(options)
        if unknown:
            raise UsageError(f"replay: unexpected {' '.join(unknown)} (a server command goes "
                             "after --)")
        for name in ("server", "json"):
            if getattr(parsed, name):
                setattr(args, name, getattr(parsed, name))
        if "--timeout" in options:
            args.timeout = parsed.timeout
        args.ignore = [*args.ignore, *parsed.ignore]
    return command


def _record(args: argparse.Namespace) -> int:
    from ..serve import run_record  # noqa: PLC0415 - see the imports

    return run_record(args, _command(args.command, "record"))


def _show(args: argparse.Namespace) -> int:
    from ..serve import run_show_log  # noqa: PLC0415 - see the imports

    return run_show_log(args)


def _replay(args: argparse.Namespace) -> int:
    from ..serve import run_replay  # noqa: PLC0415 - see the imports

    return run_replay(args, _split_replay)

"""``mcp-skew record``, ``show-log`` and ``replay``: wire logs of real MCP traffic."""

from __future__ import annotations

import argparse
import sys

from .._args import seconds, whole
from .._jsontext import dumps
from .._output import terminal_safe
from ..errors import UsageError
from ..peers import resolve_peer
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
    from ..serve import LogWriter, run_proxy  # noqa: PLC0415 - see the imports

    argv = _command(args.command, "record")
    log = LogWriter(args.log)
    try:
        return run_proxy(argv, log)
    finally:
        log.close()


def _warn(warnings: list[str]) -> None:
    for text in warnings:
        print(terminal_safe(f"mcp-skew: warning: {text}"), file=sys.stderr)


def _show(args: argparse.Namespace) -> int:
    from ..serve import (  # noqa: PLC0415 - see the imports
        annotate,
        read_log,
        render_log,
        render_processes,
        split_processes,
    )

    entries, warnings = read_log(args.file)
    _warn(warnings)
    processes = split_processes(entries)
    width = None if args.full else whole(args.width, "--width", 20, 100_000)
    if len(processes) > 1:  # each recorded server process is a session of its own
        if args.json:
            print(terminal_safe(dumps({"processes": [
                {"process": p.number, "start": p.start, "offset_s": p.offset_s,
                 **annotate(p.entries, args.registry).to_dict()} for p in processes]}, indent=2)))
            return 0
        print(terminal_safe(render_processes(
            processes, args.registry, width=width, notes=not args.no_notes, stderr=not args.no_stderr,
            title=f"wire log {args.file} ({len(entries)} entries, "
                  f"{len(processes)} server processes)\n")))
        return 0
    annotation = annotate(entries, args.registry)
    if args.json:
        print(terminal_safe(dumps(annotation.to_dict(), indent=2)))
        return 0
    print(terminal_safe(render_log(annotation, width=width, notes=not args.no_notes,
                     stderr=not args.no_stderr,
                     title=f"wire log {args.file} ({len(entries)} entries)\n")))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from ..serve import (  # noqa: PLC0415 - see the imports
        read_log,
        render_replay,
        replay_command,
        replay_processes,
        replay_simulated,
    )

    entries, warnings = read_log(args.file)
    _warn(warnings)
    command = _split_replay(args)
    if (args.server is None) == (not command):
        raise UsageError("replay: give either --server PEER or -- COMMAND ARGS...")

    if args.server is not None:
        spec = resolve_peer(args.server, "server", args.registry)
        report = replay_processes(entries, lambda part: replay_simulated(part, spec, args.ignore))
    else:
        timeout_s = seconds(args.timeout, "--timeout")
        report = replay_processes(entries, lambda part: replay_command(
            part, command, registry=args.registry, timeout_s=timeout_s, ignore=args.ignore))
    if args.json:
        print(terminal_safe(dumps(report.to_dict(), indent=2)))
    else:
        print(terminal_safe(render_replay(report, title=f"replay of {args.file} against "
                                                        f"{report.target}")))
    return 0 if report.ok else 1

"""``mcp-skew record``, ``show-log`` and ``replay``: wire logs of real MCP traffic."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._jsontext import dumps
from .._output import terminal_safe
from ..errors import UsageError
from ..peers import resolve_peer
from ._args import seconds, whole

# ``mcp_skew.serve`` (its logs: pydantic) is imported by each command when it runs, not for --help

__all__ = ["register"]


def _command(values: list[str], name: str) -> list[str]:
    argv = values[1:] if values and values[0] == "--" else values
    if not argv:
        raise UsageError(f"{name}: give the server command after --, e.g. "
                         f"mcp-skew {name} ... -- python server.py")
    return argv


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "record",
        help="a transparent stdio proxy that logs every line between a client and a server",
        description="Configure the client to start `mcp-skew record --log FILE -- COMMAND "
        "ARGS...` instead of the server. Every byte passes through unchanged and in order; "
        "every line is appended to FILE as JSON Lines, with time and direction, flushed at "
        "once. The server's standard error passes through and is logged too. The exit code "
        "is the server's.",
    )
    p.add_argument("--log", required=True, metavar="FILE", help="the wire log to append to")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ARGS...",
                   help="the server command, run directly (no shell)")
    p.set_defaults(func=_record)

    s: argparse.ArgumentParser = sub.add_parser(
        "show-log",
        help="print a wire log as a person reads it, with the negotiation explained",
        description="Print a wire log (from record, or serve --record) with arrows and times, "
        "and annotate it: which revision each side speaks, the negotiation path, and "
        "findings where a message breaks its revision's rules.",
    )
    s.add_argument("file", metavar="FILE")
    s.add_argument("--full", action="store_true", help="never clip long lines")
    s.add_argument("--width", default=160, metavar="N",
                   help="clip lines longer than N characters (default: %(default)s)")
    s.add_argument("--no-notes", action="store_true", help="only the summary under the lines")
    s.add_argument("--no-stderr", action="store_true", help="leave out the server's stderr")
    s.add_argument("--json", action="store_true", help="the annotation as one JSON object")
    s.set_defaults(func=_show)

    r: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="replay a log's client side against a server and compare the answers",
        description="Send the client's lines of a wire log again, to a simulated server "
        "(--server PEER) or to a real one (-- COMMAND ARGS...), and show, request by request, "
        "whether the answers are the same, differ (with a short JSON diff) or are missing. "
        "Exit code 0 when every answer is the same, 1 otherwise.",
    )
    r.add_argument("file", metavar="FILE")
    _replay_options(r)
    r.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ARGS...",
                   help="a real server command, run directly (no shell)")
    r.set_defaults(func=_replay)


def _replay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", metavar="PEER", help="a simulated server peer spec")
    p.add_argument("--timeout", default=5.0, metavar="S",
                   help="seconds to wait for each answer of a real server (default: %(default)s)")
    p.add_argument("--ignore", action="append", default=[], metavar="PATH",
                   help="a JSON path not to compare, e.g. result.serverInfo (repeatable)")
    p.add_argument("--json", action="store_true", help="the comparison as one JSON object")


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
        _replay_options(late)
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

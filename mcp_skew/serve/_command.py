"""``mcp-skew serve``, ``record``, ``show-log`` and ``replay``: the commands' work, run from
:mod:`mcp_skew.commands.serve` and :mod:`mcp_skew.commands.record` once they have read what
only the command line knows (the address ``--http`` gives, the options written after a log's
FILE); the serve face names each entry point, read on first use.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from .._args import seconds, whole
from .._jsontext import dumps
from .._output import terminal_safe
from .._stopping import check
from ..errors import UsageError
from ..peers import resolve_peer
from ._annotate import annotate
from ._http import HttpLimits, ServedEndpoint, make_http_server, server_url
from ._log import LogWriter, read_log, split_processes
from ._stdio import serve_stdio

__all__ = ["run_record", "run_replay", "run_serve", "run_show_log"]

#: The largest ``--max-connections`` (it is lowered to fit the descriptor limit anyway).
MAX_CONNECTIONS = 1_000_000


# -- serve --------------------------------------------------------------------------

def _say(quiet: bool) -> Any:
    def say(text: str) -> None:
        if not quiet:
            print(terminal_safe(f"mcp-skew serve: {text}"), file=sys.stderr, flush=True)
    return say


def run_serve(args: argparse.Namespace, address: tuple[str, int] | None) -> int:
    """``mcp-skew serve``: on stdio, or on HTTP at ``address`` (``--http``, read already)."""
    if args.max_connections is not None:
        args.max_connections = whole(args.max_connections, "--max-connections", 1, MAX_CONNECTIONS)
    spec = resolve_peer(args.peer, "server", args.registry)
    say = _say(args.quiet)
    log = LogWriter(args.record, source="serve") if args.record else None
    try:
        if address is None:
            if log:
                log.event("start", f"mcp-skew serve {spec.notation} on stdio", peer=spec.notation)
            say(f"simulated server {spec.notation} on stdio")
            check()  # a stop already here: do not serve (a signal stops it as any command)
            return serve_stdio(spec, sys.stdin.buffer, sys.stdout.buffer, say=say, log=log)
        return _serve_http(args, address, spec, say, log)
    finally:
        if log:
            log.close()


def _serve_http(args: argparse.Namespace, address: tuple[str, int], spec: Any, say: Any,
                log: LogWriter | None) -> int:
    host, port = address
    limits = HttpLimits() if args.max_connections is None \
        else HttpLimits(max_connections=args.max_connections)
    endpoint = ServedEndpoint(spec, say=say, allow_remote=args.allow_remote, limits=limits)
    server = make_http_server(endpoint, host, port, log=log)
    url = server_url(server)
    endpoint.protect(url)  # a server with auth=LAYOUT: its authorization server too
    if log:
        log.event("start", f"mcp-skew serve {spec.notation} on {url}", peer=spec.notation,
                  url=url)
    print(f"mcp-skew serve: simulated server {spec.notation} on {url}", file=sys.stderr,
          flush=True)
    if endpoint.auth is not None:
        print(f"mcp-skew serve: protected ({', '.join(sorted(endpoint.auth.layout))}); test "
              f"authorization server {endpoint.auth.issuer} approves every request at once; "
              "pre-registered client: mcp-skew-preregistered / mcp-skew-secret",
              file=sys.stderr, flush=True)
    try:
        startup_ms = spec.server_policy.startup_ms
        if startup_ms:
            say(f"slow start: answering in {startup_ms} ms")
            time.sleep(startup_ms / 1000)
        check()  # a stop already here: do not serve
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:  # stopped as every command is: 128 + the signal's number
        say("interrupted; stopping")
        raise
    finally:
        server.stop_streams()
        server.server_close()
    return server.exit_code


# -- record, show-log, replay -------------------------------------------------------

def run_record(args: argparse.Namespace, argv: list[str]) -> int:
    """``mcp-skew record``: the proxy in front of the server command ``argv``."""
    # record's, show-log's and replay's own modules load when their command runs: ``serve``
    # (started once per comparison by the drift checks) loads neither them nor the checked
    # transcript models ``_replay`` reads with (pydantic)
    from ._proxy import run_proxy  # noqa: PLC0415

    log = LogWriter(args.log)
    try:
        return run_proxy(argv, log)
    finally:
        log.close()


def _warn(warnings: list[str]) -> None:
    for text in warnings:
        print(terminal_safe(f"mcp-skew: warning: {text}"), file=sys.stderr)


def run_show_log(args: argparse.Namespace) -> int:
    """``mcp-skew show-log``."""
    from ._show import render_log, render_processes  # noqa: PLC0415  (as in run_record)

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


def run_replay(args: argparse.Namespace,
               split_command: Callable[[argparse.Namespace], list[str]]) -> int:
    """``mcp-skew replay``: the log read first, then ``split_command`` (the command line's
    reading of the options and command given after FILE)."""
    from ._replay import (  # noqa: PLC0415  (as in run_record)
        render_replay,
        replay_command,
        replay_processes,
        replay_simulated,
    )

    entries, warnings = read_log(args.file)
    _warn(warnings)
    command = split_command(args)
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

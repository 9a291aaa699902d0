"""``mcp-skew probe-client``: a real client program against simulated servers, and its card.

``mcp-skew probe-client [OPTIONS] -- CLIENT_ARGV...`` runs the client once per simulated
server; ``{server}`` in its words becomes the command of a simulated stdio server (the
client spawns it), ``{url}`` the URL of a simulated Streamable HTTP server on loopback.
Progress goes to stderr, the card to stdout (or ``--out``). The exit code is 0, 1 when
the client reached no server of a ``--require``-d revision, or 2 for bad input or a
client program that cannot be started at all. The command's name, help and arguments are
:mod:`mcp_skew.commands.parsers.probe_client`'s; :func:`run_command` is its entry point, on
the probe-client's face.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._args import label, required_revisions, seconds, whole
from .._output import (
    check_outputs,
    emit,
    terminal_safe,
)
from ..errors import UsageError
from ..peers import resolve_peer
from ..versions import Era, Registry

if TYPE_CHECKING:  # the runner (the wire, the serve stack) is imported when it runs
    from ._runner import ClientReport, ProbeClientOptions

__all__ = ["default_jobs", "exit_code", "options", "run_command"]


def default_jobs() -> int:
    """Client runs at once without ``--jobs``: 2 where the machine has 2 CPUs (or more), else 1.
    A run is mostly the client's and its server's start-ups; two at a time keep two CPUs busy."""
    return min(2, os.cpu_count() or 1)


def _words(args: argparse.Namespace) -> tuple[tuple[str, ...], str]:
    from ._launch import SERVER_WORD, URL_WORD  # noqa: PLC0415

    words = list(args.client)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise UsageError("give the client's words after --, with {server} or {url} in them")
    has_server = any(SERVER_WORD in w for w in words)
    has_url = any(URL_WORD in w for w in words)
    transport = args.transport or ("http" if has_url and not has_server else "stdio")
    if transport == "stdio" and not has_server:
        raise UsageError("the client's words have no {server}: where should the server "
                         "command go? (or --transport http with {url})")
    if transport == "http" and not has_url:
        raise UsageError("--transport http: the client's words have no {url}")
    return tuple(words), transport


def _servers(args: argparse.Namespace, required: tuple[str, ...]) -> list[Any]:
    from ._runner import cases  # noqa: PLC0415
    from ._servers import ServerCase, default_servers  # noqa: PLC0415

    registry: Registry = args.registry
    for revision in args.with_revisions:  # named on the command line: the registry has it
        registry.get(revision)  # (an unknown one: UnknownRevision, one line, exit 2)
    chosen = [ServerCase(s, "") for s in args.server] or list(default_servers(registry))
    resolved = cases(chosen, lambda s: resolve_peer(s, "server", registry))
    added = []
    for rev in required:  # a plain server of each required revision, if none serves it
        if not any(rev in s.peer.revisions for s in resolved):
            kind = "modern" if registry.get(rev).era is Era.MODERN else "legacy"
            added.append(ServerCase(f"{kind}:{rev}", f"--require {rev}"))
    return [*resolved, *cases(added, lambda s: resolve_peer(s, "server", registry))]


def _profile_args(argv_profiles: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for path in argv_profiles:
        out += ["--profile", os.path.abspath(path)]
    return tuple(out)


def options(args: argparse.Namespace) -> tuple[tuple[str, ...], ProbeClientOptions]:
    from ._runner import ProbeClientOptions  # noqa: PLC0415

    words, transport = _words(args)
    deadline = seconds(args.timeout, "--timeout")
    jobs = default_jobs() if args.jobs is None else whole(args.jobs, "--jobs", 1, 16)
    required = required_revisions(args.require, args.registry)
    env = None
    if args.env:
        pairs = {}
        for item in args.env:
            key, found, value = item.partition("=")
            if not found or not key:
                raise UsageError(f"--env {item!r}: expected KEY=VALUE")
            pairs[key] = value
        env = {**os.environ, **pairs}
    if args.cwd and not os.path.isdir(args.cwd):
        raise UsageError(f"--cwd {args.cwd}: not a directory")
    return words, ProbeClientOptions(
        servers=tuple(_servers(args, required)), registry=args.registry,
        transport="http" if transport == "http" else "stdio", deadline_s=deadline, jobs=jobs,
        record_dir=Path(args.record) if args.record else None, cwd=args.cwd, env=env,
        profile_args=_profile_args(args.profile), required=required)


def run_command(args: argparse.Namespace) -> int:
    from ._report import render  # noqa: PLC0415
    from ._runner import probe_client  # noqa: PLC0415
    from ._save import save_client_peer  # noqa: PLC0415

    words, opts = options(args)
    name = label(args.label)
    check_outputs({"--out": args.out, "--save-peer": args.save_peer}, {"--record": args.record})

    def progress(text: str) -> None:
        print(terminal_safe(f"mcp-skew probe-client: {text}"), file=sys.stderr, flush=True)

    report = probe_client(words, opts, None if args.quiet else progress)
    if all(r.spawn_error for r in report.runs):
        print(terminal_safe(f"mcp-skew: error: {report.runs[0].spawn_error}"), file=sys.stderr)
        return 2
    emit(args.out, render(report, args.format) + "\n")
    if args.save_peer:
        save_client_peer(report, args.save_peer, name or "")
        if not args.quiet:
            progress(f"peer saved to {args.save_peer}: {report.inferred.notation}")
    return exit_code(report)


def exit_code(report: ClientReport) -> int:
    """1 when a ``--require``-d revision was not reached (a line on stderr each), else 0."""
    failures = report.required_failures()
    for line in failures:
        print(terminal_safe(f"mcp-skew probe-client: required revision not reached: {line}"),
              file=sys.stderr)
    return 1 if failures else 0

"""``mcp-skew probe``: every built-in client against a real server, and a report card.

``mcp-skew probe [OPTIONS] -- COMMAND ARGS...`` runs a stdio server (the command
is run directly, never through a shell; a fresh process per client);
``mcp-skew probe --url URL`` speaks Streamable HTTP. Progress goes to stderr,
the report card to stdout (or ``--out``). The exit code is 0, or 1 when a
client of a ``--require``-d revision fails, or 2 for bad input or a server
command that cannot be started at all.

The command's work, in the probe's room: :func:`run_command` is its one entry point;
:func:`options` (the target and the probe's options the words give) and :func:`exit_code`
are what the GitHub Action's step reads of it. The command line
(:mod:`mcp_skew.commands.probe`) gives ``--via`` what this package may not import: the start
of a named bridge's real package in front of the server (:mod:`mcp_skew.realpeers`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .._args import label, required_revisions, seconds, url, whole
from .._jsontext import FILE, JsonTextError, loads
from .._output import (
    check_outputs,
    check_plain_name,
    emit,
    terminal_safe,
    write_in_dir,
)
from ..errors import UsageError
from ..peers import resolve_peer
from ..simulator import PeerSpec
from ._report import render
from ._schemas import INSTALL_HINT, check_schemas, jsonschema_problem

if TYPE_CHECKING:  # the runner (the wire, pydantic) is imported when a probe runs
    from ..peers import NamedBridge
    from ._runner import ProbeOptions, ProbeReport, Target

__all__ = ["BridgeRunning", "exit_code", "options", "run_command", "start_failure"]


class BridgeRunning(Protocol):
    """``--via``'s bridge: the named bridge's real package started in front of ``command``
    for the ``with`` block, which gets its URL, and ended with every server process it
    started when the block is left (:func:`mcp_skew.realpeers.bridge_running`)."""

    def __call__(self, bridge: NamedBridge, command: Sequence[str], *, idle_s: float = ...,
                 ceiling_s: float = ...) -> AbstractContextManager[str]: ...


def _pairs(items: list[str], sep: str, what: str) -> dict[str, str]:
    out = {}
    for item in items:
        key, found, value = item.partition(sep)
        if not found or not key.strip():
            raise UsageError(f"{what} {item!r}: expected {what.upper()}{sep}VALUE")
        out[key.strip()] = value.strip() if sep == ":" else value
    return out


def _target(args: argparse.Namespace) -> Target:
    from ._runner import Target  # noqa: PLC0415 - see the imports

    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if bool(command) == bool(args.url):
        raise UsageError("give a server command after -- or --url URL (one of the two)")
    if args.url:
        url(args.url, "--url")
    if args.sse_url:
        url(args.sse_url, "--sse-url")
    env = {**os.environ, **_pairs(args.env, "=", "env")} if args.env else None
    headers = _pairs(args.header, ":", "header")
    if args.token is not None:
        headers = {**headers, "Authorization": f"Bearer {_token(args.token, args.url)}"}
    return Target(command=tuple(command), url=args.url, sse_url=args.sse_url, cwd=args.cwd,
                  env=env, headers=headers or None, name=label(args.label))


def _token(token: str, url: str | None) -> str:
    """An access token as a header value may carry it (RFC 6750 §2.1 b64token), checked."""
    if url is None:
        raise UsageError("--token is for a server at --url (HTTP authorization)")
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=")
    if not token or len(token) > 8192 or not set(token) <= allowed:
        raise UsageError("--token: not an access token (RFC 6750 b64token: letters, digits "
                         "and -._~+/= only, at most 8192)")
    return token


def _options(args: argparse.Namespace) -> ProbeOptions:
    from ._runner import ProbeOptions  # noqa: PLC0415 - see the imports

    if args.args is not None and not args.tool:
        raise UsageError("--args needs --tool NAME (the tool they are for)")
    try:
        tool_args = loads("{}" if args.args is None else args.args, FILE)
    except JsonTextError as exc:
        raise UsageError(f"--args is not JSON: {exc}") from None
    if not isinstance(tool_args, dict):
        raise UsageError("--args must be a JSON object")
    args.jobs = whole(args.jobs, "--jobs", 1, 64)
    for name in ("timeout", "probe_timeout", "client_timeout", "startup_timeout"):
        setattr(args, name, seconds(getattr(args, name), "--" + name.replace("_", "-")))
    if args.schemas:  # asked for by name: no silent skip ($MCP_SKEW_SCHEMAS alone only notes it)
        problem = jsonschema_problem()
        if problem is not None:
            raise UsageError(f"--schemas: {problem}; install it with: {INSTALL_HINT}")
    check_schemas(args.schemas)  # a bad schema file fails now, before the probe runs
    for revision in args.with_revisions:  # named on the command line: the registry has it
        args.registry.get(revision)  # (an unknown one: UnknownRevision, one line, exit 2)
    clients = tuple(resolve_peer(c, "client", args.registry) for c in args.client) or None
    return ProbeOptions(
        timeout_ms=int(args.timeout * 1000), probe_timeout_ms=int(args.probe_timeout * 1000),
        client_timeout_ms=int(args.client_timeout * 1000),
        startup_timeout_ms=int(args.startup_timeout * 1000), jobs=args.jobs, tool=args.tool,
        tool_args=tool_args, error_probes=args.error_probes,
        record_dir=Path(args.record) if args.record else None, schemas=args.schemas,
        clients=clients, prober=not args.no_prober, registry=args.registry,
        thorough=args.thorough,
        required=required_revisions(args.require, args.registry), named_clients=_named_clients(),
    )


def _named_clients() -> tuple[PeerSpec, ...]:
    """Every named client model (each with its own discovery wait), for the cold start."""
    from ..peers import model_names, named_peer  # noqa: PLC0415 - a probe only

    found = (named_peer(name, "client") for name in model_names("client"))
    return tuple(p for p in found if p is not None)


def _check_outputs(args: argparse.Namespace) -> None:
    """Every output path checked before the probe runs: a bad one fails at once."""
    check_outputs({"--out": args.out, "--save-peer": args.save_peer}, {"--record": args.record})
    if args.record:
        check_plain_name(Path(args.record) / "report.json", "--record")


def options(args: argparse.Namespace) -> tuple[Target, ProbeOptions]:
    """The server to probe and the probe's options the command's words give (checked: a bad
    one is a UsageError)."""
    return _target(args), _options(args)


def run_command(args: argparse.Namespace, bridge_running: BridgeRunning | None = None) -> int:
    """``mcp-skew probe``: the probe run, its card written, its peer saved; the exit code
    (:func:`exit_code`). ``bridge_running``, given with ``--via``: the start of the named
    bridge's real package (:class:`BridgeRunning`)."""
    from ._peer import save_peer  # noqa: PLC0415 - see the imports
    from ._runner import probe  # noqa: PLC0415

    target = _target(args)
    opts = _options(args)
    _check_outputs(args)

    def progress(text: str) -> None:
        print(terminal_safe(f"mcp-skew probe: {text}"), file=sys.stderr, flush=True)

    if args.via is not None:
        assert bridge_running is not None, "--via: the command line gives the bridge's start"
        report = _through_bridge(args, target, opts, progress, bridge_running)
    else:
        report = probe(target, opts, None if args.quiet else progress)
    if opts.record_dir is not None:
        write_in_dir(opts.record_dir / "report.json", render(report, "json") + "\n", "--record")
    failed = start_failure(report)
    if failed is not None:  # no card of clients that never met a server: one line, exit 2
        print(terminal_safe(f"mcp-skew: error: {failed}"), file=sys.stderr)
        return 2
    emit(args.out, render(report, args.format) + "\n")  # a server's ESC sequences: shown
    if args.save_peer:
        save_peer(report.peer, args.save_peer, target.describe(), target.label(),
                  startup=report.startup,
                  first_answers=[r.first_message_ms for r in report.runs])
        if not args.quiet:
            progress(f"peer saved to {args.save_peer}: {report.peer.sentence}")
    return exit_code(report)


def _through_bridge(args: argparse.Namespace, target: Target, opts: ProbeOptions,
                    progress: Callable[[str], None], bridge_running: BridgeRunning
                    ) -> ProbeReport:
    """``--via BRIDGE``: the named bridge started in front of the command, probed at its URL,
    ended (with every server process it started) when the probe is done."""
    from dataclasses import replace  # noqa: PLC0415

    from ..peers import named_bridge, resolve_bridge  # noqa: PLC0415
    from ._runner import probe  # noqa: PLC0415

    if not target.command:
        raise UsageError("--via starts a bridge in front of a server command: give the "
                         "command after -- (not --url)")
    named = named_bridge(args.via.strip())
    if named is None:
        resolve_bridge(args.via, args.registry)  # the one-line error of an unknown name
        raise UsageError(f"--via {args.via!r}: name a bridge (e.g. supergateway@4); a "
                         "bridge notation is simulated only (simulate --via)")
    if not args.quiet:
        progress(f"starting {named.name} in front of the server ({named.package.text})")
    # a bridge that opens its server's session before it listens (mcp-proxy-py,
    # docs/bridges.md) sits idle through the server's cold start: up to --startup-timeout
    startup_s = opts.startup_timeout_ms / 1000
    with bridge_running(named, target.command, idle_s=max(5.0, startup_s),
                        ceiling_s=max(startup_s, 600.0)) as url:
        bridged = replace(target, command=(), url=url,
                          name=target.name or f"{target.describe()} via {named.name}")
        return probe(bridged, replace(opts, via=resolve_bridge(named.name, args.registry)),
                     None if args.quiet else progress)


def start_failure(report: ProbeReport) -> str | None:
    """The error line when the server did not start (the command is missing, or the server
    exited or said nothing before answering anything; nothing listens at the URL), or None
    when it did."""
    failed = report.startup.get("failed")
    if failed:
        return f"the server did not start: {failed}" + _said(report)
    if report.runs and all(r.outcome == "spawn-failed" for r in report.runs):
        reason = report.runs[0].record.session.reason or "the command could not be started"
        return reason if report.target.transport == "http" else \
            f"the server did not start: {reason}"
    return None if report.runs else "no clients ran"


def _said(report: ProbeReport) -> str:
    """What a server that never answered last wrote to stderr (its last 3 lines, at most 600
    characters), as the tail of the one-line error: why it did not start."""
    from ._card import stderr_tail  # noqa: PLC0415 - see the imports

    tail = next((stderr_tail(r.stderr, 3) for r in report.runs if r.stderr.strip()), [])
    if not tail:
        return ""
    text = " | ".join(line.strip() for line in tail)
    return "; its stderr: " + (text if len(text) <= 600 else "..." + text[-597:])


def exit_code(report: ProbeReport) -> int:
    """2 when the server did not start (:func:`start_failure`), 1 when a ``--require``-d
    revision's client failed (one line each on stderr), else 0."""
    failed = start_failure(report)
    if failed is not None:
        print(terminal_safe(f"mcp-skew: error: {failed}"), file=sys.stderr)
        return 2
    failures = report.failures(report.required)
    for line in failures:
        print(terminal_safe(f"mcp-skew probe: required revision failed: {line}"),
              file=sys.stderr)
    return 1 if failures else 0

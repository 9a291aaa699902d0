"""``mcp-skew probe``: every built-in client against a real server, and a report card.

``mcp-skew probe [OPTIONS] -- COMMAND ARGS...`` runs a stdio server (the command
is run directly, never through a shell; a fresh process per client);
``mcp-skew probe --url URL`` speaks Streamable HTTP. Progress goes to stderr,
the report card to stdout (or ``--out``). The exit code is 0, or 1 when a
client of a ``--require``-d revision fails, or 2 for bad input or a server
command that cannot be started at all.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._jsontext import FILE, JsonTextError, loads
from .._output import check_output, check_output_dir, terminal_safe, write_output
from ..errors import UsageError
from ..peers import resolve_peer
from ..probe._report import FORMATS, render
from ..probe._schemas import INSTALL_HINT, check_schemas, jsonschema_problem
from ..versions import Registry
from ._args import seconds, url, whole

if TYPE_CHECKING:  # the runner (the wire, pydantic) is imported when a probe runs, not for --help
    from ..probe import ProbeOptions, ProbeReport, Target

__all__ = ["exit_code", "register"]

EPILOG = """\
examples:
  mcp-skew probe -- python my_server.py
  mcp-skew probe --require 2025-06-18,2026-07-28 --format junit --out probe.xml -- npx my-server
  mcp-skew probe --tool echo --args '{"text": "hi"}' --save-peer me.json -- ./server
  mcp-skew matrix --servers @me.json
  mcp-skew probe --url http://127.0.0.1:8000/mcp
"""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "probe",
        help="drive a real server with clients of every revision and era; a report card",
        description="Run every built-in client (each legacy revision, all legacy revisions, "
        "modern-only, dual-era, and the client quirks) against a real server, infer where it "
        "departs from the spec and which peer it behaves like.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = p.add_argument_group("the server")
    where.add_argument("--url", help="Streamable HTTP endpoint (instead of a command)")
    where.add_argument("--sse-url", help="where a 2024-11-05 client opens its HTTP+SSE stream "
                       "(default: --url)")
    where.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                       help="an extra HTTP header (repeatable)")
    where.add_argument("--cwd", help="working directory of the server command")
    where.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                       help="an environment variable for the server (repeatable)")
    what = p.add_argument_group("what to run")
    what.add_argument("--client", action="append", default=[], metavar="SPEC",
                      help="a client peer spec (repeatable; replaces the built-in set)")
    what.add_argument("--no-prober", action="store_true",
                      help="skip the extra client that asks for revision 1999-01-01")
    what.add_argument("--tool", help="a tool that is safe to call (by default only list "
                      "methods are called)")
    what.add_argument("--args", default="{}", metavar="JSON", help="arguments for --tool")
    what.add_argument("--error-probes", action="store_true",
                      help="also read a resource and call a tool that do not exist "
                      "(-32002 vs -32602, unknown tool)")
    bounds = p.add_argument_group("bounds")
    bounds.add_argument("--jobs", default=4, help="clients at once, 1 to 64 (default 4)")
    bounds.add_argument("--timeout", default=5.0, metavar="SECONDS",
                        help="wait for one answer (default 5; more than 0, at most a day)")
    bounds.add_argument("--probe-timeout", default=3.0, metavar="SECONDS",
                        help="a dual-era client's server/discover probe (default 3)")
    bounds.add_argument("--client-timeout", default=60.0, metavar="SECONDS",
                        help="one client's whole conversation (default 60)")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=sorted(FORMATS), default="terminal",
                     help="terminal (the card), json, markdown, summary (Markdown for a CI job "
                     "summary), html (the card as one self-contained page), junit (a test "
                     "case per client and per --require revision)")
    out.add_argument("--out", metavar="FILE", help="write the report card here")
    out.add_argument("--require", default="", metavar="REVS",
                     help="comma-separated revisions the server must serve: revision R "
                     "passes when the plain client of R alone (legacy:R for a legacy "
                     "revision, modern:R for a modern one; run even when --client leaves it "
                     "out) negotiates R and its steps work; exit 1 when one fails, whatever "
                     "other clients run")
    out.add_argument("--record", metavar="DIR", help="write each transcript as JSON Lines as "
                     "it happens, and the server's stderr beside it")
    out.add_argument("--save-peer", metavar="FILE",
                     help="save the inferred peer for `mcp-skew matrix --servers @FILE`")
    out.add_argument("--schemas", metavar="DIR", help="the official schemas "
                     "(<revision>/schema.json) to validate messages (else $MCP_SKEW_SCHEMAS); "
                     f"needs jsonschema: {INSTALL_HINT}")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("command", nargs=argparse.REMAINDER,
                   help="the server command, after --")
    p.set_defaults(func=_main)


def _pairs(items: list[str], sep: str, what: str) -> dict[str, str]:
    out = {}
    for item in items:
        key, found, value = item.partition(sep)
        if not found or not key.strip():
            raise UsageError(f"{what} {item!r}: expected {what.upper()}{sep}VALUE")
        out[key.strip()] = value.strip() if sep == ":" else value
    return out


def _target(args: argparse.Namespace) -> Target:
    from ..probe import Target  # noqa: PLC0415 - see the imports

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
    return Target(command=tuple(command), url=args.url, sse_url=args.sse_url, cwd=args.cwd,
                  env=env, headers=_pairs(args.header, ":", "header") or None)


def _required(text: str, registry: Registry) -> tuple[str, ...]:
    revs = tuple(r.strip() for r in text.split(",") if r.strip())
    for rev in revs:
        if rev not in registry:
            raise UsageError(f"--require: unknown revision {rev!r}; known: "
                             + ", ".join(registry.revisions()))
    return revs


def _options(args: argparse.Namespace) -> ProbeOptions:
    from ..probe import ProbeOptions  # noqa: PLC0415 - see the imports

    try:
        tool_args = loads(args.args, FILE)
    except JsonTextError as exc:
        raise UsageError(f"--args is not JSON: {exc}") from None
    if not isinstance(tool_args, dict):
        raise UsageError("--args must be a JSON object")
    args.jobs = whole(args.jobs, "--jobs", 1, 64)
    for name in ("timeout", "probe_timeout", "client_timeout"):
        setattr(args, name, seconds(getattr(args, name), "--" + name.replace("_", "-")))
    if args.schemas:  # asked for by name: no silent skip ($MCP_SKEW_SCHEMAS alone only notes it)
        problem = jsonschema_problem()
        if problem is not None:
            raise UsageError(f"--schemas: {problem}; install it with: {INSTALL_HINT}")
    check_schemas(args.schemas)  # a bad schema file fails now, before the probe runs
    clients = tuple(resolve_peer(c, "client", args.registry) for c in args.client) or None
    return ProbeOptions(
        timeout_ms=int(args.timeout * 1000), probe_timeout_ms=int(args.probe_timeout * 1000),
        client_timeout_ms=int(args.client_timeout * 1000), jobs=args.jobs, tool=args.tool,
        tool_args=tool_args, error_probes=args.error_probes,
        record_dir=Path(args.record) if args.record else None, schemas=args.schemas,
        clients=clients, prober=not args.no_prober, registry=args.registry,
        required=_required(args.require, args.registry),
    )


def _check_outputs(args: argparse.Namespace) -> None:
    """Every output path checked before the probe runs: a bad one fails at once."""
    if args.out:
        check_output(args.out, "--out")
    if args.save_peer:
        check_output(args.save_peer, "--save-peer")
    if args.record:
        check_output_dir(args.record, "--record")


def _main(args: argparse.Namespace) -> int:
    from ..probe import probe, save_peer  # noqa: PLC0415 - see the imports

    target = _target(args)
    opts = _options(args)
    _check_outputs(args)

    def progress(text: str) -> None:
        print(terminal_safe(f"mcp-skew probe: {text}"), file=sys.stderr, flush=True)

    report = probe(target, opts, None if args.quiet else progress)
    text = render(report, args.format)
    if args.out:
        write_output(args.out, text + "\n")
    else:
        print(terminal_safe(text))  # a server's ESC sequences shown, never obeyed
    if opts.record_dir is not None:
        write_output(opts.record_dir / "report.json", render(report, "json") + "\n", "--record")
    if args.save_peer:
        save_peer(report.peer, args.save_peer, target.describe(), target.label())
        if not args.quiet:
            progress(f"peer saved to {args.save_peer}: {report.peer.sentence}")
    return exit_code(report)


def exit_code(report: ProbeReport) -> int:
    """2 when no client could start the server, 1 when a ``--require``-d revision's client
    failed (one line each on stderr), else 0."""
    if all(r.outcome == "spawn-failed" for r in report.runs):
        reason = report.runs[0].record.session.reason if report.runs else "no clients"
        print(terminal_safe(f"mcp-skew: error: {reason}"), file=sys.stderr)
        return 2
    failures = report.failures(report.required)
    for line in failures:
        print(terminal_safe(f"mcp-skew probe: required revision failed: {line}"),
              file=sys.stderr)
    return 1 if failures else 0

"""``mcp-skew rollout``: what a population of clients meets while a fleet of servers changes.

A fleet of instances (``--fleet SPEC*N ...``) behind a load balancer changes over
simulated time (``--to SPEC``: a rolling upgrade, one instance every ``--every``
from ``--start``; ``--rollback-at T`` rolls it back) while clients
(``--clients SPEC*N ...``, named peers too) send requests at ``--rate`` a
minute each for ``--duration``. The output is a timeline per simulated minute,
the totals and a verdict naming the clients that lose service and when
(``--format text|json|html``, ``--out FILE``). ``--plan`` compares migrating
the servers first or the clients first (to ``--clients-to``). Every number and
spec is checked: a wrong one is one line on stderr and exit code 2. The command's name, help
and arguments are :mod:`mcp_skew.commands.parsers.rollout`'s; :func:`run_command` is its entry
point, on the rollout's face.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from .._args import whole
from .._output import check_output, emit, terminal_safe
from ..errors import UsageError
from ..peers import resolve_bridge, resolve_peer
from ..simulator import PeerSpec
from ..versions import Registry
from ._render import (
    render_html,
    render_plan,
    render_plan_html,
    render_text_head,
    render_text_row,
    render_text_tail,
)
from ._study import LIMITS, Setup, default_clients_to, groups_of, parse_counted, plan, study

__all__ = ["parse_duration", "run_command"]

_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000}
_DURATION = re.compile(r"^\s*(\d{1,12})\s*(ms|s|m|h)?\s*$")


def parse_duration(text: str, option: str, *, zero: bool = False) -> int:
    """``90s``, ``10m``, ``1h``, ``500ms`` or bare seconds, as ms; a wrong one is a UsageError."""
    found = _DURATION.match(text)
    if not found:
        raise UsageError(f"{option} {text!r}: a duration is a whole number with an optional "
                         "unit ms, s, m or h (e.g. 90s, 10m)")
    ms = int(found.group(1)) * _UNITS[found.group(2) or "s"]
    if ms > LIMITS["duration_ms"]:
        raise UsageError(f"{option} {text!r}: at most 7 days (168h)")
    if ms <= 0 and not zero:
        raise UsageError(f"{option} {text!r}: must be more than zero")
    return ms


def _fleet(texts: list[str], registry: Registry) -> tuple[PeerSpec, ...]:
    fleet: list[PeerSpec] = []
    for text in texts:
        spec, count = parse_counted(text, "server", registry, option="--fleet")
        if len(fleet) + count > LIMITS["instances"]:
            raise UsageError(f"--fleet: more than {LIMITS['instances']:,} instances")
        fleet += [spec] * count
    return tuple(fleet)


def _setup(args: argparse.Namespace) -> Setup:
    registry = args.registry
    groups = groups_of([parse_counted(t, "client", registry, option="--clients")
                        for t in args.clients])
    every = parse_duration(args.every, "--every")
    rollback = (parse_duration(args.rollback_at, "--rollback-at", zero=True)
                if args.rollback_at is not None else None)
    return Setup(groups=groups, fleet=_fleet(args.fleet, registry),
                 to=resolve_peer(args.to, "server", registry) if args.to else None,
                 duration_ms=parse_duration(args.duration, "--duration"),
                 rate=whole(args.rate, "--rate", 1, LIMITS["rate"]),
                 start_ms=parse_duration(args.start, "--start", zero=True), every_ms=every,
                 rollback_at_ms=rollback, balancer=args.balancer,
                 seed=whole(args.seed, "--seed", 0, 2**64 - 1),
                 keep=whole(args.keep_transcripts, "--keep-transcripts", 0, LIMITS["clients"]),
                 via=resolve_bridge(args.via, registry) if args.via is not None else None)


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files the command reads, which ``--out`` must not replace: ``--profile``, and the
    ``@FILE`` peers of ``--clients`` and ``--fleet`` (``SPEC*N``: the spec before the count,
    as :func:`parse_counted` reads it), ``--to`` and ``--clients-to``."""
    counted = [t.rpartition("*")[0] if "*" in t else t for t in (*args.clients, *args.fleet)]
    specs = [*counted, *(t for t in (args.to, args.clients_to) if t is not None)]
    return [*args.profile, *(s.strip()[1:] for s in specs if s.strip().startswith("@"))]


def _emit(args: argparse.Namespace, text: str, summary: str) -> None:
    """The report as every command writes its own (:func:`~mcp_skew._output.emit`): to
    ``--out`` (never over an input), or to standard output, peer labels (@FILE) shown,
    never obeyed."""
    emit(args.out, text, inputs=_inputs(args))
    if args.out is not None:
        print(f"mcp-skew: wrote {args.out}: {summary}", file=sys.stderr)


def run_command(args: argparse.Namespace) -> int:
    if args.out is not None:
        # before the work: a path that cannot be written, or is read, fails at once
        check_output(args.out, inputs=_inputs(args))
    setup = _setup(args)
    if args.clients_to and not args.plan:
        raise UsageError("--clients-to is for --plan")
    if args.plan:
        if setup.to is None:
            raise UsageError("--plan needs --to (the fleet's target)")
        to = (resolve_peer(args.clients_to, "client", args.registry) if args.clients_to
              else default_clients_to(setup.to, args.registry))
        result = plan(setup, to)
        fleet = ", ".join(sorted({p.name for p in setup.fleet}))
        text = render_plan(result, fleet, setup.to.name)
        if args.format == "json":
            text = json.dumps(result.to_dict(), indent=2) + "\n"
        elif args.format == "html":
            text = render_plan_html(text)
        _emit(args, text, f"recommended: {result.recommended or 'none'}")
        return 0
    run = study(setup)
    target = setup.to.name if setup.to else None
    if args.format == "text" and args.out is None:  # stream the timeline as it comes
        sys.stdout.write(terminal_safe(render_text_head(run)))
        for minute in run.timeline(keep_rows=False):
            sys.stdout.write(terminal_safe(render_text_row(minute.to_dict(), target)))
            sys.stdout.flush()
        sys.stdout.write(terminal_safe(render_text_tail(run)))
        return 0
    for _ in run.timeline():
        pass
    text = render_text_head(run) + "".join(render_text_row(r, target) for r in run.minutes) \
        + render_text_tail(run)
    if args.format == "json":
        text = json.dumps(run.document(), indent=2) + "\n"
    elif args.format == "html":
        text = render_html(run, text)
    t = run.totals
    _emit(args, text, f"{t.requests:,} requests, {t.failed:,} failed")
    return 0

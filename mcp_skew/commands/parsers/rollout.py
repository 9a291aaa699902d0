"""``mcp-skew rollout``: the parser (name, help, arguments); the implementation is
:func:`mcp_skew.rollout.run_command`, imported when the command runs."""

from __future__ import annotations

import argparse

from . import BALANCERS, Later

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FORMATS", "register"]


FORMATS = ("text", "json", "html")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "rollout",
        description="Simulate a population of clients against a fleet of server instances "
        "behind a load balancer while the fleet changes: per simulated minute the requests, "
        "ok, retried, fell back, failed (by cause), extra round trips and cache hit rate; the "
        "totals; and a verdict naming the clients that lose service and when. Peer specs take "
        "a count: 'legacy:2025-06-18*20'.",
    )
    p.add_argument("--clients", nargs="+", required=True, metavar="SPEC*N",
                   help="the client population: peer specs (named peers too) with counts")
    p.add_argument("--fleet", nargs="+", required=True, metavar="SPEC*N",
                   help="the instances behind the load balancer, e.g. 'legacy:2025-11-25*4'")
    p.add_argument("--to", metavar="SPEC", help="the spec every instance moves to, one at a time")
    p.add_argument("--duration", default="10m", help="simulated time (default: %(default)s)")
    p.add_argument("--rate", default="10", help="requests a minute per client (default: "
                   "%(default)s)")
    p.add_argument("--start", default="1m", help="when the first instance changes "
                   "(default: %(default)s)")
    p.add_argument("--every", default="1m", help="time between two instance changes "
                   "(default: %(default)s)")
    p.add_argument("--rollback-at", metavar="TIME", help="roll the fleet back from this time, "
                   "the last instance first")
    p.add_argument("--balancer", default="sticky", choices=BALANCERS,
                   help="sticky (round robin; a legacy session stays on its instance; the "
                   "default), round-robin, or random (seeded)")
    p.add_argument("--via", metavar="BRIDGE", default=None,
                   help="a bridge in front of every instance (client -> bridge -> server): a "
                   "named one (supergateway@4, mcp-proxy-py@0.13, ...) or "
                   "bridge[:REV,...][+QUIRK...]")
    p.add_argument("--seed", default="0", help="seed of the clients' phases and the random "
                   "balancer (default: %(default)s)")
    p.add_argument("--plan", action="store_true", help="compare upgrading the servers first "
                   "or the clients first, and recommend the order without failures")
    p.add_argument("--clients-to", metavar="SPEC", help="with --plan: the spec clients move "
                   "to (default: a modern client of --to's modern revisions)")
    p.add_argument("--keep-transcripts", default="0", metavar="N", help="keep every request "
                   "of the first N clients in the JSON output (default: none)")
    p.add_argument("--format", choices=FORMATS, default="text", help="text (default), json, "
                   "or html (one self-contained page with a chart)")
    p.add_argument("--out", metavar="PATH", help="write to PATH instead of stdout")
    p.set_defaults(func=Later("rollout", "run_command", feature=True))

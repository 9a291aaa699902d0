"""Benchmark rollouts (a script, not a test).

The target (docs/rollout.md, "Performance"): a rollout of 1,000 clients x 100 requests over 10
instances in at most 5 s on one core, memory flat in the number of requests.
Prints, each next to its target:

- the CPU time (``process_time``, best of ``--repeat`` rounds) of the rollout
  engine for 1,000 clients x 100 requests over 10 instances (a rolling upgrade
  that drops a revision, the sticky balancer and the random one), with requests
  per second and the number of simulator runs the memo needed;
- the same through the command (``mcp-skew rollout``, text format, which also runs
  the baseline for the verdict): the CPU and wall time of the whole process;
- memory: ``tracemalloc``'s peak while streaming the timeline, for 1,000 clients
  at 10, 100 and 1,000 requests each (flat: the timeline is a stream), and with
  the transcripts of 10 clients kept (``--keep-transcripts 10``).

Run it with ``.venv/bin/python benchmarks/bench_rollout.py`` (``--repeat N``).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from mcp_skew.matrix._build import failure_kind
from mcp_skew.rollout._fleet import Balancer, rolling
from mcp_skew.rollout._timeline import Group, Rollout
from mcp_skew.simulator import parse_peer

ROOT = Path(__file__).resolve().parents[1]
POPULATION = (("dual:2026-07-28,2025-11-25", 400), ("legacy:2025-11-25", 300),
              ("legacy:2025-06-18", 100), ("modern:2026-07-28", 100),
              ("dual:2026-07-28,2025-11-25+fallback-denylist+probe-timeout=10000", 100))
FLEET = "dual:2026-07-28,2025-11-25,2025-06-18"
TO = "dual:2026-07-28,2025-11-25"
INSTANCES = 10
RATE = 10  # requests a minute per client


def rollout(requests: int, *, balancer: Balancer = "sticky", keep: int = 0) -> Rollout:
    groups = [Group(parse_peer(spec, "client"), count) for spec, count in POPULATION]
    fleet = [parse_peer(FLEET, "server")] * INSTANCES
    duration = requests * 60_000 // RATE
    schedule = rolling(INSTANCES, parse_peer(TO, "server"), start_ms=duration // 10,
                       every_ms=duration // 20)
    return Rollout(groups, fleet, schedule, duration_ms=duration, rate=RATE, balancer=balancer,
                   seed=1, classify=failure_kind, keep=keep)


def timed(requests: int, balancer: Balancer, repeat: int) -> tuple[float, Rollout]:
    best, last = float("inf"), None
    for _ in range(repeat):
        r = rollout(requests, balancer=balancer)
        start = time.process_time()
        for _ in r.timeline():
            pass
        best = min(best, time.process_time() - start)
        last = r
    assert last is not None
    return best, last


def peak(requests: int, keep: int = 0) -> int:
    r = rollout(requests, keep=keep)
    tracemalloc.start()
    for _ in r.timeline():
        pass
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def command_seconds() -> tuple[float, float]:
    """The command's wall time and CPU time (user + system of the child process)."""
    spec = [f"{s}*{n}" for s, n in POPULATION]
    cmd = [sys.executable, "-m", "mcp_skew", "rollout", "--clients", *spec, "--fleet",
           f"{FLEET}*{INSTANCES}", "--to", TO, "--duration", "10m", "--rate", str(RATE)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=300)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"the command failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timing rounds (best is kept)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs; "
          f"1,000 clients, {INSTANCES} instances, {FLEET} -> {TO}")
    for balancer in ("sticky", "random"):
        seconds, r = timed(100, balancer, args.repeat)  # type: ignore[arg-type]
        t = r.totals
        print(f"engine, 1,000 x 100 requests, {balancer:>6}: {seconds:.2f} s CPU "
              f"({t.requests / seconds:,.0f} requests/s, {r.outcomes.runs} simulator runs; "
              f"{t.ok:,} ok, {t.retried:,} retried, {t.fell_back:,} fell back, "
              f"{t.failed:,} failed)  target <= 5 s")
    wall, cpu = command_seconds()
    print(f"command (text, with the baseline run), whole process: {cpu:.2f} s CPU, "
          f"{wall:.2f} s wall  target <= 5 s")
    for requests in (10, 100, 1000):
        print(f"peak traced memory, 1,000 clients x {requests:>5} requests: "
              f"{peak(requests) / 1e6:.2f} MB  target: flat in the requests")
    print(f"peak traced memory, 1,000 x 100, transcripts of 10 clients kept: "
          f"{peak(100, keep=10) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()

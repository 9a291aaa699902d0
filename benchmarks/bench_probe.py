"""Benchmark the probe (a script, not a test): the full client set vs a few cold starts.

The probe starts a fresh server process for every client (and two for the
bogus-revision prober), so its floor is the server's cold start times the
number of processes, divided by how many run at once. This script measures:

- a **cold start**: spawn the server, send ``initialize``, wait for the answer
  (time to first answer), then close it the way the probe does (stdin closed,
  wait, SIGTERM, SIGKILL) (total); ``--starts N`` of them, one after another;
- the **probe**: every built-in client plus the prober (``--jobs`` at a time,
  default 4; a comma list compares several), with the list scenario, twice: the
  default (the model's clients for real, the others predicted) and ``--thorough``
  (a process per client), with the server starts each took and whether their
  per-client verdicts agree;

and prints both, and the probe's wall time in cold starts. The server is the
``mcp`` 2.3.0 example server from a cached environment (``--server mcp``), the
fastmcp one (``--server fastmcp``), a simulated server over real stdio
(``--server sim``), or any command after ``--``.

Run it with ``.venv/bin/python benchmarks/bench_probe.py`` (``--json`` for a
machine-readable line).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from mcp_skew import __version__
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.probe._clients import builtin_clients
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.wire import StdioLink

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "mcp_skew" / "realpeers" / "servers"
CHOICES = {
    "mcp": (("mcp==2.3.0",), "py_mcp_server.py"),
    "fastmcp": (("fastmcp==4.2.3",), "fastmcp_server.py"),
}


def command(args: argparse.Namespace) -> list[str]:
    if args.command:
        return list(args.command[1:] if args.command[0] == "--" else args.command)
    if args.server == "sim":
        return [sys.executable, str(ROOT / "tests" / "servers" / "sim_stdio_server.py"),
                "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05+sticky-era"]
    requirements, script = CHOICES[args.server]
    env = ensure_python_env(requirements, base_python=sys.executable)
    return [str(env.python), str(SERVERS / script)]


def children_cpu() -> float:
    """CPU seconds of this process's finished children (the servers, once reaped)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_start(cmd: list[str]) -> tuple[float, float, float]:
    """(seconds to the first answer, seconds until the process is gone, its CPU seconds)."""
    cpu = children_cpu()
    started = time.monotonic()
    link = StdioLink(cmd)
    session = SimClient(parse_peer("legacy:2025-11-25", "client"),
                        request_timeout_ms=60_000).negotiate(link)
    answered = time.monotonic() - started
    link.close()
    if session.status != "ok":
        raise SystemExit(f"the server did not start properly: {session.reason}")
    return answered, time.monotonic() - started, children_cpu() - cpu


def run_probe(cmd: list[str], jobs: int, *, thorough: bool = True) -> tuple[float, float, Any]:
    """(wall seconds, server CPU seconds, the report)."""
    cpu = children_cpu()
    started = time.monotonic()
    report = probe(Target(command=tuple(cmd)), ProbeOptions(jobs=jobs, thorough=thorough))
    return time.monotonic() - started, children_cpu() - cpu, report


def verdicts(report: Any) -> list[tuple[str, str, str | None]]:
    return [(r.name, r.record.status, r.record.revision) for r in report.runs if not r.prober]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=[*CHOICES, "sim"], default="mcp")
    parser.add_argument("--starts", type=int, default=3, help="cold starts to time")
    parser.add_argument("--jobs", default="4", help="clients at once (a comma list compares)")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="a server command, after --")
    args = parser.parse_args()
    try:
        cmd = command(args)
    except EnvironmentUnavailable as exc:
        print(f"cannot build the server environment: {exc}", file=sys.stderr)
        return 2
    print(f"mcp-skew {__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"server: {' '.join(cmd)}")
    cold_start(cmd)  # warm the file cache: every later start is "cold" only in the process sense
    starts = [cold_start(cmd) for _ in range(args.starts)]
    first = statistics.median(s[0] for s in starts)
    whole = statistics.median(s[1] for s in starts)
    cpu = statistics.median(s[2] for s in starts)
    cpus = os.cpu_count() or 1
    print(f"cold start ({args.starts}x, median): first answer {first * 1000:.0f} ms, "
          f"started to gone {whole * 1000:.0f} ms, {cpu * 1000:.0f} ms of CPU")
    processes = len(builtin_clients()) + 2
    results: dict[str, Any] = {"server": cmd, "cold_first_answer_ms": round(first * 1000),
                               "cold_total_ms": round(whole * 1000),
                               "cold_cpu_ms": round(cpu * 1000), "processes": processes,
                               "cpus": cpus, "probes": {}}
    for jobs in (int(j) for j in args.jobs.split(",")):
        seconds, server_cpu, report = run_probe(cmd, jobs)
        # the floor: every process's own work, spread over the CPUs the jobs can use,
        # or the longest single run (the prober: two processes, one after the other)
        floor = max(server_cpu / min(jobs, cpus), 2 * whole)
        ok = sum(r.record.status == "ok" for r in report.runs if not r.prober)
        print(f"probe, {jobs} at a time: {seconds:.2f} s for {len(report.runs)} clients "
              f"({processes} server processes, {server_cpu:.1f} s of their CPU) = "
              f"{seconds / whole:.1f} cold starts; floor {floor:.2f} s "
              f"({seconds / floor:.2f}x) [{ok}/{len(report.runs) - 1} clients ok]")
        results["probes"][str(jobs)] = {"seconds": round(seconds, 2),
                                        "cold_starts": round(seconds / whole, 2),
                                        "server_cpu_s": round(server_cpu, 2),
                                        "floor_s": round(floor, 2), "startup": report.startup}
        fast_s, _, fast = run_probe(cmd, jobs, thorough=False)
        same = verdicts(fast) == verdicts(report)
        print(f"probe, {jobs} at a time, default (fast): {fast_s:.2f} s, {fast.starts} server "
              f"starts (thorough: {seconds:.2f} s, {report.starts} starts); per-client verdicts "
              f"{'the same' if same else 'DIFFER'}; "
              f"peer {fast.peer.spec.notation if fast.peer.spec else '-'}")
        results["probes"][str(jobs)].update(thorough_starts=report.starts, fast_seconds=round(
            fast_s, 2), fast_starts=fast.starts, same_verdicts=same)
    print(f"server: {report.peer.sentence}")
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

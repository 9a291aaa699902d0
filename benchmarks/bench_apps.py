"""Benchmark `mcp-skew matrix --set apps` (a script, not a test).

The apps matrix (docs/apps.md) must run on any machine from the stored models, with no
network, in under 1 s of CPU (issue 39). This prints:

- the CPU time (user + system, of the child: ``os.wait4``'s rusage) of whole
  ``mcp-skew matrix --set apps`` processes, text and markdown, best and median of
  ``--repeat`` runs, next to the 1 s target;
- the CPU time of the same work in this process (``build_matrix`` of the apps' rows and
  columns, then rendering), best of the rounds, without the interpreter's start-up.

CPU time, not wall time: a busy machine delays the run but does not bill it here. Run it
with ``.venv/bin/python benchmarks/bench_apps.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's mcp_skew, not an installed one

from mcp_skew.matrix import build_matrix, render  # noqa: E402
from mcp_skew.peers import app_peers  # noqa: E402
from mcp_skew.versions import REGISTRY  # noqa: E402

TARGET_S = 1.0


def _child_cpu(argv: list[str]) -> float:
    """User + system CPU seconds of one child process running ``argv``."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    clients, servers = app_peers("client", REGISTRY), app_peers("server", REGISTRY)
    print(f"matrix --set apps: {len(clients)} apps x {len(servers)} servers = "
          f"{len(clients) * len(servers)} cells")
    for fmt in ("text", "markdown"):
        argv = [sys.executable, "-m", "mcp_skew", "matrix", "--set", "apps", "--format", fmt]
        runs = [_child_cpu(argv) for _ in range(args.repeat)]
        verdict = "ok" if min(runs) < TARGET_S else "OVER"
        print(f"  process, --format {fmt:<8}  CPU best {min(runs):.3f} s, median "
              f"{statistics.median(runs):.3f} s (target < {TARGET_S:g} s: {verdict})")
    rounds = []
    for _ in range(args.repeat):
        started = time.process_time()
        render(build_matrix(app_peers("client", REGISTRY), app_peers("server", REGISTRY)), "text")
        rounds.append(time.process_time() - started)
    print(f"  in process (build + render)  CPU best {min(rounds):.3f} s, median "
          f"{statistics.median(rounds):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

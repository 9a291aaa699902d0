"""Benchmark the compatibility matrix (a script, not a test).

Times the default matrix (the built-in peers against themselves) and a large
sweep: a peer for every non-empty subset of revisions in every valid kind, and
a few quirks on top, thousands of pairs. Prints:

- cells per second, and the time of the default matrix's own work (running the
  pairs, then rendering the terminal view);
- linearity: the time per cell at three sizes of the sweep;
- peak memory while building the sweep (``tracemalloc``);
- the ratio to a floor measured in the same run: ``json.dumps`` then
  ``json.loads`` of the very transcripts the matrix produced. The simulator
  encodes and decodes every message it sends, as a real wire does, so this is
  the least any honest simulation of these transcripts costs.

Run it with ``.venv/bin/python benchmarks/bench_matrix.py`` (``--quick`` for a
smaller sweep, ``--repeat N`` for more timing rounds; the best round counts).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tabulate import tabulate

from mcp_skew import __version__
from mcp_skew.matrix import Matrix, build_matrix, builtin_peers, render, sweep_peers
from mcp_skew.simulator import PeerSpec

T = TypeVar("T")

#: CPU time of this process: a busy machine delays the run but does not bill it here.
clock = time.process_time

CLIENT_QUIRKS = ("discover", "restart")
SERVER_QUIRKS = ("unknown-32602", "silent", "silent-exit", "lenient")


def best_of(repeat: int, work: Callable[[], T]) -> tuple[float, float, T]:
    """(best, median) seconds over ``repeat`` rounds, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = clock()
        result = work()
        times.append(clock() - start)
    assert result is not None
    return min(times), statistics.median(times), result


def floor(matrix: Matrix) -> Callable[[], int]:
    """The floor: encode and decode every transcript of ``matrix`` with the json module.

    The messages only (the records that crossed the simulated wire), as before the
    transcript held its events too (matrix format version 3).
    """
    transcripts = [[r for r in cell["transcript"] if r["dir"] != "event"]
                   for _, _, cell in matrix.pairs()]

    def work() -> int:
        return sum(len(json.loads(json.dumps(t))) for t in transcripts)

    return work


def peak_memory(clients: Sequence[PeerSpec], servers: Sequence[PeerSpec]) -> int:
    tracemalloc.start()
    try:
        build_matrix(clients, servers)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def default_matrix(repeat: int) -> list[list[Any]]:
    clients, servers = builtin_peers("client"), builtin_peers("server")
    build, build_median, matrix = best_of(repeat, lambda: build_matrix(clients, servers))
    text, _, _ = best_of(repeat, lambda: render(matrix, "text"))
    html, _, _ = best_of(repeat, lambda: render(matrix, "html"))
    dumped, _, _ = best_of(repeat, lambda: render(matrix, "json"))
    base, _, _ = best_of(repeat, floor(matrix))
    cells = len(clients) * len(servers)
    return [
        ["default matrix: pairs", cells],
        ["run the pairs (best / median)", f"{build * 1e3:.1f} ms / {build_median * 1e3:.1f} ms"],
        ["render text / html / json", f"{text * 1e3:.1f} / {html * 1e3:.1f} / "
                                      f"{dumped * 1e3:.1f} ms"],
        ["own work (run + text)", f"{(build + text) * 1e3:.1f} ms"],
        ["cells per second", f"{cells / build:,.0f}"],
        ["floor: json dumps+loads of the transcripts", f"{base * 1e3:.1f} ms"],
        ["ratio to the floor", f"{build / base:.1f}"],
    ]


def sweep(repeat: int, quick: bool) -> list[list[Any]]:
    clients = sweep_peers("client", CLIENT_QUIRKS)
    servers = sweep_peers("server", SERVER_QUIRKS[:2] if quick else SERVER_QUIRKS)
    parts = [clients[::share] for share in (4, 2, 1)]  # the same mix of kinds at each size
    best = [float("inf")] * len(parts)
    matrix = None
    for _ in range(repeat):  # sizes interleaved, so a busy moment hits them alike
        for k, part in enumerate(parts):
            matrix = None
            start = clock()
            matrix = build_matrix(part, servers)
            best[k] = min(best[k], clock() - start)
    assert matrix is not None
    rows: list[list[Any]] = []
    per_cell = []
    for part, seconds in zip(parts, best, strict=True):
        cells = len(part) * len(servers)
        per_cell.append(seconds / cells)
        rows.append([f"sweep {len(part)} × {len(servers)} = {cells:,} pairs",
                     f"{seconds:.2f} s, {cells / seconds:,.0f} cells/s, "
                     f"{seconds / cells * 1e6:.0f} µs/cell"])
    base, _, _ = best_of(repeat, floor(matrix))
    spread = max(per_cell) / min(per_cell)
    cells = len(clients) * len(servers)
    matrix = None
    peak = peak_memory(clients, servers)
    rows += [
        ["linearity: max/min time per cell", f"{spread:.2f} (1.00 is perfectly linear)"],
        ["floor: json dumps+loads of the transcripts", f"{base:.2f} s"],
        ["ratio to the floor", f"{best[-1] / base:.1f}"],
        ["peak memory (tracemalloc, whole sweep)",
         f"{peak / 2**20:.1f} MiB, {peak / cells / 1024:.1f} KiB per cell"],
    ]
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5,
                        help="timing rounds of the default matrix (the best counts)")
    parser.add_argument("--sweep-repeat", type=int, default=3, help="timing rounds of the sweep")
    parser.add_argument("--quick", action="store_true", help="a smaller sweep")
    args = parser.parse_args(argv)
    cpus = os.cpu_count()
    print(f"mcp-skew {__version__}, Python {platform.python_version()}, {cpus} CPUs, "
          f"{platform.machine()} {platform.system()}; CPU time (process_time), best of "
          f"{args.repeat} (default matrix) and {args.sweep_repeat} (sweep) rounds")
    rows = default_matrix(args.repeat) + sweep(args.sweep_repeat, args.quick)
    print(tabulate(rows, ["measure", "value"], tablefmt="github", disable_numparse=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark the compatibility matrix (a script, not a test).

Times the default matrix (the built-in peers against themselves) and a large
sweep: a peer for every non-empty subset of revisions in every valid kind, and
a few quirks on top, thousands of pairs. Prints each figure next to its target
(the README's "Performance"):

- cells per second of the sweep, built as ``mcp-skew matrix`` builds it for the
  text formats (no transcripts kept) and for json/html/junit (transcripts kept);
  the time of the default matrix's own work (running the pairs, then rendering);
- linearity: the time per cell at three sizes of the sweep;
- the ratio to a floor measured in the same run: ``json.dumps`` then
  ``json.loads`` of the messages of the very transcripts the matrix produced.
  The simulator encodes and decodes every message it sends, as a real wire
  does, so this is the least any honest simulation of these transcripts costs;
- memory: ``tracemalloc``'s peak while building the sweep (per cell, with and
  without transcripts), and the peak resident memory (``VmHWM``, the high-water
  mark of the resident set) of a whole ``mcp-skew matrix`` process (text format)
  over a sweep of at least 100,000 cells, run as a subprocess (``--million``: also over
  1,000,000 cells, against the issue's 400 MB);
- ``mcp-skew --help``: the wall time of the whole process, and whether it (or
  ``mcp-skew versions``) imports pydantic or the unknown-field table
  (``mcp_skew.versions._schema_fields``), read from ``python -X importtime``.

Times are CPU time of this process (``process_time``: a busy machine delays the
run but does not bill it here), best of several rounds; the ``--help`` time is
wall time, best of ``--help-repeat`` runs. Run it with
``.venv/bin/python benchmarks/bench_matrix.py`` (``--quick`` for a smaller
timing sweep, ``--repeat N`` for more timing rounds; ``--memory-cells N`` for
another size of the memory sweep, 0 to skip it). It also runs against an older
checkout (``PYTHONPATH=OLD``): a ``build_matrix`` without ``keep_transcripts``
keeps them always, and the text rows say so. ``--memory-only`` runs only the
peak-memory subprocesses (``--memory-only --memory-cells 0 --million``: the million
alone).

Memory of ``mcp-skew matrix --format text`` (issue 36: a million cells in at most
400 MB). A cell holds its two labels, its transcript (none for the text formats) and a
reference to what it says (``Said``), which the cells that say the same thing share (a
sweep of 20,332 pairs says 114 things): 64 bytes a cell, where a cell of 23 slots took
216. And the command writes the text a line at a time as it lays it out, where it held
the whole text several times over (the table's lines, joined, the page joined, made
terminal-safe, encoded). VmHWM of the process, the same command line both times:

- 100,334 pairs (the default memory sweep): 62 MB before, 43 MB after (24 MB at start:
  379 then 189 bytes a cell over it; after the build, 48 then 32 MB); the same text,
  byte for byte.
- 1,000,246 pairs (``--million``): 425 MB before (about 750 s on a quiet machine).
  After: 228 MB (0.2 kB a cell over 14 MB at start), measured on 2026-12-05 with
  ``.venv/bin/python benchmarks/bench_matrix.py --memory-only --memory-cells 0 --million``
  (niced, beside a ``.ci/run``: 1,739 s wall). The projection from the 100,334-pair run,
  start plus its bytes a cell times a million, had said about 215 MB.

The sweep against its floor (issue 36: at most 2x). Each message the simulator sends is
encoded and decoded once (``messages._json.cross``), which alone costs about the floor;
the quick sweep (4,277 pairs, 52,618 messages) repeats only 63 distinct message texts. On
2026-12-05, side by side (A B A B, load 10-17), ``--quick --memory-cells 0``: the text sweep
0.98 / 1.00 s before, 0.90 / 0.86 s after (ratio 3.2-3.3 before, 2.9-3.2 after); Python calls
per message 86.3 before, 72.4 after (cProfile); instructions (cachegrind, every 4th client,
1,092 pairs) 1.66e9 before, 1.43e9 after, against 0.71e9 for the floor (2.34x, 2.01x: the
interpreter's layers cost more time per instruction than the json module). The request a
client sends as made carries its JSON text, made once (``_wire.sealed_request``); what the
other side reads is a fresh decode. The rest is the layers each message crosses (client
step, machine, link, server, reply, judgement), none above a tenth of the time.

A second round (the same day, against the first's head, A B A B, load 1.0-1.5):
what the server does with a method under a profile worked out once per server policy,
profile and method (``_server._plans``: the capability declared, the handler, the result's
shape), a step's plan looked up once per step, a modern request's revision read from a
table, a cell's ``Said`` shared by a key of identities and made only for the first cell
that says it. ``--quick --memory-cells 0``: the text sweep 0.75 / 0.71 s before, 0.65 /
0.65 s after (ratio 3.0 / 2.9 before, 2.6 / 2.6 after); Python calls per message 72.4
before, 65.6 after; instructions (as above) 1.43e9 before, 1.34e9 after, against 0.70e9
for the floor (2.04x, 1.90x). Still over 2x by time: the rest is spread over the layers
(``_play``, the link's send and delivery, ``_serve``, ``Transcript.add``, ``Cell.of``), each
about 5% of a profile or less beside ``cross`` (10%).

A third round (the same day, against the second's head, A B A B, load 3.8-4.8): a step
sends its request from ``_play`` itself and hands the answer to ``_asking.follow_up`` only
where a retry or a re-probe may follow (a client with a cache, an error in the modern era,
an ``input_required`` result), where every step went through a generator of its own; a
server keeps the method plans of the profile it last served; ``sealed_request`` builds its
message into the ``Sealed`` itself; ``check_result`` compares the result's keys with the
required fields as sets before it lists what is missing; the client's request id inline.
``--quick --memory-cells 0``: the text sweep 0.76 / 0.73 s before, 0.70 / 0.75 s after
(ratio 2.9 / 2.6 before, 2.6 / 2.9 after: within the noise of a shared machine); Python
calls per message 65.6 before, 62.1 after; instructions (as above, the sweep's over the
setup's) 1.34e9 before, 1.29e9 after, against 0.70e9 / 0.71e9 for the floor (1.92x,
1.83x). Still over 2x by time, and no layer stands out: ``cross`` is 11% of a profile,
``_play`` 5%, the link's send and delivery 4% and 3%, ``_serve`` 4%, ``Transcript.add`` 3.5%
(a record of eight slots per message, made even where the cell keeps no transcript),
``Cell.of`` 2%.

A fourth round (the next stop, five branches merged one after the other, each against the
tree before it; the figures of the whole round, side by side with the third round's head,
A B A B, load 0.5-0.9): the text sweep's runs make no record of a message
(``run(keep_transcript=False)``: the link's transcript is a ``Tally``, which counts the
messages and keeps the events a verdict reads); a server's answer that depends on no more
than one key of its params (echo's text, a tool's name, a resource's uri) is worked out once
per server spec and profile (``_wire.Prepared``), and each later one is a fresh message
with its text, or over a MemoryLink, where nothing reads the server's copy, the text alone
(the client still reads a fresh decode); the legacy ``initialize`` and each step's request
carry their texts (``_wire.Sealer``, one per step plan); a step is judged by a plan made
once per step and profile (``StepPlan``); a negotiation's requests are plain calls, not a
generator each; ``Cell.of`` looks through the steps once; ``race_of`` is asked only for a
server with a cold start. ``--memory-cells 0``: the text sweep 1.06 / 1.14 / 1.14 s before,
0.70 / 0.74 / 0.69 s after (98 to 104 µs/cell); the floor 0.40 to 0.43 s in both; the ratio
(text) **2.5 / 2.8 / 2.8 before, 1.6 / 1.7 / 1.6 after** (transcripts kept: 3.1-3.3 before,
2.2-2.3 after); the default matrix's own work 32.0-35.5 ms before, 25.6-27.1 ms after.
Python calls per message (cProfile, the sweep): 62.5 before, 40.8 after. VmHWM
(``--memory-only``, ``--million``): 100,334 pairs 40 MB before, 51 MB after (the caches of
prepared answers and request texts, at most 4,096 entries each); 1,000,246 pairs 238 MB
after, in 198 s wall. ``cross`` now
mostly decodes (a message whose text is known is not encoded again): about a quarter of
the sweep, where it was a third.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tabulate import tabulate

from mcp_skew import __version__
from mcp_skew.matrix import Matrix, build_matrix, render
from mcp_skew.peers import builtin_peers
from mcp_skew.peers._sets import sweep_peers
from mcp_skew.simulator import PeerSpec

T = TypeVar("T")

#: CPU time of this process: a busy machine delays the run but does not bill it here.
clock = time.process_time

CLIENT_QUIRKS = ("discover", "restart")
SERVER_QUIRKS = ("unknown-32602", "silent", "silent-exit", "lenient")
#: More quirks, for the memory sweep (every client and server quirk that changes a run).
MEMORY_CLIENT_QUIRKS = ("discover", "restart", "strict", "exact", "fallback-32601",
                        "fallback-denylist", *(f"probe-timeout={ms}" for ms in (500, 1000, 5000,
                                                                                  20000)))
MEMORY_SERVER_QUIRKS = ("unknown-32602", "silent", "silent-exit", "lenient", "strict-lifecycle",
                        "early-32602", "reject", "echo", "sticky-era", "no-result-type",
                        "no-cache-hints", "legacy-32022", "slow=1000", "slow=5000",
                        "not-found-code=0", "fixed=2025-03-26")

#: The targets (the README's "Performance").
CELLS_PER_S = 12_000
FLOOR_RATIO = 2.0
MEMORY_MB = 500
#: ``--million``: the peak of ``mcp-skew matrix`` (text) over a million pairs.
MILLION = 1_000_000
MILLION_MB = 400
HELP_S = 0.3

#: Whether this mcp-skew's build_matrix can leave the transcripts out (older ones cannot).
CAN_DROP = "keep_transcripts" in inspect.signature(build_matrix).parameters


def build(clients: Sequence[PeerSpec], servers: Sequence[PeerSpec], keep: bool) -> Matrix:
    """The matrix as ``mcp-skew matrix`` builds it: transcripts only for the formats that show them."""
    if CAN_DROP:
        return build_matrix(clients, servers, keep_transcripts=keep)
    return build_matrix(clients, servers)


def text_mode() -> str:
    return "text formats, no transcripts" if CAN_DROP else "text formats (transcripts kept: " \
                                                         "this build_matrix always keeps them)"


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

    The collector is paused while it runs, as it is while a matrix is built
    (``mcp_skew._memo.collector_paused``; by hand here, for older mcp-skews too): else its
    passes over the live matrix, the longer the more it holds, count in the floor and not
    in the sweep (the floor rose from 1.27 to 1.82 s for the same work).
    """
    transcripts = [[r for r in cell.transcript or () if r["dir"] != "event"]
                   for _, _, cell in matrix.pairs()]

    def work() -> int:
        was = gc.isenabled()
        gc.disable()
        try:
            return sum(len(json.loads(json.dumps(t))) for t in transcripts)
        finally:
            if was:
                gc.enable()

    return work


def traced_peak(clients: Sequence[PeerSpec], servers: Sequence[PeerSpec], keep: bool) -> int:
    tracemalloc.start()
    try:
        build(clients, servers, keep)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


# -- the default matrix -------------------------------------------------------------------
def default_matrix(repeat: int) -> list[list[Any]]:
    clients, servers = builtin_peers("client"), builtin_peers("server")
    run, run_median, _ = best_of(repeat, lambda: build(clients, servers, False))
    kept, _, matrix = best_of(repeat, lambda: build(clients, servers, True))
    text, _, _ = best_of(repeat, lambda: render(matrix, "text"))
    html, _, _ = best_of(repeat, lambda: render(matrix, "html"))
    dumped, _, _ = best_of(repeat, lambda: render(matrix, "json"))
    base, _, _ = best_of(repeat, floor(matrix))
    cells = len(clients) * len(servers)
    return [
        ["default matrix: pairs", cells, ""],
        [f"run the pairs, {text_mode()} (best / median)",
         f"{run * 1e3:.1f} ms / {run_median * 1e3:.1f} ms", ""],
        ["run the pairs, transcripts kept (json, html, junit)", f"{kept * 1e3:.1f} ms", ""],
        ["render text / html / json", f"{text * 1e3:.1f} / {html * 1e3:.1f} / "
                                      f"{dumped * 1e3:.1f} ms", ""],
        ["own work (run + text)", f"{(run + text) * 1e3:.1f} ms", ""],
        ["cells per second (text)", f"{cells / run:,.0f}", ""],
        ["floor: json dumps+loads of the transcripts", f"{base * 1e3:.1f} ms", ""],
        ["ratio to the floor (text / transcripts kept)", f"{run / base:.1f} / {kept / base:.1f}",
         ""],
    ]


# -- the sweep ------------------------------------------------------------------------------
def timed_sizes(parts: list[Sequence[PeerSpec]], servers: Sequence[PeerSpec], repeat: int,
                keep: bool) -> list[float]:
    """Best seconds per size; sizes interleaved, so a busy moment hits them alike."""
    best = [float("inf")] * len(parts)
    for _ in range(repeat):
        for k, part in enumerate(parts):
            start = clock()
            build(part, servers, keep)
            best[k] = min(best[k], clock() - start)
    return best


def sweep(repeat: int, quick: bool) -> list[list[Any]]:
    clients = sweep_peers("client", CLIENT_QUIRKS)
    servers = sweep_peers("server", SERVER_QUIRKS[:2] if quick else SERVER_QUIRKS)
    parts = [clients[::share] for share in (4, 2, 1)]  # the same mix of kinds at each size
    text = timed_sizes(parts, servers, repeat, keep=False)
    kept = timed_sizes(parts[-1:], servers, repeat, keep=True)[0]
    rows: list[list[Any]] = []
    per_cell = []
    for part, seconds in zip(parts, text, strict=True):
        cells = len(part) * len(servers)
        per_cell.append(seconds / cells)
        rows.append([f"sweep {len(part)} × {len(servers)} = {cells:,} pairs (text)",
                     f"{seconds:.2f} s, {cells / seconds:,.0f} cells/s, "
                     f"{seconds / cells * 1e6:.0f} µs/cell", ""])
    cells = len(clients) * len(servers)
    base, _, _ = best_of(repeat, floor(build(clients, servers, True)))
    rows += [
        [f"sweep cells per second, {text_mode()}", f"{cells / text[-1]:,.0f}",
         f"≥ {CELLS_PER_S:,}: {verdict(cells / text[-1] >= CELLS_PER_S)}"],
        ["sweep cells per second, transcripts kept (json, html, junit)",
         f"{cells / kept:,.0f}", f"(≥ {CELLS_PER_S:,}: {verdict(cells / kept >= CELLS_PER_S)})"],
        ["linearity: max/min time per cell (text)",
         f"{max(per_cell) / min(per_cell):.2f} (1.00 is perfectly linear)", ""],
        ["floor: json dumps+loads of the transcripts' messages", f"{base:.2f} s", ""],
        ["ratio to the floor (text)", f"{text[-1] / base:.1f}",
         f"≤ {FLOOR_RATIO}: {verdict(text[-1] / base <= FLOOR_RATIO)}"],
        ["ratio to the floor (transcripts kept)", f"{kept / base:.1f}",
         f"(≤ {FLOOR_RATIO}: {verdict(kept / base <= FLOOR_RATIO)})"],
    ]
    for keep, what in ((False, "text"), (True, "transcripts kept")):
        peak = traced_peak(clients, servers, keep)
        rows.append([f"peak memory (tracemalloc, whole sweep, {what})",
                     f"{peak / 2**20:.1f} MiB, {peak / cells / 1024:.1f} KiB per cell", ""])
    return rows


# -- memory of a 100,000-cell matrix --------------------------------------------------------
def memory_sweep(cells: int) -> tuple[list[str], list[str]]:
    """Client and server specs of a sweep of at least ``cells`` pairs.

    Every client and server quirk that changes a run, on top of every subset of
    revisions in every kind (``sweep_peers``); that is fewer than 100,000 distinct
    pairs, so the client rows start again from the first one up to ``cells``.
    """
    clients = [p.notation for p in sweep_peers("client", MEMORY_CLIENT_QUIRKS)]
    servers = [p.notation for p in sweep_peers("server", MEMORY_SERVER_QUIRKS)]
    rows = math.ceil(cells / len(servers))
    return [clients[i % len(clients)] for i in range(rows)], servers


#: ``mcp-skew ARGS`` as ``python -m mcp_skew`` runs it, then, on stderr, the resident memory
#: (KiB) when the command starts and the process's peak. The peak is ``VmHWM`` from
#: /proc/self/status: ``ru_maxrss`` would also count the benchmark's own memory, which a
#: child inherits across fork and exec on Linux. Elsewhere, ``ru_maxrss`` (an upper bound).
MEASURED_MAIN = """\
import resource, sys
from mcp_skew.cli import main

def status(key):
    try:
        with open("/proc/self/status") as lines:
            return next(int(l.split()[1]) for l in lines if l.startswith(key + ":"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

start = status("VmRSS")
code = main(sys.argv[1:])
print(start, status("VmHWM"), file=sys.stderr)
sys.exit(code)
"""


def peak_rss(cells: int, target_mb: int = MEMORY_MB) -> list[list[Any]]:
    """``mcp-skew matrix`` (text) over ``cells`` pairs in a subprocess; its peak RSS."""
    clients, servers = memory_sweep(cells)
    argv = [sys.executable, "-c", MEASURED_MAIN, "matrix", "--clients", *clients,
            "--servers", *servers]
    start = time.perf_counter()
    done = subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    seconds = time.perf_counter() - start
    idle, peak = (int(kib) * 1024 / 1e6 for kib in done.stderr.split()[-2:])
    pairs = len(clients) * len(servers)
    return [[f"peak memory of `mcp-skew matrix` (text), {len(clients)} × {len(servers)} = "
             f"{pairs:,} pairs ({len(set(clients))} distinct clients; VmHWM of the process)",
             f"{peak:,.0f} MB ({(peak - idle) * 1e3 / pairs:.1f} kB per cell over {idle:.0f} MB "
             f"at start); {seconds:.0f} s wall",
             f"≤ {target_mb} MB: {verdict(peak <= target_mb)}"]]


# -- the command line's start --------------------------------------------------------------
def heavy_imports(args: Sequence[str]) -> list[str]:
    """The pydantic and wire-model modules ``mcp-skew ARGS`` imports (``-X importtime``)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcp_skew", *args],
                          capture_output=True, text=True, check=True)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:")]
    return [n for n in names if n.split(".")[0] in ("pydantic", "pydantic_core")
            or n == "mcp_skew.versions._schema_fields"]


def start_up(repeat: int) -> list[list[Any]]:
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mcp_skew", "--help"], check=True,
                       stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
    rows = [["`mcp-skew --help`: wall time of the process (best / median)",
             f"{min(walls):.3f} s / {statistics.median(walls):.3f} s",
             f"≤ {HELP_S} s: {verdict(min(walls) <= HELP_S)}"]]
    for args in (["--help"], ["versions"]):
        heavy = heavy_imports(args)
        said = "none" if not heavy else f"{len(heavy)} modules, e.g. " + ", ".join(heavy[:3])
        rows.append([f"`mcp-skew {' '.join(args)}` imports pydantic or the schema field table", said,
                     f"none: {verdict(not heavy)}"])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5,
                        help="timing rounds of the default matrix (the best counts)")
    parser.add_argument("--sweep-repeat", type=int, default=3, help="timing rounds of the sweep")
    parser.add_argument("--quick", action="store_true", help="a smaller timing sweep")
    parser.add_argument("--memory-cells", type=int, default=100_000,
                        help="pairs of the memory sweep (default 100,000; 0 skips it)")
    parser.add_argument("--million", action="store_true",
                        help=f"also the peak memory over {MILLION:,} pairs (minutes of CPU)")
    parser.add_argument("--help-repeat", type=int, default=5, help="runs of `mcp-skew --help`")
    parser.add_argument("--memory-only", action="store_true",
                        help="only the peak memory runs (--memory-cells, --million), no timings")
    args = parser.parse_args(argv)
    print(f"mcp-skew {__version__} ({Path(inspect.getfile(build_matrix)).parents[2]}), "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()} "
          f"{platform.system()}; CPU time (process_time), best of {args.repeat} (default "
          f"matrix) and {args.sweep_repeat} (sweep) rounds")
    rows: list[list[Any]] = [] if args.memory_only else default_matrix(args.repeat) + sweep(
        args.sweep_repeat, args.quick)
    if args.memory_cells > 0:
        rows += peak_rss(args.memory_cells)
    if args.million:
        rows += peak_rss(MILLION, MILLION_MB)
    if not args.memory_only:
        rows += start_up(args.help_repeat)
    print(tabulate(rows, ["measure", "value", "target"], tablefmt="github",
                   disable_numparse=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

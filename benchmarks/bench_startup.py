"""How long ``mcp-skew`` takes to start, beside a bare Python start, measured in one run.

A script, not a test (no test depends on the machine's speed). Each round runs, one
after the other, ``python -c pass``, ``mcp-skew --help`` and ``mcp-skew matrix`` (the
default run, its output thrown away), each a fresh process; the rounds alternate so that
a change in the machine's load falls on every command alike (a first run of each, not
timed, writes the byte-compiled files, whatever ``PYTHONDONTWRITEBYTECODE`` says). It
prints each command's median wall time, its ratio to the bare start (the goals of issue
34: ``--help`` within 4x, the default ``matrix`` within 10x), the least CPU time (user and
system) of its rounds with its ratio (steadier than the wall time on a loaded machine, where
a run waits for a CPU), and the number of modules
each has imported when it exits (``sys.modules`` in the child, as the ``-X importtime``
listing leaves out what ``importlib.import_module`` loads; and how many of them are
mcp-skew's; the counting harness adds a few modules of its own to every row).

``--before DIR`` runs the two mcp-skew commands of another checkout too, in the same
rounds (its ``.venv/bin/python`` in ``DIR``, whose ``mcp_skew`` it imports): a before and
after under one load.

Figures (2 CPUs shared, Python 3.11). Before the faces read the bridges, the peer catalogue,
the client's caches and the profiles' plain data, diffs and drafts on first use, on a quiet
machine: ``python -c pass`` 29.5 ms, ``--help`` 66.9 ms (2.3x), ``matrix`` 379 ms (12.8x), 210
modules of which 96 mcp-skew's. After, against that checkout with ``--before`` in one run
under a load of about 20: ``--help`` 2.6x (before 3.0x), ``matrix`` 15.2x (before 15.8x), 195
modules of which 81 mcp-skew's (the load stretches the longer runs most); the processes' CPU
time in the same rounds, ``matrix`` 417 ms against 467 ms (minima), -11%. Still above the 10x
goal: about half of what is left is the run itself (156 pairs simulated and rendered), and
most of the imports' time is the methods ``dataclasses`` writes for the classes the run uses.

After pathlib (with urllib.parse and ipaddress), base64, the raw-line decoder load on first
use and the command's modules load with the collector paused, against that checkout with
``--before`` in one run under a load of 16 to 17: ``--help`` 3.1x (before 3.1x), ``matrix``
15.7x wall (before 16.2x), CPU 331.9 ms against 351.0 ms (least of 15), 16.6x against 17.6x;
186 modules of which 81 mcp-skew's (before 196 and 82). The instructions the default matrix
runs (valgrind cachegrind, a count the load does not change): 706 million against 737
million (-4%), ``python -c pass`` 39 million. What is left of the matrix's CPU time, measured
in the process: about a quarter the methods ``dataclasses`` writes for the 55 classes the
run loads (the two policies of 40 fields each the most), a third the run itself, the rest
the other imports and the interpreter.

After the interpreter's last collections are spared (``cli.run`` freezes the collector's
objects before the process exits: they walked everything alive to free what the exit frees),
the JSON limits and the argument parsers load only for the options that read them, and no
``__eq__``/``__hash__`` nor docstring is made for classes that need none, against that
checkout with ``--before`` in one run (9 rounds, load 7.6): ``matrix`` 176 ms wall, 9.3x
(before 202 ms, 10.7x), CPU 110.9 ms against 127.8 ms (least of 9), 10.4x against 12.0x;
``--help`` 2.5x (before 2.4x); 182 modules of which 78 mcp-skew's (before 186 and 81). At load
13: 10.0x wall against 12.4x, CPU 10.8x against 11.7x. Instructions of the default matrix
(cachegrind): 668 million against 708 million (-6%). What is left, measured in the process:
about two thirds the imports, of which about half is the methods ``dataclasses`` writes (some
300 ``compile`` calls: about a seventh of all instructions of the run: the parser and compiler of
CPython), a fifth the run of the 156 pairs (about 23 ms).

After the probe's steps of advice (``Advice``, ``AdviceItem``) move to ``probe._advice`` and
20 classes the default matrix loads that nothing compares by value get ``eq=False`` (no
``__eq__``/``__hash__`` to compile: 253 compiled methods instead of 299), the instructions of the default
matrix (cachegrind): 643 million against 667 million (-3.5%). Against that checkout with
``--before`` (9 rounds): at load 17, CPU 119.2 ms against 119.9 ms (10.3x against 10.4x); at
load 15.5, 113.4 ms against 119.8 ms (10.1x against 10.7x); the wall times at such loads are
noise (8.4x against 7.8x, then 20.9x against 15.8x). Not yet the 9x by CPU the issue's
margin asks: the rest of the compiled methods are those of classes a test or the matrix's
sharing compares (cells, events, step results, policies) and the frozen classes'
``__setattr__``/``__delattr__``.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--rounds 15] [--before OTHER_CHECKOUT]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

#: mcp-skew runs as ``python -m mcp_skew`` (the console script's ``main``, plus runpy).
HELP = ["-m", "mcp_skew", "--help"]
MATRIX = ["-m", "mcp_skew", "matrix"]
GOALS = {"--help": 4.0, "matrix": 10.0}

#: Run in a child before the words: at exit it writes how many modules were imported.
_COUNT = (
    "import atexit, os, sys\n"
    "def count():\n"
    "    ours = [m for m in sys.modules if m == 'mcp_skew' or m.startswith('mcp_skew.')]\n"
    "    os.write(2, f'\\nMODULES {len(sys.modules)} {len(ours)}\\n'.encode())\n"
    "atexit.register(count)\n"
    "sys.argv = ['', *sys.argv[1:]]\n"
    "if sys.argv[1:2] == ['-m']:\n"
    "    import runpy\n"
    "    sys.argv = [sys.argv[2], *sys.argv[3:]]\n"
    "    runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
    "else:\n"
    "    exec(sys.argv[2])\n"
)


@dataclass(frozen=True)
class Command:
    """One row: ``python WORDS`` run in ``cwd`` (the checkout whose mcp_skew it imports)."""

    name: str
    python: str
    words: list[str]
    cwd: str
    goal: str = ""

    def _run(self, prefix: list[str], stderr: int) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "COLUMNS": "100"}
        env.pop("PYTHONPROFILEIMPORTTIME", None)
        # byte-compiled files written by the first run and read by the others: a checkout
        # that has none would compile every module in every run (PYTHONDONTWRITEBYTECODE=1)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return subprocess.run([self.python, *prefix, *self.words], stdout=subprocess.DEVNULL,
                              stderr=stderr, text=True, check=True, env=env, cwd=self.cwd)

    def timed(self) -> tuple[float, float]:
        """One run's (wall time, CPU time: user and system) in seconds (it must succeed)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        self._run([], subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def modules(self) -> tuple[int, int]:
        """(modules in ``sys.modules`` at exit, of them mcp-skew's) of one run."""
        counts = self._run(["-c", _COUNT], subprocess.PIPE).stderr.rsplit("MODULES ", 1)[1]
        total, ours = counts.split()
        return int(total), int(ours)


def commands(before: Path | None) -> list[Command]:
    here = str(Path(__file__).resolve().parents[1])
    rows = [Command("python -c pass", sys.executable, ["-c", "pass"], here)]
    if before is not None:
        python = before / ".venv" / "bin" / "python"
        if not python.exists():
            raise SystemExit(f"bench_startup: no {python}: set up the checkout's venv first")
        rows += [Command(f"before: mcp-skew {w[2]}", str(python), w, str(before), f"{GOALS[w[2]]:g}x")
                 for w in (HELP, MATRIX)]
    rows += [Command(f"mcp-skew {w[2]}", sys.executable, w, here, f"{GOALS[w[2]]:g}x")
             for w in (HELP, MATRIX)]
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (default 15)")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="another checkout (with its .venv) to run in the same rounds")
    args = parser.parse_args()
    rows = commands(args.before)
    for row in rows:  # once first: byte-compiled files written, caches warm
        row.timed()
    times: dict[str, list[float]] = {row.name: [] for row in rows}
    cpu: dict[str, list[float]] = {row.name: [] for row in rows}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for row in rows:
            wall, used = row.timed()
            times[row.name].append(wall)
            cpu[row.name].append(used)
    bare = statistics.median(times[rows[0].name])
    bare_cpu = min(cpu[rows[0].name])
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load:.1f} at the "
          f"start, {os.getloadavg()[0]:.1f} at the end, {args.rounds} alternating rounds: median "
          "wall time, least CPU time (user + system)")
    print(f"{'command':<26} {'median':>9} {'ratio':>7} {'goal':>6} {'cpu min':>9} {'ratio':>7} "
          f"{'modules':>8} {'mcp_skew':>9}")
    for row in rows:
        median, least = statistics.median(times[row.name]), min(cpu[row.name])
        total, ours = row.modules()
        print(f"{row.name:<26} {median * 1000:>7.1f}ms {median / bare:>6.1f}x {row.goal:>6} "
              f"{least * 1000:>7.1f}ms {least / bare_cpu:>6.1f}x {total:>8} {ours:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

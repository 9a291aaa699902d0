"""How long ``mcp-skew`` takes to start, beside a bare Python start, measured in one run.

A script, not a test (no test depends on the machine's speed). Each round runs, one
after the other, ``python -c pass``, ``mcp-skew --help`` and ``mcp-skew matrix`` (the
default run, its output thrown away), each a fresh process of this interpreter; the
rounds alternate so that a change in the machine's load falls on every command alike.
It prints each command's median wall time, its ratio to the bare start (the goals of
issue 34: ``--help`` within 4x, the default ``matrix`` within 10x), and the number of
modules each has imported when it exits (``sys.modules`` in the child, as the ``-X
importtime`` listing leaves out what ``importlib.import_module`` loads; and how many of them
are mcp-skew's).

Run: ``.venv/bin/python benchmarks/bench_startup.py [--rounds 15]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

#: name -> the words after the interpreter; mcp-skew runs as ``python -m mcp_skew``
#: (the console script's ``main``, plus runpy, a few hundred microseconds).
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "mcp-skew --help": ["-m", "mcp_skew", "--help"],
    "mcp-skew matrix": ["-m", "mcp_skew", "matrix"],
}
GOALS = {"mcp-skew --help": 4.0, "mcp-skew matrix": 10.0}


def _env() -> dict[str, str]:
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def timed(words: list[str]) -> float:
    """One run's wall time in seconds (it must succeed)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *words], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, env=_env())
    return time.perf_counter() - start


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


def modules(words: list[str]) -> tuple[int, int]:
    """(modules in ``sys.modules`` at exit, of them mcp-skew's) of one run of ``words``."""
    proc = subprocess.run([sys.executable, "-c", _COUNT, *words], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True, env=_env())
    counts = proc.stderr.rsplit("MODULES ", 1)[1].split()
    return int(counts[0]), int(counts[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (default 15)")
    rounds = parser.parse_args().rounds
    for words in COMMANDS.values():  # once first: byte-compiled files written, caches warm
        timed(words)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(rounds):
        for name, words in COMMANDS.items():
            times[name].append(timed(words))
    bare = statistics.median(times["python -c pass"])
    print(f"Python {sys.version.split()[0]} ({sys.executable}), {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}, {rounds} alternating rounds, medians")
    print(f"{'command':<18} {'median':>9} {'ratio':>7} {'goal':>6} {'modules':>8} {'mcp_skew':>9}")
    for name, words in COMMANDS.items():
        median = statistics.median(times[name])
        total, ours = modules(words)
        goal = f"{GOALS[name]:g}x" if name in GOALS else ""
        print(f"{name:<18} {median * 1000:>7.1f}ms {median / bare:>6.1f}x {goal:>6} {total:>8} "
              f"{ours:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

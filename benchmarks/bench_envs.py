"""Benchmark one real-peer environment built with pip and with uv (a script, not a test).

For each installer (``MCP_SKEW_INSTALLER=pip`` / ``uv``) and each round, in a new empty
``MCP_SKEW_CACHE``: **cold** (no download cache: pip's ``PIP_CACHE_DIR`` and uv's
``$MCP_SKEW_CACHE/uv`` both start empty), then **warm download cache** (the venv removed and
built again, the downloads kept: what a CI cache of ``$MCP_SKEW_CACHE`` gives uv, and pip's
own cache gives pip). Prints the wall time and the CPU time of the installer processes
(user + system, theirs and their children's), and the median of each, installer by installer,
rounds alternating so that both meet the same load. The requirement list is one SDK
release with its pins (default ``mcp==1.0.0 pydantic==2.10.*``, the oldest line).

Run it with ``.venv/bin/python benchmarks/bench_envs.py [--rounds 2] [REQUIREMENT ...]``.

Measured 2026-12-04 on the 2 shared cores (load average 11 to 13: other sessions' tests),
PyPI over the network, ``--rounds 2``, ``mcp==1.0.0 pydantic==2.10.*`` (14 distributions),
medians of the 2 rounds:

    cold:                pip 72.4 s wall / 19.6 s CPU, uv 8.3 s wall / 2.6 s CPU
                         (uv 8.7x less wall, 7.5x less CPU)
    warm download cache: pip 72.0 s wall / 19.5 s CPU, uv 6.0 s wall / 2.3 s CPU
                         (uv 12.0x less wall, 8.6x less CPU)

pip's figure is mostly not the download: ``python -m venv`` seeding pip alone took 14.5 s
here, and pip resolves and compiles in one process. uv compiles the modules to bytecode too
(``--compile-bytecode``, as pip does; ``_envs.install_command`` says why): without it the
same uv builds took 3.3 s cold and 2.9 s warm (0.7 and 0.5 s CPU), the cost moved to every
server start that cannot write its ``.pyc``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from mcp_skew.realpeers._envs import ensure_python_env, find_uv


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _build(requirements: list[str], cache: Path) -> tuple[float, float, str]:
    cpu, started = _children_cpu(), time.monotonic()
    env = ensure_python_env(requirements, cache_dir=cache)
    assert not env.cached
    return time.monotonic() - started, _children_cpu() - cpu, env.installer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", nargs="*", default=["mcp==1.0.0", "pydantic==2.10.*"])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if find_uv() is None:
        sys.exit("bench_envs: no uv here (pip install uv)")
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for rnd in range(1, args.rounds + 1):
        for tool in ("pip", "uv"):
            with tempfile.TemporaryDirectory(prefix="bench-envs-") as tmp:
                cache = Path(tmp)
                os.environ["MCP_SKEW_INSTALLER"] = tool
                os.environ["PIP_CACHE_DIR"] = str(cache / "pip")
                for state in ("cold", "warm download cache"):
                    if state != "cold":
                        shutil.rmtree(cache / "envs")
                    wall, cpu, used = _build(args.requirements, cache)
                    assert used == tool, (used, tool)
                    figures.setdefault((tool, state), []).append((wall, cpu))
                    print(f"round {rnd}: {tool}, {state}: {wall:.1f} s wall, {cpu:.1f} s CPU",
                          flush=True)
    print(f"requirements: {' '.join(args.requirements)}; medians of {args.rounds} rounds:")
    for state in ("cold", "warm download cache"):
        pip = [median(x) for x in zip(*figures[("pip", state)], strict=True)]
        uv = [median(x) for x in zip(*figures[("uv", state)], strict=True)]
        print(f"  {state}: pip {pip[0]:.1f} s wall / {pip[1]:.1f} s CPU, uv {uv[0]:.1f} s wall / "
              f"{uv[1]:.1f} s CPU: uv {pip[0] / uv[0]:.1f}x less wall, "
              f"{pip[1] / max(uv[1], 0.01):.1f}x less CPU")


if __name__ == "__main__":
    main()

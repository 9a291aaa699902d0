"""Benchmark the fast test step's static checks, before and after they shared one parse (a
script, not a test).

The static checks read ``mcp_skew``'s source (:data:`STATIC`: the layers and import
circles, the simulator's and the rollout core's I/O, the faces, the module sizes, the
registry's reads, the findings the source emits, the simulator's policies). Each parsed the
~190 modules again until they shared one session's parse (``tests/_sources.py``).

Two trees, each a ``git archive`` of a commit in a temporary folder (``--before``: by default
the parent of the commit that added ``tests/_sources.py``; ``--after``: ``HEAD``), each with
its own ``mcp_skew`` first on the path, are run side by side in one run, alternately (a round
runs both, the order turning each round), with this interpreter and ``CI=true`` as
``.ci/run`` sets it (Hypothesis derandomized: both trees draw the same examples). For each
run: the wall time, the CPU time (user + system of pytest), and the static checks' own time
(pytest's ``--durations``: setup, call and teardown). ``--whole`` runs the whole fast step
(the README's ``python -m pytest -q``) instead of the static checks alone, and so gives their
share of it. The median of ``--rounds`` runs is printed for each tree.

Run it with ``.venv/bin/python benchmarks/bench_static_checks.py`` (``--whole`` for the fast
step, several minutes a run; ``--json`` for a machine-readable line).

Figures on 2026-12-04 (2 CPUs shared with other work, load 1-3, Python 3.11.7; before
a58a881^, after a909232: the first ``--whole`` round at a58a881), the median of 3 rounds,
before -> after:

- the fast step (``--whole``: 3,360 tests before, 3,364 / 3,369 after): wall 219 -> 172 s (-21%),
  CPU 196 -> 157 s (-20%); the static checks' own time 33.3 -> 4.1 s, 16% -> 2% of the
  wall. Rounds: wall 224.6 / 219.4 / 193.4 s before, 170.5 / 176.8 / 172.4 s after.
- the static checks alone (18 tests, 21 with the policy check's parameters, in one pytest
  run, its start-up included): wall 32.3 -> 10.1 s, CPU 30.8 -> 9.7 s; their own time
  27.5 -> 4.0 s, of which about 2 s is the one parse of the package.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: The static checks: the tests that read the package's source (a parametrized test by its
#: name, every parameter). Their self-tests on synthetic packages are not counted.
STATIC = (
    "tests/unit/test_layers.py::test_every_module_is_in_a_layer_of_the_table",
    "tests/unit/test_layers.py::test_each_layer_imports_only_the_layers_below_it",
    "tests/unit/test_layers.py::test_the_simulator_imports_nothing_above_versions",
    "tests/unit/test_layers.py::test_the_simulator_does_no_io",
    "tests/unit/test_layers.py::test_the_rollout_core_does_no_io_and_stands_on_the_simulators_face",
    "tests/unit/test_layers.py::test_what_the_simulator_imports_does_no_io",
    "tests/unit/test_layers.py::test_every_module_that_does_io_by_design_is_reached",
    "tests/unit/test_layers.py::test_every_exception_is_still_used",
    "tests/unit/test_layers.py::test_no_modules_import_one_another_round_a_circle",
    "tests/unit/test_package_faces.py::test_no_new_import_of_another_packages_private_module",
    "tests/unit/test_module_size.py::test_no_module_is_over_the_limit_but_the_excepted_ones",
    "tests/unit/test_module_size.py::test_every_exception_is_still_over_the_limit",
    "tests/unit/test_registry_passed.py::test_no_registry_read_outside_versions_and_the_commands",
    "tests/unit/test_policy.py::test_the_simulator_reads_policies_not_quirk_names",
    "tests/docs/test_findings_doc.py::test_the_scan_reads_what_it_must",
    "tests/docs/test_findings_doc.py::test_the_codes_the_package_emits_are_the_table",
    "tests/docs/test_findings_doc.py::test_each_code_is_emitted_with_the_severities_the_table_gives",
    "tests/docs/test_findings_doc.py::test_each_code_names_the_commands_that_report_it",
)
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+)$", re.MULTILINE)
_SUMMARY = re.compile(r"^=*\s*(.*(?:passed|failed|error).*?) in [\d.]+s", re.MULTILINE)


def _git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True).stdout


def _default_before() -> str:
    added = _git("log", "-1", "--format=%H", "--diff-filter=A", "--", "tests/_sources.py")
    if not added.strip():
        raise SystemExit("bench_static_checks: tests/_sources.py was never added here: "
                         "give --before REF")
    return f"{added.decode().strip()}^"


def _tree(ref: str, into: Path) -> Path:
    """``ref``'s files in ``into``/tree, with ``into``/shared standing for ``../shared``
    (the official schemas some tests read, where present) as beside this checkout."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}").decode().strip()
    tree = into / "tree"
    tree.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(_git("archive", commit)), mode="r:") as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            archive.extractall(tree, filter="data")
        else:  # pragma: no cover - our own archive of a commit
            archive.extractall(tree)
    if (ROOT.parent / "shared").is_dir():
        (into / "shared").symlink_to(ROOT.parent / "shared")
    return tree


def _is_static(nodeid: str) -> bool:
    return any(nodeid == name or nodeid.startswith(name + "[") for name in STATIC)


def _run(tree: Path, whole: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTHONPATH")}
    env |= {"CI": "true", "PYTHONPATH": str(tree)}
    which = [] if whole else list(STATIC)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=0",
           "--durations-min=0", *which]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    static = [(float(s), nodeid) for s, nodeid in _DURATION.findall(done.stdout)
              if _is_static(nodeid)]
    summary = _SUMMARY.findall(done.stdout)
    return {"wall_s": round(wall, 2),
            "cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 2),
            "static_s": round(sum(s for s, _ in static), 2),
            "static_tests": len({nodeid for _, nodeid in static}),
            "ok": done.returncode == 0, "summary": summary[-1] if summary else done.stdout[-300:]}


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the commit before (default: the parent of the one "
                                         "that added tests/_sources.py)")
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--whole", action="store_true",
                        help="run the whole fast step, not the static checks alone")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sides = {"before": args.before or _default_before(), "after": args.after}
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory(prefix="bench-static-") as folder:
        trees = {side: _tree(ref, Path(folder) / side) for side, ref in sides.items()}
        for n in range(args.rounds):
            for side in (("before", "after") if n % 2 == 0 else ("after", "before")):
                runs[side].append(_run(trees[side], args.whole))
                if not args.json:
                    print(f"round {n + 1} {side}: {runs[side][-1]}", flush=True)
    result = {"whole": args.whole, "cpus": os.cpu_count(), "refs": sides, "rounds": args.rounds,
              "load": os.getloadavg()[0], "runs": runs,
              "median": {side: {key: _median(rows, key) for key in ("wall_s", "cpu_s", "static_s")}
                         for side, rows in runs.items()}}
    for side in sides:
        median = result["median"][side]
        median["static_share"] = round(median["static_s"] / median["wall_s"], 3)
    if args.json:
        print(json.dumps(result))
    else:
        for side, median in result["median"].items():
            print(f"{side} ({sides[side]}): wall {median['wall_s']} s, cpu {median['cpu_s']} s, "
                  f"static checks {median['static_s']} s ({median['static_share']:.0%} of wall)")
    return 0 if all(r["ok"] for rows in runs.values() for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

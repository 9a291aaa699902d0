"""How the slow and real-peer steps share their tests between workers (``--dist loadgroup``).

``.ci/run`` runs those steps with ``-n N --dist loadgroup``, and this module's scheduler
(:func:`pytest_xdist_make_scheduler`) shares them out:

- **a unit of work** is a file, as under ``--dist loadfile`` (its tests, and its module
  fixtures and caches, stay on one worker), except for the files in :data:`SPREAD`, whose
  tests share nothing costly (their environments are built ahead, their servers are
  started per test) and so go to whichever worker is free, one test at a time: a long file
  no longer holds one worker while the other idles;
- **the longest units go first** (:data:`SECONDS`, measured with ``--durations``), so
  that no worker is handed a long file at the end (the longest-first rule); a file not
  in the table comes after them, in the order pytest collected it. xdist's own order
  for units (``--loadscope-reorder``, its default: the files with the most tests first) is
  turned off, as it would put a long file of three tests last.

Without ``--dist loadgroup`` (the fast step, a file run by hand) nothing here applies.
The figures are a guide, not a contract: a stale one makes the run slower, never wrong.
Refresh them from the ``--durations`` lines ``.ci/run`` prints for the slow and real-peer
steps, summed by file: ``python tests/_schedule.py SAVED-OUTPUT`` prints them as table lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

__all__ = ["SECONDS", "SPREAD", "main", "order", "pytest_collection_modifyitems",
           "pytest_xdist_make_scheduler", "seconds_by_file", "unit_of"]

TESTS = Path(__file__).resolve().parent

#: files (under tests/) whose tests go to workers one at a time: each test starts what it
#: needs itself, and what the file shares (a built environment, a script written once) is
#: cheap to get again on the other worker. Not the drift checks and the time tests: they
#: compare a real peer's answers within bounds (a raw answer's wait, a client's wait), so
#: two of them at once would race each other's cold starts (a drift check of fastmcp
#: 4.2.3 missed a raw answer so on a spread run, and passed alone): they stay one file a
#: worker, as under ``loadfile``
SPREAD = frozenset({
    "interop/test_serve_realpeer.py",
    "interop/test_auth_realpeer.py",
    "interop/test_auth_mcp_remote_realpeer.py",
    "interop/test_probe_client_realpeer.py",
    "interop/test_probe_fast_realpeer.py",
    "interop/test_conformance_suite.py",
})

#: a file's seconds in its step (setup + call + teardown of its tests), from the step's
#: --durations as `.ci/run` prints them (`python tests/_schedule.py SAVED-OUTPUT` sums them);
#: the files under 5 s (real peers) and 10 s (slow) are left out
SECONDS: dict[str, float] = {
    # the real-peer step's files: its --durations (phases of 1 s or more) on two workers, warm,
    # load 1 to 2, in .ci/run on a fresh clone (2026-12-05, 178 tests in 682 s)
    "interop/test_drift_clients.py": 282,
    "interop/test_drift_servers.py": 267,
    "interop/test_probe_realpeer.py": 251,
    "interop/test_probe_fast_realpeer.py": 124,
    "interop/test_probe_client_realpeer.py": 101,
    "interop/test_time_realpeer.py": 66,
    "interop/test_census_realpeer.py": 59,
    "interop/test_serve_realpeer.py": 42,
    "interop/test_bridge_chain_realpeer.py": 24,
    "interop/test_auth_realpeer.py": 19,
    "interop/test_conformance_suite.py": 19,
    "interop/test_drift_matrix.py": 17,
    "interop/test_auth_mcp_remote_realpeer.py": 9,
    "interop/test_drift_servers_http.py": 9,
    "interop/test_probe_next_realpeer.py": 6,
    # the slow step's files of 10 s or more: the same run (416 tests in 236 s)
    "slow/unit/test_adversaries.py": 52,
    "unit/test_census_load.py": 49,
    "unit/test_signals_end_families.py": 36,
    "slow/unit/test_census_scheduler_slow.py": 31,
    "unit/test_probe_cold_start.py": 29,
    "slow/unit/test_drift_raw_wait_slow.py": 19,
    "slow/unit/test_census_pool.py": 18,
    "unit/test_probe_fast.py": 18,
    "slow/unit/test_probe_client_time_slow.py": 17,
    "slow/unit/test_probe_url_hostile_slow.py": 16,
    "slow/unit/test_census_run.py": 15,
    "slow/unit/test_probe_stdio.py": 11,
    # three more tests (2026-12-05, one worker, load 2.5): a served py-mcp@1.9 started 3 s late
    "slow/unit/test_drift_cold_start.py": 43,
    # new (2026-12-05, one worker, load 15): the drift waits read a spawned server's work
    "slow/unit/test_drift_listen_slow.py": 17,
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # on a worker of `--dist loadgroup` (xdist sets the worker's own `dist` to "no"); the
    # controller collects nothing and schedules what the workers collected, in their order
    if getattr(config.option, "loadgroup", False):
        order(items, TESTS)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: absent with -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The controller's scheduler for ``--dist loadgroup``: units of work by file, but for
    :data:`SPREAD` (xdist's own ``loadgroup`` groups by the ``xdist_group`` mark, which
    pytest 9.2 no longer lets it read: it renames the item's ``_nodeid``, which pytest
    stopped using, so every test became a unit of its own)."""
    if config.getoption("dist", "no") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileUnits(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid, config.rootpath)

    config.option.loadscopereorder = False  # the order is the workers' collection's, below
    return FileUnits(config, log)


def _name(path: Path, tests: Path) -> str:
    path = path.resolve()
    return path.relative_to(tests).as_posix() if path.is_relative_to(tests) else str(path)


def unit_of(nodeid: str, root: Path) -> str:
    """The unit of work a test belongs to: its file, or itself for a file in :data:`SPREAD`."""
    file = nodeid.split("::", 1)[0]
    return nodeid if _name(root / file, TESTS) in SPREAD else file


def order(items: list[pytest.Item], tests: Path) -> None:
    """Order ``items`` by unit of work, the longest first (:data:`SECONDS`), in place."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(_name(Path(str(item.path)), tests), []).append(item)
    units: list[tuple[float, int, list[pytest.Item]]] = []
    for name, members in files.items():
        if name in SPREAD:
            each = SECONDS.get(name, 0.0) / len(members)
            units += [(each, len(units), [item]) for item in members]
        else:
            units.append((SECONDS.get(name, 0.0), len(units), members))
    units.sort(key=lambda unit: (-unit[0], unit[1]))
    items[:] = [item for _, _, members in units for item in members]


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(?:setup|call|teardown)\s+(tests/[^:\s]+)::")


def seconds_by_file(lines: Iterable[str]) -> dict[str, float]:
    """Each file's seconds (setup + call + teardown of its tests), from the lines pytest's
    ``--durations`` prints (``12.34s call     tests/interop/test_x.py::test_y``), named as
    :data:`SECONDS` names them (from ``tests/``); the longest first."""
    files: dict[str, float] = {}
    for line in lines:
        found = _DURATION.match(line)
        if found:
            name = found[2].removeprefix("tests/")
            files[name] = files.get(name, 0.0) + float(found[1])
    return dict(sorted(files.items(), key=lambda kv: (-kv[1], kv[0])))


def main(argv: list[str] | None = None) -> int:
    """``python tests/_schedule.py OUTPUT...``: the files' seconds from saved pytest output
    (``.ci/run`` prints ``--durations`` for the slow and real-peer steps), as lines of
    :data:`SECONDS`; ``-`` reads standard input."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python tests/_schedule.py OUTPUT... (pytest --durations output; - for stdin)",
              file=sys.stderr)
        return 2
    lines: list[str] = []
    for arg in args:
        try:
            text = sys.stdin.read() if arg == "-" else Path(arg).read_text(errors="replace")
        except OSError as exc:
            print(f"_schedule.py: cannot read {arg}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        lines += text.splitlines()
    for name, seconds in seconds_by_file(lines).items():
        print(f'    "{name}": {round(seconds)},')
    return 0


if __name__ == "__main__":
    sys.exit(main())

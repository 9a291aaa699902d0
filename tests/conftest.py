"""Test-suite wiring: the cost and the kind of each test come from its folder.

By cost (as Hypothesis splits cover/nocover), see tests/README.md:

- ``tests/<kind>/``: fast tests, the default run (``python -m pytest -q``): no process,
  no socket, no Dask cluster;
- ``tests/slow/<kind>/``: tests that start processes, open sockets or clusters; marked
  ``slow`` and deselected unless ``-m slow`` is given (a module elsewhere may say
  ``pytestmark = pytest.mark.slow``, to the same effect);
- ``tests/interop/``: real MCP implementations installed from a package registry
  (marked ``realpeer``; deselected unless ``-m realpeer`` is given).

The cost guard (:mod:`_cost_guard`) makes a test marked neither ``slow`` nor
``realpeer`` fail when it starts a process, opens a socket or starts a Dask cluster.

By kind, the folder under ``tests/`` (or ``tests/slow/``):

- ``unit/``: table-driven and example tests of one part at a time;
- ``property/``: Hypothesis properties over random peers and runs;
- ``schema/``: the official schemas as oracle (through the generated facts and
  models in ``tests/generated/``, so they run on any machine);
- ``docs/``: golden files (generated docs that must be current);
- ``interop/``: real peers.

Every test is marked with its kind, so ``-m property`` runs one kind.

Tests marked ``spec_files`` read the official schemas and examples themselves (at
``../shared/spec``, on developer and CI machines): they prove the generated files
current and judge like the schemas. Where that folder is absent they are
deselected, and the header of the run says how many.

Hypothesis draws new examples on every run on a developer's machine (the ``dev``
profile: that is how it finds the rare case); where ``CI`` is set (``.ci/run`` sets it,
as CI services do) it runs the ``ci`` profile, derandomized, so a red CI is a change's
doing and not a draw. No profile has a per-example deadline (a wall clock).
``--hypothesis-profile thorough`` makes the fuzz tests draw ten times as many examples.
"""

from __future__ import annotations

import os
from pathlib import Path

import _cost_guard
import _schedule
import pytest
from hypothesis import settings
from oracle import SPEC_DIR, spec_present

# No per-example deadline in any profile: Hypothesis's default (200 ms) is a wall clock
# that a busy machine runs out; a test bounds its own waits (tests/_waits.py).
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", settings.get_profile("dev"), derandomize=True)
# ten times the fuzz tests' examples (tests/_fuzz.py examples()), derandomized where CI is set
settings.register_profile("thorough", settings.get_profile("dev"),
                          derandomize=bool(os.environ.get("CI")))
settings.load_profile("ci" if os.environ.get("CI") else "dev")

KINDS = ("unit", "property", "schema", "docs", "interop")
SLOW = _cost_guard.SLOW
TESTS = Path(__file__).resolve().parent
_NO_SPEC = pytest.StashKey[int]()


def _folders(item: pytest.Item) -> tuple[str, ...]:
    """The folders of ``item``'s file under tests/ (empty for a file elsewhere)."""
    path = Path(str(item.path)).resolve()
    if not path.is_relative_to(TESTS):
        return ()
    return path.relative_to(TESTS).parts[:-1]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not spec_present():
        needs = [item for item in items if item.get_closest_marker("spec_files")]
        if needs:
            config.hook.pytest_deselected(items=needs)
            items[:] = [item for item in items if not item.get_closest_marker("spec_files")]
            config.stash[_NO_SPEC] = len(needs)
    for item in items:
        slow, kind = _cost_guard.place(_folders(item))
        if slow:
            item.add_marker(pytest.mark.slow)
        if kind in KINDS:
            item.add_marker(getattr(pytest.mark, kind))
        if kind == "interop":
            item.add_marker(pytest.mark.realpeer)
        if item.get_closest_marker("realpeer") and item.get_closest_marker(SLOW):
            # it would run twice in CI, installs and all: in the slow step and the real-peer one
            raise pytest.UsageError(
                f"{item.nodeid} is marked both realpeer and slow: a real-peer test is not slow "
                "as well (-m slow would install SDKs, and .ci/run would run it twice)")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if config.stash.get(_NO_SPEC, 0):
        terminalreporter.write_line(
            f"{config.stash[_NO_SPEC]} tests that read the official schema files were deselected: "
            f"{SPEC_DIR} is absent (the generated oracle in tests/generated/ ran instead)")


def _selects(config: pytest.Config, marker: str) -> bool:
    expr = config.option.markexpr or ""
    return marker in expr and f"not {marker}" not in expr


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = []
    expr = config.option.markexpr or ""
    if _selects(config, "realpeer"):
        lines.append("realpeer: installing real SDK releases into the peer cache where missing")
    elif "not realpeer" in expr:
        lines.append("realpeer tests (real SDKs from PyPI and npm) are deselected here: "
                     "run them with `python -m pytest -m realpeer`")
    if f"not {SLOW}" in expr:
        lines.append("slow tests (processes, sockets, Dask clusters: tests/slow/ and modules "
                     "marked slow) are deselected here: run them with `python -m pytest -m slow`")
    return lines


def pytest_configure(config: pytest.Config) -> None:
    _cost_guard.install()
    # under `--dist loadgroup` (.ci/run's slow and real-peer steps): the workers' units of
    # work, longest first (tests/_schedule.py)
    config.pluginmanager.register(_schedule, "mcp_skew_schedule")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> object:
    with _cost_guard.guarding(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    with _cost_guard.guarding(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    with _cost_guard.guarding(item):
        return (yield)

"""Test-suite wiring: the kind of each test comes from its folder.

- ``unit/``: table-driven and example tests of one part at a time;
- ``property/``: Hypothesis properties over random peers and runs;
- ``schema/``: the official schemas as oracle (through the generated facts and
  models in ``tests/generated/``, so they run on any machine);
- ``docs/``: golden files (generated docs that must be current);
- ``interop/``: real MCP implementations installed from a package registry
  (marked ``realpeer``; deselected unless ``-m realpeer`` is given).

Every test is marked with its folder's name, so ``-m property`` runs one kind.

Tests marked ``spec_files`` read the official schemas and examples themselves (at
``../shared/spec``, on developer and CI machines): they prove the generated files
current and judge like the schemas. Where that folder is absent they are
deselected, and the header of the run says how many.

Hypothesis draws new examples on every run on a developer's machine (that is how it
finds the rare case); where ``CI`` is set (``.ci/run`` sets it, as CI services do) it
runs the ``ci`` profile, derandomized, so a red CI is a change's doing and not a draw.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from oracle import SPEC_DIR, spec_present

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

KINDS = ("unit", "property", "schema", "docs", "interop")
_NO_SPEC = pytest.StashKey[int]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not spec_present():
        needs = [item for item in items if item.get_closest_marker("spec_files")]
        if needs:
            config.hook.pytest_deselected(items=needs)
            items[:] = [item for item in items if not item.get_closest_marker("spec_files")]
            config.stash[_NO_SPEC] = len(needs)
    for item in items:
        kind = Path(str(item.path)).parent.name
        if kind in KINDS:
            item.add_marker(getattr(pytest.mark, kind))
        if kind == "interop":
            item.add_marker(pytest.mark.realpeer)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if config.stash.get(_NO_SPEC, 0):
        terminalreporter.write_line(
            f"{config.stash[_NO_SPEC]} tests that read the official schema files were deselected: "
            f"{SPEC_DIR} is absent (the generated oracle in tests/generated/ ran instead)")


def pytest_report_header(config: pytest.Config) -> str | None:
    if "realpeer" in (config.option.markexpr or "") and "not realpeer" not in config.option.markexpr:
        return "realpeer: installing real SDK releases into the peer cache where missing"
    return ("realpeer tests (real SDKs from PyPI and npm) are deselected here: "
            "run them with `python -m pytest -m realpeer`")

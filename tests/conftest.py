"""Test-suite wiring: the kind of each test comes from its folder.

- ``unit/``: table-driven and example tests of one part at a time;
- ``property/``: Hypothesis properties over random peers and runs;
- ``schema/``: the official schemas as oracle (through the generated facts and
  models in ``tests/generated/``, so they run on any machine);
- ``docs/``: golden files (generated docs that must be current);
- ``interop/``: real MCP implementations installed from a package registry
  (marked ``realpeer``; deselected unless ``-m realpeer`` is given).

Every test is marked with its folder's name, so ``-m property`` runs one kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

KINDS = ("unit", "property", "schema", "docs", "interop")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        kind = Path(str(item.path)).parent.name
        if kind in KINDS:
            item.add_marker(getattr(pytest.mark, kind))
        if kind == "interop":
            item.add_marker(pytest.mark.realpeer)


def pytest_report_header(config: pytest.Config) -> str | None:
    if "realpeer" in (config.option.markexpr or "") and "not realpeer" not in config.option.markexpr:
        return "realpeer: installing real SDK releases into the peer cache where missing"
    return ("realpeer tests (real SDKs from PyPI and npm) are deselected here: "
            "run them with `python -m pytest -m realpeer`")

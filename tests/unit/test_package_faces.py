"""What is public: the library's face, and no reach into another package's private modules.

``mcp_skew`` exports the public API (``mcp_skew.API``, described in ``docs/api.md``);
each package's ``__init__`` is its own face. A module of one package that imports a
``_private`` module of another (``from ..simulator._wire import ...``) is listed in
:data:`ALLOWED`, the reaches that exist today: the list only shrinks (a test fails
when one is gone), and a new one fails until it goes through the package's face.
The self-test runs the checker on a synthetic package, so this test can fail.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import mcp_skew

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_layers import ROOT, _module_name, imports_of, modules

#: (importing module, private module of another package) pairs that exist today.
ALLOWED: frozenset[tuple[str, str]] = frozenset({
    ("mcp_skew.census._launch", "mcp_skew.realpeers._envs"),
    ("mcp_skew.census._work", "mcp_skew.realpeers._envs"),
    ("mcp_skew.commands._args", "mcp_skew.simulator._numbers"),
    ("mcp_skew.commands.census", "mcp_skew.census._execute"),
    ("mcp_skew.commands.census", "mcp_skew.census._launch"),
    ("mcp_skew.commands.matrix", "mcp_skew.census._store"),
    ("mcp_skew.commands.matrix", "mcp_skew.matrix._render_text"),
    ("mcp_skew.commands.matrix", "mcp_skew.realpeers._realmatrix"),
    ("mcp_skew.commands.probe", "mcp_skew.probe._report"),
    ("mcp_skew.commands.probe", "mcp_skew.probe._schemas"),
    ("mcp_skew.commands.record", "mcp_skew.serve._log"),
    ("mcp_skew.commands.record", "mcp_skew.serve._replay"),
    ("mcp_skew.commands.record", "mcp_skew.serve._show"),
    ("mcp_skew.commands.simulate", "mcp_skew.simulator._numbers"),
    ("mcp_skew.commands.simulate", "mcp_skew.simulator._trace"),
    ("mcp_skew.commands.verify_peer", "mcp_skew.realpeers._drift"),
    ("mcp_skew.commands.versions", "mcp_skew.versions._render"),
    ("mcp_skew.matrix._cell", "mcp_skew.simulator._memo"),
    ("mcp_skew.migrate._guide", "mcp_skew.versions._render"),
    ("mcp_skew.migrate._illustrate", "mcp_skew.simulator._trace"),
    ("mcp_skew.migrate._json", "mcp_skew.versions._render"),
    ("mcp_skew.probe._advice", "mcp_skew.migrate._severity"),
    ("mcp_skew.probe._clients", "mcp_skew.simulator._client"),
    ("mcp_skew.probe._clients", "mcp_skew.simulator._machine"),
    ("mcp_skew.probe._clients", "mcp_skew.simulator._path"),
    ("mcp_skew.probe._clients", "mcp_skew.simulator._wire"),
    ("mcp_skew.probe._steps", "mcp_skew.simulator._scenario"),
    ("mcp_skew.probe._steps", "mcp_skew.simulator._transport"),
    ("mcp_skew.probe._verdict", "mcp_skew.simulator._path"),
    ("mcp_skew.realpeers._drift", "mcp_skew.matrix._peersets"),
    ("mcp_skew.realpeers._drift", "mcp_skew.probe._clients"),
    ("mcp_skew.realpeers._drift", "mcp_skew.simulator._scenario"),
    ("mcp_skew.realpeers._drift", "mcp_skew.simulator._transport"),
    ("mcp_skew.realpeers._drift", "mcp_skew.wire._procs"),
    ("mcp_skew.realpeers._realmatrix", "mcp_skew.matrix._build"),
    ("mcp_skew.serve._annotate", "mcp_skew.simulator._path"),
    ("mcp_skew.serve._annotate", "mcp_skew.simulator._wire"),
    ("mcp_skew.serve._child", "mcp_skew.wire._procs"),
    ("mcp_skew.serve._proxy", "mcp_skew.wire._procs"),
    ("mcp_skew.serve._stdio", "mcp_skew.simulator._decode"),
    ("mcp_skew.serve._stdio", "mcp_skew.simulator._http_words"),
    ("mcp_skew.wire.http", "mcp_skew.simulator._http_client"),
    ("mcp_skew.wire.http", "mcp_skew.simulator._http_words"),
})


def private_reaches(root: Path) -> set[tuple[str, str]]:
    """(module, target) for every import of another package's ``_private`` module."""
    found = set()
    for path in modules(root):
        module, _ = _module_name(path, root)
        for imp in imports_of(path, root):
            parts = imp.target.split(".")
            if parts[0] != module.split(".")[0] or len(parts) < 3:
                continue  # outside the package, or a top-level module (the shared leaves)
            if module.split(".")[1:2] == parts[1:2]:
                continue  # inside its own package
            if any(p.startswith("_") and not p.startswith("__") for p in parts[2:]):
                found.add((module, imp.target))
    return found


def test_no_new_import_of_another_packages_private_module() -> None:
    found = private_reaches(ROOT)
    assert sorted(found - ALLOWED) == [], "import it from the package's face (its __init__)"
    assert sorted(ALLOWED - found) == [], "no longer used: take it off ALLOWED"


def test_the_checker_sees_a_reach(tmp_path: Path) -> None:
    for package in ("", "simulator", "probe"):
        directory = tmp_path / "mcp_skew" / package
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    (tmp_path / "mcp_skew" / "simulator" / "_wire.py").write_text("")
    (tmp_path / "mcp_skew" / "simulator" / "_own.py").write_text("from . import _wire\n")
    (tmp_path / "mcp_skew" / "probe" / "_a.py").write_text(
        "from ..simulator import _wire\nfrom ..simulator import x\n")
    assert private_reaches(tmp_path) == {("mcp_skew.probe._a", "mcp_skew.simulator._wire")}


@pytest.mark.parametrize("name", sorted(mcp_skew.API))
def test_each_public_name_is_the_object_its_package_defines(name: str) -> None:
    module, attribute = mcp_skew.API[name]
    assert getattr(mcp_skew, name) is getattr(importlib.import_module(module), attribute)
    assert name in mcp_skew.__all__ and name in dir(mcp_skew)


def test_the_face_lists_every_name_and_no_other() -> None:
    assert set(mcp_skew.__all__) == {*mcp_skew.API, "__version__"}
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        mcp_skew.nothing  # noqa: B018

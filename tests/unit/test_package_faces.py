"""What is public: the library's face, and no reach into another package's private modules.

``mcp_skew`` exports the public API (``mcp_skew.API``, described in ``docs/api.md``);
each package's ``__init__`` is its own face. The rule is now *none*: no module of one
package imports a ``_private`` module of another (``from ..simulator._wire import ...``);
it imports the name from the package's face. :data:`ALLOWED` is empty and stays so: a new
reach fails until it goes through the package's face. The self-test runs the checker on a
synthetic package, so this test can fail.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import mcp_skew

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_layers import ROOT, _module_name, imports_of, modules

#: (importing module, private module of another package) pairs that exist today: none.
ALLOWED: frozenset[tuple[str, str]] = frozenset()


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


FACES = sorted(p.parent.name for p in (ROOT / "mcp_skew").glob("*/__init__.py")
               if p.parent.name != "commands")


@pytest.mark.parametrize("package", FACES)
def test_every_name_a_face_lists_is_there(package: str) -> None:
    # the faces that import a name on first use (a PEP 562 __getattr__) must still have it
    face = importlib.import_module(f"mcp_skew.{package}")
    missing = [name for name in face.__all__ if not hasattr(face, name)]
    assert missing == []
    assert len(set(face.__all__)) == len(face.__all__)

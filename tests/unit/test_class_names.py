"""A class name means one thing: no two classes of the package share a name.

Two ``Step`` classes (a path step, a scenario step, a changelog step) or two ``Cell``s (the
matrix's, the migration proof's) make a reader ask which one a name is, and made modules
rename one at the door (``import HttpEndpoint as ServeEndpoint``). This lists every class
the package defines, nested ones included, and fails on a name defined twice, except the
pairs in :data:`ALLOWED`, each with why. The self-test runs the check on a synthetic
package, so this test can fail.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from _sources import PACKAGE, modules, source

#: Folders of the package that hold programs of their own, not modules of the package: run
#: as child processes (the real-peer servers and client drivers), never imported by it.
PROGRAMS = (PACKAGE / "realpeers" / "servers",)
#: name -> why it may be defined more than once.
ALLOWED: Mapping[str, str] = {}


def _class_names(path: Path) -> list[str]:
    return [node.name for node in source(path).nodes if isinstance(node, ast.ClassDef)]


def duplicates(paths: Iterable[Path], root: Path) -> dict[str, list[str]]:
    """Each class name defined more than once, with the modules (relative to ``root``)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        for name in _class_names(path):
            where[name].append(str(path.relative_to(root)))
    return {name: found for name, found in sorted(where.items()) if len(found) > 1}


def _package_modules() -> list[Path]:
    return [p for p in modules() if not any(p.is_relative_to(folder) for folder in PROGRAMS)]


def test_no_class_name_is_defined_twice() -> None:
    found = duplicates(_package_modules(), PACKAGE)
    assert {n: f for n, f in found.items() if n not in ALLOWED} == {}


def test_every_allowed_duplicate_is_still_one() -> None:
    found = duplicates(_package_modules(), PACKAGE)
    assert [name for name in ALLOWED if name not in found] == []


def test_the_check_finds_a_name_defined_twice(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Step:\n    class Inner:\n        pass\n")
    (tmp_path / "b.py").write_text("class Step(str):\n    pass\nclass Other:\n    pass\n")
    (tmp_path / "c.py").write_text("def f():\n    class Inner:\n        pass\n")
    found = duplicates(sorted(tmp_path.glob("*.py")), tmp_path)
    assert found == {"Inner": ["a.py", "c.py"], "Step": ["a.py", "b.py"]}

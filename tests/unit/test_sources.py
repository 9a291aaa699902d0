"""The static checks' shared source (tests/_sources.py): the package is parsed once a session,
a file elsewhere is read afresh, and what is kept with a module is worked out once."""

from __future__ import annotations

import ast
from pathlib import Path

from _sources import PACKAGE, Source, modules, source


def test_a_module_of_the_package_is_read_and_parsed_once() -> None:
    path = PACKAGE / "simulator" / "__init__.py"
    first = source(path)
    assert source(path) is first
    assert first.text == path.read_text(encoding="utf-8")
    assert ast.dump(first.tree) == ast.dump(ast.parse(first.text))
    assert first.nodes[0] is first.tree and len(first.nodes) == len(list(ast.walk(first.tree)))


def test_the_package_is_listed_once_and_whole() -> None:
    assert modules() is modules(PACKAGE)
    assert modules() == tuple(sorted(PACKAGE.rglob("*.py")))
    assert PACKAGE / "simulator" / "__init__.py" in modules()


def test_a_file_elsewhere_is_read_anew_each_time(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "m.py"
    module.write_text("import os\n")
    assert modules(tmp_path) == (module,)
    assert [type(n).__name__ for n in source(module).tree.body] == ["Import"]
    module.write_text("x = 1\n")  # a self-test rewrites its synthetic package: it sees the new text
    assert [type(n).__name__ for n in source(module).tree.body] == ["Assign"]
    (tmp_path / "pkg" / "n.py").write_text("")
    assert len(modules(tmp_path)) == 2


def test_what_is_kept_with_a_module_is_worked_out_once_for_the_package_only(tmp_path: Path) -> None:
    calls: list[Path] = []

    def count(read: Source, extra: int) -> int:
        calls.append(read.path)
        return len(read.nodes) + extra

    kept = PACKAGE / "errors.py"
    assert source(kept).once(count, 1) == source(kept).once(count, 1)
    assert calls == [kept]
    source(kept).once(count, 2)  # other arguments: worked out again
    elsewhere = tmp_path / "m.py"
    elsewhere.write_text("x = 1\n")
    source(elsewhere).once(count, 1)
    source(elsewhere).once(count, 1)
    assert calls == [kept, kept, elsewhere, elsewhere]

"""The census compiles its venvs' bytecode itself (census/_bytecode.py): a source file that
several venvs hold as hard links of one file (uv links them from its download cache) is
compiled once, its ``.pyc`` linked into the others; what Python then imports from a linked
``.pyc`` is the venv's own module, named by its own path."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from mcp_skew.census._bytecode import compile_venv

SITE = Path("lib") / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
SHARED = "def where():\n    return __file__\n\n\ndef code_file():\n    return where.__code__.co_filename\n"


def _venvs(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two venvs under ``cache/envs`` holding ``pkg/shared.py`` as hard links of one file
    (uv's cache), each with a file of its own and one that does not compile."""
    cache = tmp_path / "cache"
    original = cache / "uv" / "shared.py"
    original.parent.mkdir(parents=True)
    original.write_text(SHARED)
    roots = []
    for name in ("py-one", "py-two"):
        pkg = cache / "envs" / name / SITE / "pkg"
        pkg.mkdir(parents=True)
        os.link(original, pkg / "shared.py")
        (pkg / "own.py").write_text(f"NAME = {name!r}\n")
        (pkg / "broken.py").write_text("def (:\n")
        roots.append(pkg.parents[len(SITE.parts)])
    return cache, roots[0], roots[1]


def _pyc(root: Path, name: str) -> Path:
    return Path(importlib.util.cache_from_source(str(root / SITE / "pkg" / name)))


def _load(root: Path, name: str) -> ModuleType:
    """Import ``pkg/NAME`` of a venv as Python does (from its ``.pyc`` when fresh)."""
    path = root / SITE / "pkg" / name
    spec = importlib.util.spec_from_file_location(f"census_bytecode_{root.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_shared_file_is_compiled_once_and_linked_into_the_next_venv(tmp_path: Path) -> None:
    cache, one, two = _venvs(tmp_path)
    assert compile_venv(one) == {"compiled": 2, "linked": 0, "skipped": 1}
    assert compile_venv(two) == {"compiled": 1, "linked": 1, "skipped": 1}
    # the shared file's .pyc is one file in both venvs and the store (cache/pyc)
    assert os.path.samefile(_pyc(one, "shared.py"), _pyc(two, "shared.py"))
    assert [p.name.endswith(".pyc") for p in (cache / "pyc").iterdir()] == [True]
    # each venv's own file has its own; the file that does not compile has none
    assert not os.path.samefile(_pyc(one, "own.py"), _pyc(two, "own.py"))
    assert not _pyc(one, "broken.py").exists() and not _pyc(two, "broken.py").exists()
    # a second pass finds everything compiled
    assert compile_venv(two) == {"compiled": 0, "linked": 0, "skipped": 3}


def test_the_linked_bytecode_is_fresh_and_names_its_own_venv(tmp_path: Path) -> None:
    _, one, two = _venvs(tmp_path)
    compile_venv(one)
    compile_venv(two)
    pyc = _pyc(two, "shared.py")
    before = pyc.stat()
    module = _load(two, "shared.py")
    # the import took the linked .pyc as fresh (it did not write a new one) ...
    after = pyc.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    # ... and its code names the file of this venv, not of the venv that compiled it
    own = str(two / SITE / "pkg" / "shared.py")
    assert module.where() == own
    assert module.code_file() == own


def test_a_file_not_linked_from_a_cache_is_compiled_in_each_venv(tmp_path: Path) -> None:
    cache, one, two = _venvs(tmp_path)
    for root in (one, two):  # copies, not links: nothing to share
        shared = root / SITE / "pkg" / "shared.py"
        shared.unlink()
        shared.write_text(SHARED)
    assert compile_venv(one)["linked"] == 0
    assert compile_venv(two) == {"compiled": 2, "linked": 0, "skipped": 1}
    assert not (cache / "pyc").exists() or not list((cache / "pyc").iterdir())

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
    # the shared file's .pyc is one file in both venvs and the store (cache/pyc), which
    # holds the own files' too (a .pyc for each distinct source)
    assert os.path.samefile(_pyc(one, "shared.py"), _pyc(two, "shared.py"))
    stored = list((cache / "pyc").iterdir())
    assert len(stored) == 3 and all(p.name.endswith(".pyc") for p in stored)
    assert any(os.path.samefile(p, _pyc(one, "shared.py")) for p in stored)
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


def test_a_copy_with_the_same_bytes_and_mtime_shares_the_pyc(tmp_path: Path) -> None:
    """What a ``.pyc`` is checked against is its source's mtime and size: a copy of the same
    bytes with the same mtime (uv copies where it cannot link) gets the same one."""
    _, one, two = _venvs(tmp_path)
    shared = two / SITE / "pkg" / "shared.py"
    stamp = shared.stat().st_mtime_ns
    shared.unlink()
    shared.write_text(SHARED)
    os.utime(shared, ns=(stamp, stamp))
    compile_venv(one)
    assert compile_venv(two) == {"compiled": 1, "linked": 1, "skipped": 1}
    assert _load(two, "shared.py").code_file() == str(shared)


def test_other_bytes_or_another_mtime_get_a_pyc_of_their_own(tmp_path: Path) -> None:
    """Never another file's code: the same size and mtime with other bytes (a file that took
    the inode of one uv pruned) is compiled; the same bytes with another mtime too (the
    linked .pyc would be stale)."""
    _, one, two = _venvs(tmp_path)
    original = one / SITE / "pkg" / "shared.py"
    stamp = original.stat().st_mtime_ns
    compile_venv(one)
    shared = two / SITE / "pkg" / "shared.py"
    shared.unlink()
    shared.write_text(SHARED.replace("__file__", "__name__"))  # other bytes, the same size
    assert shared.stat().st_size == original.stat().st_size
    os.utime(shared, ns=(stamp, stamp))
    assert compile_venv(two) == {"compiled": 2, "linked": 0, "skipped": 1}
    assert _load(two, "shared.py").where() == "census_bytecode_py-two"
    third = _venvs(tmp_path / "more")[1]
    moved = third / SITE / "pkg" / "shared.py"
    moved.unlink()
    moved.write_text(SHARED)
    os.utime(moved, ns=(stamp + 5_000_000_000, stamp + 5_000_000_000))
    assert compile_venv(third)["linked"] == 0

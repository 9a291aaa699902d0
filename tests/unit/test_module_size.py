"""No module of ``mcp_skew`` is over 600 lines, except the profile data tables.

Small modules, one concept each (STYLE.md: "small modules, tiny functions, long
tables"): a module over :data:`LIMIT` lines is split along a seam a reader would
expect. The exceptions are named, each with its reason: the revision profiles
that are long tables of data (:data:`PROFILE_TABLES`). A test fails when an
exception is no longer over the limit, so the list only shrinks. The self-test
runs the count on a synthetic package, so these tests can fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatch
from pathlib import Path

from _sources import modules, source

PACKAGE = Path(__file__).resolve().parents[2] / "mcp_skew"
#: The most lines a module may have.
LIMIT = 600

#: Profile data tables (``versions/r*.py``): a revision's profile is its changelog, a checked
#: delta over the revision before, as long as that revision's changes.
PROFILE_TABLES: Mapping[str, str] = {
    "versions/r2026_07_28.py": "the 2026-07-28 profile: the modern era's delta over 2025-11-25",
}
EXCEPTED = dict(PROFILE_TABLES)


def long_modules(package: Path, limit: int = LIMIT) -> dict[str, int]:
    """Every module of ``package`` over ``limit`` lines: its path in the package -> its lines."""
    found = {}
    for path in modules(package):
        lines = len(source(path).text.splitlines())
        if lines > limit:
            found[path.relative_to(package).as_posix()] = lines
    return found


def test_no_module_is_over_the_limit_but_the_excepted_ones() -> None:
    over = long_modules(PACKAGE)
    new = {path: lines for path, lines in over.items() if path not in EXCEPTED}
    assert new == {}, f"over {LIMIT} lines: split each along a seam (one concept a module)"


def test_every_exception_is_still_over_the_limit() -> None:
    over = long_modules(PACKAGE)
    assert sorted(set(EXCEPTED) - set(over)) == [], \
        f"no longer over {LIMIT} lines: take it off the exceptions"


def test_only_profile_data_is_excepted_for_good() -> None:
    assert all(fnmatch(path, "versions/r*.py") for path in PROFILE_TABLES)


def test_the_count_finds_a_long_module_anywhere(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "_long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "_at_the_limit.py").write_text("x = 1\n" * LIMIT)
    (tmp_path / "_short.py").write_text("x = 1")
    assert long_modules(tmp_path) == {"sub/_long.py": LIMIT + 1}

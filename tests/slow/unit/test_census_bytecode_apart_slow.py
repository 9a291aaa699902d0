"""The census compiles a venv's bytecode in a child process (census/_bytecode.py's
``compile_venv_apart``): the same ``.pyc`` files and store as compiling in the census's own
process, and a child that fails makes the venv unavailable with what it said."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mcp_skew.census._bytecode import compile_venv_apart
from mcp_skew.realpeers import EnvironmentUnavailable

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "unit"))
from test_census_bytecode import _pyc, _venvs


def test_the_child_compiles_and_links_as_the_census_process_did(tmp_path: Path) -> None:
    cache, one, two = _venvs(tmp_path)
    assert compile_venv_apart(one) == {"compiled": 2, "linked": 0, "skipped": 1}
    assert compile_venv_apart(two) == {"compiled": 1, "linked": 1, "skipped": 1}
    assert os.path.samefile(_pyc(one, "shared.py"), _pyc(two, "shared.py"))
    assert len(list((cache / "pyc").iterdir())) == 3
    assert not _pyc(two, "broken.py").exists()


def test_a_failed_child_makes_the_venv_unavailable(tmp_path: Path) -> None:
    _, one, _ = _venvs(tmp_path)
    store = tmp_path / "a-file"
    store.write_text("not a folder\n")
    with pytest.raises(EnvironmentUnavailable, match=r"bytecode compile of .*: exit code 1: "
                                                     r"FileExistsError"):
        compile_venv_apart(one, store)
    assert not _pyc(one, "shared.py").exists()

"""A census row's failure kind is read from what the installer said, and the same cause gets
the same kind whichever installer ran (pip or uv): the benchmark of a 22-package listing saw
one package (every release needs Python 3.13) reported as "missing package" after pip and
"install failed" after uv."""

from __future__ import annotations

import pytest

from mcp_skew.census._report import _kind_and_cause

PIP_PYTHON = ("ERROR: Ignored the following versions that require a different python version: "
              "1.2.2 Requires-Python >=3.13\nERROR: Could not find a version that satisfies "
              "the requirement mcp-text-editor==1.2.2 (from versions: none)")
UV_PYTHON = ("error: No solution found when resolving dependencies\n  cause: Because the "
             "current Python version (3.11.7) does not satisfy Python>=3.13 and "
             "mcp-text-editor==1.2.2 depends on Python>=3.13, we can conclude that "
             "mcp-text-editor==1.2.2 cannot be used.")
PIP_MISSING = ("ERROR: Could not find a version that satisfies the requirement no-such-pkg "
               "(from versions: none)\nERROR: No matching distribution found for no-such-pkg")
UV_MISSING = ("error: No solution found when resolving dependencies\n  cause: Because "
              "no-such-pkg was not found in the package registry and you require no-such-pkg, "
              "we can conclude that your requirements are unsatisfiable.")
UV_NO_VERSION = ("error: No solution found when resolving dependencies\n  cause: Because there "
                 "is no version of mcp==99.0 and you require mcp==99.0, we can conclude that "
                 "your requirements are unsatisfiable.")
UV_CONFLICT = ("error: No solution found when resolving dependencies\n  cause: Because a==1 "
               "depends on b>2 and you require b<2, we can conclude that your requirements "
               "are unsatisfiable.")


def kind(error: str) -> str:
    got = _kind_and_cause({"status": "install-failed", "error": error})
    assert got is not None
    return got[0]


@pytest.mark.parametrize(("pip", "uv", "expected"), [
    (PIP_PYTHON, UV_PYTHON, "needs another Python"),
    (PIP_MISSING, UV_MISSING, "missing package"),
    (PIP_MISSING, UV_NO_VERSION, "missing package"),
])
def test_the_same_cause_is_the_same_kind_after_pip_and_uv(pip: str, uv: str, expected: str) -> None:
    assert kind(pip) == kind(uv) == expected


def test_a_resolver_conflict_is_an_install_failure_not_a_missing_package() -> None:
    assert kind(UV_CONFLICT) == "install failed"


def cause(error: str) -> str:
    got = _kind_and_cause({"status": "install-failed", "error": error})
    assert got is not None
    return got[1]


@pytest.mark.parametrize(("what", "pip", "uv", "expected"), [
    ("mcp-text-editor==1.2.2", PIP_PYTHON, UV_PYTHON,
     "install-failed: install mcp-text-editor==1.2.2 failed: needs Python >=3.13"),
    ("no-such-pkg", PIP_MISSING, UV_MISSING, "install-failed: install no-such-pkg failed"),
])
def test_the_same_failure_is_the_same_cause_after_pip_and_uv(what: str, pip: str, uv: str,
                                                             expected: str) -> None:
    """The cause is a row's verdict (what the report counts and a census of the same listing
    compares): it says what failed, never which installer ran nor its exit code, which stay
    in the row's error, the installer's own words whole."""
    pip_error = f"pip install {what}: exit code 1\n{pip}"
    uv_error = f"uv install {what}: exit code 2\n{uv}"
    assert cause(pip_error) == cause(uv_error) == expected


def test_the_python_a_release_needs_is_the_pinned_releases_own() -> None:
    """pip lists every release it ignored; the cause names what the pinned one needs."""
    pip = ("pip install mcp-x==2.0: exit code 1\nERROR: Ignored the following versions that "
           "require a different python version: 1.0 Requires-Python >=3.9; 12.0 "
           "Requires-Python >=3.14; 2.0 Requires-Python >=3.12, <4")
    assert cause(pip) == "install-failed: install mcp-x==2.0 failed: needs Python >=3.12,<4"


def test_a_cause_the_installer_does_not_word_is_its_first_line() -> None:
    assert cause("npm install @x/y@1.0.0: exit code 1\nnpm error 404 Not Found") == \
        "install-failed: npm install @x/y@1.0.0: exit code 1"
    assert cause("uv install mcp-x==1: timed out after 600 s\n") == \
        "install-failed: install mcp-x==1: timed out after 600 s"
    # no requirement to read: the cause says what failed, and no more
    assert cause("uv install mcp-x: exit code 1\nthe current Python version (3.11.7) does "
                 "not satisfy it") == "install-failed: install mcp-x failed"

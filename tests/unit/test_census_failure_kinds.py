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

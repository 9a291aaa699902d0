"""The library's face is lazy: importing ``mcp_skew`` loads none of the packages behind it.

A fresh interpreter per test (so slow): ``import mcp_skew`` loads no other module of
mcp-skew and no pydantic; reading one name loads its package, not the others'.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def _loaded(code: str) -> list[str]:
    script = f"import sys\n{code}\nprint(' '.join(sorted(m for m in sys.modules if " \
             "m.split('.')[0] in ('mcp_skew', 'pydantic'))))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout.split()


def test_importing_the_package_loads_nothing_behind_its_names() -> None:
    # its version is a literal in _version, which imports nothing
    assert _loaded("import mcp_skew") == ["mcp_skew", "mcp_skew._version"]


def test_reading_a_name_loads_its_package_only() -> None:
    loaded = _loaded("import mcp_skew\nmcp_skew.parse_peer")
    assert "mcp_skew.simulator" in loaded
    assert not [m for m in loaded if m.startswith(("mcp_skew.probe", "mcp_skew.matrix",
                                                   "mcp_skew.migrate", "mcp_skew.rollout"))]

"""The pytest plugin, as a server's own test suite would use it (in a separate pytest run)."""

from __future__ import annotations

from pathlib import Path


def test_the_plugin_is_declared_as_a_pytest11_entry_point() -> None:
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    points = project["project"]["entry-points"]["pytest11"]
    assert points == {"mcp_skew.pytest_plugin": "mcp_skew.pytest_plugin"}

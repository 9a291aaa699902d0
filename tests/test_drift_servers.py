"""Drift checks for the named server models: each against its real package.

Each named server line is installed in an isolated, cached environment
(``mcp_skew.realpeers._envs``; the first run installs, later runs reuse), its
server script is started over stdio, and the probe's client set and the raw
message sequences of docs/real-peers.md are run against it and against the
model (``mcp_skew.realpeers._drift.verify_server``). A test fails with the diff
where model and package disagree, and skips with the installer's reason when the
package cannot be installed (no registry, no ``npm``).

Run them alone with ``pytest -m realpeer tests/test_drift_servers.py``; one
model by hand with ``mcp-skew verify-peer NAME --role server``.
"""

from __future__ import annotations

import shutil

import pytest

from mcp_skew.realpeers._drift import Install, prepare, verify_server
from mcp_skew.realpeers._named import model_names, resolve

pytestmark = pytest.mark.realpeer

#: every named server model, by the name of its line (and mode)
NAMES = model_names("server")


@pytest.fixture(scope="module")
def environments() -> dict[str, Install | str]:
    """Every package the server checks need, installed two at a time before the first check."""
    wanted = {}
    for name in NAMES:
        resolved = resolve(name, "server")
        assert resolved is not None and resolved.line.installs is not None
        wanted[name] = resolved.line.installs
    ready = prepare(list(wanted.values()))
    return {name: ready[package] for name, package in wanted.items()}


@pytest.mark.parametrize("name", NAMES)
def test_server_model_matches_package(name: str, environments: dict[str, Install | str]) -> None:
    env = environments[name]
    if isinstance(env, str):
        pytest.skip(f"real package unavailable: {env}")
    if env.package.ecosystem == "npm" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    resolved = resolve(name, "server")
    assert resolved is not None
    report = verify_server(resolved)
    assert report.unavailable is None, report.unavailable
    assert report.agrees, "\n" + report.render()
    assert len(report.comparisons) >= 10

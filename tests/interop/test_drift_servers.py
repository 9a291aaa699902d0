"""Drift checks for the named server models: each against its real package.

Each named server line is installed in an isolated, cached environment
(``mcp_skew.realpeers._envs``; the first run installs, later runs reuse), its
server script is started over stdio, and the probe's client set and the raw
message sequences of docs/real-peers.md are run against it and against the
model (``mcp_skew.realpeers._drift.verify_server``). A test fails with the diff
where model and package disagree, and skips with the installer's reason when the
package cannot be installed (no registry, no ``npm``).

Run them alone with ``pytest -m realpeer tests/interop/test_drift_servers.py``; one
model by hand with ``mcp-skew verify-peer NAME --role server``.
"""

from __future__ import annotations

import pytest
from _drift_helpers import install_all, installed_model

from mcp_skew.peers import model_names
from mcp_skew.realpeers._drift import verify_server
from mcp_skew.realpeers._installs import Install

pytestmark = pytest.mark.realpeer

#: every named server model, by the name of its line (and mode)
NAMES = model_names("server")


@pytest.fixture(scope="module")
def environments() -> dict[str, Install | str]:
    """Every package the server checks need, installed two at a time before the first check."""
    return install_all(NAMES, "server")


@pytest.mark.parametrize("name", NAMES)
def test_server_model_matches_package(name: str, environments: dict[str, Install | str]) -> None:
    resolved = installed_model(name, "server", environments)
    report = verify_server(resolved)
    assert report.unavailable is None, report.unavailable
    assert report.agrees, "\n" + report.render()
    assert len(report.comparisons) >= 10

"""Shared setup of the drift checks (``test_drift_clients.py``, ``test_drift_servers.py``).

Both install every named model's real package of one role before the first
check, then hand each check its resolved model, or skip with the reason the
package cannot run here (not installable, or ``node`` missing for an npm one).
"""

from __future__ import annotations

import shutil

import pytest

from mcp_skew.peers import Resolved, resolve
from mcp_skew.realpeers._installs import Install, prepare
from mcp_skew.versions import Role

__all__ = ["install_all", "installed_model"]


def install_all(names: list[str], role: Role) -> dict[str, Install | str]:
    """Every package the named models of ``role`` need, installed two at a time.

    Maps each name to its install, or to the installer's reason it is unavailable.
    """
    wanted = {}
    for name in names:
        resolved = resolve(name, role)
        assert resolved is not None and resolved.line.installs is not None
        wanted[name] = resolved.line.installs
    ready = prepare(list(wanted.values()))
    return {name: ready[package] for name, package in wanted.items()}


def installed_model(name: str, role: Role, environments: dict[str, Install | str]) -> Resolved:
    """The resolved model ``name``, or a skip where its real package cannot run here."""
    env = environments[name]
    if isinstance(env, str):
        pytest.skip(f"real package unavailable: {env}")
    if env.package.ecosystem == "npm" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    resolved = resolve(name, role)
    assert resolved is not None
    return resolved

"""Drift checks over Streamable HTTP for the named server models that have an HTTP set-up
(the reference server ``server-everything@RELEASE``, ``mcp_skew/realpeers/servers/
server_everything.mjs streamableHttp``).

Each probe client runs against a fresh real server process on a free local port (a real
client starts its own) and against the model over the simulator's HTTP link
(``mcp_skew.realpeers._drift.verify_server_http``); status, revision, path, error codes and
steps must agree. Skipped, with the installer's reason, when the package cannot be built.
"""

from __future__ import annotations

import pytest
from _drift_helpers import install_all, installed_model

from mcp_skew.peers import model_names, resolve
from mcp_skew.realpeers._drift import verify_server_http
from mcp_skew.realpeers._installs import Install

pytestmark = pytest.mark.realpeer

#: every named server model with a Streamable HTTP set-up
NAMES = [n for n in model_names("server")
         if (r := resolve(n, "server")) is not None and r.model.http_args]


@pytest.fixture(scope="module")
def environments() -> dict[str, Install | str]:
    return install_all(NAMES, "server")


def test_the_reference_server_releases_with_streamable_http_are_checked() -> None:
    assert NAMES == ["server-everything@2025.5.12", "server-everything@2025.11.25",
                     "server-everything@2026.8.31"]


@pytest.mark.parametrize("name", NAMES)
def test_server_model_matches_package_over_http(name: str,
                                                environments: dict[str, Install | str]) -> None:
    resolved = installed_model(name, "server", environments)
    report = verify_server_http(resolved)
    assert report.unavailable is None, report.unavailable
    assert report.agrees, "\n" + report.render()
    assert len(report.comparisons) >= 10
    dual = next(c for c in report.comparisons if c.counterpart.startswith("dual") and
                c.counterpart.count(" ") == 1)
    # the probe of a dual-era client gets 400 -32000 (no session): it falls back, except on
    # 2025.5.12, whose one server instance is taken by the probe's transport (500 -32603)
    assert dual.real.path[:2] == ["discover 2026-07-28", "error -32000"]
    assert (dual.real.status == "ok") == (name != "server-everything@2025.5.12")

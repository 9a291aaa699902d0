"""A client drift check measures ``mcp-skew serve``'s cold start (for the probe wait it gives
the real client and its model) only once the client's package is installed: a check whose
install failed measures nothing (it starts no server), and the one that runs measures the
machine as it is after the install, not while it was installing. Stand-ins for the install
and the measure: no package, no process."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.peers import resolve
from mcp_skew.realpeers import _client_drift
from mcp_skew.realpeers._facets import DriftReport

#: a client whose model has a probe wait (probe-timeout=10000): the cold start is measured
NAME = "py-mcp@2.0:auto"


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], dict[str, Any]]:
    done: list[str] = []
    install: dict[str, Any] = {"env": None}

    def install_for(_line: Any, report: DriftReport) -> Any:
        done.append("install")
        if install["env"] is None:
            report.unavailable = "no network"
        return install["env"]

    def cold() -> int:
        done.append("cold start")
        return 4_000

    monkeypatch.setattr(_client_drift, "install_for", install_for)
    monkeypatch.setattr(_client_drift, "_serve_cold_ms", cold)
    return done, install


def test_a_failed_install_measures_no_cold_start(
        steps: tuple[list[str], dict[str, Any]]) -> None:
    done, _ = steps
    resolved = resolve(NAME, "client")
    assert resolved is not None
    report = _client_drift.verify_client(resolved, servers=())
    assert report.unavailable == "no network"
    assert done == ["install"]


def test_the_cold_start_is_measured_after_the_install_and_sets_the_probe_wait(
        steps: tuple[list[str], dict[str, Any]]) -> None:
    done, install = steps
    install["env"] = object()
    resolved = resolve(NAME, "client")
    assert resolved is not None
    report = _client_drift.verify_client(resolved, servers=())
    assert done == ["install", "cold start"]
    # 4 x the 4 s cold start is over the model's 10 s: the report's model says the wait used
    assert "probe-timeout=16000" in report.notation and report.comparisons == []

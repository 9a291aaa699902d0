"""Drift checks for the named client models: each real client package against simulated servers.

Each named client line is installed in an isolated, cached environment and
driven by a small script (``servers/py_mcp_client.py``, ``servers/ts_client.mjs``)
against ``mcp-skew serve SPEC`` for the servers in ``CLIENT_DRIFT_SERVERS``,
each chosen to hit a decision point (a silent probe, an exit on the next input,
-32601/-32602 to the probe, a DiscoverResult, a modern-only -32022, a
counter-offer). The real outcome (connected or not, the revision, the era) and
the requests the simulated server received must match the model run against the
same server (``mcp_skew.realpeers._client_drift.verify_client``).

The TypeScript v2 client (auto and pin modes) is also checked against servers whose
2026-07-28 results lack ``resultType`` or the caching hints (its model's ``drift_servers``):
it refuses those results after negotiating, and reads ``server/discover`` leniently.

The TypeScript v2 client in auto mode waits 60 s for its probe by default; the
check gives it (and its model) 3 s. The Python 2.x client keeps its real 10 s.

A comparison is one real run (the client package against ``mcp-skew serve SERVER``) and the
model's against the same server: the file's tests keep each in :data:`OBSERVED`, and a test
that needs a run this file made already (the same client model, the same server, the same
options) reads it there instead of starting both processes again (:func:`compare`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from _drift_helpers import install_all, installed_model

from mcp_skew.peers import Resolved, model_names, resolve
from mcp_skew.realpeers._client_drift import drift_servers_for, verify_client
from mcp_skew.realpeers._facets import Comparison, DriftReport
from mcp_skew.realpeers._installs import Install

pytestmark = pytest.mark.realpeer

#: every named client model, by the name of its line (and mode), but those checked by a test
#: of their own (mcp-remote: an HTTP-only proxy, checked by its authorization) and those built
#: from public reports (an app that needs an account: nothing to install and drive)
NAMES = [n for n in model_names("client")
         if not (r := resolve(n, "client")) or not (r.model.checked_by or r.model.reported)]


#: (client model name, server spec) -> the comparison made in this run (a test of this file
#: made it: its real run is the client's, against that server, with the model's options)
OBSERVED: dict[tuple[str, str], Comparison] = {}


def compare(resolved: Resolved, servers: Sequence[str] | None = None) -> DriftReport:
    """:func:`verify_client` of ``resolved`` against ``servers`` (default: its drift set), but
    for the servers this file already compared it with: those comparisons are taken as they
    were observed, the others are run (and kept)."""
    chosen = tuple(servers) if servers is not None else drift_servers_for(resolved.model)
    missing = tuple(s for s in chosen if (resolved.name, s) not in OBSERVED)
    report = verify_client(resolved, servers=missing)
    if report.unavailable is None:
        for comparison in report.comparisons:
            OBSERVED[(resolved.name, comparison.counterpart)] = comparison
        report.comparisons = [OBSERVED[(resolved.name, s)] for s in chosen]
    return report


@pytest.fixture(scope="module")
def environments() -> dict[str, Install | str]:
    """Every package the client checks need, installed two at a time before the first check."""
    return install_all(NAMES, "client")


@pytest.mark.parametrize("name", NAMES)
def test_client_model_matches_package(name: str, environments: dict[str, Install | str]) -> None:
    resolved = installed_model(name, "client", environments)
    report = compare(resolved)
    assert report.unavailable is None, report.unavailable
    assert report.agrees, "\n" + report.render()
    assert [c.counterpart for c in report.comparisons] == list(drift_servers_for(resolved.model))


@pytest.mark.parametrize("name", ["ts-client@2.4:auto", "ts-client@2.4:pin"])
def test_ts_v2_client_refuses_results_without_result_type_or_cache_hints(
        name: str, environments: dict[str, Install | str]) -> None:
    """The real 2.4 client negotiates 2026-07-28 with a server whose results lack resultType
    (or ttlMs/cacheScope), server/discover included, and then fails listTools; the model agrees
    on each (strict-results), where plain +strict would fail on server/discover."""
    resolved = installed_model(name, "client", environments)
    servers = ("modern:2026-07-28+no-result-type", "modern:2026-07-28+no-cache-hints",
               "modern:2026-07-28")
    report = compare(resolved, servers)  # the first two: as test_client_model_matches_package saw
    assert report.agrees, "\n" + report.render()
    refused, missing_hints, plain = report.comparisons
    for c in (refused, missing_hints):
        assert c.real.status == "failed" and "Invalid result for tools/list" in c.real.detail
        assert c.real.requests == ["server/discover 2026-07-28", "tools/list 2026-07-28"]
    assert "missing required resultType" in refused.real.detail
    assert "ttlMs" in missing_hints.real.detail
    assert plain.real.status == "ok" and plain.real.revision == "2026-07-28"

"""``probe --url`` of a protected server (``serve --http`` with ``+auth=LAYOUT``): a 401 is
never era evidence, the card says authorization is required and what each revision's
discovery finds, and ``--token`` probes as an authorized client."""

from __future__ import annotations

import json
import urllib.request

import pytest
from _serve_helpers import http_server

from mcp_skew.probe import ProbeOptions, Target, probe, render
from mcp_skew.simulator import parse_peer

pytestmark = pytest.mark.slow

CLIENTS = ("legacy:2025-06-18", "legacy:2025-11-25",
           "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26")


def _options() -> ProbeOptions:
    return ProbeOptions(clients=tuple(parse_peer(c, "client") for c in CLIENTS), prober=False,
                        jobs=2)


def test_a_protected_server_needs_auth_and_no_client_falls_back() -> None:
    with http_server("legacy:2025-11-25,2025-06-18+auth=prm") as (url, server):
        server.endpoint.protect(url)
        report = probe(Target(url=url), _options())
    for run in report.runs:
        assert run.outcome == "needs-auth", (run.name, run.outcome)
        assert not any(s.startswith("initialize") for s in run.record.session.path[1:]), \
            run.record.session.path
    assert report.auth is not None and report.auth.status == 401
    found = {e["revision"]: e["found"] for e in report.auth.revisions}
    assert found == {"2025-03-26": False, "2025-06-18": True, "2025-11-25": True,
                     "2026-07-28": True}
    codes = {f.code for f in report.server_findings}
    assert {"auth-required", "auth-undiscoverable"} <= codes
    advice = next(f.message for f in report.server_findings if f.code == "auth-undiscoverable")
    assert "/.well-known/oauth-authorization-server" in advice and "2025-03-26" in advice
    card = render(report, "terminal")
    assert "authorization required: HTTP 401" in card
    assert json.loads(render(report, "json"))["auth"]["required"] is True


def test_root_only_metadata_fails_2025_06_18_discovery_only() -> None:
    with http_server("legacy:2025-11-25+auth=prm-root") as (url, server):
        server.endpoint.protect(url)
        report = probe(Target(url=url), _options())
    assert report.auth is not None
    found = {e["revision"]: e["found"] for e in report.auth.revisions}
    assert found["2025-06-18"] is False and found["2025-11-25"] is True
    messages = [f.message for f in report.server_findings if f.code == "auth-undiscoverable"]
    assert any("oauth-protected-resource/mcp" in m and "WWW-Authenticate" in m
               for m in messages), messages


def test_with_a_token_the_probe_runs_as_an_authorized_client() -> None:
    with http_server("legacy:2025-11-25+auth=prm") as (url, server):
        server.endpoint.protect(url)
        origin = url.removesuffix("/mcp")
        form = (f"grant_type=client_credentials&client_id=mcp-skew-preregistered&"
                f"client_secret=mcp-skew-secret&resource={url}").encode()
        with urllib.request.urlopen(origin + "/auth/token", form, timeout=10) as resp:
            token = json.load(resp)["access_token"]
        report = probe(Target(url=url, headers={"Authorization": f"Bearer {token}"}),
                       _options())
    assert report.auth is None
    outcomes = {r.name: r.outcome for r in report.runs}
    assert outcomes["legacy:2025-11-25"] == "ok", outcomes

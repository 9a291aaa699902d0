"""The HTTP simulator's clients against a real Streamable HTTP server: the official Python
SDK (``mcp`` 2.3.0, ``MCPServer.run(transport="streamable-http")``) in its cached
environment, driven by ``probe --url``; each client's outcome is compared with what the
simulator predicts over HTTP for the inferred peer and for the named peer ``py-mcp@2.3``.

Bounded: one release, one server process, a few seconds. Skipped, with the installer's
reason, when the environment cannot be built.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _http_servers import free_port, serving

from mcp_skew.peers import resolve_peer
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env
from mcp_skew.simulator import run
from mcp_skew.simulator._peers import with_quirks

pytestmark = pytest.mark.realpeer

SERVER = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers" / \
    "py_mcp_server.py"
ALL = "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    try:
        env = ensure_python_env(("mcp==2.3.0",), base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build mcp==2.3.0: {exc}")
    port = free_port()
    argv = [str(env.python), str(SERVER), "--http", str(port)]
    yield from serving(argv, port, "the mcp 2.3.0 HTTP server")


def test_the_http_simulator_predicts_the_real_streamable_http_server(url: str) -> None:
    started = time.monotonic()
    report = probe(Target(url=url), ProbeOptions(timeout_ms=5000, probe_timeout_ms=3000))
    clients = [r for r in report.runs if not r.prober]
    # every client works over Streamable HTTP, the 2024-11-05 one too (POSTed first: the SDK
    # speaks protocol 2024-11-05 on its one MCP endpoint and hosts no HTTP+SSE stream)
    assert all(r.record.status == "ok" for r in clients), [
        (r.name, r.record.session.reason) for r in clients if r.record.status != "ok"]
    assert report.works("2024-11-05") and report.works("2026-07-28")
    assert report.peer.spec is not None and report.peer.spec.notation == f"dual:{ALL}"
    # what the HTTP simulator predicts for the inferred peer is what happened, client by client
    assert all(r.predicted and r.predicted["agrees"] for r in clients), [
        (r.name, r.predicted) for r in clients if not (r.predicted and r.predicted["agrees"])]
    # ... and for the named peer of this release, over HTTP (each request its own connection
    # state, so the named peer's stdio quirks do not change any outcome here)
    named = resolve_peer("py-mcp@2.3", "server")
    for r in clients:
        client = r.record.client
        if client.kind != "modern":
            client = with_quirks(client, ["post-first"], "client", client.name)
        sim = run(client, named, "handshake", transport="http")
        assert (sim.status, sim.revision) == (r.record.status, r.record.revision), (
            r.name, list(sim.session.path), list(r.record.session.path))
    # the dual-era clients read their probe by the HTTP rule; none needed to fall back here
    dual = next(r for r in clients if r.record.client.kind == "dual" and not r.record.client.quirks)
    assert dual.record.session.path == ["discover 2026-07-28", "accepted 2026-07-28"]
    assert "not-json" not in {f.code for _, f in report.findings()}
    assert time.monotonic() - started < 60

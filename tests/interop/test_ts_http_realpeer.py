"""The HTTP simulator's clients against the TypeScript SDK's Streamable HTTP server
(``@modelcontextprotocol/sdk`` 1.32.2, ``StreamableHTTPServerTransport`` with sessions, set up
as the reference server-everything does: ``mcp_skew/realpeers/servers/ts_sdk_http_server.mjs``),
driven by ``probe --url``; each client's outcome is compared with what the simulator predicts
over HTTP for the named peer ``ts-sdk@1`` with the HTTP quirk of that setup
(``not-initialized-32000``: a session-less request other than initialize gets 400 and -32000).

Bounded: one release, one server process, a few seconds. Skipped, with the installer's reason,
when the environment cannot be built.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _http_servers import free_port, serving

from mcp_skew.peers import resolve_peer
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env
from mcp_skew.simulator import run
from mcp_skew.simulator._peers import with_quirks

pytestmark = pytest.mark.realpeer

SERVER = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers" / \
    "ts_sdk_http_server.mjs"
PACKAGES = ("@modelcontextprotocol/sdk@1.32.2",)  # the drift checks' ts-sdk@1 install


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH")
    try:
        env = ensure_npm_env(PACKAGES)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {PACKAGES[0]}: {exc}")
    port = free_port()
    argv = [node, str(SERVER), str(env.node_modules), str(port)]
    yield from serving(argv, port, "the TypeScript SDK HTTP server")


def test_the_http_simulator_predicts_the_typescript_streamable_http_server(url: str) -> None:
    started = time.monotonic()
    report = probe(Target(url=url), ProbeOptions(timeout_ms=5000, probe_timeout_ms=3000))
    clients = [r for r in report.runs if not r.prober]
    assert clients
    # the named peer, with the HTTP quirk of this setup, predicts every client's outcome
    named = resolve_peer("ts-sdk@1", "server")
    peer = with_quirks(named, ["not-initialized-32000"], "server", "ts-sdk@1+not-initialized-32000")
    for r in clients:
        client = r.record.client
        if client.kind != "modern":
            client = with_quirks(client, ["post-first"], "client", client.name)
        sim = run(client, peer, "handshake", transport="http")
        assert (sim.status, sim.revision) == (r.record.status, r.record.revision), (
            r.name, list(sim.session.path), list(r.record.session.path))
    # legacy clients work; a modern-only one does not (-32000 is no modern error); the plain
    # dual-era client reads the 400's body by the HTTP rule and falls back
    assert report.works("2025-11-25") and not report.works("2026-07-28")
    modern = next(r for r in clients if r.record.client.kind == "modern")
    assert modern.record.status != "ok"
    assert modern.record.session.path[-1] == "error -32000"
    dual = next(r for r in clients if r.record.client.kind == "dual" and not r.record.client.quirks)
    assert dual.record.session.path[:3] == [
        "discover 2026-07-28", "error -32000", "http: no modern error in the answer, fall back"]
    assert (dual.record.status, dual.record.revision) == ("ok", "2025-11-25")
    assert time.monotonic() - started < 60

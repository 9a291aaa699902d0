"""The real ``mcp-remote`` proxy (npm, 0.1.38) authorizes against a protected ``mcp-skew serve
--http`` server of every layout, headless, exactly as its named model ``mcp-remote@0.1``
predicts: it completes, or fails, and it asks for the scope the model asks for.

``mcp-remote`` is a stdio server to its local client and a Streamable HTTP client of the
remote; it authorizes before it reads its stdin, and sends ``tools/list`` upstream only when
its local client does. The driver (``mcp_skew/realpeers/servers/mcp_remote_client.py``)
plays both the browser (it GETs the authorization URL the proxy prints and delivers the
redirect to the proxy's callback) and the local client (``initialize``, then
``notifications/initialized`` and ``tools/list`` once the handshake is answered).

Measured (0.1.38): ``prm``, ``prm-root``, ``oidc``, ``compat`` and ``scoped`` complete;
``no-dcr`` and ``prm+dcr-app-type`` fail at registration; ``origin`` and ``defaults`` fail
(no ``resource`` without protected resource metadata: its token has no audience, the retry
gets 401, it authorizes once more and gives up); ``prm+strict-scopes`` fails: with no scope
to be found it asks for ``openid email profile`` (quirk ``openid-scope``), which that
authorization server refuses (Cloudflare's, cloudflare/mcp-server-cloudflare issue 457).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _auth_model import first_scope, lists
from _http_servers import announced_url

from mcp_skew.peers import resolve, resolve_peer
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env
from mcp_skew.simulator import parse_peer, run
from mcp_skew.versions import REGISTRY

pytestmark = pytest.mark.realpeer

MODEL = "mcp-remote@0.1"
LAYOUTS = ("prm", "prm-root", "oidc", "no-dcr", "origin", "defaults", "compat", "scoped",
           "prm+dcr-app-type", "prm+strict-scopes")
DRIVER = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers" \
    / "mcp_remote_client.py"
SERVE = [sys.executable, "-m", "mcp_skew", "serve", "-q", "--http", "127.0.0.1:0"]


@pytest.fixture(scope="module")
def modules() -> Path:
    if shutil.which("node") is None:
        pytest.skip("no node on PATH")
    resolved = resolve(MODEL, "client")
    assert resolved is not None and resolved.line.installs is not None
    try:
        return Path(ensure_npm_env(list(resolved.line.installs.requirements),
                                   timeout=600).node_modules)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"mcp-remote cannot be installed here: {exc}")


def _drive(modules: Path, url: str) -> str:
    """The driver's output; the driver and its proxy in a process group of their own, so a
    hung run leaves no node process behind."""
    driver = subprocess.Popen([sys.executable, str(DRIVER), str(modules), url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        out, _ = driver.communicate(timeout=300)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait(10)
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mcp_remote_authorizes_as_its_model_predicts(modules: Path, layout: str) -> None:
    server = f"legacy:2025-11-25+auth={layout}"
    client, protected = resolve_peer(MODEL, "client", REGISTRY), parse_peer(server, "server")
    predicted = run(client, protected, "auth", transport="http")
    proc = subprocess.Popen([*SERVE, server], stderr=subprocess.PIPE, text=True)
    try:
        out = _drive(modules, announced_url(proc))
    finally:
        proc.terminate()
        proc.wait(10)
    real = json.loads(out.strip().splitlines()[-1])
    assert real["ok"] is lists(predicted), (layout, real, predicted.session.path)
    if real["scopes"]:
        assert real["scopes"][0] == first_scope(client, protected), (layout, real["scopes"])

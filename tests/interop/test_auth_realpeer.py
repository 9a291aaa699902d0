"""Real clients' authorization against a protected ``mcp-skew serve --http`` server of every
layout, headless: each completes or fails the flow exactly as its model predicts. The
clients: the official Python client (``mcp`` 1.30.0, its ``OAuthClientProvider``) and the
TypeScript SDK client (``@modelcontextprotocol/sdk`` 1.32.2, an ``OAuthClientProvider``
with ``finishAuth``).

Both have the same model, part of their named peers' (``py-mcp@1.30``, ``ts-sdk@1.32``
in ``mcp_skew/realpeers/_named.py``). The Python one, read from ``mcp/client/auth/oauth2.py`` and
``utils.py`` of 1.30.0 (the TypeScript one from ``dist/esm/client/auth.js``, its
``selectResourceURL`` and default ``/authorize``, ``/token``, ``/register``): protected
resource metadata from the ``WWW-Authenticate`` header, then the path-inserted and the
root well-known URLs (2025-11-25's order); RFC 8414 then OpenID discovery; without
metadata its "legacy 2025-03-26 path": the authorization server at the MCP origin, the
default endpoints (``default-endpoints``, ``auth-origin-fallback``); dynamic registration
only (no client ID metadata document unless given a URL: ``dcr-only``); ``resource`` only
once protected resource metadata was found (``resource-with-prm-only``).

| layout | the real clients | the model |
|---|---|---|
| prm, prm-root, oidc, compat | complete | completes |
| no-dcr | Python: registration 404; TypeScript: "does not support DCR" | no registration endpoint |
| origin, defaults | their token has no audience: 401 | retry 401 |

(The TypeScript client validates OpenID metadata: it refused the simulated ``oidc`` layout
until that served OpenID Provider Metadata's REQUIRED fields.)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcp_skew.peers import resolve_peer
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env, ensure_python_env
from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.versions import REGISTRY

pytestmark = pytest.mark.realpeer

SDK = "mcp==1.30.0"
#: the named peers whose models the real clients are checked against (their auth quirks
#: are part of the catalogue's model: mcp_skew/realpeers/_named.py)
PY_MODEL = "py-mcp@1.30"
TS_MODEL = "ts-sdk@1.32"
LAYOUTS = ("prm", "prm-root", "oidc", "no-dcr", "origin", "defaults", "compat")
DRIVER = Path(__file__).with_name("auth_py_mcp_client.py")
SERVE = [sys.executable, "-m", "mcp_skew", "serve", "-q", "--http", "127.0.0.1:0"]


TS_SDK = "@modelcontextprotocol/sdk@1.32.2"
TS_DRIVER = Path(__file__).with_name("auth_ts_sdk_client.mjs")


@pytest.fixture(scope="module")
def python() -> str:
    try:
        return str(ensure_python_env([SDK], timeout=600).python)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"{SDK} cannot be installed here: {exc}")


@pytest.fixture(scope="module")
def typescript() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH")
    try:
        return [node, str(TS_DRIVER), str(ensure_npm_env([TS_SDK], timeout=600).node_modules)]
    except EnvironmentUnavailable as exc:
        pytest.skip(f"{TS_SDK} cannot be installed here: {exc}")


def _url(proc: subprocess.Popen[str]) -> str:
    assert proc.stderr is not None
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        line = proc.stderr.readline()
        if " on http://" in line:
            return line.rsplit(" on ", 1)[1].strip()
        if not line and proc.poll() is not None:
            break
    raise AssertionError("serve did not say its URL")


def _model(name: str) -> PeerSpec:
    return resolve_peer(name, "client", REGISTRY)


def _check(driver: list[str], layout: str, model: str) -> None:
    server = f"legacy:2025-11-25+auth={layout}"
    predicted = run(_model(model), parse_peer(server, "server"), "auth", transport="http")
    proc = subprocess.Popen([*SERVE, server], stderr=subprocess.PIPE, text=True)
    try:
        url = _url(proc)
        done = subprocess.run([*driver, url], capture_output=True, text=True,
                              timeout=120, check=False)
    finally:
        proc.terminate()
        proc.wait(10)
    real = json.loads(done.stdout.strip().splitlines()[-1])
    assert real["ok"] is (predicted.status == "ok"), (layout, real, predicted.session.path)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_python_client_authorizes_as_its_model_predicts(python: str, layout: str) -> None:
    _check([python, str(DRIVER)], layout, PY_MODEL)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_typescript_client_authorizes_as_its_model_predicts(typescript: list[str],
                                                                layout: str) -> None:
    _check(typescript, layout, TS_MODEL)

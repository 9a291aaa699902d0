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
| prm, prm-root, oidc, compat, scoped | complete (scoped: list tools) | completes |
| no-dcr | Python: registration 404; the others: "does not support DCR" | no registration |
| origin, defaults | their token has no audience: 401 | retry 401 |
| prm+dcr-app-type | the SDKs: registration refused; Inspector: completes (native) | the same |
| prm+strict-scopes | complete (they ask no scope where none is named) | completes |

The Inspector 2.12.0 CLI (``inspector --cli URL --transport http --method tools/list``)
prints the authorization URL ("Please navigate to: ..."); the test plays the browser: it
GETs the URL (the test authorization server approves at once) and delivers the redirect to
the CLI's callback. Against ``scoped`` a ``tools/call`` gets ``403 insufficient_scope``: the
CLI runs its OAuth again from scratch with the scope it asked for first, retries once and
fails; its model (``reauthorize-same-scope``) asks the same scopes
(``test_the_inspector_steps_up_as_its_model_predicts``). ``mcp-remote`` has a test of its
own (``test_auth_mcp_remote_realpeer.py``).

(The TypeScript client validates OpenID metadata: it refused the simulated ``oidc`` layout
until that served OpenID Provider Metadata's REQUIRED fields.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from _auth_model import first_scope, reauthorizations
from _http_servers import announced_url, free_port

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
LAYOUTS = ("prm", "prm-root", "oidc", "no-dcr", "origin", "defaults", "compat", "scoped",
           "prm+dcr-app-type", "prm+strict-scopes")
DRIVER = Path(__file__).with_name("auth_py_mcp_client.py")
SERVE = [sys.executable, "-m", "mcp_skew", "serve", "-q", "--http", "127.0.0.1:0"]


INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
INSPECTOR_MODEL = "inspector@2.12"
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


def _model(name: str) -> PeerSpec:
    return resolve_peer(name, "client", REGISTRY)


def _check(driver: list[str], layout: str, model: str) -> None:
    server = f"legacy:2025-11-25+auth={layout}"
    predicted = run(_model(model), parse_peer(server, "server"), "auth", transport="http")
    proc = subprocess.Popen([*SERVE, server], stderr=subprocess.PIPE, text=True)
    try:
        url = announced_url(proc)
        done = subprocess.run([*driver, url], capture_output=True, text=True,
                              timeout=120, check=False)
    finally:
        proc.terminate()
        proc.wait(10)
    real = json.loads(done.stdout.strip().splitlines()[-1])
    assert real["ok"] is _lists(predicted), (layout, real, predicted.session.path)


def _lists(predicted: Any) -> bool:
    """The drivers list tools only: a server whose scopes a call would need (``scoped``) is
    judged on the listing."""
    return bool(predicted.status == "ok" or predicted.failed_step == "call a tool")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_python_client_authorizes_as_its_model_predicts(python: str, layout: str) -> None:
    _check([python, str(DRIVER)], layout, PY_MODEL)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_typescript_client_authorizes_as_its_model_predicts(typescript: list[str],
                                                                layout: str) -> None:
    _check(typescript, layout, TS_MODEL)


# -- the Inspector's CLI: it prints the authorization URL; the test follows it -----------

@pytest.fixture(scope="module")
def inspector(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("no node on PATH")
    try:
        modules = ensure_npm_env([INSPECTOR], timeout=600).node_modules
    except EnvironmentUnavailable as exc:
        pytest.skip(f"{INSPECTOR} cannot be installed here: {exc}")
    return Path(modules) / ".bin" / "inspector"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _approve(line: str, callback: str) -> None:
    """Play the browser: GET the authorization URL the CLI printed (the test authorization
    server approves at once, 302 to the callback) and deliver the redirect to the CLI."""
    asked = line.split(": ", 1)[1].strip()
    try:
        urllib.request.build_opener(_NoRedirect).open(asked, timeout=10)
        return  # no redirect: nothing to deliver
    except urllib.error.HTTPError as err:
        location = err.headers.get("Location") or ""
    if location.startswith(callback):
        urllib.request.urlopen(location, timeout=10).read()


def _inspector_run(cli: Path, url: str, home: Path, *, call: bool = False,
                   scopes: list[str] | None = None) -> bool:
    """Whether the CLI's tools/list (or, with ``call``, its tools/call of echo) succeeds;
    ``scopes`` gains the scope of each authorization URL it prints."""
    callback = f"http://127.0.0.1:{free_port()}/oauth/callback"
    env = {**os.environ, "HOME": str(home), "MCP_AUTO_OPEN_ENABLED": "true",
           "MCP_INSPECTOR_SECRET_STORE": "memory"}
    method = ["tools/call", "--tool-name", "echo", "--tool-arg", "text=hi"] if call \
        else ["tools/list"]
    proc = subprocess.Popen([str(cli), "--cli", url, "--transport", "http", "--method",
                             *method, "--callback-url", callback],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None and proc.stdout is not None
        for line in proc.stderr:
            if line.startswith("Please navigate to: "):
                query = urllib.parse.urlsplit(line.split(": ", 1)[1].strip()).query
                if scopes is not None:
                    scopes.append(" ".join(urllib.parse.parse_qs(query).get("scope", [])))
                _approve(line, callback)
        out = proc.stdout.read()
        return proc.wait(60) == 0 and ('"content"' if call else '"tools"') in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_inspector_authorizes_as_its_model_predicts(inspector: Path, layout: str,
                                                        tmp_path: Path) -> None:
    server = f"legacy:2025-11-25+auth={layout}"
    predicted = run(_model(INSPECTOR_MODEL), parse_peer(server, "server"), "auth",
                    transport="http")
    proc = subprocess.Popen([*SERVE, server], stderr=subprocess.PIPE, text=True)
    try:
        ok = _inspector_run(inspector, announced_url(proc), tmp_path)
    finally:
        proc.terminate()
        proc.wait(10)
    assert ok is _lists(predicted), (layout, predicted.session.path, predicted.reason)


def test_the_inspector_steps_up_as_its_model_predicts(inspector: Path, tmp_path: Path) -> None:
    """A tools/call that needs more scope (``scoped``: ``mcp:tools`` too) gets 403
    insufficient_scope; the CLI runs its OAuth again from scratch, with the scope it asked
    for first, retries once and fails (measured on 2.12.0); its model
    (``reauthorize-same-scope``) takes the same path: the same authorizations, each with the
    same scope, and the call fails."""
    server = "legacy:2025-11-25+auth=scoped"
    client, protected = _model(INSPECTOR_MODEL), parse_peer(server, "server")
    predicted = run(client, protected, "auth", transport="http")  # lists, then calls
    proc = subprocess.Popen([*SERVE, server], stderr=subprocess.PIPE, text=True)
    scopes: list[str] = []
    try:
        ok = _inspector_run(inspector, announced_url(proc), tmp_path, call=True, scopes=scopes)
    finally:
        proc.terminate()
        proc.wait(10)
    assert ok is (predicted.status == "ok"), (predicted.session.path, predicted.reason)
    assert scopes == [first_scope(client, protected), *reauthorizations(predicted)], (
        scopes, predicted.session.path)

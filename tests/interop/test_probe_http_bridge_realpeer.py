"""Drift check: ``probe --url`` against a bridge built on Python ``mcp`` 1.x: ``mcp-proxy``
0.13.0 serving, over Streamable HTTP, a FastMCP (``mcp`` 1.30.0) stdio server, stateful and
stateless. The bridge's HTTP side is the SDK's session manager, so its 400s carry a
JSON-RPC error with the id ``"server-error"``: the probe reads them as the answer to the
POST (no timeout, no ``silent`` peer), the dual-era client falls back on them and connects
at 2025-11-25, and the saved peer predicts that ``py-mcp@2.3``, ``ts-client@2.4:auto`` and
``inspector@2.12:auto`` do the same.

The bridge and the server it starts run in a process group of their own, ended by its id
when the test is done. Skipped, with the installer's reason, when the environment cannot
be built.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _http_servers import assert_probed_as_the_wire_answers, free_port
from _waits import BOUND_S

pytestmark = pytest.mark.realpeer

#: the server behind the bridge: FastMCP over stdio, one tool
BACKEND = '''
from mcp.server.fastmcp import FastMCP

app = FastMCP("fastmcp1-behind-a-bridge")


@app.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


app.run()
'''


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


#: The bridge and the SDK its child runs on (tests/_realpeer_envs.py builds it ahead in CI).
BRIDGE = ("mcp-proxy==0.13.0", "mcp==1.30.0")


@pytest.fixture(scope="module", params=["stateful", "stateless"])
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[str]:
    from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

    try:
        env = ensure_python_env(BRIDGE, base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {' with '.join(BRIDGE)}: {exc}")
    backend = tmp_path_factory.mktemp("bridge") / "backend.py"
    backend.write_text(BACKEND)
    proxy = Path(env.python).parent / "mcp-proxy"
    port = free_port()
    argv = [str(proxy), "--port", str(port), "--log-level", "WARNING",
            *(["--stateless"] if request.param == "stateless" else []),
            "--", str(env.python), str(backend)]
    log = tmp_path_factory.mktemp("bridge-log") / "stderr.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + BOUND_S
        while not _listening(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"mcp-proxy did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the bridge and the server it started
        proc.wait()


def test_a_bridge_built_on_mcp1_is_probed_as_the_wire_answers(url: str) -> None:
    assert_probed_as_the_wire_answers(url)

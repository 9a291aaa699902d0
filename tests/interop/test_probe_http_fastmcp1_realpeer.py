"""Drift check: ``probe --url`` against a real Python ``mcp`` 1.x FastMCP Streamable HTTP
server, stateful and stateless (``mcp`` 1.30.0 in its cached environment). Its 400s carry
a JSON-RPC error with the id ``"server-error"``: the probe reads them as the answer to the
POST (no timeout, no ``silent`` peer), the dual-era clients fall back on them and connect
at 2025-11-25, and the saved peer predicts that ``py-mcp@2.3``, ``ts-client@2.4:auto`` and
``inspector@2.12:auto`` do the same (they fall back on the 400, as the real ones do).

Skipped, with the installer's reason, when the environment cannot be built.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _http_servers import assert_probed_as_the_wire_answers, free_port, serving

pytestmark = pytest.mark.realpeer

SERVER = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers" / \
    "fastmcp1_http_server.py"


@pytest.fixture(scope="module", params=["stateful", "stateless"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

    try:
        env = ensure_python_env(("mcp==1.30.0",), base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build mcp==1.30.0: {exc}")
    port = free_port()
    argv = [str(env.python), str(SERVER), str(port)]
    if request.param == "stateless":
        argv.append("--stateless")
    yield from serving(argv, port, f"the mcp 1.30.0 FastMCP server ({request.param})")


def test_a_fastmcp1_http_server_is_probed_as_the_wire_answers(url: str) -> None:
    assert_probed_as_the_wire_answers(url)

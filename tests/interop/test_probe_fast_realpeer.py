"""The default probe against ``--thorough`` on real servers: ``mcp`` 2.3.0, 1.9.4 and 1.0.0
and fastmcp 4.2.3 (each in a cached isolated environment). The default probe starts at
most 4 server processes (one per distinct first exchange of a built-in client; one more
for a server that offers an extension) and gives
the per-client verdicts and the peer of the thorough probe (a process per client); a row
it could not check says so and gives no verdict.

Skipped, with the installer's reason, when an environment cannot be built.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_skew.probe import ProbeOptions, ProbeReport, Target, probe
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

pytestmark = pytest.mark.realpeer

SERVERS = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers"
ENVS = {
    "mcp-2.3.0": (("mcp==2.3.0",), "py_mcp_server.py", 4),
    "mcp-1.9.4": (("mcp==1.9.4", "pydantic==2.11.*"), "py_mcp_server.py", 4),
    "mcp-1.0.0": (("mcp==1.0.0", "pydantic==2.10.*"), "py_mcp_server.py", 4),
    # and one start more: FastMCP declares MCP Apps, so the probe asks once more with a client
    # that advertises it (a server may list its app tools only to such a client,
    # docs/extensions.md)
    "fastmcp-4.2.3": (("fastmcp==4.2.3",), "fastmcp_server.py", 5),
}


def _verdicts(report: ProbeReport, skip: set[str]) -> list[tuple[str, str, str | None]]:
    return [(r.name, r.record.status, r.record.revision) for r in report.runs
            if not r.prober and r.name not in skip]


@pytest.mark.parametrize("name", sorted(ENVS))
def test_the_default_probe_agrees_with_thorough_on_a_real_server(name: str) -> None:
    requirements, script, most = ENVS[name]
    try:
        env = ensure_python_env(requirements, base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {' '.join(requirements)}: {exc}")
    target = Target(command=(str(env.python), str(SERVERS / script)))
    fast = probe(target, ProbeOptions())
    thorough = probe(target, ProbeOptions(thorough=True))
    assert fast.mode in ("fast", "fast, replayed"), fast.mode
    unchecked = {r.name for r in fast.runs if r.outcome == "not-checked"}
    assert all(not r.real and not r.derived_from for r in fast.runs if r.name in unchecked)
    assert _verdicts(fast, unchecked) == _verdicts(thorough, unchecked)
    assert fast.peer.spec is not None and thorough.peer.spec is not None
    assert fast.peer.spec.notation == thorough.peer.spec.notation
    assert fast.starts <= most < thorough.starts

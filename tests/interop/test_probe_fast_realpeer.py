"""The default probe against ``--thorough`` on real servers: ``mcp`` 2.3.0, 1.9.4 and 1.0.0
and fastmcp 4.2.3 (each in a cached isolated environment). The default probe starts at
most 3 server processes for ``mcp`` 2.3.0 and gives the per-client verdicts and the peer
of the thorough probe (a process per client).

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
    "mcp-2.3.0": (("mcp==2.3.0",), "py_mcp_server.py", 3),
    "mcp-1.9.4": (("mcp==1.9.4", "pydantic==2.11.*"), "py_mcp_server.py", 4),
    "mcp-1.0.0": (("mcp==1.0.0", "pydantic==2.10.*"), "py_mcp_server.py", 3),
    "fastmcp-4.2.3": (("fastmcp==4.2.3",), "fastmcp_server.py", 3),
}


def _verdicts(report: ProbeReport) -> list[tuple[str, str, str | None]]:
    return [(r.name, r.record.status, r.record.revision) for r in report.runs if not r.prober]


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
    assert fast.mode == "fast", fast.mode
    assert _verdicts(fast) == _verdicts(thorough)
    assert fast.peer.spec is not None and thorough.peer.spec is not None
    assert fast.peer.spec.notation == thorough.peer.spec.notation
    assert fast.starts <= most < thorough.starts

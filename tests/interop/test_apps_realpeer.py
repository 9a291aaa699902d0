"""The initialize-after-discover reports against the real releases (issue 39, docs/apps.md).

The servers of the reports fix the connection's era on the probe: Python ``mcp`` 2.x's stdio
runner (the real ``mcp`` 2.3.0 server, ``py-mcp@2.3``'s drift-check script) answers
``initialize`` after a ``server/discover`` with -32022. Claude Code, the one app of the
reports that runs headless without an account, is driven against it by its own health
check (``claude mcp list``, ``servers/app_client.mjs``), the wire recorded between them
(``mcp-skew record``):

- 2.1.332 (the model ``claude-code@2.1.332``): probes, stays modern, connects. Whether the
  probe is answered within its 2.5 s wait or not (a Python server on a loaded machine starts
  slower), the outcome is the same: on a -32022 it probes again.
- 2.1.280, the release of anthropics/claude-code issue 96183: run here it sends no probe at
  all (the stdio negotiation is behind a flag the vendor sets) and connects in the legacy
  era; the reported failure is modelled (``claude-code@2.1.280``, reported) and reproduced
  in the simulator (``tests/unit/test_apps.py``), not here.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.peers import resolve
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env
from mcp_skew.realpeers._client_drift import _negotiated, run_driver
from mcp_skew.realpeers._installs import SERVERS_DIR, install, server_command

pytestmark = pytest.mark.realpeer

#: the releases driven here (tests/_realpeer_envs.py prebuilds them): name -> (packages, what)
PACKAGES = {
    "claude-code@2.1.332": (("@anthropic-ai/claude-code@2.1.332",), "the measured release"),
    "claude-code@2.1.280": (("@anthropic-ai/claude-code@2.1.280",), "the release of 96183"),
}
DRIVER = SERVERS_DIR / "app_client.mjs"


def _sticky_server() -> list[str]:
    resolved = resolve("py-mcp@2.3", "server")
    assert resolved is not None and resolved.line.installs is not None
    try:
        env = install(resolved.line.installs)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"mcp 2.3.0 unavailable: {exc}")
    return server_command(resolved.family, resolved.model, env)


def _drive(name: str, server: list[str], log: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    try:
        app = ensure_npm_env(PACKAGES[name][0])
    except EnvironmentUnavailable as exc:
        pytest.skip(f"{name} unavailable: {exc}")
    recorded = [sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--", *server]
    run = run_driver(["node", str(DRIVER), str(app.node_modules), "--app", "claude-code",
                      "--", *recorded])
    requests = [r["message"] for line in log.read_text(encoding="utf-8").splitlines()
                if (r := json.loads(line)).get("dir") == "c2s"
                and isinstance(r.get("message"), dict) and "method" in r["message"]]
    return run.result, requests


def test_the_fixed_release_stays_modern_with_a_sticky_era_server(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    result, requests = _drive("claude-code@2.1.332", _sticky_server(), log)
    assert result.get("ok"), result
    methods = [m["method"] for m in requests]
    assert methods[0] == "server/discover"
    assert methods[-1] == "tools/list"
    assert _negotiated(log) == "2026-07-28"


def test_the_reported_release_sends_no_probe_without_the_vendor_flag(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    result, requests = _drive("claude-code@2.1.280", _sticky_server(), log)
    assert result.get("ok"), result
    methods = [m["method"] for m in requests]
    assert "server/discover" not in methods and methods[0] == "initialize"
    assert _negotiated(log) == "2025-11-25"

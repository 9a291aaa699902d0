"""The call step's dialect case against real TypeScript v2 clients (docs/calls.md): a server
whose outputSchema carries draft-07 ``$schema`` (tests/servers/tool_server.py draft-07).

@modelcontextprotocol/client 2.0.0-beta.5 refuses every call of its tool ("supports JSON
Schema 2020-12 only", quirk dialect-2020-12-only); 2.4.0 reads draft-07 (PR 2534, quirk
declared-dialects); and mcp-skew's default probe of the same server names the first and not
the second; 2.4.0 fails a call without structuredContent (-32600) or with one that does not match
(-32602). The environments are in tests/_realpeer_envs.py (NPM_LISTS)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _paths import SERVERS

from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.probe._command import _named_clients
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "mcp_skew" / "realpeers" / "servers" / "ts_client.mjs"
#: a release that refuses draft-07 (quirk dialect-2020-12-only) and one that reads it
#: (declared-dialects)
BETA = ("@modelcontextprotocol/client@2.0.0-beta.5",)
AFTER = ("@modelcontextprotocol/client@2.4.0",)
SERVER = [sys.executable, str(SERVERS / "tool_server.py"), "draft-07"]
TOOL = "list_allowed_directories"


def _call(packages: tuple[str, ...], case: str = "draft-07") -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH")
    try:
        env = ensure_npm_env(packages)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {packages[0]}: {exc}")
    done = subprocess.run([node, str(DRIVER), str(env.node_modules), "--v2", "--call", TOOL,
                           "--", *SERVER[:-1], case], capture_output=True, text=True, timeout=120,
                          check=False)
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line is not None, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(line[len("RESULT "):])
    return result


def test_a_beta_client_refuses_draft_07_and_2_4_reads_it() -> None:
    beta = _call(BETA)
    assert beta["ok"] and TOOL in beta["tools"], beta  # it lists the tool ...
    assert not beta["call"]["ok"] and "unsupported dialect" in beta["call"]["error"]  # ... no call
    after = _call(AFTER)
    assert after["ok"] and after["call"] == {"ok": True, "error": None}, after


def test_the_default_probe_names_the_release_that_refuses() -> None:
    report = probe(Target(command=tuple(SERVER)), ProbeOptions(named_clients=_named_clients()))
    found = [f.message for _, f in report.findings() if f.code == "output-schema-dialect"]
    assert found
    assert all("+dialect-2020-12-only (@modelcontextprotocol/client 2.0.0-beta.1" in m
               and "ts-client@2.4" not in m for m in found)


def test_2_4_fails_a_call_without_structured_content_and_one_that_does_not_match() -> None:
    """needs-structured-content (-32600) and checks-structured-content (-32602), as the
    named model ts-client@2.4 carries them."""
    missing = _call(AFTER, "no-structured")
    assert not missing["call"]["ok"]
    assert "did not return structured content" in missing["call"]["error"], missing
    wrong = _call(AFTER, "mismatch")
    assert not wrong["call"]["ok"]
    assert "does not match the tool's output schema" in wrong["call"]["error"], wrong

"""``probe --with next`` against a real server: the official Python SDK (``mcp`` 2.3.0).

The next revision's clients join the card with verdicts: ``next`` puts ``2026-07-28`` on
the wire (the spec repository's draft declares it), so they work with a server of the
release, and are named ``next`` in the card; ``next+sep-3279``'s clients read a tool's
output from ``outputs`` (SEP-3279, pull request 3279 of modelcontextprotocol/
modelcontextprotocol: "CallToolResult.outputs replaces content and structuredContent"),
which the SDK does not send: they fail the call, and the advice names the layer's steps
and the guide's command.

Skipped, with the installer's reason, when the environment cannot be built.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.realpeers import EnvironmentUnavailable, ensure_python_env

pytestmark = pytest.mark.realpeer

SERVERS = Path(__file__).resolve().parents[2] / "mcp_skew" / "realpeers" / "servers"
ENVS = {"mcp-2.3.0": (("mcp==2.3.0",), "py_mcp_server.py")}


def test_probe_with_next_adds_the_next_revisions_clients(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    requirements, script = ENVS["mcp-2.3.0"]
    try:
        env = ensure_python_env(requirements, base_python=sys.executable)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"cannot build {' '.join(requirements)}: {exc}")
    card = tmp_path / "card.json"
    main(["probe", "--with", "next", "--with", "next+sep-3279", "--tool", "echo", "--args",
          '{"text": "hi"}', "--quiet", "--format", "json", "--out", str(card), "--",
          str(env.python), str(SERVERS / script)])
    capsys.readouterr()
    data = json.loads(card.read_text(encoding="utf-8"))
    got = {c["client"]: c for c in data["clients"]}
    for name in ("modern:next", "dual:next,2025-11-25"):
        assert (got[name]["status"], got[name]["revision"]) == ("ok", "next"), got[name]
        sent = {e["message"]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
                for e in got[name]["transcript"] if e["dir"] == "c2s"
                and "_meta" in (e["message"].get("params") or {})}
        assert sent == {"2026-07-28"}  # the wire string, in the transcript
    assert got["modern:2026-07-28"]["status"] == "ok"
    layered = got["modern:next+sep-3279"]
    assert layered["status"] == "failed" and "result shape" in layered["reason"]
    advice = next(a for a in data["advice"] if a["revision"] == "next+sep-3279")
    assert advice["command"] == "mcp-skew migrate 2026-07-28 next+sep-3279 --role server"
    titles = [item["title"] for item in advice["steps"]]
    assert any(t.startswith("sep-3279-call-tool-outputs") for t in titles)
    assert any("#" in f and "modern:next+sep-3279" in f for f in advice["failing"])
    assert not any(a["revision"] == "next" for a in data["advice"])  # its clients all work

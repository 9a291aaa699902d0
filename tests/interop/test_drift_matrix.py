"""The real-world matrix, run for real: the known case (docs/named-peers.md, "What will
happen between X and Y").

``mcp-skew matrix --run-real`` runs the real client package against the real
server script and marks each cell where prediction and reality differ. The case
to reproduce: the Python ``mcp`` 2.3 client in its default mode fails against a
server built on ``mcp`` 1.0 (the probe goes unanswered, and the fallback
``initialize`` finds the process gone), while its legacy mode works; against
``mcp`` 1.9.4, which answers the probe with -32602, the default mode works too.
"""

from __future__ import annotations

import json

import pytest

from mcp_skew.cli import main
from mcp_skew.peers import resolve
from mcp_skew.realpeers._installs import prepare

pytestmark = pytest.mark.realpeer

CLIENTS = ("py-mcp@2.3", "py-mcp@2.3:legacy")
SERVERS = ("py-mcp@1.0", "py-mcp@1.9.4")


def _install_or_skip(clients: tuple[str, ...], servers: tuple[str, ...]) -> None:
    """Install every package of the pairs, or skip with the installer's reason."""
    packages = [r.line.installs for r in (*(resolve(c, "client") for c in clients),
                                          *(resolve(s, "server") for s in servers))
                if r is not None and r.line.installs is not None]
    missing = [reason for reason in prepare(packages).values() if isinstance(reason, str)]
    if missing:
        pytest.skip(f"real package unavailable: {missing[0]}")


def test_known_case_runs_for_real(capsys: pytest.CaptureFixture[str]) -> None:
    _install_or_skip(CLIENTS, SERVERS)
    assert main(["matrix", "--clients", *CLIENTS, "--servers", *SERVERS, "--run-real",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cells = {(c["client"], c["server"]): c for row in data["cells"] for c in row}
    auto_old = cells[("py-mcp@2.3", "py-mcp@1.0")]
    assert auto_old["status"] == "failed" and auto_old["real"]["status"] == "failed"
    assert "Connection closed" in auto_old["real"]["detail"]
    assert auto_old["real"]["seconds"] >= 10  # it waited out the 10 s probe first
    legacy_old = cells[("py-mcp@2.3:legacy", "py-mcp@1.0")]["real"]
    assert (legacy_old["status"], legacy_old["revision"]) == ("ok", "2024-11-05")
    auto_new = cells[("py-mcp@2.3", "py-mcp@1.9.4")]["real"]
    assert (auto_new["status"], auto_new["revision"]) == ("ok", "2025-03-26")
    assert all(c["real"]["ran"] and c["real"]["agrees"] for c in cells.values())


def test_reference_server_and_inspector_run_for_real(capsys: pytest.CaptureFixture[str]) -> None:
    """The reference server and the Inspector CLI in the real matrix: every cell agrees,
    the Inspector's modern (pinned) mode fails against the legacy-only reference server and
    its auto mode falls back to 2025-11-25."""
    clients = ("inspector@2.12:auto", "inspector@2.12:modern", "ts-client@2.4:pin")
    servers = ("server-everything@2025.1.14", "server-everything@2025.11.25")
    _install_or_skip(clients, servers)
    assert main(["matrix", "--clients", *clients, "--servers", *servers, "--run-real",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cells = {(c["client"], c["server"]): c for row in data["cells"] for c in row}
    assert all(c["real"]["ran"] and c["real"]["agrees"] for c in cells.values()), [
        (k, c["real"]) for k, c in cells.items() if not c["real"]["agrees"]]
    auto = cells[("inspector@2.12:auto", "server-everything@2025.11.25")]["real"]
    assert (auto["status"], auto["revision"]) == ("ok", "2025-11-25")
    old = cells[("inspector@2.12:auto", "server-everything@2025.1.14")]["real"]
    assert (old["status"], old["revision"]) == ("ok", "2024-11-05")
    assert cells[("inspector@2.12:modern", "server-everything@2025.11.25")]["real"][
        "status"] == "failed"

"""The pytest plugin, as a server's own test suite would use it (in a separate pytest run).

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_probe_plugin.py``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from _paths import SERVERS

SIM = SERVERS / "sim_stdio_server.py"

SUITE = f"""
import sys
import pytest

SERVER = [sys.executable, {str(SIM)!r}, "legacy:2025-06-18"]
CLIENTS = ["legacy:2025-06-18", "modern:2026-07-28"]


def test_the_fixture_returns_the_report(mcp_skew_probe):
    report = mcp_skew_probe(SERVER, clients=CLIENTS, timeout=30)
    report.assert_works("2025-06-18")
    assert report.peer.spec.notation == "legacy:2025-06-18"


@pytest.mark.mcp_skew(command=SERVER, clients=CLIENTS, timeout=30)
def test_marker_defaults_and_require(mcp_skew_probe):
    mcp_skew_probe(require=["2025-06-18", "2026-07-28"])


def test_require_runs_the_client_of_each_required_revision(mcp_skew_probe):
    report = mcp_skew_probe(SERVER, clients=["dual:2026-07-28,2025-06-18"], timeout=30,
                            prober=False, require=["2025-06-18"])
    assert [r.name for r in report.runs] == ["dual:2026-07-28,2025-06-18", "legacy:2025-06-18"]


def test_bad_options_are_type_errors(mcp_skew_probe):
    with pytest.raises(TypeError, match="unknown option"):
        mcp_skew_probe(SERVER, colour="red")
    with pytest.raises(TypeError, match="one of the two"):
        mcp_skew_probe()
"""


def test_the_plugin_in_a_servers_own_suite(tmp_path: Path) -> None:
    (tmp_path / "test_my_server.py").write_text(textwrap.dedent(SUITE))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--strict-markers", "-p", "no:cacheprovider",
         "-p", "mcp_skew.pytest_plugin", "--basetemp", str(tmp_path / "tmp"),
         "test_my_server.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "3 passed" in out and "1 failed" in out
    assert "test_marker_defaults_and_require" in out
    assert "clients that cannot work with" in out
    assert "2026-07-28: modern:2026-07-28 incompatible" in out
    assert "transcripts: " in out  # the evidence is kept under the test's tmp_path
    recorded = list((tmp_path / "tmp").rglob("*.jsonl"))
    assert len(recorded) == 8  # two probes of two clients and the prober, one of two clients


def test_the_plugin_imports_nothing_heavy() -> None:
    code = ("import sys; import mcp_skew.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.startswith('mcp_skew')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    # the package's __init__ reads its version, a literal in _version that imports nothing
    assert out.strip() == "['mcp_skew', 'mcp_skew._version', 'mcp_skew.pytest_plugin']"


CLIENT = SERVERS.parent / "clients" / "scripted_client.py"

CLIENT_SUITE = f"""
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

CLIENT = [sys.executable, {str(CLIENT)!r}]
LEFT = {{}}


def test_a_dual_client_falls_back_on_a_legacy_stdio_server(mcp_skew_server):
    server = mcp_skew_server("legacy:2025-11-25")
    done = subprocess.run([*CLIENT, "--", *server.command], capture_output=True, timeout=60)
    seen = server.observation(done.returncode)
    assert (seen.outcome, seen.revision, seen.era) == ("works", "2025-11-25", "legacy")
    assert seen.path[:2] == ["discover 2026-07-28", "error -32601"]
    assert seen.probe.then == "initialize"


def test_a_legacy_client_against_a_modern_server_fails(mcp_skew_server):
    server = mcp_skew_server("modern:2026-07-28")
    done = subprocess.run([*CLIENT, "--era", "legacy", "--", *server.command],
                          capture_output=True, timeout=60)
    assert done.returncode == 1
    seen = server.observation(done.returncode)
    assert seen.outcome == "fails" and seen.revision is None
    assert seen.failed_on.startswith("initialize 2025-11-25")


def test_a_modern_client_over_http(mcp_skew_server):
    server = mcp_skew_server("modern:2026-07-28", transport="http")
    assert server.command == [] and server.url.startswith("http://127.0.0.1:")
    done = subprocess.run([*CLIENT, "--era", "modern", "--url", server.url],
                          capture_output=True, timeout=60)
    seen = server.observation(done.returncode)
    assert (seen.outcome, seen.revision, seen.era) == ("works", "2026-07-28", "modern")
    LEFT["url"] = server.url


def test_a_server_the_client_leaves_running(mcp_skew_server):
    server = mcp_skew_server("legacy:2025-06-18")
    proc = subprocess.Popen(server.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    LEFT["proc"] = proc  # stdin held open: it would run until this process ends
    for _ in range(600):  # until it has started and logged its start (bounded: 60 s)
        if server.log.exists() and server.log.stat().st_size:
            break
        time.sleep(0.1)
    assert proc.poll() is None


def test_the_fixture_ended_both_servers():
    proc = LEFT["proc"]
    assert proc.wait(timeout=10) is not None  # ended at the previous test's teardown
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(LEFT["url"], data=b"{{}}", timeout=5)


def test_a_bad_spec_is_a_value_error(mcp_skew_server):
    with pytest.raises(ValueError, match="mcp_skew_server: .*1999-01-01"):
        mcp_skew_server("legacy:1999-01-01")
    with pytest.raises(ValueError, match="transport 'carrier-pigeon'"):
        mcp_skew_server("legacy:2025-06-18", transport="carrier-pigeon")
"""


def test_the_server_fixture_in_a_clients_own_suite(tmp_path: Path) -> None:
    (tmp_path / "test_my_client.py").write_text(textwrap.dedent(CLIENT_SUITE))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "mcp_skew.pytest_plugin", "--basetemp", str(tmp_path / "tmp"),
         "test_my_client.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "6 passed" in proc.stdout
    logs = sorted(p.parent.name for p in (tmp_path / "tmp").rglob("wire.jsonl"))
    assert logs == ["mcp-skew-server-1"] * 4  # each under its test's tmp_path

"""``mcp-skew probe``: exit codes, formats, --record, --save-peer, bad input.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_probe_cli.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from _paths import SERVERS

from mcp_skew.cli import main
from mcp_skew.probe._peer import load_probe_peer

SIM = [sys.executable, str(SERVERS / "sim_stdio_server.py")]
FEW = ["--client", "legacy:2025-06-18", "--client", "modern:2026-07-28", "--no-prober"]


def test_require_sets_the_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    server = ["--", *SIM, "legacy:2025-06-18,2025-03-26"]
    assert main(["probe", "--quiet", *FEW, "--require", "2025-06-18", *server]) == 0
    capsys.readouterr()
    assert main(["probe", "--quiet", *FEW, "--require", "2025-06-18,2026-07-28", *server]) == 1
    err = capsys.readouterr().err
    assert "required revision failed: 2026-07-28: modern:2026-07-28 incompatible" in err
    assert "2025-06-18:" not in err


def test_the_full_probe_with_json_record_and_save_peer(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    record, peer = tmp_path / "rec", tmp_path / "peer.json"
    code = main(["probe", "--thorough", "--format", "json", "--record", str(record),
                 "--save-peer", str(peer), "--", *SIM, "legacy:2025-11-25,2025-06-18+unknown-32602",
                 "--stderr", "server log line"])
    assert code == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["peer"]["sentence"] == ("behaves like legacy:2025-11-25,2025-06-18 with -32602 "
                                        "on unknown requests")
    assert len(data["clients"]) == 11 and data["transport"] == "stdio"
    assert data["startup"]["cold_start_ms"] is not None
    assert "mcp-skew probe: [11/11]" in err and "peer saved to" in err
    jsonl = sorted(record.glob("*.jsonl"))
    assert len(jsonl) == 11
    first = [json.loads(line) for line in jsonl[0].read_text().splitlines()]
    assert first[0] == {"format": "mcp-skew-transcript", "format_version": 1, "source": "probe",
                        "clock": "wall"}
    assert first[1]["event"] == "start" and first[1]["text"].startswith("started pid")
    assert first[2]["dir"] == "c2s" and "t" in first[2] and "ms" in first[2]
    assert all(p.read_text() == "server log line\n"
               for p in record.glob("*.stderr.log") if "bogus" not in p.name)
    assert json.loads((record / "report.json").read_text())["peer"] == data["peer"]
    assert all(c["stderr"] == "server log line\n" for c in data["clients"] if not c["prober"])
    cold = json.loads(peer.read_text())["cold_start"]["ms"]  # the measured start, kept
    assert load_probe_peer(peer).notation == ("legacy:2025-11-25,2025-06-18+unknown-32602"
                                              f"+slow={cold}")


def test_terminal_and_junit_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = ["--", *SIM, "legacy:2025-06-18"]
    assert main(["probe", "--quiet", *FEW, *server]) == 0
    card = capsys.readouterr().out
    assert "modern:2026-07-28" in card and "incompatible" in card
    assert "server: behaves like legacy:2025-06-18" in card
    out = tmp_path / "probe.xml"
    assert main(["probe", "--quiet", *FEW, "--format", "junit", "--out", str(out), *server]) == 0
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "1"


def test_a_tool_call_and_error_probes(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["probe", "--quiet", "--format", "json", "--client", "legacy:2025-11-25",
                 "--no-prober", "--tool", "echo", "--args", '{"text": "hi"}', "--error-probes",
                 "--", *SIM, "legacy:2025-11-25+not-found-code=-32602"])
    assert code == 0
    (entry,) = json.loads(capsys.readouterr().out)["clients"]
    steps = {s["name"]: s for s in entry["steps"]}
    assert steps["call echo"]["ok"]
    assert steps["tool input error"]["got"] == "result"  # the simulated echo takes anything
    assert steps["missing resource"]["got"] == "error -32602"
    assert entry["outcome"] == "ok"  # diagnostic steps never degrade a run
    assert {f["code"] for f in entry["findings"]} == {"resource-not-found-code"}


def test_a_command_that_cannot_start_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--quiet", *FEW, "--", "/nonexistent/server"]) == 2
    captured = capsys.readouterr()
    assert "cannot start '/nonexistent/server'" in captured.err
    assert captured.out == ""  # no card of clients that never met a server

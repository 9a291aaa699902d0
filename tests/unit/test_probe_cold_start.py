"""The probe's cold start over real processes: measured, retried, never read as silence; and
the gate: a server that does not start is exit 2 with one line; ping; --require in JUnit."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from mcp_skew.cli import main
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.simulator import parse_peer

pytestmark = pytest.mark.slow

SERVERS = Path(__file__).resolve().parents[1] / "servers"
SIM = (sys.executable, str(SERVERS / "sim_stdio_server.py"))
DUAL = "dual:2026-07-28,2025-11-25"


def _verdicts(report: object) -> list[tuple[str, str, str | None]]:
    runs = report.runs  # type: ignore[attr-defined]
    return [(r.name, r.record.status, r.record.revision) for r in runs if not r.prober]


def test_a_start_slower_than_every_request_timeout_gives_the_same_peer_and_verdicts() -> None:
    opts = ProbeOptions(timeout_ms=800, probe_timeout_ms=800, jobs=4)
    fast = probe(Target(command=(*SIM, DUAL)), opts)
    slow = probe(Target(command=(*SIM, f"{DUAL}+slow=2500")), opts)
    assert fast.peer.spec is not None and slow.peer.spec is not None
    assert slow.peer.spec.notation == fast.peer.spec.notation == DUAL
    assert _verdicts(slow) == _verdicts(fast)
    assert slow.startup["cold_start_ms"] >= 2500 and slow.startup["failed"] is None
    # the probe's own dual-era clients wait 800 ms for server/discover, but their first
    # request waits for the start too: their rows reach discovery, so no note says otherwise
    assert slow.startup["slow_for"] == []
    doc = slow.to_dict(transcript=False)
    assert doc["startup"]["cold_start_ms"] == slow.startup["cold_start_ms"]
    assert doc["starts"] == slow.starts >= sum(r.real for r in slow.runs)


def test_a_start_that_timed_out_is_tried_once_more(tmp_path: Path) -> None:
    # both calibrating processes' first starts take a minute; every later start is quick
    command = (sys.executable, str(SERVERS / "slow_first_starts.py"), str(tmp_path), "2", "60",
               DUAL)
    opts = ProbeOptions(timeout_ms=2000, startup_timeout_ms=10_000, jobs=4,
                        clients=(parse_peer("legacy:2025-11-25", "client"),
                                 parse_peer("modern:2026-07-28", "client"),
                                 parse_peer(f"{DUAL}", "client")), prober=False)
    report = probe(Target(command=command), opts)
    assert report.startup["attempts"] == 2 and report.startup["failed"] is None
    assert report.startup["cold_start_ms"] is not None
    assert report.peer.spec is not None and report.peer.spec.notation == DUAL
    assert all(r.record.status == "ok" for r in report.runs)
    assert report.starts == len(report.runs) + 2  # the two tries that timed out count
    assert len(list(tmp_path.glob("start-*"))) == report.starts


def test_a_missing_command_is_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--quiet", "--", "/nonexistent/mcp-server"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["mcp-skew: error: the server did not start: cannot start "
                                "'/nonexistent/mcp-server': No such file or directory"]


def test_a_server_that_exits_before_answering_is_exit_2(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    record = tmp_path / "rec"
    code = main(["probe", "--quiet", "--record", str(record), "--",
                 sys.executable, str(SERVERS / "exit_first_line.py")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    # the one line ends with what the server last wrote to stderr: why it did not start
    assert err.splitlines() == ["mcp-skew: error: the server did not start: it exited before "
                                "answering anything (the server process exited (code 3)); its "
                                "stderr: fatal: cannot handle "
                                "'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                "\"params\":{\"pro'"]
    doc = json.loads((record / "report.json").read_text())
    assert doc["starts"] == 2 and len(doc["clients"]) == 2  # the calibrating runs, no more


def test_a_server_that_never_answers_is_exit_2_after_two_tries(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["probe", "--quiet", "--timeout", "0.5", "--startup-timeout", "1", "--",
                 sys.executable, str(SERVERS / "hang_server.py")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == ["mcp-skew: error: the server did not start: no answer within "
                                "1 s of starting, in both tries"]


def _findings(doc: dict[str, object], code: str) -> list[dict[str, object]]:
    clients = doc["clients"]
    assert isinstance(clients, list)
    return [f for c in clients for f in c["findings"] if f["code"] == code]


def _json_probe(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["probe", "--quiet", "--format", "json", *argv]) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


def test_the_probe_pings_and_reports_a_server_that_does_not_answer(
        capsys: pytest.CaptureFixture[str]) -> None:
    few = ["--no-prober", "--client", "legacy:2025-11-25", "--client", "legacy:2025-06-18",
           "--timeout", "1"]
    served = _json_probe(capsys, *few, "--", *SIM, "legacy:2025-11-25,2025-06-18")
    assert _findings(served, "ping-unanswered") == []
    pinged = [c for c in served["clients"] if any(  # type: ignore[attr-defined]
        (e.get("message") or {}).get("method") == "ping" for e in c["transcript"])]
    # every client that negotiates a legacy session pings (issue 35: a MUST checked on each)
    assert [c["client"] for c in pinged] == ["legacy:2025-11-25", "legacy:2025-06-18"]
    dropped = _json_probe(capsys, *few, "--", *SIM, "legacy:2025-11-25,2025-06-18",
                          "--drop", "ping")
    found = _findings(dropped, "ping-unanswered")  # one per client that pinged
    assert [(f["severity"], f["message"]) for f in found] == [
        ("error", "ping got no answer: the receiver MUST respond promptly with an empty result")
    ] * 2
    # negotiated, then a step failed: degraded, never ok (one verdict in every format)
    assert [c["outcome"] for c in dropped["clients"]] == ["degraded"] * 2  # type: ignore[attr-defined]


def test_no_not_found_code_for_a_server_without_resources(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json_probe(capsys, "--error-probes", "--no-prober", "--client", "legacy:2025-06-18",
                      "--", sys.executable, str(SERVERS / "legacy_lenient.py"))
    assert _findings(doc, "resource-not-found-code") == []
    (client,) = doc["clients"]  # type: ignore[misc]
    assert not [e for e in client["transcript"]
                if (e.get("message") or {}).get("method") == "resources/read"]
    with_resources = _json_probe(capsys, "--error-probes", "--no-prober", "--client",
                                 "legacy:2025-06-18", "--", *SIM,
                                 "legacy:2025-06-18+not-found-code=-32601")
    assert _findings(with_resources, "resource-not-found-code")


def test_junit_with_require_agrees_with_the_exit_code(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    out = tmp_path / "probe.xml"
    code = main(["probe", "--quiet", "--require", "2025-06-18", "--format", "junit", "--out",
                 str(out), "--", *SIM, "legacy:2025-06-18"])
    assert code == 0
    capsys.readouterr()
    root = ET.parse(out).getroot()
    assert root.findall(".//failure") == []
    suite = root.find("testsuite")
    assert suite is not None and suite.get("failures") == "0"
    skipped = [c.get("name") for c in root.iter("testcase") if c.find("skipped") is not None]
    assert "modern:2026-07-28" in skipped and suite.get("skipped") == str(len(skipped))
    assert "revision: None" not in out.read_text()
    code = main(["probe", "--quiet", "--require", "2025-11-25", "--format", "junit", "--out",
                 str(out), "--", *SIM, "legacy:2025-06-18"])
    assert code == 1
    failed = [c.get("name") for c in ET.parse(out).getroot().iter("testcase")
              if c.find("failure") is not None]
    assert failed == ["legacy:2025-11-25", "serves 2025-11-25 clients"]

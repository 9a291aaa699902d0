"""``mcp-skew probe-client`` driving a real (scripted) client program: ``tests/clients/
scripted_client.py``, a dual-era, legacy or modern client with a chosen fallback rule.

Slow: each run starts the client, which starts ``mcp-skew serve``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from _proctree import marked

from mcp_skew.cli import main
from mcp_skew.peers import resolve_peer

pytestmark = pytest.mark.slow

CLIENT = [sys.executable, str(Path(__file__).resolve().parents[1] / "clients" / "scripted_client.py")]
#: long enough for the served simulator's start-up on a loaded machine
PROBE_S = "8"


def _card(tmp_path: Path, capsys: pytest.CaptureFixture[str], servers: list[str],
          client_args: list[str], *more: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "card.json"
    argv = ["probe-client", "--quiet", "--format", "json", "--out", str(out), "--timeout", "40",
            *(w for s in servers for w in ("--server", s)), *more,
            "--", *CLIENT, *client_args, "--", "{server}"]
    code = main(argv)
    capsys.readouterr()
    return code, json.loads(out.read_text()) if out.exists() else {}


def _left_running() -> list[int]:
    """Processes this test process started (marked by wire._procs) that still run."""
    return marked(os.getpid())


def test_a_fallback_keyed_to_32601_is_inferred_found_and_saved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peer = tmp_path / "client.json"
    code, card = _card(tmp_path, capsys, ["legacy:2025-11-25", "legacy:2025-11-25+unknown-32602",
                                          "modern:2026-07-28"],
                       ["--fallback", "32601", "--probe-timeout", PROBE_S],
                       "--save-peer", str(peer))
    assert code == 0
    rows = card["rows"]
    assert isinstance(rows, list)
    assert [r["observed"]["outcome"] for r in rows] == ["works", "fails", "works"]
    assert rows[0]["observed"]["path"] == [
        "discover 2026-07-28", "error -32601", "initialize 2025-11-25", "accepted 2025-11-25"]
    assert rows[1]["observed"]["failed_on"] == "server/discover 2026-07-28 (error -32602)"
    assert rows[1]["as_spec_says"] is False and rows[1]["model_agrees"] is True
    assert rows[1]["client"]["exit_code"] == 1
    assert "could not connect" in rows[1]["client"]["stderr_tail"]
    inferred = card["inferred"]
    assert isinstance(inferred, dict) and inferred["spec"].endswith("+fallback-32601")
    findings = card["findings"]
    assert isinstance(findings, list)
    assert [f["code"] for f in findings] == ["client-fallback-keyed-to-code"]
    assert findings[0]["fix"]
    saved = resolve_peer(f"@{peer}", "client")
    assert saved.has("fallback-32601") and saved.kind == "dual"
    assert main(["matrix", "--clients", f"@{peer}", "--servers", "legacy:2025-11-25+unknown-32602",
                 "--format", "json"]) == 0
    cell = json.loads(capsys.readouterr().out)["cells"][0][0]
    # the saved peer is named after the script the client runs (probe-client --label sets it)
    assert cell["client"] == "probe-client:clients/scripted_client.py" and cell["status"] == "failed"
    assert cell["path"] == rows[1]["observed"]["path"]  # the saved peer predicts the real run
    assert _left_running() == []


def test_require_gates_on_the_revisions_the_client_reaches(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    legacy_only = ["--era", "legacy", "--revisions", "2025-11-25"]
    code, card = _card(tmp_path, capsys, ["legacy:2025-11-25"], legacy_only,
                       "--require", "2025-11-25,2024-11-05")
    assert code == 1
    # a plain server of the required revision nobody served was added
    assert [r["server"] for r in card["rows"]] == ["legacy:2025-11-25", "legacy:2024-11-05"]
    assert card["required"] == {"2025-11-25": ["legacy:2025-11-25"], "2024-11-05": []}
    assert card["inferred"]["spec"] == "legacy:2025-11-25"


def test_a_client_that_hangs_is_ended_with_its_server(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.txt"
    code = main(["probe-client", "--quiet", "--out", str(out), "--timeout", "6",
                 "--server", "legacy:2025-11-25", "--", *CLIENT, "--era", "legacy", "--hang",
                 "--", "{server}"])
    assert code == 0
    text = out.read_text()
    assert "client-hangs" in text and "connects, then fails" in text
    assert _left_running() == []


def test_a_client_that_cannot_start_is_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["probe-client", "--quiet", "--server", "legacy:2025-11-25", "--",
                 "/nonexistent/client", "{server}"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot run '/nonexistent/client'" in err
    assert len(err.strip().splitlines()) == 1


def test_over_http_the_client_gets_a_url_of_a_served_simulator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.json"
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--timeout", "30", "--server", "legacy:2025-11-25", "--server",
                 "modern:2026-07-28", "--record", str(tmp_path / "logs"), "--",
                 *CLIENT, "--probe-timeout", PROBE_S, "--url", "{url}"])
    assert code == 0
    card = json.loads(out.read_text())
    assert card["transport"] == "http"
    assert [(r["observed"]["outcome"], r["observed"]["revision"]) for r in card["rows"]] == [
        ("works", "2025-11-25"), ("works", "2026-07-28")]
    assert card["inferred"]["spec"] == "dual:2026-07-28,2025-11-25"  # no counter-offer seen
    assert all(r["model_agrees"] and r["as_spec_says"] for r in card["rows"])
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert logs == ["01.jsonl", "02.jsonl"]
    assert '"http"' in (tmp_path / "logs" / "01.jsonl").read_text()  # the requests' headers


UPGRADE = "legacy:2025-11-25->dual:2026-07-28,2025-11-25"


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_client_that_keeps_the_era_across_restarts_is_found_after_the_upgrade(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], transport: str) -> None:
    """The same server command (or URL), legacy-only for the first run, then upgraded: the
    client that stored the legacy era opens with initialize and stays legacy."""
    place = ["--url", "{url}"] if transport == "http" else ["--", "{server}"]
    out = tmp_path / "card.json"
    servers = ["--server", "dual:2026-07-28,2025-11-25", "--server", UPGRADE]
    argv = ["probe-client", "--quiet", "--format", "json", "--out", str(out), "--timeout", "40",
            *servers, "--record", str(tmp_path / "logs"), "--", *CLIENT, "--probe-timeout",
            PROBE_S, "--keeps-era", str(tmp_path / "kept.json"), *place]
    assert main(argv) == 0
    capsys.readouterr()
    card = json.loads(out.read_text())
    rows = card["rows"]
    assert [(r["observed"]["era"], r["observed"]["revision"]) for r in rows] == [
        ("modern", "2026-07-28"), ("legacy", "2025-11-25")]
    assert rows[1]["observed"]["path"] == ["initialize 2025-11-25", "accepted 2025-11-25"]
    assert rows[1]["client"]["before"]["server"] == "legacy:2025-11-25"
    assert [f["code"] for f in card["findings"]] == ["client-keeps-legacy-after-upgrade"]
    assert card["inferred"]["spec"] == "dual:2026-07-28,2025-11-25+keeps-era"
    assert rows[1]["model_agrees"] is True
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir() if p.suffix == ".jsonl")
    assert logs == ["01.jsonl", "02.before.jsonl", "02.jsonl"]
    assert _left_running() == []


def test_a_plain_dual_client_finds_the_modern_era_after_the_upgrade(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, card = _card(tmp_path, capsys, [UPGRADE], ["--probe-timeout", PROBE_S])
    assert code == 0
    rows = card["rows"]
    assert isinstance(rows, list)
    assert rows[0]["observed"]["era"] == "modern" and rows[0]["observed"]["outcome"] == "works"
    assert card["findings"] == []

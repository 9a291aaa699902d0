"""The probe's call step against real server processes (tests/servers/tool_server.py): the
three cases of issue 38's "Done when", each found by the default probe, through the CLI, with
the named clients that would refuse it; the call rides in the processes the probe starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from _paths import SERVERS

from mcp_skew.cli import main


def _card(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = tmp_path / f"{case}.json"
    code = main(["probe", "--quiet", "--format", "json", "--out", str(out), "--",
                 sys.executable, str(SERVERS / "tool_server.py"), case])
    capsys.readouterr()
    assert code == 0
    card: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return card


def _messages(card: dict[str, Any], code: str) -> list[str]:
    return [f["message"] for c in card["clients"] for f in c["findings"] if f["code"] == code]


def _starts_match_the_real_runs(card: dict[str, Any]) -> None:
    real = [c for c in card["clients"] if c["real"]]
    assert card["mode"] == "fast" and card["starts"] == len(real) <= 4
    # every real run that negotiated called the tool in its own process
    called = [c for c in real if c["status"] == "ok"
              and any(s["name"] == "tool call" and not s["got"].startswith("not called")
                      for s in c["steps"])]
    assert called and len(called) == len([c for c in real if c["status"] == "ok"])


@pytest.mark.parametrize(("case", "code", "words"), [
    ("call-fails", "tool-call-failed", "keyValidator._parse is not a function"),
    ("draft-07", "output-schema-dialect",
     "+dialect-2020-12-only (@modelcontextprotocol/client 2.0.0-beta.1"),
    ("no-structured", "structured-content-missing", "ts-client@2.4:legacy"),
])
def test_the_default_probe_finds_it(case: str, code: str, words: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    card = _card(case, tmp_path, capsys)
    found = _messages(card, code)
    assert found, card["summary"]
    assert all(words in m for m in found)
    if code != "tool-call-failed":
        assert all("would refuse it (predicted from their models)" in m for m in found)
    _starts_match_the_real_runs(card)


def test_a_draft_07_server_card_names_ts_client_2_4_as_reading_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2.4.0 reads draft-07 (PR 2534): it is not among the refusers; a call that returns what
    the schema says gives no structured-content finding."""
    card = _card("draft-07", tmp_path, capsys)
    assert not any("ts-client@2.4" in m for m in _messages(card, "output-schema-dialect"))
    assert not _messages(card, "structured-content-missing")
    assert not _messages(card, "structured-content-mismatch")

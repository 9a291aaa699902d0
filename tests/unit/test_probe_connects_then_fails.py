"""The probe card counts a client that connects and then fails a list as failing: JSON status
``failed`` with the step, the card's "why", a JUnit failure (a real server process: slow)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from mcp_skew.cli import main

pytestmark = pytest.mark.slow

SERVER = [sys.executable, "-m", "mcp_skew", "serve", "modern:2026-07-28+no-cache-hints", "-q"]
CLIENT = "dual:2026-07-28,2025-11-25+strict-results"


def test_the_card_counts_a_client_that_connects_then_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    main(["probe", "--format", "json", "--client", CLIENT, "--", *SERVER])
    doc = json.loads(capsys.readouterr().out)
    (client,) = [c for c in doc["clients"] if not c["prober"]]
    assert client["status"] == "failed" and client["revision"] == "2026-07-28"
    assert client["failed_step"] == "list tools"
    assert client["reason"].startswith("connected, then list tools failed: invalid result")
    junit = tmp_path / "probe.xml"
    main(["probe", "--format", "junit", "--out", str(junit), "--client", CLIENT, "--", *SERVER])
    capsys.readouterr()
    (case,) = [c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == CLIENT]
    failure = case.find("failure")
    assert failure is not None and "list tools" in (failure.get("message") or "")

"""probe-client and time (issue 37). It measures the client, not itself: a client whose probe wait is 1 s
gives the same card and the same saved peer whatever the machine's load, the wait it infers
is its own (1 s, within 20 %), and it fails with no server that answers in time.

It used to read the simulated server's start-up (a fresh Python process, 0.5 to 3 s) as the
client's: a 1 s probe timed out against servers that answer at once, the card blamed the
client (``client-fails-where-spec-works``) and changed with the load. The runs here are the
default server set, once as the machine is and once with every CPU kept busy by processes
the test starts (and ends).

A client that reads an incomplete ``server/discover`` result as a failed probe is inferred
with ``+strict-discover`` from the server that sends one, and its saved peer predicts every
run; one that takes the result as it is, without.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from _paths import TESTS

from mcp_skew.cli import main
from mcp_skew.peers import resolve_peer
from mcp_skew.probe_client._expect import predict
from mcp_skew.probe_client._servers import split_upgrade

CLIENT = [sys.executable, str(TESTS / "clients" / "scripted_client.py")]


@contextmanager
def _busy_cpus() -> Iterator[None]:
    """Every CPU kept busy by a spinning process while the block runs; ended after it."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                 stdin=subprocess.DEVNULL)
                for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for proc in spinners:
            proc.kill()
        for proc in spinners:
            proc.wait()


def _probe(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    out, peer = tmp_path / f"{name}.json", tmp_path / f"{name}.peer.json"
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--save-peer", str(peer), "--label", "scripted", "--",
                 *CLIENT, "--probe-timeout", "1", "--restart", "--", "{server}"])
    capsys.readouterr()
    assert code == 0
    return (json.loads(out.read_text(encoding="utf-8")),
            json.loads(peer.read_text(encoding="utf-8")))


def _card(card: dict[str, Any]) -> list[tuple[str, str, str | None, str]]:
    """Each row's server, outcome, revision and path, the measured times left out."""
    return [(r["server"], r["observed"]["outcome"], r["observed"]["revision"],
             re.sub(r"\d+ ms", "N ms", " -> ".join(r["observed"]["path"])))
            for r in card["rows"]]


def _probe_waits(peer: dict[str, Any]) -> list[int]:
    return [w["waited_ms"] for w in peer["waits"] if w["request"].startswith("server/discover")]


def test_a_1s_probe_wait_is_read_the_same_at_any_load(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quiet_card, quiet_peer = _probe(tmp_path, "as-is", capsys)
    with _busy_cpus():
        busy_card, busy_peer = _probe(tmp_path, "busy", capsys)
    assert _card(quiet_card) == _card(busy_card)
    assert quiet_peer["peer"] == busy_peer["peer"]
    assert "+probe-timeout=1000" in quiet_peer["peer"]
    for card, peer in ((quiet_card, quiet_peer), (busy_card, busy_peer)):
        # every server answers in time but the silent ones, and the client works with all
        assert [r["observed"]["outcome"] for r in card["rows"]] == ["works"] * len(card["rows"])
        assert not [f for f in card["findings"] if f["severity"] in ("error", "warning")]
        waits = _probe_waits(peer)
        assert len(waits) == 2  # the two silent servers, each once
        assert all(800 <= w <= 1200 for w in waits), waits
        assert 800 <= card["inferred"]["traits"]["probe_ms"] <= 1200


def _predicts(peer_file: Path, card: dict[str, Any]) -> list[str]:
    """The rows the saved client peer does not predict (outcome and revision)."""
    client = resolve_peer(f"@{peer_file}", "client")
    wrong = []
    for row in card["rows"]:
        before, after = split_upgrade(row["server"])
        server = resolve_peer(after, "server")
        first = resolve_peer(before, "server") if before is not None else None
        model = predict(client, server, "stdio", before=first)
        seen = row["observed"]
        if (model.outcome, model.revision) != (seen["outcome"], seen["revision"]):
            wrong.append(f"{row['server']}: model {model.outcome} {model.revision}, "
                         f"seen {seen['outcome']} {seen['revision']}")
    return wrong


@pytest.mark.parametrize("strict", [True, False], ids=["strict-discover", "lenient"])
def test_a_client_that_falls_back_on_an_incomplete_discover_result_is_inferred_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool) -> None:
    out, peer = tmp_path / "card.json", tmp_path / "peer.json"
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--save-peer", str(peer), "--",
                 *CLIENT, "--restart", *(["--strict-discover"] if strict else []),
                 "--", "{server}"])
    capsys.readouterr()
    assert code == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    (row,) = [r for r in card["rows"] if r["server"].endswith("+discover-incomplete")]
    saved = json.loads(peer.read_text(encoding="utf-8"))["peer"]
    if strict:  # it read the incomplete result as a failed probe and fell back
        assert row["observed"]["path"][:3] == ["discover 2026-07-28", "accepted 2026-07-28",
                                               "initialize 2025-11-25"]
        assert row["observed"]["revision"] == "2025-11-25"
        assert "+strict-discover" in saved
    else:
        assert row["observed"]["revision"] == "2026-07-28"
        assert "+strict-discover" not in saved
    assert _predicts(peer, card) == []


def test_a_servers_cold_start_is_played_and_raced_by_the_clients_wait(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a 1 s probe wait against a server that answers at once, and one whose first answer
    # comes 4 s after its start (+slow=4000): the second race is lost, the client falls back
    # on the same process, and the log times its lines when it sent them, not when the
    # server, asleep, read them
    out = tmp_path / "card.json"
    words = ["--", "{server}"]
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--server", "dual:2026-07-28,2025-11-25",
                 "--server", "dual:2026-07-28,2025-11-25+slow=4000", "--",
                 *CLIENT, "--probe-timeout", "1", *words])
    capsys.readouterr()
    assert code == 0
    at_once, slow = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert (at_once["observed"]["outcome"], at_once["observed"]["revision"]) == (
        "works", "2026-07-28")
    assert slow["observed"]["path"][:2] == ["discover 2026-07-28", "timeout after "
                                            f"{slow['observed']['probe']['waited_ms']} ms"]
    assert 800 <= slow["observed"]["probe"]["waited_ms"] <= 1200
    assert slow["observed"]["revision"] == "2025-11-25"

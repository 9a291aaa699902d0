"""A probe a server's CI can trust, against a hand-written legacy server (tests/servers/legacy_lenient.py).

- each client's verdict comes from its own transcript: ``--client THAT`` and the full
  probe agree, in the progress line, the card, JSON and JUnit, and ``--require`` gives
  the same exit code whatever else runs;
- a server that exits is blamed on the request in flight, with its stderr in the card;
  one that exits whatever it is sent gets no ``crash-on-unknown``;
- the card counts what it lists, and ends with what the author should change, in
  order, for 2026-07-28 clients;
- the simulator's prediction is compared by code, not only by status.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_probe_verdicts.py``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from _paths import ROOT, SERVERS

from mcp_skew.cli import main
from mcp_skew.probe._clients import builtin_clients

LENIENT = [sys.executable, str(SERVERS / "legacy_lenient.py")]
TOOL = ["--tool", "echo", "--args", '{"text": "hi"}', "--error-probes"]
CLIENTS = [spec.name for spec in builtin_clients()]
PROGRESS = re.compile(r"^mcp-skew probe: \[\d+/\d+\] (\S+): (\S+) ?(\S*) \(\d+ ms\)$", re.M)


def _probe(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main(["probe", "--format", "json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _verdicts(doc: dict, err: str) -> dict[str, tuple[str, str, str | None, str]]:  # type: ignore[type-arg]
    """client -> (outcome, status, revision, reason), each checked against the progress line."""
    progress = {name: (outcome, rev or None) for name, outcome, rev in PROGRESS.findall(err)}
    out = {}
    for c in doc["clients"]:
        if c["prober"]:
            continue
        assert progress[c["client"]] == (c["outcome"], c["revision"]), c["client"]
        out[c["client"]] = (c["outcome"], c["status"], c["revision"], c["reason"])
    return out


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str]:  # type: ignore[type-arg]
    """The full probe, once for the module."""
    with pytest.MonkeyPatch.context():
        import contextlib
        import io

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["probe", "--format", "json", *TOOL, "--", *LENIENT])
    assert code == 0
    return json.loads(out.getvalue()), err.getvalue()


@pytest.mark.parametrize("client", CLIENTS)
def test_a_client_alone_gets_the_verdict_it_gets_in_the_full_probe(
        client: str, full: tuple[dict, str], capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[type-arg]
    alone_code, alone, err = _probe(capsys, "--client", client, "--no-prober", *TOOL, "--",
                                    *LENIENT)
    assert alone_code == 0
    assert _verdicts(alone, err) == {client: _verdicts(*full)[client]}


def test_the_verdicts_are_those_of_a_strict_modern_client_and_the_culprit(
        full: tuple[dict, str]) -> None:  # type: ignore[type-arg]
    verdicts = _verdicts(*full)
    outcome, _, _, reason = verdicts["modern:2026-07-28"]
    assert outcome == "incompatible"
    assert reason == ("tools/list got a result without resultType (legacy-shaped): the "
                      "TypeScript v2 client (@modelcontextprotocol/client 2.4.0) rejects it")
    # the wrong-type tools/call kills the server: the run fails there, not "ok"
    assert verdicts["legacy:2025-06-18"][:3] == ("exited", "failed", None)
    assert verdicts["legacy:2025-06-18"][3] == \
        "the server exited on tools/call (id 4, step 'tool input error')"
    doc, _ = full
    entry = next(c for c in doc["clients"] if c["client"] == "legacy:2025-06-18")
    assert entry["culprit"]["method"] == "tools/call" and entry["culprit"]["id"] == 4
    assert "TypeError" in entry["stderr"]
    codes = {f["code"] for c in doc["clients"] for f in c["findings"]}
    assert "crash-on-unknown" not in codes and "unexpected-answer" not in codes
    # modern-only advice is not for a legacy server
    assert not codes & {"missing-result-type", "missing-cache-hints"}
    assert {f["code"] for f in doc["server_findings"]} == {"serves-before-initialize"}


@pytest.mark.parametrize(("clients", "require", "code"), [
    ([], "2025-03-26", 0),
    (["--client", "modern:2026-07-28"], "2025-03-26", 0),  # the 2025-03-26 client is added
    (["--client", "legacy:2025-03-26"], "2025-03-26,2026-07-28", 1),
    ([], "2025-03-26,2026-07-28", 1),
    (["--client", "dual:2026-07-28,2025-06-18"], "2026-07-28", 1),
])
def test_require_gives_the_same_exit_code_whatever_else_runs(
        clients: list[str], require: str, code: int, capsys: pytest.CaptureFixture[str]) -> None:
    got = main(["probe", "--quiet", "--no-prober", *clients, "--require", require, "--format",
                "junit", "--", *LENIENT])
    out, err = capsys.readouterr()
    assert got == code, err
    suites = ET.fromstring(out.split("\n", 1)[1]).findall("testsuite")
    required = suites[1].findall("testcase")
    assert [c.get("name") for c in required] == [f"serves {r} clients" for r in
                                                  require.split(",")]
    failed = [c.get("name") for c in required if c.find("failure") is not None]
    assert failed == ([] if code == 0 else ["serves 2026-07-28 clients"])
    assert suites[1].get("failures") == str(len(failed))


def test_the_card_counts_what_it_lists_and_says_what_to_change(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--quiet", *TOOL, "--", *LENIENT]) == 0
    card = capsys.readouterr().out
    head = card.splitlines()[1]
    assert "10 clients + prober" in head
    listed = card.split("\nfindings (", 1)[1]
    count, lines = int(listed.split(")", 1)[0]), listed.split("\n\n", 1)[0].splitlines()[1:]
    assert count == len(lines) and count > 0
    assert "missing-result-type" not in card and "missing-cache-hints" not in card
    # the stderr of the crash, under the client it ended
    why = card.split("\nwhy:\n", 1)[1]
    assert "the server exited on tools/call (id 4, step 'tool input error')" in why
    assert "| TypeError: can only concatenate str" in why
    change = card.split("\nwhat to change:\n", 1)[1]
    modern = change.split("  to serve 2026-07-28 clients", 1)[1]
    assert change.index("first, for every client") < change.index("to serve 2026-07-28")
    steps = [line.strip() for line in modern.splitlines() if line.strip()]
    assert steps[1] == ("the guide: mcp-skew migrate 2025-06-18 2026-07-28 --role server  "
                        "(docs/migrations/2025-06-18_to_2026-07-28.md)")
    numbered = [s.split(":", 1)[0] for s in steps if re.match(r"\d+\. ", s)]
    assert numbered[:5] == ["1. Answer server/discover", "2. Keep answering initialize",
                            "3. Pick the era per connection", "4. Never mix the eras",
                            "5. Refuse versions the era's way"]
    assert "now: server/discover got error -32601" in modern
    assert "with -32602 instead of running it under legacy rules" in modern
    assert "now: a 2026-07-28 request sent before initialize was served under legacy rules" \
        in modern
    assert "docs/migrations/2025-06-18_to_2026-07-28.md#serve-both-eras" in modern
    assert "specification/2026-07-28/server/discover.mdx" in modern
    for anchor in ("serve-both-eras", "handshake-removed-2026-07-28"):
        page = ROOT / "docs/migrations/2025-06-18_to_2026-07-28.md"
        headings = [h.strip("# ").replace("`", "").replace("(", "").replace(")", "")
                    .lower().replace(" ", "-") for h in page.read_text().splitlines()
                    if h.startswith("#")]
        assert anchor in headings


def test_one_client_is_one_client_and_no_cold_start_is_not_none(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--no-prober", "--client", "legacy:2025-06-18", "--", *LENIENT]) == 0
    out, err = capsys.readouterr()
    assert "(stdio, 1 client, " in out
    assert "None" not in err


def test_a_server_that_exits_at_once_is_not_blamed_on_unknown_requests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the server did not start: exit 2, and only the calibrating clients ran (the report is
    # kept with --record)
    code = main(["probe", "--record", str(tmp_path), "--", sys.executable,
                 str(SERVERS / "exit_first_line.py")])
    _, err = capsys.readouterr()
    assert code == 2
    assert "the server did not start: it exited before answering anything" in err
    assert "None" not in err
    doc = json.loads((tmp_path / "report.json").read_text())
    codes = [f["code"] for c in doc["clients"] for f in c["findings"]]
    assert "crash-on-unknown" not in codes and "silent-on-unknown" not in codes
    (server,) = doc["server_findings"]
    assert server["code"] == "server-exited"
    assert server["message"].startswith("the server exited before answering anything in 2 of "
                                        "2 runs, whatever it was sent first (")


def test_the_prediction_is_compared_by_code(capsys: pytest.CaptureFixture[str]) -> None:
    _, doc, _ = _probe(capsys, "--no-prober", "--client", "dual:2026-07-28,2025-06-18",
                       "--client", "legacy:2025-06-18", "--", *LENIENT, "--unknown-code",
                       "-32603")
    assert doc["peer"]["spec"] == "legacy:2025-06-18+unknown-32602"
    dual, legacy = doc["clients"]
    assert dual["status"] == dual["predicted"]["status"] == "ok"  # the same status ...
    assert not dual["predicted"]["agrees"]  # ... but not the same answer
    (off,) = [f for f in dual["findings"] if f["code"] == "simulation-disagrees"]
    assert off["message"] == ("server/discover: the simulator (against legacy:2025-06-18"
                              "+unknown-32602) predicted error -32602; the real server answered "
                              "error -32603")
    assert legacy["predicted"]["agrees"]


def test_summary_and_html(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["probe", "--quiet", "--no-prober", "--require", "2025-06-18,2026-07-28"]
    assert main([*args, "--format", "summary", "--", *LENIENT]) == 1
    summary = capsys.readouterr().out
    assert summary.startswith("## mcp-skew probe: `")
    assert "| 2025-06-18 | ✅ ok" in summary and "| 2026-07-28 | ❌ failed" in summary
    assert "<details><summary>What to change</summary>" in summary
    assert main([*args, "--format", "html", "--", *LENIENT]) == 1
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and 'src="' not in page and "<link" not in page
    assert "<h2>What to change</h2>" in page and "tools/list got a result without" in page
    assert '&quot;jsonrpc&quot;' in page  # transcripts are escaped

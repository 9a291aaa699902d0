"""Every verdict is something the probe saw (issue 35), on hand-written servers in this process.

Each case is a server of one era with one MUST left out (``tests/_hand_servers.py``): the
default probe and ``--thorough`` give every client the same verdict, in every format one
outcome per client, the MUST missing is a finding at its page, predicted rows are marked
and rest on real runs, and the default probe's starts are counted.
"""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from mcp_skew.probe import ProbeOptions, ProbeReport, probe, render
from mcp_skew.probe._command import start_failure
from mcp_skew.probe._target import Target, command_label
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator._server import Reaction
from tests._hand_servers import HandLink, target

ALL = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
ERAS = ["modern:2026-07-28", f"dual:2026-07-28,{ALL}", f"legacy:{ALL}"]
MISSING = ["server/discover", "ping", "versions in the initialize error"]
CASES = [(spec, missing) for spec in ERAS for missing in MISSING]
_IDS = [f"{spec.partition(',')[0]}-without-{missing.split()[0]}" for spec, missing in CASES]


def _verdicts(report: ProbeReport) -> list[tuple[str, str, str, str | None]]:
    return [(r.name, r.outcome, r.record.status, r.record.revision)
            for r in report.runs if not r.prober]


def _codes(report: ProbeReport) -> set[str]:
    return {f.code for _, f in report.findings()} | {f.code for f in report.server_findings}


@pytest.mark.parametrize(("spec", "missing"), CASES, ids=_IDS)
def test_the_default_probe_and_thorough_give_every_client_the_same_verdict(
        spec: str, missing: str) -> None:
    fast = probe(target(spec, missing), ProbeOptions())
    thorough = probe(target(spec, missing), ProbeOptions(thorough=True))
    assert not any(r.outcome == "not-checked" for r in fast.runs)
    assert _verdicts(fast) == _verdicts(thorough)
    # the MUST findings are the same whichever mode saw them
    must = {"discover-missing", "ping-unanswered"}
    assert _codes(fast) & must == _codes(thorough) & must


#: (server, MUST left out, the finding the probe must report, the page it cites)
FOUND = [
    ("modern:2026-07-28", "server/discover", "discover-missing", "2026-07-28: server/discover.mdx"),
    (f"dual:2026-07-28,{ALL}", "server/discover", "discover-missing",
     "2026-07-28: server/discover.mdx"),
    (f"legacy:{ALL}", "ping", "ping-unanswered", "basic/utilities/ping.mdx"),
    ("legacy:2025-06-18", "ping", "ping-unanswered", "2025-06-18: basic/utilities/ping.mdx"),
    (f"dual:2026-07-28,{ALL}", "ping", "ping-unanswered", "basic/utilities/ping.mdx"),
]


@pytest.mark.parametrize(("spec", "missing", "code", "cite"), FOUND,
                         ids=[f"{c[0].partition(',')[0]}-{c[2]}" for c in FOUND])
@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_a_must_left_out_is_a_finding_at_its_page(spec: str, missing: str, code: str,
                                                  cite: str, thorough: bool) -> None:
    report = probe(target(spec, missing), ProbeOptions(thorough=thorough))
    found = [f for _, f in report.findings()] + report.server_findings
    assert any(f.code == code and cite in f.cite and f.severity in ("error", "warning")
               for f in found), [(f.code, f.cite) for f in found]


def test_a_client_whose_ping_fails_is_degraded_in_every_format() -> None:
    report = probe(target("legacy:2025-11-25", "ping"),
                   ProbeOptions(required=("2025-11-25",)))
    (run,) = report.clients_of("2025-11-25")
    assert run.real and run.outcome == "degraded" and run.record.status == "failed"
    doc = json.loads(render(report, "json"))
    entry = next(c for c in doc["clients"] if c["client"] == "legacy:2025-11-25")
    assert (entry["outcome"], entry["status"], entry["failed_step"]) == ("degraded", "failed",
                                                                         "ping")
    table = render(report, "terminal")
    row = next(line for line in table.splitlines() if line.strip().startswith("4 "))
    assert " degraded " in row and " ok " not in row
    summary = render(report, "summary")
    assert "❌ degraded" in summary and "❌ failed" in summary  # the row and --require
    junit = ET.fromstring(render(report, "junit"))
    case = next(c for c in junit.iter("testcase") if c.get("name") == "legacy:2025-11-25")
    assert case.find("failure") is not None and case.find("failure").get("type") == "degraded"  # type: ignore[union-attr]
    assert report.failures(("2025-11-25",)) == [
        "2025-11-25: legacy:2025-11-25 degraded: connected, then ping failed: error -32601"]


def test_a_predicted_row_is_marked_everywhere_and_shows_no_simulated_transcript() -> None:
    report = probe(target(f"legacy:{ALL}", "ping", own_words=True), ProbeOptions())
    guessed = [r for r in report.runs if not r.real]
    assert guessed and report.mode == "fast"
    real = {r.index for r in report.runs if r.real}
    for r in guessed:
        assert r.derived_from and set(r.derived_from) <= real
    html = render(report, "html")
    for r in guessed:
        assert f"{r.name} (predicted)" in html or "(predicted)" in html
    # the server's own words are in its real transcripts; the simulated server's never are
    assert "weather-server" in html and "forecast" in html
    assert "mcp-skew-server" not in html and "echo" not in html and "alerts" in html
    for r in report.runs:
        if r.real:
            continue
        row = html.split(f'id="run-{r.index}"', 1)[1].split("</tr>", 1)[0]
        assert "transcript (" not in row and "no request of this client was sent" in row
    doc = json.loads(render(report, "json"))
    for entry in doc["clients"]:
        if not entry["real"]:
            assert entry["transcript"] == [] and entry["findings"] == []
            assert entry["derived_from"]
    assert all("(predicted)" in (c.get("name") or "") for c in
               ET.fromstring(render(report, "junit")).iter("testcase")
               if c.get("name", "").split(" ")[0] in {r.name for r in guessed})
    summary = render(report, "summary")
    assert summary.count("(predicted)") == len(guessed)
    # predicted rows carry the ping the real runs observed: the same verdict as thorough
    assert all(r.outcome == "degraded" for r in guessed if r.record.session.status == "ok")


def test_the_default_probe_starts_at_most_four_servers_on_a_conforming_server() -> None:
    for spec in ("modern:2026-07-28", f"dual:2026-07-28,{ALL}", f"legacy:{ALL}",
                 "legacy:2025-11-25+unknown-32602", "legacy:2025-06-18",
                 "dual:2026-07-28,2025-11-25+sticky-era+silent"):
        report = probe(target(spec), ProbeOptions())
        assert report.mode == "fast" and report.starts <= 4, (spec, report.starts)
        assert report.starts == sum(r.real for r in report.runs)


def test_a_server_that_dies_at_start_says_why_and_is_not_called_a_peer() -> None:
    peer = parse_peer("legacy:2025-11-25", "server")

    class Dead(HandLink):
        def __init__(self) -> None:
            super().__init__(peer, lambda _message: Reaction(exit=True))
            self.stderr_tail = ("Traceback (most recent call last):\n"
                                "ModuleNotFoundError: No module named 'weather_api'\n")

    report = probe(Target(inprocess=Dead), ProbeOptions())
    line = start_failure(report)
    assert line is not None and line.startswith("the server did not start")
    assert "ModuleNotFoundError: No module named 'weather_api'" in line
    card = render(report, "terminal")
    assert "does not behave like any peer" not in card
    assert "ModuleNotFoundError: No module named 'weather_api'" in card


@pytest.mark.parametrize(("command", "label"), [
    (("python3", "tests/servers/legacy_lenient.py"), "servers/legacy_lenient.py"),
    (("python", "-m", "my_server"), "my_server"),
    (("npx", "-y", "@scope/server-x"), "@scope/server-x"),
    (("env", "K=V", "uvx", "mcp-server-fetch"), "mcp-server-fetch"),
    (("node", "pkg/dist/index.js"), "dist/index.js"),
])
def test_the_default_label_names_the_package_or_the_folder_and_script(
        command: tuple[str, ...], label: str) -> None:
    assert command_label(command) == label
    assert Target(command=command).label() == f"probe:{label}"
    assert Target(command=command, name="mine").label() == "mine"


def test_the_label_is_the_package_json_name_above_a_dist_script(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "dist").mkdir()
    (root / "dist" / "index.js").write_text("")
    (root / "package.json").write_text('{"name": "@me/weather"}')
    assert command_label(("node", str(root / "dist" / "index.js"))) == "@me/weather"


@pytest.mark.parametrize("missing", [None, "versions in the initialize error"])
def test_a_modern_only_server_gets_a_group_per_legacy_revision_it_loses(
        missing: str | None) -> None:
    from mcp_skew.probe._advice import advise

    report = probe(target("modern:2026-07-28", missing), ProbeOptions())
    groups = {g.revision: g for g in advise(report)}
    assert set(groups) >= {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
    for rev in ("2024-11-05", "2025-11-25"):
        titles = [i.title for i in groups[rev].items]
        assert titles[0] == "Answer initialize" and groups[rev].failing
        named = "Name your versions when you refuse one" in titles
        assert named == (missing is not None)
    card = render(report, "terminal")
    assert "what to change: nothing the probe saw" not in card


def test_a_legacy_server_refusing_without_versions_is_told_to_name_them() -> None:
    from mcp_skew.probe._advice import advise

    report = probe(target("legacy:2025-06-18", "versions in the initialize error"),
                   ProbeOptions())
    items = [i for g in advise(report) if g.revision == "2024-11-05" for i in g.items]
    named = [i for i in items if i.title == "Name your versions when you refuse one"]
    assert named and "names no versions" in named[0].now


def test_a_check_no_real_client_could_make_is_listed_as_not_checked() -> None:
    # a 2025-06-18-only server and clients that cannot negotiate with it: nobody pings it
    legacy = parse_peer("legacy:2025-11-25", "client")
    report = probe(target("legacy:2025-06-18", "ping"),
                   ProbeOptions(clients=(legacy,), prober=False))
    assert not any(s.name == "ping" for r in report.runs for s in r.record.steps)
    assert "not checked:" in render(report, "terminal")
    assert json.loads(render(report, "json"))["not_checked"] == [
        "ping: no real client got a legacy session to send it on"]


@pytest.mark.parametrize("command", ["probe", "probe-client"])
@pytest.mark.parametrize("bad", ["", "   ", "a\x1b[31mb", "x" * 201])
def test_a_label_that_is_no_name_is_refused_in_one_line(
        command: str, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    from mcp_skew.cli import main

    words = ["--", "python3", "no-such-server.py"] if command == "probe" else \
        ["--", "python3", "no-such-client.py", "{server}"]
    assert main([command, "--label", bad, *words]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--label" in err[0]


def test_the_saved_peer_carries_the_label(tmp_path: object) -> None:
    from pathlib import Path

    from mcp_skew.probe._peer import save_peer

    report = probe(Target(inprocess=target("legacy:2025-11-25").inprocess, name="weather"),
                   ProbeOptions())
    assert report.peer.spec is not None and report.peer.spec.name == "weather"
    out = Path(str(tmp_path)) / "peer.json"
    save_peer(report.peer, out, report.target.describe(), report.target.label())
    assert json.loads(out.read_text())["label"] == "weather"


def test_a_legacy_client_past_the_budget_is_not_checked_never_predicted() -> None:
    # a server that answers one initialize per process: the middle revisions asked again in
    # the oldest client's process say nothing of a fresh one, and no start is left for them
    server = ("legacy:2025-06-18,2025-03-26", "one initialize per process")
    report = probe(target(server[0], odd=server[1]), ProbeOptions())
    (row,) = [r for r in report.runs if r.outcome == "not-checked"]
    assert not row.real and row.mark == " (not checked)" and "--thorough" in row.record.reason
    assert report.starts == 4
    assert "1 not checked" in render(report, "terminal").splitlines()[1]
    junit = ET.fromstring(render(report, "junit"))
    case = next(c for c in junit.iter("testcase") if c.get("name", "").startswith(row.name))
    assert case.find("skipped") is not None and case.find("failure") is None
    thorough = probe(target(server[0], odd=server[1]), ProbeOptions(thorough=True))
    assert all(r.outcome != "not-checked" for r in thorough.runs)

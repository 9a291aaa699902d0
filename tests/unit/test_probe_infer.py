"""What the probe infers: findings, the peer spec, and the report card, on simulated servers.

A simulated server behind the probe's link interface (``Target(simulated=...)``)
runs on the simulated clock, so every quirk can be probed in milliseconds. The
central property: whatever server the probe meets, the peer it infers behaves
the same towards every built-in client (the simulator's prediction against the
inferred peer agrees with what each client really got).
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.cli import main
from mcp_skew.errors import UsageError
from mcp_skew.peers import resolve_peer
from mcp_skew.probe import ProbeOptions, ProbeReport, Target, probe, render
from mcp_skew.probe._clients import builtin_clients
from mcp_skew.probe._peer import load_probe_peer, save_peer
from mcp_skew.probe._report import FORMATS
from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.transcript import Transcript
from mcp_skew.versions import REGISTRY, Era

LEGACY = list(REGISTRY.of_era(Era.LEGACY))
MODERN = list(REGISTRY.of_era(Era.MODERN))
ALL = "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"
#: quirks whose effect depends on time, which the probe does not infer
TIMING = {"slow", "ttl", "latency"}


def probed(spec: str, **opts: object) -> ProbeReport:
    return probe(Target(simulated=parse_peer(spec, "server")), ProbeOptions(**opts))  # type: ignore[arg-type]


def codes(report: ProbeReport) -> set[str]:
    return {f.code for _, f in report.findings()} | {f.code for f in report.server_findings}


@st.composite
def server_specs(draw: st.DrawFn) -> PeerSpec:
    kind = draw(st.sampled_from(["legacy", "modern", "dual"]))
    legacy = [] if kind == "modern" else draw(st.lists(st.sampled_from(LEGACY), min_size=1,
                                                       unique=True))
    modern = [] if kind == "legacy" else MODERN
    usable = [q for q in QUIRKS.values()
              if q.role == "server" and kind in q.kinds and q.name not in TIMING]
    chosen = draw(st.lists(st.sampled_from(usable), unique_by=lambda q: q.name, max_size=3))
    texts = []
    for q in chosen:
        if q.value == "revision":
            texts.append(f"{q.name}={draw(st.sampled_from(LEGACY))}")
        elif q.value == "count":
            texts.append(f"{q.name}={draw(st.sampled_from([1, 2, 5]))}")
        elif q.value == "code":
            texts.append(f"{q.name}={draw(st.sampled_from([0, -32602, -32603]))}")
        elif q.value == "layout":  # scenario auth only: the probe's scenarios do not show it
            texts.append(f"{q.name}=prm")
        else:
            texts.append(q.name)
    notation = f"{kind}:{','.join(modern + legacy)}" + "".join(f"+{t}" for t in texts)
    return parse_peer(notation, "server")


@settings(max_examples=60, deadline=None)
@given(server_specs())
def test_the_inferred_peer_behaves_like_the_server_for_every_builtin_client(spec: PeerSpec
                                                                             ) -> None:
    report = probe(Target(simulated=spec), ProbeOptions(error_probes=True))
    assert report.peer.spec is not None, report.peer.sentence
    clients = [r for r in report.runs if not r.prober]
    assert len(clients) == len(builtin_clients())
    off = [(r.name, r.predicted) for r in clients if not (r.predicted and r.predicted["agrees"])]
    assert not off, (spec.notation, report.peer.spec.notation, off)
    # and the inferred spec round-trips through its own notation
    assert parse_peer(report.peer.spec.notation, "server").notation == report.peer.spec.notation


@pytest.mark.parametrize(("spec", "inferred", "sentence"), [
    ("legacy:2025-06-18,2025-03-26+unknown-32602", "legacy:2025-06-18,2025-03-26+unknown-32602",
     "behaves like legacy:2025-06-18,2025-03-26 with -32602 on unknown requests"),
    ("legacy:2024-11-05+silent-exit+fixed=2024-11-05", "legacy:2024-11-05+silent-exit",
     "behaves like legacy:2024-11-05 with no answer to unknown requests and an exit on the "
     "next message"),
    (f"dual:{ALL}+sticky-era", f"dual:{ALL}+sticky-era",
     f"behaves like dual:{ALL} with the era of a process fixed by its first request"),
    ("modern:2026-07-28+legacy-32022", "modern:2026-07-28+legacy-32022",
     "behaves like modern:2026-07-28 with -32022 naming its modern revisions for initialize"),
    ("legacy:2025-11-25+echo", "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05+echo",
     "behaves like legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05 with any requested "
     "revision echoed back"),
    ("legacy:2025-11-25,2025-06-18+lenient+reject", "legacy:2025-11-25,2025-06-18+reject+lenient",
     "behaves like legacy:2025-11-25,2025-06-18 with an error instead of a counter-offer for "
     "revisions it does not support and requests served before initialize"),
    ("modern:2026-07-28+no-result-type+no-cache-hints",
     "modern:2026-07-28+no-result-type+no-cache-hints",
     "behaves like modern:2026-07-28 with 2026-07-28 results without resultType and 2026-07-28 "
     "results without ttlMs and cacheScope"),
    # an echoing initialize accepts every revision asked, but the DiscoverResult lists the
    # legacy revisions it has: those, not all four (a dual client asks for one it lists)
    ("dual:2026-07-28,2024-11-05+echo+discover-legacy",
     "dual:2026-07-28,2024-11-05+echo+discover-legacy",
     "behaves like dual:2026-07-28,2024-11-05 with any requested revision echoed back and a "
     "server/discover that lists only its legacy revisions"),
])
def test_inferred_specs_and_sentences(spec: str, inferred: str, sentence: str) -> None:
    report = probed(spec)
    assert report.peer.spec is not None
    assert report.peer.spec.notation == inferred
    assert report.peer.sentence == sentence


def test_error_probes_reveal_the_not_found_code() -> None:
    spec = "legacy:2025-06-18,2025-03-26+unknown-32602+not-found-code=0"
    assert probed(spec).peer.spec.notation == "legacy:2025-06-18,2025-03-26+unknown-32602"  # type: ignore[union-attr]
    report = probed(spec, error_probes=True)
    assert report.peer.spec.notation == spec  # type: ignore[union-attr]
    assert "error 0 for a missing resource" in report.peer.sentence
    assert "resource-not-found-code" in codes(report)


@pytest.mark.parametrize(("spec", "expected"), [
    # an echoing server claims 2024-11-05 and 2025-03-26 but serves 2025-11-25 tools to them:
    # the claimed revision's schema does not define the newer fields (title, annotations)
    ("legacy:2025-11-25+echo", {"echoes-any-revision", "unknown-field"}),
    ("legacy:2025-11-25+reject", {"rejects-instead-of-counter-offer"}),
    ("legacy:2025-06-18+silent", {"silent-on-unknown"}),
    ("legacy:2025-06-18+silent-exit", {"crash-on-unknown", "silent-on-unknown"}),
    ("legacy:2025-06-18,2025-03-26+fixed=2025-03-26", set()),
    ("modern:2026-07-28+no-result-type", {"missing-result-type"}),
    ("modern:2026-07-28+no-cache-hints", {"missing-cache-hints"}),
    # modern-only advice (resultType, caching hints) is not for a legacy server
    ("legacy:2025-06-18+lenient", {"era-mismatch", "serves-before-initialize"}),
    ("legacy:2025-06-18+unknown-32602", {"unexpected-answer"}),
    (f"dual:{ALL}", set()),
])
def test_findings_per_quirk(spec: str, expected: set[str]) -> None:
    assert codes(probed(spec)) == expected


def test_findings_carry_index_severity_and_citation() -> None:
    report = probed("legacy:2025-11-25+echo")
    run, finding = next((r, f) for r, f in report.findings() if f.code == "echoes-any-revision")
    assert run.prober and finding.severity == "error"
    assert finding.cite == "2025-11-25: basic/lifecycle.mdx §Version Negotiation"
    entry = run.record.transcript.entries[finding.index or 0]
    assert entry.dir == "s2c" and entry.message["result"]["protocolVersion"] == "1999-01-01"


def test_a_lenient_legacy_server_fails_the_modern_client_as_the_era_table_says() -> None:
    report = probed("legacy:2025-06-18+lenient")
    modern = next(r for r in report.runs if r.name == "modern:2026-07-28")
    assert modern.record.status == "failed" and modern.outcome == "incompatible"
    assert modern.record.session.path[-1] == "tools/list: result without resultType"
    assert "TypeScript v2 client" in modern.record.session.reason


# -- findings that need a real server's departures: built from transcripts ----------------


def _views(transcript: Transcript) -> ProbeReport:
    from mcp_skew.probe._exchanges import exchanges
    from mcp_skew.probe._findings import findings_for
    from mcp_skew.probe._peer import RunView, gather

    view = RunView("c", False, transcript, exchanges(transcript, REGISTRY))
    ev = gather([view], REGISTRY)
    return findings_for(view, ev, None)  # type: ignore[return-value]


def _init(t: Transcript, msg_id: int, asked: str, answered: str) -> None:
    t.add(0, "c2s", {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
                     "params": {"protocolVersion": asked}})
    t.add(1, "s2c", {"jsonrpc": "2.0", "id": msg_id, "result": {"protocolVersion": answered}})


def test_counter_offer_despite_support_and_of_an_unknown_revision() -> None:
    t = Transcript()
    _init(t, 1, "2025-06-18", "2025-06-18")
    _init(t, 2, "2025-03-26", "2025-06-18")  # fine: it does not support 2025-03-26
    _init(t, 3, "2025-11-25", "2099-01-01")
    t.note(2, "client restarts the server process")
    _init(t, 4, "2025-06-18", "2025-03-26")  # it accepted 2025-06-18 in another process
    found = {(f.code, f.index) for f in _views(t)}  # type: ignore[attr-defined]
    assert found == {("counter-offer-unsupported", 5), ("counter-offer-despite-support", 7)}


def test_output_that_is_not_json_rpc() -> None:
    t = Transcript()
    t.add(0, "s2c", "Starting server...")
    t.add(0, "s2c", 42)
    t.add(0, "s2c", {"hello": "world"})
    t.add(0, "s2c", [{"jsonrpc": "2.0", "id": 1, "result": {}}])  # a batch: fine
    found = [(f.code, f.index) for f in _views(t)]  # type: ignore[attr-defined]
    assert found == [("not-json", 0), ("not-jsonrpc", 1), ("not-jsonrpc", 2)]


# -- requirements, rendering, saving ------------------------------------------------------


def test_required_revisions() -> None:
    report = probed("legacy:2025-06-18,2025-03-26")
    assert report.works("2025-06-18") and report.works("2025-03-26")
    assert not report.works("2026-07-28") and not report.works("2025-11-25")
    assert report.failures(("2025-06-18",)) == []
    (line,) = report.failures(("2026-07-28",))
    assert line.startswith("2026-07-28: modern:2026-07-28 incompatible:")
    with pytest.raises(AssertionError, match="clients that cannot work with"):
        report.assert_works("2025-06-18", "2026-07-28")
    report.assert_works("2025-06-18")


def test_the_json_entries_have_the_simulate_fields_plus_outcome_and_findings() -> None:
    data = json.loads(render(probed("legacy:2025-11-25+echo"), "json"))
    simulate = {"client", "server", "status", "revision", "era", "path", "mark", "reason",
                "scenario", "round_trips", "t_first_useful_ms", "steps", "features_lost",
                "findings", "transcript"}
    for entry in data["clients"]:
        assert simulate | {"outcome", "elapsed_ms", "stderr", "predicted"} <= set(entry)
        assert "events" not in entry and all(r["dir"] in ("c2s", "s2c", "event")
                                             for r in entry["transcript"])
        for f in entry["findings"]:
            assert set(f) == {"code", "severity", "message", "index", "cite"}
    assert data["peer"]["spec"] == "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05+echo"
    assert data["summary"]["findings"] == {"echoes-any-revision": 1, "unknown-field": 2}
    assert data["summary"]["simulation_agrees"] == "10/10"


def test_every_format_renders() -> None:
    report = probed("legacy:2025-06-18+unknown-32602")
    assert set(FORMATS) == {"terminal", "json", "markdown", "summary", "html", "junit"}
    terminal = render(report)
    assert "server: behaves like legacy:2025-06-18 with -32602 on unknown requests" in terminal
    assert "agrees with 10 of 10 real runs" in terminal
    markdown = render(report, "markdown")
    assert "| #" in markdown and "## Findings" in markdown
    suite = ET.fromstring(render(report, "junit")).find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == 11
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert suite.get("failures") == str(len(failed)) and "modern:2026-07-28" in failed


def test_save_and_load_a_peer_then_use_it_in_the_matrix(tmp_path: Path) -> None:
    report = probed("legacy:2025-06-18,2025-03-26+unknown-32602")
    path = tmp_path / "probe.json"
    save_peer(report.peer, path, "python server.py", "probe:server.py")
    spec = load_probe_peer(path)
    assert spec.notation == "legacy:2025-06-18,2025-03-26+unknown-32602"
    assert spec.name == "probe:server.py"
    assert resolve_peer(f"@{path}", "server") == spec
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["matrix", "--servers", f"@{path}", "--format", "json"]) == 0
    cells = json.loads(out.getvalue())
    assert "probe:server.py" in json.dumps(cells)


@pytest.mark.parametrize(("content", "role", "message"), [
    (None, "server", "cannot read probe peer file"),
    ("[1, 2]", "server", "is not a peer saved by mcp-skew probe"),
    ('{"format": "mcp-skew-probe-peer/1", "peer": null, "sentence": "no answer"}', "server",
     "could not infer a peer"),
    ('{"format": "mcp-skew-probe-peer/1", "peer": "legacy:2025-06-18"}', "client",
     "describes a server"),
])
def test_bad_peer_files_are_one_line_usage_errors(tmp_path: Path, content: str | None,
                                                  role: str, message: str) -> None:
    path = tmp_path / "p.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UsageError, match=message):
        resolve_peer(f"@{path}", role)  # type: ignore[arg-type]


def test_every_finding_code_the_probe_emits_is_documented() -> None:
    from mcp_skew.simulator.findings._codes import FINDING_CODES

    guide = (Path(__file__).resolve().parents[2] / "docs" / "probe.md").read_text()
    not_from_the_probe = {"unknown-field"}  # the schema field table's finding, not a probe's
    # probe-client's findings about a client (docs/probe-client.md)
    not_from_the_probe |= {c for c in FINDING_CODES if c.startswith("client-")}
    missing = [c for c in FINDING_CODES if c not in not_from_the_probe and f"`{c}`" not in guide]
    assert not missing


@pytest.mark.parametrize(("spec", "quirk"), [
    ("legacy:2025-11-25+asks-roots", "asks-roots"),
    (f"dual:{ALL}+asks-roots", "asks-roots"),
    ("dual:2026-07-28,2025-11-25+discover-legacy", "discover-legacy"),
])
def test_the_probe_infers_what_its_transcripts_show(spec: str, quirk: str, tmp_path: Path
                                                    ) -> None:
    """A server that asks the client for its roots (the mcp 1.0 client then hangs) and a
    discover that lists only legacy revisions (go-sdk issue 1025) go into the saved peer."""
    report = probed(spec)
    assert report.peer.spec is not None and report.peer.spec.has(quirk), report.peer.spec
    saved = tmp_path / "peer.json"
    save_peer(report.peer, saved, spec, "")
    assert load_probe_peer(saved).has(quirk)


def test_the_probe_checks_tool_schemas_by_default() -> None:
    """Without --schemas: a tool whose inputSchema lacks "type": "object" is a finding, and
    the saved peer carries untyped-input-schema (strict clients then fail its tools/list)."""
    report = probed("legacy:2025-11-25+untyped-input-schema")
    assert "tool-schema-not-object" in codes(report)
    assert report.peer.spec is not None and report.peer.spec.has("untyped-input-schema")
    assert "tool-schema-not-object" not in codes(probed("legacy:2025-11-25"))

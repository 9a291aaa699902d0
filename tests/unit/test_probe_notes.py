"""The notes of a card follow its rows (issue 35): no note says a client did what its row
shows it did not, and no text is put in the mouth of a peer that did not write it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_skew.probe import ProbeOptions, Target, probe, render
from mcp_skew.simulator import parse_peer
from mcp_skew.simulator.machine import Event
from tests._hand_servers import HandLink, target

ALL = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"


class _SlowStart(HandLink):
    """A server whose start takes 2.5 s; the first request in its process waits for it as a
    real link's does (its timeout plus the startup allowance the probe gives)."""

    def __init__(self) -> None:
        super().__init__(parse_peer(f"dual:2026-07-28,{ALL}+slow=2500", "server"), None)

    def request(self, message: dict[str, Any], timeout_ms: int) -> Event:
        if self.first_message_ms is None:
            timeout_ms += self.startup_allowance_ms
        return super().request(message, timeout_ms)


@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_the_cold_start_note_names_no_client_whose_row_reached_discovery(
        thorough: bool) -> None:
    report = probe(Target(inprocess=_SlowStart),
                   ProbeOptions(probe_timeout_ms=800, timeout_ms=800, thorough=thorough))
    assert report.startup["cold_start_ms"] >= 2500
    dual = [r for r in report.runs if r.record.client.kind == "dual"]
    assert dual and all(r.record.revision == "2026-07-28" for r in dual)
    card = render(report, "terminal")
    assert "give up on discovery" not in card, card
    assert report.startup["slow_for"] == []
    assert json.loads(render(report, "json"))["startup"]["slow_for"] == []


#: legacy servers that serve a modern client's first request under legacy rules
LENIENT = ["legacy:2025-06-18,2025-03-26+lenient", f"legacy:{ALL}+lenient",
           "legacy:2025-11-25+lenient"]


@pytest.mark.parametrize("spec", LENIENT)
@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_no_path_says_accepted_for_a_client_that_did_not_connect(spec: str,
                                                                 thorough: bool) -> None:
    report = probe(target(spec), ProbeOptions(thorough=thorough))
    doc = {c["client"]: c for c in json.loads(render(report, "json"))["clients"]}
    failed = [r for r in report.runs if r.outcome == "incompatible" and not r.prober]
    assert any(r.record.client.kind == "modern" for r in failed)
    for r in failed:
        accepted = [str(s) for s in r.record.session.path if s.kind == "accepted"]
        assert not accepted, (r.name, [str(s) for s in r.record.session.path])
        assert not any(str(s).startswith("accepted ") for s in doc[r.name]["path"])
    row = next(line for line in render(report, "terminal").splitlines()
               if "modern:2026-07-28" in line and "incompatible" in line)
    assert "accepted 2026-07-28" not in row and "tools/list 2026-07-28 -> result" in row


# -- probe-client: its card says what the runs showed, each text in its writer's name -------
def _client_card(client_spec: str, stderr: str) -> str:
    """probe-client's text card of a simulated client (its logs built in this process, as
    test_probe_client_infer builds them), every failing run's stderr ``stderr``."""
    from pathlib import Path

    from mcp_skew.probe_client import render as render_client
    from mcp_skew.probe_client._findings import client_findings
    from mcp_skew.probe_client._infer import infer
    from mcp_skew.probe_client._launch import RealClientRun
    from mcp_skew.probe_client._observe import observe
    from mcp_skew.probe_client._runner import ClientReport
    from mcp_skew.versions import REGISTRY
    from tests.unit.test_probe_client_infer import SERVERS, _log, _rows

    client = parse_peer(client_spec, "client")
    obs = []
    for s in SERVERS:
        entries, code = _log(client, s.peer, s.before)
        obs.append(observe(s.spec, entries, [], code, False, registry=REGISTRY))
    inferred = infer(obs, REGISTRY)
    assert inferred.spec is not None
    rows = _rows(inferred.spec, obs)
    runs = [RealClientRun(s.spec, ("client",), Path(f"{i}.jsonl"), exit_code=o.exit_code,
                          stderr=stderr if o.outcome != "works" else "")
            for i, (s, o) in enumerate(zip(SERVERS, obs, strict=True), 1)]
    report = ClientReport(("client", "{server}"), "stdio", rows, runs, inferred)
    report.findings = client_findings(rows, inferred.spec.kind)
    return render_client(report, "text")


#: (client, what its card says of strict validation): only a client that received a modern
#: result lacking a required field was seen validating it or not
STRICTNESS = [
    ("legacy:2025-11-25", "not checked"),
    ("legacy:2025-06-18,2025-03-26", "not checked"),
    ("modern:2026-07-28", "no"),
    (f"dual:2026-07-28,{ALL}", "no"),
    ("dual:2026-07-28,2025-11-25+strict", "strict"),
    ("modern:2026-07-28+discover+strict-results", "strict-results"),
]


@pytest.mark.parametrize(("client", "says"), STRICTNESS)
def test_strict_validation_is_said_only_when_a_modern_result_was_received(
        client: str, says: str) -> None:
    card = _client_card(client, "")
    (line,) = [x for x in card.splitlines() if "validates results strictly:" in x]
    assert line.split(": ", 1)[1].split(" (")[0] == says, line


#: (the client's stderr, what the card says the client said, what the simulated server said)
STDERR = [
    ("mcp-skew: stopped (SIGTERM)\n", None, "mcp-skew: stopped (SIGTERM)"),
    ("Error: connection closed\nmcp-skew: stopped (SIGTERM)\n", "Error: connection closed",
     "mcp-skew: stopped (SIGTERM)"),
    ("Error: connection closed\n", "Error: connection closed", None),
]


@pytest.mark.parametrize(("stderr", "client_said", "server_said"), STDERR)
def test_the_simulated_servers_words_are_never_the_clients(
        stderr: str, client_said: str | None, server_said: str | None) -> None:
    card = _client_card("legacy:2025-11-25", stderr)
    said = [x.split("client said: ", 1)[1] for x in card.splitlines() if "client said: " in x]
    served = [x.split("(on the client's stderr): ", 1)[1] for x in card.splitlines()
              if "the simulated server said" in x]
    assert said == ([client_said] * len(said)) and (client_said is None) == (not said)
    assert served == ([server_said] * len(served)) and (server_said is None) == (not served)
    assert all("mcp-skew:" not in x for x in said)

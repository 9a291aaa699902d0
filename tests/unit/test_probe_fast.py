"""The default probe (the model's clients for real, the others predicted) against --thorough
(a server process per client) on the test servers: the same verdicts, the same peer, and
at most four server starts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_skew.probe import ProbeOptions, ProbeReport, Target, probe, render

pytestmark = pytest.mark.slow

SERVERS = Path(__file__).resolve().parents[1] / "servers"
SIM = (sys.executable, str(SERVERS / "sim_stdio_server.py"))
ALL_LEGACY = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"

#: (server command, the most starts the default probe may take: its budget is 4, one process
#: per distinct first exchange: initialize newest and oldest, tools/list, server/discover)
CASES = [
    ((*SIM, f"legacy:{ALL_LEGACY}"), 4),
    ((*SIM, f"dual:2026-07-28,{ALL_LEGACY}"), 4),
    ((*SIM, "modern:2026-07-28"), 4),
    ((*SIM, "legacy:2025-06-18,2025-03-26+unknown-32602"), 4),
    ((*SIM, "dual:2026-07-28,2025-11-25+sticky-era+silent"), 4),
    ((sys.executable, str(SERVERS / "legacy_lenient.py")), 4),
]


def _verdicts(report: ProbeReport, skip: set[str] | None = None
              ) -> list[tuple[str, str, str | None]]:
    """Each client's verdict; a row the default probe did not check gives none."""
    return [(r.name, r.record.status, r.record.revision) for r in report.runs
            if not r.prober and r.name not in (skip or set())]


def _unchecked(report: ProbeReport) -> set[str]:
    return {r.name for r in report.runs if r.outcome == "not-checked"}


@pytest.mark.parametrize(("command", "most"), CASES, ids=[c[0][-1] for c in CASES])
def test_the_default_probe_gives_the_verdicts_of_thorough_with_fewer_starts(
        command: tuple[str, ...], most: int) -> None:
    fast = probe(Target(command=command), ProbeOptions())
    thorough = probe(Target(command=command), ProbeOptions(thorough=True))
    assert fast.mode == "fast" and thorough.mode == "thorough"
    assert _verdicts(fast, _unchecked(fast)) == _verdicts(thorough, _unchecked(fast))
    assert fast.peer.spec is not None and thorough.peer.spec is not None
    assert fast.peer.spec.notation == thorough.peer.spec.notation
    assert fast.starts <= most < thorough.starts == 12
    real = [r for r in fast.runs if r.real]
    assert fast.starts == len(real) <= 4 and not any(r.prober for r in fast.runs)
    assert all(r.predicted is not None and r.predicted["agrees"] for r in real)
    doc = fast.to_dict(transcript=False)
    assert doc["starts"] == fast.starts and doc["mode"] == "fast"
    assert doc["summary"]["real"] + doc["summary"]["predicted"] + \
        doc["summary"]["not_checked"] == doc["summary"]["clients"]


def test_required_clients_run_for_real_and_the_card_says_what_was_predicted() -> None:
    report = probe(Target(command=(*SIM, f"legacy:{ALL_LEGACY}")),
                   ProbeOptions(required=("2025-06-18",)))
    judged = report.clients_of("2025-06-18")
    assert [r.real for r in judged] == [True] and report.works("2025-06-18")
    assert report.starts == 5
    card = render(report, "terminal")
    head = card.splitlines()[1]
    assert ": 5 run, 5 predicted from the inferred peer, 5 server starts," in head
    assert "dual:2026-07-28..2024-11-05+strict (predicted)" in card

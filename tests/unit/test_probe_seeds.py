"""The seed servers (../shared/seeds: the hand-written stdio servers the project grew
from), written anew in ``tests/_hand_servers.py`` and probed in this process: the default
probe and ``--thorough`` give each client the same verdict, every MUST a seed misses is an
error finding at its page, and no row says more than happened."""

from __future__ import annotations

import pytest

from mcp_skew.probe import ProbeOptions, ProbeReport, probe, render
from tests._hand_servers import SEEDS, seed_target

#: (seed, the error findings its card must give with the page each cites, the clients the
#: default probe's 4 server starts cannot reach: not checked, never predicted)
TABLE = [
    # answers 2025-06-18 to every initialize; serves a modern client's tools/list as legacy
    ("000-adder", {"era-mismatch": "2026-07-28: basic/versioning.mdx"}, set()),
    # answers 2024-11-05 to every initialize; no ping: the receiver MUST answer it
    ("004-shop", {"era-mismatch": "2026-07-28: basic/versioning.mdx",
                  "ping-unanswered": "2024-11-05: basic/utilities/ping.mdx"}, set()),
    # answers 2025-11-25 to every initialize and -32601 to server/discover (a legacy server
    # need not have it). initialize 2024-11-05 opens a process of its own, which is then
    # asked 2025-06-18, 2025-03-26 and, as the control, 2025-11-25 again: the control gets
    # what a fresh process got, so every legacy client is checked within the 4 starts
    ("003-calendar", {"era-mismatch": "2026-07-28: basic/versioning.mdx"}, set()),
]


def _verdicts(report: ProbeReport) -> dict[str, tuple[str, str, str | None]]:
    return {r.name: (r.outcome, r.record.status, r.record.revision)
            for r in report.runs if not r.prober}


def _errors(report: ProbeReport) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in [f for _, f in report.findings()] + report.server_findings:
        if f.severity == "error":
            out.setdefault(f.code, set()).add(f.cite)
    return out


@pytest.mark.parametrize(("seed", "errors", "unreached"), TABLE, ids=[t[0] for t in TABLE])
def test_a_seed_server_gets_the_same_verdicts_in_both_modes(
        seed: str, errors: dict[str, str], unreached: set[str]) -> None:
    fast = probe(seed_target(seed), ProbeOptions())
    thorough = probe(seed_target(seed), ProbeOptions(thorough=True))
    assert fast.starts <= 4 and thorough.mode == "thorough"
    unchecked = {r.name for r in fast.runs if r.outcome == "not-checked"}
    assert unchecked == unreached
    assert all(not r.real and not r.derived_from for r in fast.runs if r.name in unchecked)
    ours, theirs = _verdicts(fast), _verdicts(thorough)
    assert {n: v for n, v in ours.items() if n not in unchecked} == \
        {n: v for n, v in theirs.items() if n not in unchecked}


@pytest.mark.parametrize(("seed", "errors", "unreached"), TABLE, ids=[t[0] for t in TABLE])
@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_every_must_a_seed_misses_is_an_error_at_its_page(
        seed: str, errors: dict[str, str], unreached: set[str], thorough: bool) -> None:
    report = probe(seed_target(seed), ProbeOptions(thorough=thorough))
    found = _errors(report)
    assert set(found) == set(errors), found
    for code, page in errors.items():
        assert any(page in cite for cite in found[code]), (code, found[code])
    assert "discover-missing" not in {f.code for _, f in report.findings()}


@pytest.mark.parametrize("seed", sorted(SEEDS))
@pytest.mark.parametrize("thorough", [False, True], ids=["default", "thorough"])
def test_a_seeds_rows_say_what_happened(seed: str, thorough: bool) -> None:
    report = probe(seed_target(seed), ProbeOptions(thorough=thorough))
    for r in report.runs:
        accepted = {s.revision for s in r.record.session.path if s.kind == "accepted"}
        if r.prober or r.outcome == "not-checked":
            continue
        # a row says "accepted R" only for the revision it reached
        assert accepted <= {r.record.revision}, (r.name, [str(s) for s in r.record.session.path])
    card = render(report, "terminal")
    assert f"behaves like legacy:{SEEDS[seed].revision} " in card
    real = [r for r in report.runs if r.real and r.record.transcript.entries]
    words = render(report, "json")
    assert real and SEEDS[seed].name in words and "mcp-skew-server" not in words

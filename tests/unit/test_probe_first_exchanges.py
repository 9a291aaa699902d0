"""The default probe observes every distinct first exchange of a built-in client in a fresh
process, within its budget of 4 server starts, and a run that departs from the inferred peer
starts no more servers: the clients it cannot vouch for are replayed from what was observed
or not checked (issue 35), on hand-written servers in this process."""

from __future__ import annotations

import pytest

from mcp_skew.probe import ProbeOptions, ProbeReport, probe, render
from mcp_skew.probe._exchanges import exchanges, modern_version
from mcp_skew.versions import REGISTRY
from tests._hand_servers import seed_target, target

ALL = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
#: what the built-in clients open a process with: the dual-era client's server/discover, the
#: modern client's first request without it, initialize at the newest and the oldest revision
FIRSTS = {("server/discover", "2026-07-28"), ("tools/list", "2026-07-28"),
          ("initialize", "2025-11-25"), ("initialize", "2024-11-05")}

SERVERS = {
    "modern": lambda: target("modern:2026-07-28"),
    "dual": lambda: target(f"dual:2026-07-28,{ALL}"),
    "legacy": lambda: target(f"legacy:{ALL}"),
    "legacy-2025-11-25": lambda: target("legacy:2025-11-25"),
    "modern-without-discover": lambda: target("modern:2026-07-28", "server/discover"),
    "seed-003-calendar": lambda: seed_target("003-calendar"),
    "seed-004-shop": lambda: seed_target("004-shop"),
}


def _verdicts(report: ProbeReport) -> dict[str, tuple[str, str, str | None]]:
    return {r.name: (r.outcome, r.record.status, r.record.revision)
            for r in report.runs if not r.prober}


def _firsts(report: ProbeReport) -> set[tuple[str, str | None]]:
    """The first request of every server process the probe started."""
    out = set()
    for r in report.runs:
        if not r.real:
            continue
        seen: set[int] = set()
        for ex in exchanges(r.record.transcript, REGISTRY):
            if ex.generation in seen:
                continue
            seen.add(ex.generation)
            asked = ex.params.get("protocolVersion")
            out.add((ex.method, str(asked) if asked else modern_version(ex.request)))
    return out


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_every_distinct_first_exchange_opens_a_process_of_its_own(server: str) -> None:
    report = probe(SERVERS[server](), ProbeOptions())
    assert report.starts <= 4
    assert _firsts(report) >= FIRSTS, _firsts(report)
    # the dual-era rows rest on the run whose process opened with server/discover
    dual = [r for r in report.runs if r.record.client.kind == "dual"]
    opened = {r.index for r in report.runs if r.real and r.record.client.kind == "dual"}
    assert opened and all(r.real or set(r.derived_from) & opened for r in dual
                          if r.outcome != "not-checked")


#: servers whose answer to server/discover depends on whether it opens the process
LATER = ["modern:2026-07-28", f"dual:2026-07-28,{ALL}", "legacy:2025-11-25+unknown-32602"]


@pytest.mark.parametrize("spec", LATER, ids=[s.partition(",")[0] for s in LATER])
def test_a_discover_answered_only_later_in_a_process_is_not_vouched_for(spec: str) -> None:
    fast = probe(target(spec, odd="discover only later"), ProbeOptions())
    thorough = probe(target(spec, odd="discover only later"), ProbeOptions(thorough=True))
    assert fast.starts <= 4
    assert _verdicts(fast) == _verdicts(thorough)


#: servers on which a real run departs from the inferred peer (the model has no server
#: without server/discover, nor a refusal naming no versions)
DEPARTS = [
    ("modern:2026-07-28", "server/discover"),
    ("modern:2026-07-28", "versions in the initialize error"),
    (f"dual:2026-07-28,{ALL}", "server/discover"),
    ("dual:2026-07-28,2025-11-25+sticky-era+silent", "server/discover"),
]


@pytest.mark.parametrize(("spec", "missing"), DEPARTS, ids=[
    "modern-without-discover", "modern-without-versions", "dual-without-discover",
    "dual-sticky-silent-without-discover"])
def test_a_run_that_departs_from_the_model_starts_no_more_servers(spec: str, missing: str
                                                                 ) -> None:
    fast = probe(target(spec, missing), ProbeOptions())
    thorough = probe(target(spec, missing), ProbeOptions(thorough=True))
    assert fast.starts <= 4 and fast.mode == "fast, replayed"
    real = {r.index for r in fast.runs if r.real}
    ours, theirs = _verdicts(fast), _verdicts(thorough)
    for r in fast.runs:
        if r.prober or r.real:
            continue
        if r.outcome == "not-checked":  # said, with why; never a verdict
            assert "--thorough" in r.record.reason and not r.derived_from
            continue
        assert r.derived_from and set(r.derived_from) <= real, r.name
        assert ours[r.name] == theirs[r.name], r.name
    replayed = sum(r.replayed for r in fast.runs)
    assert replayed and f"{replayed} replayed from observed runs" in render(fast, "terminal")
    assert fast.to_dict(transcript=False)["summary"]["replayed"] == replayed


def test_a_server_that_answers_one_initialize_per_process_leaves_the_middle_unchecked() -> None:
    # the control (initialize 2025-11-25 asked again) is refused: the other initializes
    # asked again in that process say nothing of a fresh process, and there is no start left
    report = probe(target("legacy:2025-11-25", odd="one initialize per process"),
                   ProbeOptions())
    unchecked = {r.name for r in report.runs if r.outcome == "not-checked"}
    assert unchecked == {"legacy:2025-06-18", "legacy:2025-03-26"} and report.starts == 4
    assert all(not r.real and not r.derived_from for r in report.runs if r.name in unchecked)


#: servers whose answer to an initialize asked again in a process is not a fresh one's
AGAIN = [("legacy:2025-11-25", "one initialize per process"),
         ("legacy:2025-11-25", "silent to a second initialize"),
         ("modern:2026-07-28", "silent to a second initialize")]


@pytest.mark.parametrize(("spec", "odd"), AGAIN, ids=[f"{s}-{o.split()[0]}" for s, o in AGAIN])
def test_the_initializes_asked_again_never_change_the_oldest_clients_verdict(
        spec: str, odd: str) -> None:
    fast = probe(target(spec, odd=odd), ProbeOptions())
    thorough = probe(target(spec, odd=odd), ProbeOptions(thorough=True))
    ours, theirs = _verdicts(fast), _verdicts(thorough)
    assert ours["legacy:2024-11-05"] == theirs["legacy:2024-11-05"]
    assert {n: v for n, v in ours.items() if v[0] != "not-checked"} == \
        {n: v for n, v in theirs.items() if n in ours and ours[n][0] != "not-checked"}

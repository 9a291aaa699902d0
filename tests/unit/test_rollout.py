"""Fleets, balancers, schedules, sticky sessions, the verdict, --plan and the rollout command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.matrix._build import failure_kind
from mcp_skew.rollout import Setup, plan, study
from mcp_skew.rollout._fleet import (
    Balancer,
    Fleet,
    LoadBalancer,
    Rng,
    Schedule,
    client_batches,
    rollback,
    rolling,
)
from mcp_skew.rollout._study import default_clients_to, groups_of
from mcp_skew.rollout._timeline import Group, Rollout
from mcp_skew.simulator import PeerSpec, parse_peer
from mcp_skew.versions import REGISTRY, Change, Cite, Impact


def client(spec: str) -> PeerSpec:
    return parse_peer(spec, "client")


def server(spec: str) -> PeerSpec:
    return parse_peer(spec, "server")


LEGACY_11 = server("legacy:2025-11-25")
DUAL = server("dual:2026-07-28,2025-11-25")


# -- balancers ------------------------------------------------------------------------------
def test_round_robin_cycles_through_every_instance() -> None:
    lb = LoadBalancer("round-robin", 3)
    assert [lb.route(None) for _ in range(7)] == [0, 1, 2, 0, 1, 2, 0]


def test_round_robin_ignores_a_legacy_session_and_sticky_keeps_it() -> None:
    assert [LoadBalancer("round-robin", 3).route(2) for _ in range(1)] == [0]
    sticky = LoadBalancer("sticky", 3)
    assert [sticky.route(2) for _ in range(3)] == [2, 2, 2]
    assert [sticky.route(None) for _ in range(4)] == [0, 1, 2, 0]  # modern: anywhere


def test_random_is_seeded_in_range_and_uses_every_instance() -> None:
    picks = [LoadBalancer("random", 5, seed=7).route(None) for _ in range(1)]
    a, b = LoadBalancer("random", 5, seed=7), LoadBalancer("random", 5, seed=7)
    first = [a.route(None) for _ in range(200)]
    assert first == [b.route(None) for _ in range(200)]
    assert set(first) == {0, 1, 2, 3, 4}
    other = LoadBalancer("random", 5, seed=8)
    assert first != [other.route(None) for _ in range(200)]
    assert picks[0] == first[0]


def test_splitmix_gives_known_values() -> None:
    """SplitMix64 of seed 0: the reference sequence starts e220a8397b1dcdaf, 6e789e6aa1b965f4."""
    rng = Rng(0)
    assert [rng.next(), rng.next()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


# -- schedules and the fleet -----------------------------------------------------------------
def test_rolling_replaces_one_instance_at_a_time() -> None:
    changes = rolling(3, DUAL, start_ms=60_000, every_ms=30_000).changes
    assert [(c.at_ms, c.first, c.stop, c.spec) for c in changes] == [
        (60_000, 0, 1, DUAL), (90_000, 1, 2, DUAL), (120_000, 2, 3, DUAL)]


def test_rollback_restores_each_instance_last_first() -> None:
    fleet = (LEGACY_11, server("legacy:2025-06-18"))
    changes = rollback(fleet, start_ms=0, every_ms=10).changes
    assert [(c.first, c.spec, c.what) for c in changes] == [
        (1, fleet[1], "rollback"), (0, fleet[0], "rollback")]


def test_client_batches_cover_every_client_once() -> None:
    changes = client_batches(10, client("modern:2026-07-28"), 4, start_ms=0, every_ms=1).changes
    covered = [k for c in changes for k in range(c.first, c.stop)]
    assert covered == list(range(10))


def test_replacing_an_instance_bumps_its_generation_only() -> None:
    fleet = Fleet([LEGACY_11, LEGACY_11])
    fleet.replace(1, DUAL)
    assert fleet.generations == [0, 1]
    assert fleet.specs == [LEGACY_11, DUAL]


# -- sticky sessions -------------------------------------------------------------------------
def _rollout(groups: list[Group], fleet: list[PeerSpec], schedule: Schedule, *,
             balancer: Balancer = "sticky", minutes: int = 4, keep: int = 0) -> Rollout:
    r = Rollout(groups, fleet, schedule, duration_ms=minutes * 60_000, rate=6,
                balancer=balancer, classify=failure_kind, keep=keep)
    for _ in r.timeline():
        pass
    return r


def test_a_sticky_legacy_session_is_lost_only_when_its_instance_is_replaced() -> None:
    # the "upgrade" restarts instance 0 with the same spec at 2:00: only its sessions go
    r = _rollout([Group(client("legacy:2025-11-25"), 4)], [LEGACY_11, LEGACY_11],
                 rolling(1, LEGACY_11, start_ms=120_000, every_ms=60_000), keep=4)
    for k, requests in r.transcripts.items():
        instances = {req["instance"] for req in requests[1:]}
        assert len(instances) == 1, f"client {k} moved: sticky sessions stay"
        lost = [req for req in requests if req["path"][0] == "session lost (404)"]
        if instances == {0}:
            assert len(lost) == 1 and lost[0]["ms"] >= 120_000
            assert lost[0]["outcome"] == "retried" and lost[0]["extra"] == 2
        else:
            assert lost == []
    assert r.totals.failed == 0
    assert r.totals.retried == 2  # the two clients on instance 0


def test_without_stickiness_a_legacy_session_is_lost_whenever_it_moves() -> None:
    r = _rollout([Group(client("legacy:2025-11-25"), 1)], [LEGACY_11, LEGACY_11], rolling(
        0, LEGACY_11, start_ms=0, every_ms=1), balancer="round-robin", keep=1)
    outcomes = [req["outcome"] for req in r.transcripts[0]]
    assert outcomes[0] == "ok"
    assert outcomes[1:] == ["retried"] * (len(outcomes) - 1)  # every request lands elsewhere


def test_a_modern_decision_goes_stale_when_the_fleet_is_rolled_back() -> None:
    """A dual client that decided on modern against a dual fleet re-probes and falls back when
    the instance it lands on is rolled back to a legacy server."""
    schedule = rollback([LEGACY_11], start_ms=125_000, every_ms=60_000)
    r = _rollout([Group(client("dual:2026-07-28,2025-11-25"), 1)], [DUAL], schedule, keep=1)
    paths = [(req["ms"], req["outcome"], req["path"]) for req in r.transcripts[0]]
    stale = [p for p in paths if "re-probe" in p[2]]
    assert len(stale) == 1 and stale[0][0] >= 125_000 and stale[0][1] == "fell_back"
    assert r.totals.failed == 0


def test_a_dual_client_keeps_its_legacy_decision_when_its_instance_is_upgraded() -> None:
    """The era decision is kept per origin (2026-07-28 versioning.mdx, caching the era
    decision): after its session is lost to the upgrade, a dual client that fell back
    initializes again at once, without probing, and stays on the legacy revision."""
    r = _rollout([Group(client("dual:2026-07-28,2025-11-25"), 1)], [LEGACY_11],
                 rolling(1, DUAL, start_ms=60_000, every_ms=60_000), keep=1)
    records = r.transcripts[0]
    assert records[0]["outcome"] == "fell_back"
    lost = [q for q in records if q["path"][0] == "session lost (404)"]
    assert len(lost) == 1
    assert lost[0]["path"] == ["session lost (404)", "initialize 2025-11-25", "accepted 2025-11-25"]
    assert all(q["path"] == ["session 2025-11-25"] for q in records if q["ms"] > lost[0]["ms"])


def test_a_32022_after_an_upgrade_is_retried_mid_session() -> None:
    """Instances that served a draft revision are replaced by ones that do not: a modern
    client's next request at the draft gets -32022 and is retried with the revision
    data.supported names (2026-07-28 basic/versioning.mdx), once per client."""
    draft_rev = "2026-12-draft"
    modern = REGISTRY.get("2026-07-28")
    draft = modern.evolve(revision=draft_rev, changes=(Change(
        "draft-note", "a draft that changes nothing on the wire",
        Cite(draft_rev, "https://example.com/draft"), Impact.CLARIFICATION),))
    registry = REGISTRY.with_profile(draft)
    both = f"modern:{draft_rev},2026-07-28"
    fleet = [parse_peer(both, "server", registry)] * 2
    target = parse_peer("modern:2026-07-28", "server", registry)
    r = _rollout([Group(parse_peer(both, "client", registry), 3)], fleet,
                 rolling(2, target, start_ms=60_000, every_ms=60_000), keep=3)
    for records in r.transcripts.values():
        retried = [q for q in records if q["outcome"] == "retried"]
        assert len(retried) == 1 and retried[0]["server"] == "modern:2026-07-28"
        assert retried[0]["path"] == [f"cached {draft_rev}", "error -32022", "retry 2026-07-28"]
        assert retried[0]["extra"] == 1
        later = [q["path"] for q in records if q["ms"] > retried[0]["ms"]]
        assert later and all(p == ["cached 2026-07-28"] for p in later)
    assert r.totals.failed == 0


def test_no_cache_hints_mean_a_discover_before_every_request() -> None:
    fleet = [server("dual:2026-07-28,2025-11-25+no-cache-hints")]
    r = _rollout([Group(client("dual:2026-07-28,2025-11-25"), 1)], fleet, rolling(
        0, DUAL, start_ms=0, every_ms=1), keep=1)
    assert r.totals.cache_hits == 0
    assert r.totals.extra_round_trips == r.totals.requests  # one server/discover each


def test_a_no_cache_client_discovers_before_every_request_and_others_once_a_minute() -> None:
    def extra(spec: str) -> tuple[int, int]:
        r = _rollout([Group(client(spec), 1)], [DUAL], rolling(0, DUAL, start_ms=0, every_ms=1))
        return r.totals.extra_round_trips, r.totals.cache_hits

    assert extra("dual:2026-07-28,2025-11-25+no-cache") == (24, 0)  # 4 minutes x 6 requests
    assert extra("dual:2026-07-28,2025-11-25") == (4, 20)  # ttlMs 60000: once a minute


# -- the verdict and the plan ----------------------------------------------------------------
def _setup(clients: list[tuple[str, int]], fleet: list[str], to: str | None,
           minutes: int = 6) -> Setup:
    return Setup(groups=groups_of([(client(s), n) for s, n in clients]),
                 fleet=tuple(server(s) for s in fleet), to=server(to) if to else None,
                 duration_ms=minutes * 60_000, rate=6, start_ms=60_000, every_ms=60_000)


def test_dropping_a_revision_names_the_clients_that_lose_service() -> None:
    s = study(_setup([("dual:2026-07-28,2025-11-25", 5), ("legacy:2025-06-18", 3),
                      ("modern:2026-07-28", 2)],
                     ["dual:2026-07-28,2025-11-25,2025-06-18"] * 3, "dual:2026-07-28,2025-11-25"))
    for _ in s.timeline():
        pass
    verdict = s.verdict()
    assert verdict["dropped"] == ["2025-06-18"]
    assert [b["client"] for b in verdict["lose_service"]] == ["legacy:2025-06-18"]
    lost = verdict["lose_service"][0]
    assert lost["clients"] == 3 and lost["until_the_end"] and lost["first_ms"] >= 60_000
    assert verdict["already_failing"] == []


def test_the_verdict_separates_what_was_broken_before() -> None:
    s = study(_setup([("modern:2026-07-28", 2), ("legacy:2025-06-18", 1)], ["legacy:2025-11-25"],
                     "dual:2026-07-28,2025-11-25"))
    for _ in s.timeline():
        pass
    verdict = s.verdict()
    assert verdict["lose_service"] == []
    before = {b["client"]: b for b in verdict["already_failing"]}
    assert not before["modern:2026-07-28"]["until_the_end"]  # the upgrade fixes it
    assert before["legacy:2025-06-18"]["until_the_end"]  # no revision in common, ever


def test_the_verdict_says_when_a_client_was_served_in_between(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Upgraded, then rolled back: the modern clients fail, are served, then fail again."""
    code, out, _ = cli(capsys, "rollout", "--clients", "modern:2026-07-28*2", "--fleet",
                       "legacy:2025-11-25", "--to", "dual:2026-07-28,2025-11-25", "--duration",
                       "5m", "--rollback-at", "3m")
    assert code == 0
    assert ("  modern:2026-07-28 (2 clients): 60 requests failed in minutes 0:00, 3:00-4:00, "
            "from 0:0") in out
    assert out.rstrip().endswith("to the end (era 60)")


def test_plan_recommends_servers_first_for_modern_clients() -> None:
    setup = _setup([("legacy:2025-11-25", 8)], ["legacy:2025-11-25"] * 2,
                   "dual:2026-07-28,2025-11-25")
    assert setup.to is not None
    result = plan(setup, default_clients_to(setup.to, REGISTRY))
    assert result.clients_to.name == "modern:2026-07-28"
    totals = {name: t for name, t, _ in result.orders}
    assert totals["servers first, then clients"].failed == 0
    assert totals["clients first, then servers"].failed > 0
    assert result.recommended == "servers first, then clients"


def test_plan_says_when_no_order_is_safe() -> None:
    setup = _setup([("legacy:2025-06-18", 4)], ["legacy:2025-11-25"], "dual:2026-07-28,2025-11-25")
    result = plan(setup, client("legacy:2025-06-18"))
    assert result.recommended is None
    assert all(t.failed > 0 for _, t, _ in result.orders)


# -- the command -----------------------------------------------------------------------------
ARGS = ["rollout", "--clients", "dual:2026-07-28,2025-11-25*4", "legacy:2025-06-18*2",
        "--fleet", "legacy:2025-11-25*2", "--to", "dual:2026-07-28,2025-11-25", "--duration",
        "4m", "--rate", "6"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_the_timeline_totals_and_a_format_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, *ARGS, "--format", "json", "--keep-transcripts", "1")
    assert code == 0
    doc = json.loads(out)
    assert (doc["format"], doc["format_version"]) == ("mcp-skew-rollout", 1)
    assert [row["minute"] for row in doc["timeline"]] == [0, 1, 2, 3]
    totals = doc["totals"]
    assert totals["requests"] == 6 * 4 * 6
    assert totals["requests"] == sum(totals[k] for k in ("ok", "retried", "fell_back", "failed"))
    assert sum(row["requests"] for row in doc["timeline"]) == totals["requests"]
    assert [t["client"] for t in doc["transcripts"]] == [0]
    assert len(doc["transcripts"][0]["requests"]) == 24
    assert doc["verdict"]["already_failing"][0]["client"] == "legacy:2025-06-18"


def test_text_and_html_agree_and_html_is_self_contained(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    code, text, _ = cli(capsys, *ARGS)
    assert code == 0 and "totals: 144 requests" in text and "verdict:" in text
    page = tmp_path / "rollout.html"
    code, out, err = cli(capsys, *ARGS, "--format", "html", "--out", str(page))
    body = page.read_text(encoding="utf-8")
    assert code == 0 and "<svg" in body and "<rect" in body
    assert out == "" and err == f"mcp-skew: wrote {page}: 144 requests, 48 failed\n"
    assert "src=" not in body and "<link" not in body and "<script" not in body
    assert "totals: 144 requests" in body
    # one bar segment per minute and non-zero category, its height in proportion
    rows = json.loads(cli(capsys, *ARGS, "--format", "json")[1])["timeline"]
    wanted = [f"{row['minute']}:00 {name.replace('_', ' ')}: {row[name]:,}" for row in rows
              for name in ("ok", "retried", "fell_back", "failed") if row[name]]
    assert re.findall(r"<title>([^<]*)</title></rect>", body) == wanted


def test_the_same_seed_gives_the_same_output_and_another_may_not(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = [*ARGS, "--balancer", "random", "--format", "json"]
    one = cli(capsys, *args, "--seed", "3")[1]
    assert one == cli(capsys, *args, "--seed", "3")[1]
    assert one != cli(capsys, *args, "--seed", "4")[1]


def test_plan_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "rollout", "--clients", "legacy:2025-11-25*4", "--fleet",
                       "legacy:2025-11-25*2", "--to", "dual:2026-07-28,2025-11-25", "--plan")
    assert code == 0
    assert out.rstrip().endswith("recommended: servers first, then clients (no request fails)")
    args = ["rollout", "--clients", "legacy:2025-11-25*4", "--fleet", "legacy:2025-11-25*2",
            "--to", "dual:2026-07-28,2025-11-25", "--plan", "--format"]
    doc = json.loads(cli(capsys, *args, "json")[1])
    assert doc["recommended"] == "servers first, then clients"
    assert [o["order"] for o in doc["orders"]] == ["servers first, then clients",
                                                  "clients first, then servers"]
    assert [o["totals"]["failed"] == 0 for o in doc["orders"]] == [True, False]
    page = cli(capsys, *args, "html")[1]
    assert page.startswith("<!DOCTYPE html>") and "recommended: servers first" in page


@pytest.mark.parametrize(("args", "message"), [
    (["--clients", "legacy:2025-11-25*0"], "the count after '*'"),
    (["--clients", "legacy:2025-11-25*x"], "the count after '*'"),
    (["--clients", "legacy:2025-11-25*99999999999"], "the count after '*'"),
    (["--clients", "legacy:2099-01-01*2"], "unknown revision"),
    (["--clients", "nope@1*2"], "unknown named peer"),
    (["--fleet", "legacy:2025-11-25*2000"], "more than 1,000 instances"),
    (["--duration", "0"], "more than zero"),
    (["--duration", "5 minutes"], "a duration is"),
    (["--duration", "99999h"], "at most 7 days"),
    (["--rate", "0"], "--rate: 0 is out of range"),
    (["--rate", "1e9"], "--rate: '1e9' is not a whole number"),
    (["--rate", "²"], "--rate: '²' is not a whole number"),
    (["--seed", "-1"], "--seed"),
    (["--duration", "1s", "--rate", "1"], "no request"),
    (["--clients", "legacy:2025-11-25*100000", "--duration", "168h"], "requests"),
    (["--keep-transcripts", "99"], "only 6 clients"),
    (["--clients-to", "modern:2026-07-28"], "--clients-to is for --plan"),
    (["--start", "5m"], "nothing would change"),
    (["--every", "0"], "more than zero"),
    (["--rollback-at", "soon"], "a duration is"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str) -> None:
    base = list(ARGS)
    for option, *values in [args[i:i + 2] for i in range(0, len(args), 2)]:
        i = base.index(option) if option in base else -1
        if i >= 0:
            base[i + 1] = values[0]
            while i + 2 < len(base) and not base[i + 2].startswith("--"):
                del base[i + 2]
        else:
            base += [option, *values]
    code, out, err = cli(capsys, *base)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_out_refuses_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = cli(capsys, *ARGS, "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err

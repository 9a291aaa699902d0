"""Properties of rollouts, over random populations, fleets, schedules and balancers (hypothesis).

- **Every request answered once.** Each client sends exactly duration x rate / 1 minute
  requests; each lands in exactly one category; the minutes add up to the totals; a
  kept transcript has one record per request, in time order.
- **The era table.** For quirk-free peers, each request's outcome agrees with the
  spec's era table (2026-07-28 ``basic/versioning.mdx`` §Compatibility Matrix) for
  the instance that served it: a pair the table fails is a failed request with cause
  ``era``; a pair it passes fails exactly when the simulator's own run of that pair
  fails, for a revision reason (none in common, or a counter-offer the client
  refuses), never for another.
- **Safe upgrades.** A rolling upgrade to a dual-era target, with only dual-era or
  legacy clients whose revision both the fleet and the target serve, fails nothing,
  whatever the balancer.
- **Determinism.** The same seed gives the same timeline, byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from _era_table import ERA_TABLE
from _strategies import peers
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.matrix._build import failure_kind
from mcp_skew.rollout._fleet import BALANCERS, Balancer, Schedule, rollback, rolling
from mcp_skew.rollout._outcomes import CATEGORIES
from mcp_skew.rollout._timeline import Group, Rollout
from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.versions import REGISTRY, Era

LEGACY = REGISTRY.of_era(Era.LEGACY)
MODERN = REGISTRY.of_era(Era.MODERN)


@st.composite
def rollouts(draw: st.DrawFn, *, quirks: bool = False) -> Rollout:
    groups = [Group(draw(peers("client", quirks=quirks)), draw(st.integers(1, 4)))
              for _ in range(draw(st.integers(1, 3)))]
    fleet = [draw(peers("server", quirks=quirks)) for _ in range(draw(st.integers(1, 3)))]
    to = draw(peers("server", quirks=quirks))
    every = draw(st.integers(1_000, 90_000))
    schedule = rolling(len(fleet), to, start_ms=draw(st.integers(0, 120_000)), every_ms=every)
    if draw(st.booleans()):
        schedule = schedule.then(rollback(fleet, start_ms=draw(st.integers(0, 240_000)),
                                          every_ms=every))
    return Rollout(groups, fleet, schedule, duration_ms=draw(st.integers(1, 4)) * 60_000,
                   rate=draw(st.integers(1, 8)), balancer=draw(st.sampled_from(BALANCERS)),
                   seed=draw(st.integers(0, 2**64 - 1)), classify=failure_kind,
                   keep=sum(g.count for g in groups))


@settings(max_examples=60, deadline=None)
@given(rollouts(quirks=True))
def test_every_request_is_answered_exactly_once(rollout: Rollout) -> None:
    minutes = list(rollout.timeline())
    clients = sum(g.count for g in rollout.groups)
    t = rollout.totals
    assert t.requests == clients * rollout.requests_per_client
    assert t.requests == sum(getattr(t, c) for c in CATEGORIES)
    assert sum(m.totals.requests for m in minutes) == t.requests
    assert [m.minute for m in minutes] == list(range(len(minutes)))
    assert sum(t.causes.values()) == t.failed
    assert len(rollout.transcripts) == clients
    for records in rollout.transcripts.values():
        assert len(records) == rollout.requests_per_client
        times = [r["ms"] for r in records]
        assert times == sorted(times) and len(set(times)) == len(times)
        assert all(0 <= ms < rollout.duration_ms for ms in times)
        assert all(r["outcome"] in CATEGORIES for r in records)


def _pair_works(client: PeerSpec, server: PeerSpec) -> bool:
    record = run(client, server, "default")
    return record.status == "ok" and record.steps[1].ok


@settings(max_examples=60, deadline=None)
@given(rollouts(quirks=False))
def test_each_outcome_agrees_with_the_era_table_for_its_instance(rollout: Rollout) -> None:
    for _ in rollout.timeline():
        pass
    seen: dict[tuple[str, str], bool] = {}
    for records in rollout.transcripts.values():
        for r in records:
            client, server = parse_peer(r["client"], "client"), parse_peer(r["server"], "server")
            failed = r["outcome"] == "failed"
            if not ERA_TABLE[(client.kind, server.kind)]:
                assert failed and r["cause"] == "era", r
                continue
            key = (r["client"], r["server"])
            if key not in seen:
                seen[key] = _pair_works(client, server)
            assert failed == (not seen[key]), r
            if failed:  # the eras meet; the revisions do not (no overlap, or a refused offer)
                assert r["cause"] in ("revision", "negotiation"), r


@st.composite
def safe_upgrades(draw: st.DrawFn) -> tuple[list[Group], list[PeerSpec], Schedule, Balancer]:
    """A fleet of legacy or dual-era servers, a dual-era target, and clients that both serve."""
    shared = draw(st.lists(st.sampled_from(LEGACY), min_size=1, unique=True))
    newest = REGISTRY.ordered(shared)[0]

    def server_revs() -> list[str]:
        more = draw(st.lists(st.sampled_from(LEGACY), unique=True))
        return sorted({*shared, *more})

    before = ("legacy:" if draw(st.booleans()) else f"dual:{','.join(MODERN)},") \
        + ",".join(server_revs())
    target = f"dual:{','.join(MODERN)}," + ",".join(server_revs())
    # a legacy client asks for its newest revision: one both servers have
    older = [r for r in LEGACY if REGISTRY.ordered([r, newest])[0] == newest and r != newest]
    groups = []
    for _ in range(draw(st.integers(1, 3))):
        revs = [newest, *draw(st.lists(st.sampled_from(older), unique=True))] if older \
            else [newest]
        kind = draw(st.sampled_from(("legacy", "dual")))
        spec = f"legacy:{','.join(revs)}" if kind == "legacy" \
            else f"dual:{','.join(MODERN)},{','.join(revs)}"
        groups.append(Group(parse_peer(spec, "client"), draw(st.integers(1, 4))))
    fleet = [parse_peer(before, "server")] * draw(st.integers(1, 3))
    schedule = rolling(len(fleet), parse_peer(target, "server"),
                       start_ms=draw(st.integers(0, 60_000)),
                       every_ms=draw(st.integers(1_000, 60_000)))
    return groups, fleet, schedule, draw(st.sampled_from(BALANCERS))


@settings(max_examples=60, deadline=None)
@given(safe_upgrades(), st.integers(0, 2**64 - 1))
def test_a_dual_era_target_with_supported_clients_fails_nothing(
        case: tuple[list[Group], list[PeerSpec], Schedule, Balancer], seed: int) -> None:
    groups, fleet, schedule, balancer = case
    rollout = Rollout(groups, fleet, schedule, duration_ms=4 * 60_000, rate=6,
                      balancer=balancer, seed=seed, classify=failure_kind)
    for _ in rollout.timeline():
        pass
    assert rollout.totals.failed == 0, rollout.broken
    assert rollout.totals.requests > 0


def _timeline(rollout: Rollout) -> str:
    rows: list[Any] = [m.to_dict() for m in rollout.timeline()]
    return json.dumps({"timeline": rows, "totals": rollout.totals.to_dict(),
                       "broken": [b.to_dict() for b in rollout.broken.values()],
                       "transcripts": rollout.transcripts}, sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_same_seed_gives_the_same_timeline(data: st.DataObject) -> None:
    first = data.draw(rollouts(quirks=True))
    second = Rollout(first.groups, first.initial_fleet, first.schedule,
                     duration_ms=first.duration_ms, rate=first.rate, balancer=first.balancer,
                     seed=first.seed, classify=failure_kind, keep=first.keep)
    assert _timeline(first) == _timeline(second)

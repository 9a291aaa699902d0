"""Properties of every run, over random peers (hypothesis).

The strategies are built from :data:`REGISTRY` and :data:`QUIRKS`, never from
hand lists: a new revision or quirk is drawn as soon as it is registered.

The properties:

- **Agreement.** A negotiated revision is one the client supports, always: a
  client never accepts a revision it does not know. It is one the server
  supports too, unless the server lied in its InitializeResult (``fixed`` or
  ``echo``); then the negotiated revision is exactly the one the lie named (the
  fixed value, or the revision the client asked for). The simulator records the
  lie faithfully, and the client cannot tell.
- **The spec's verdict.** For quirk-free peers, the outcome follows from the era
  table (2026-07-28 ``basic/versioning.mdx`` §Compatibility Matrix) and each era's
  negotiation rule: the legacy handshake is one offer (the client's newest) and
  one counter-offer (the server's newest), so a pair can share a revision and
  still fail; the modern era takes the client's newest revision the server lists.
  A pair works exactly when that says so, at that revision and era, and every
  step of the default scenario then gets the answer its revision prescribes.
- **Determinism.** Two runs of the same inputs give byte-identical JSON.
- **No leaks.** After negotiation nothing of another revision crosses: tool
  fields and content types are those of the negotiated revision, legacy results
  carry no ``resultType``/``ttlMs``/``cacheScope``, legacy requests carry no
  ``_meta`` protocol version, and modern requests name the negotiated revision.
  When the server lied about its revision, only the era part holds (its later
  results are shaped by the legacy revision it really speaks, which is the lie's
  point, so tool fields and content types are not checked).
- **Well-formed records.** Time never runs backwards in a transcript; every
  answer answers a request sent before it; a failed run has no revision and
  plays no step; an ok run plays every step of its scenario.
"""

from __future__ import annotations

import json
from typing import Any

from _strategies import VALUES, peers
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.simulator import SCENARIOS, PeerSpec, RunRecord, parse_peer, run
from mcp_skew.simulator.messages import _wire
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import REGISTRY, Era, Role, carriage

SETTINGS = settings(max_examples=100, deadline=None)

LEGACY = REGISTRY.of_era(Era.LEGACY)
MODERN = REGISTRY.of_era(Era.MODERN)
ERROR_CODES = sorted({e.code for p in REGISTRY for e in p.errors.values()} | {0})

def test_every_quirk_value_kind_has_a_strategy() -> None:
    assert {q.value for q in QUIRKS.values()} <= set(VALUES)


def simulate(client: PeerSpec, server: PeerSpec, scenario: str = "default") -> RunRecord:
    return run(client, server, scenario)


# -- agreement ----------------------------------------------------------------------------------

def named_by_a_lie(client: PeerSpec, server: PeerSpec) -> str | None:
    """The revision a lying server puts in its InitializeResult, whatever it supports."""
    fixed = server.value("fixed")
    if fixed is not None:
        return fixed
    if server.has("echo") and client.legacy:
        return client.legacy[0]
    return None


@SETTINGS
@given(peers("client"), peers("server"))
def test_a_negotiated_revision_is_supported_by_both_peers(client: PeerSpec,
                                                          server: PeerSpec) -> None:
    record = simulate(client, server, "handshake")
    s = record.session
    if record.status == "failed":
        assert (s.revision, s.era) == (None, None)
        return
    assert s.revision in client.revisions
    assert s.era is REGISTRY.get(s.revision).era
    if s.revision not in server.revisions:
        assert s.era is Era.LEGACY
        assert s.revision == named_by_a_lie(client, server)


# -- the spec's verdict ---------------------------------------------------------------------------

def spec_verdict(client: PeerSpec, server: PeerSpec) -> tuple[str | None, Era | None]:
    """(revision, era) the spec says a quirk-free pair negotiates; (None, None) if it fails."""

    def legacy() -> tuple[str | None, Era | None]:
        asked = client.legacy[0]
        answer = asked if asked in server.legacy else server.legacy[0]
        return (answer, Era.LEGACY) if answer in client.legacy else (None, None)

    def modern() -> tuple[str | None, Era | None]:
        common = [r for r in client.modern if r in server.modern]
        return (common[0], Era.MODERN) if common else (None, None)

    table = {
        ("modern", "modern"): modern, ("modern", "dual"): modern,
        ("modern", "legacy"): lambda: (None, None),
        ("dual", "modern"): modern, ("dual", "dual"): modern,  # the probe finds a modern server
        ("dual", "legacy"): legacy,
        ("legacy", "modern"): lambda: (None, None),
        ("legacy", "dual"): legacy, ("legacy", "legacy"): legacy,
    }
    return table[client.kind, server.kind]()


@SETTINGS
@given(peers("client", quirks=False), peers("server", quirks=False))
def test_a_pair_works_exactly_when_the_spec_says_so(client: PeerSpec, server: PeerSpec) -> None:
    record = simulate(client, server)
    revision, era = spec_verdict(client, server)
    assert (record.revision, record.session.era) == (revision, era), record.session.path
    assert (record.status == "ok") is (revision is not None)
    if revision is not None:
        assert record.steps and all(step.ok for step in record.steps), record.steps
        assert record.to_dict()["findings"] == []


# -- determinism ----------------------------------------------------------------------------------

@SETTINGS
@given(peers("client"), peers("server"), st.sampled_from(sorted(SCENARIOS)))
def test_runs_are_deterministic(client: PeerSpec, server: PeerSpec, scenario: str) -> None:
    first = json.dumps(simulate(client, server, scenario).to_dict())
    second = json.dumps(simulate(client, server, scenario).to_dict())
    assert first == second


# -- no leaks ---------------------------------------------------------------------------------------

def after_negotiation(record: RunRecord) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(c2s requests, s2c answers) from the answer that settled negotiation on."""
    requests = [e.message for e in record.transcript.entries
                if e.dir == "c2s" and "id" in e.message]
    settled = requests[record.session.round_trips - 1]["id"]
    answers = [e.message for e in record.transcript.entries
               if e.dir == "s2c" and isinstance(e.message.get("id"), int)
               and e.message["id"] >= settled]
    return [m for m in requests if m["id"] > settled], answers


@SETTINGS
@given(peers("client"), peers("server"))
def test_nothing_of_another_revision_reaches_a_peer(client: PeerSpec, server: PeerSpec) -> None:
    record = simulate(client, server)
    if record.status != "ok":
        return
    assert record.revision is not None
    profile = REGISTRY.get(record.revision)
    lied = record.revision not in server.revisions  # see the module docstring
    requests, answers = after_negotiation(record)
    assert len(requests) == len(record.steps)
    legacy = profile.era is Era.LEGACY
    for message in requests:
        assert message["method"] in profile.methods
        meta = (message.get("params") or {}).get("_meta") or {}
        if legacy:
            assert _wire.VERSION_KEY not in meta, message
        else:
            assert meta[_wire.VERSION_KEY] == record.revision
    tool_fields, content_types = profile.names("tool_fields"), profile.names("content_types")
    for message in answers:
        result = message.get("result")
        if not isinstance(result, dict):
            continue
        if legacy:  # the era holds even when the server lied about the revision
            assert not {"resultType", "ttlMs", "cacheScope"} & set(result), result
            assert _wire.SERVER_INFO_KEY not in result.get("_meta", {}), result
        if lied:
            continue
        for tool in result.get("tools", ()):
            assert set(tool) <= tool_fields, (record.revision, set(tool) - tool_fields)
        for block in result.get("content", ()):
            assert block["type"] in content_types


@SETTINGS
@given(peers("client", kinds=("legacy", "dual"), quirks=False),
       st.lists(st.sampled_from(LEGACY), min_size=1, unique=True),
       st.one_of(st.just("echo"), st.sampled_from(REGISTRY.revisions()).map("fixed={}".format)))
def test_a_lying_dual_server_still_speaks_legacy_after_initialize(
        client: PeerSpec, legacy: list[str], lie: str) -> None:
    """Found by the property above: echo/fixed on a dual server once served the legacy
    handshake with its newest (2026-07-28) profile, so resultType and caching hints
    reached a legacy client."""
    server = parse_peer(f"dual:{','.join(MODERN)},{','.join(legacy)}+{lie}", "server")
    record = simulate(client, server)
    if record.session.era is not Era.LEGACY:
        return
    for message in after_negotiation(record)[1]:
        assert not {"resultType", "ttlMs", "cacheScope"} & set(message.get("result", {}))


# -- well-formed records --------------------------------------------------------------------------

@SETTINGS
@given(peers("client"), peers("server"), st.sampled_from(sorted(SCENARIOS)))
def test_records_are_well_formed(client: PeerSpec, server: PeerSpec, scenario: str) -> None:
    record = simulate(client, server, scenario)
    times = [item.t_ms for item in record.transcript.timeline()]
    assert times == sorted(times)
    asked: set[Any] = set()
    for entry in record.transcript.entries:
        if entry.dir == "c2s" and "id" in entry.message:
            asked.add(entry.message["id"])
        elif entry.dir == "s2c" and "method" in entry.message and "id" in entry.message:
            # the server's own request: asks-roots' roots/list, or in the features scenario an
            # ask the negotiated revision carries as a server request (versions._features)
            method = entry.message["method"]
            asks = method == "roots/list" and server.has("asks-roots")
            if scenario == "features" and record.revision is not None:
                carried = carriage(client.registry.get(record.revision)).values()
                asks = asks or any(c.how == "server request" and method in c.via
                                   for c in carried)
            assert asks, method
        elif entry.dir == "s2c" and "id" in entry.message:
            assert entry.message["id"] in asked
        elif entry.dir == "s2c":  # a notification on a listen stream the client opened
            assert entry.message["method"].startswith("notifications/")
            assert "subscriptions/listen" in {e.message.get("method")
                                              for e in record.transcript.entries if e.dir == "c2s"}
    d = record.to_dict()
    assert d["status"] in ("ok", "failed")
    if d["status"] == "failed" and "failed_step" in d:  # connects, then fails
        assert d["revision"] is not None and d["reason"].startswith("connected, then ")
        assert len(d["steps"]) == len(SCENARIOS[scenario].requests)
        assert any(s["name"] == d["failed_step"] and not s["ok"] and s["expected"] == "result"
                   for s in d["steps"])
    elif d["status"] == "failed":
        assert d["revision"] is None and d["era"] is None and d["reason"]
        # steps only where the scenario ran and a later re-probe found no way to talk
        assert d["steps"] == [] or any(step.kind == "era-stale" for step in record.session.path)
    else:
        assert len(d["steps"]) == len(SCENARIOS[scenario].requests)
        assert d["path"][-1].startswith("accepted ") or "accepted" in " ".join(d["path"])


@SETTINGS
@given(st.sampled_from(["client", "server"]).flatmap(
    lambda role: st.tuples(st.just(role), peers(role))))  # type: ignore[arg-type]
def test_notation_round_trips(drawn: tuple[Role, PeerSpec]) -> None:
    role, peer = drawn
    assert parse_peer(peer.notation, role) == peer

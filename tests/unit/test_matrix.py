"""The default matrix: its peer set, and its cells against the spec and the simulator.

- Every cell equals a fresh ``run()`` of its pair (its JSON adds keys to the run's,
  never changes one).
- Every cell agrees with the spec's era table (2026-07-28
  ``basic/versioning.mdx`` §Compatibility Matrix), for the pairs whose
  revisions intersect; the two peers whose behaviour the table does not cover
  (a server that exits, a client that breaks the "MUST NOT be keyed to one
  code" rule) are checked against what they are documented to do.
"""

from __future__ import annotations

from functools import cache

import pytest
from _era_table import ERA_TABLE

from mcp_skew.matrix import Cell, Matrix, build_matrix
from mcp_skew.matrix._build import EXTRA_KEYS, FORMAT_VERSION, failure_kind
from mcp_skew.peers import BUILTIN_CLIENTS, BUILTIN_SERVERS, builtin_peers, label_for, short_revision
from mcp_skew.peers._sets import sweep_peers
from mcp_skew.simulator import PeerSpec, parse_peer, run
from mcp_skew.versions import BUILTIN, REGISTRY, Era


@cache
def default_matrix() -> Matrix:
    return build_matrix(builtin_peers("client"), builtin_peers("server"))


CLIENTS = builtin_peers("client")
SERVERS = builtin_peers("server")
PAIRS = [(i, j) for i in range(len(CLIENTS)) for j in range(len(SERVERS))]


def _pair_id(pair: tuple[int, int]) -> str:
    return f"{CLIENTS[pair[0]].label} x {SERVERS[pair[1]].label}"


# -- The built-in peer set ------------------------------------------------------------
@pytest.mark.parametrize("role", ["client", "server"])
def test_every_revision_has_a_single_revision_peer(role: str) -> None:
    peers = builtin_peers(role)  # type: ignore[arg-type]
    singles = {p.revisions[0] for p in peers if len(p.revisions) == 1 and not p.quirks}
    assert singles == {p.revision for p in BUILTIN}


@pytest.mark.parametrize("role", ["client", "server"])
def test_every_era_kind_is_present(role: str) -> None:
    peers = builtin_peers(role)  # type: ignore[arg-type]
    assert {p.kind for p in peers} == {"legacy", "modern", "dual"}
    assert any(p.kind == "legacy" and len(p.revisions) > 1 for p in peers)


def test_the_legacy_server_quirks_that_change_outcomes_are_columns() -> None:
    quirks = {name for p in SERVERS if p.kind == "legacy" for name, _ in p.quirks}
    assert quirks >= {"unknown-32601", "unknown-32602", "silent", "silent-exit", "lenient"}


@pytest.mark.parametrize("role", ["client", "server"])
def test_labels_are_short_unique_and_set(role: str) -> None:
    peers = builtin_peers(role)  # type: ignore[arg-type]
    labels = [p.label for p in peers]
    assert len(set(labels)) == len(labels)
    assert all(0 < len(label) <= 28 for label in labels)
    assert all(p.name == p.label for p in peers)


@pytest.mark.parametrize(("spec", "role", "label"), [
    ("2025-06-18", "client", "2025-06-18"),
    ("legacy:2025-06-18,2025-03-26", "server", "legacy 25-06+25-03"),
    ("legacy:2025-11-25,2025-06-18,2025-03-26", "server", "legacy 25-11..25-03"),
    ("legacy:2025-11-25,2025-03-26,2024-11-05", "server", "legacy 25-11+25-03+24-11"),
    ("modern:2026-07-28", "client", "modern 2026"),
    ("dual:2026-07-28,2025-11-25", "client", "dual 2026+25-11"),
    ("legacy:2025-11-25+silent", "server", "legacy 25-11 silent"),
    ("legacy:2025-11-25+unknown-32602", "server", "legacy 25-11 -32602"),
    ("legacy:2025-11-25+fixed=2025-03-26", "server", "legacy 25-11 fixed=25-03"),
    ("dual:2026-07-28,2025-11-25+fallback-32601", "client", "dual 2026+25-11 -32601 only"),
])
def test_label_for(spec: str, role: str, label: str) -> None:
    assert label_for(parse_peer(spec, role)) == label  # type: ignore[arg-type]


def test_short_revision_keeps_colliding_or_odd_names_whole() -> None:
    assert short_revision("2025-11-25") == "25-11"
    assert short_revision("2026-07-28", Era.MODERN) == "2026"
    assert short_revision("2025-11-25", context=["2025-11-25", "2025-11-30"]) == "2025-11-25"
    assert short_revision("vendor-x") == "vendor-x"


def test_specs_are_the_documented_constants() -> None:
    assert [p.notation for p in CLIENTS] == [parse_peer(s, "client").notation
                                             for s in BUILTIN_CLIENTS]
    assert [p.notation for p in SERVERS] == [parse_peer(s, "server").notation
                                             for s in BUILTIN_SERVERS]


# -- Cells against the simulator -----------------------------------------------------------
def test_every_cell_is_the_run_of_its_pair() -> None:
    matrix = default_matrix()
    assert len(matrix.cells) == len(CLIENTS)
    for i, j, cell in matrix.pairs():
        expected = run(CLIENTS[i], SERVERS[j]).to_dict()
        assert {k: v for k, v in cell.to_dict().items() if k not in EXTRA_KEYS} == expected, (
            _pair_id((i, j)))
        assert Cell.from_dict(cell.to_dict(), FORMAT_VERSION) == cell


def test_features_kept_and_lost_partition_the_clients_features() -> None:
    for i, _, cell in default_matrix().pairs():
        if cell.status != "ok":
            assert cell.features_kept == ()
            continue
        wanted = REGISTRY.get(CLIENTS[i].revisions[0]).names("features")
        kept, lost = set(cell.features_kept), set(cell.features_lost)
        assert kept | lost == wanted and not kept & lost
        assert cell.revision is not None
        assert kept <= REGISTRY.get(cell.revision).names("features")


def test_each_side_loses_the_named_features_its_newest_revision_has_and_the_pair_cannot_carry(
) -> None:
    """``client_loses`` / ``server_loses``: the named features (``versions._features``) of
    each side's newest revision the negotiated one does not carry; empty when it fails."""
    from mcp_skew.versions._features import carriage

    for i, j, cell in default_matrix().pairs():
        if cell.status != "ok":
            assert cell.client_loses == cell.server_loses == ()
            continue
        assert cell.revision is not None
        have = set(carriage(REGISTRY.get(cell.revision)))
        for spec, lost in ((CLIENTS[i], cell.client_loses), (SERVERS[j], cell.server_loses)):
            newest = set(carriage(REGISTRY.get(spec.revisions[0])))
            assert set(lost) == newest - have, _pair_id((i, j))


def test_a_2025_11_25_servers_elicitation_never_reaches_a_2025_03_26_client() -> None:
    """The server author's sentence, from the JSON: elicitation is new in 2025-06-18
    (``client/elicitation.mdx``), URL mode and sampling tools in 2025-11-25; the client
    itself, at its newest revision, loses nothing."""
    i = next(n for n, c in enumerate(CLIENTS) if c.revisions == ("2025-03-26",))
    j = next(n for n, s in enumerate(SERVERS) if s.revisions[0] == "2025-11-25"
             and "2025-03-26" in s.revisions and not s.quirks)
    cell = default_matrix().cells[i][j].to_dict()
    assert cell["revision"] == "2025-03-26"
    assert cell["server_loses"] == ["elicitation", "url-elicitation", "sampling-with-tools",
                                    "tasks"]
    assert cell["client_loses"] == []


def test_event_positions_interleave_the_transcript_exactly() -> None:
    from mcp_skew.matrix._build import timeline

    i, j = next((i, j) for i, j, c in default_matrix().pairs()
                if c.path[1:2] == ("timeout after 3000 ms",))
    record = run(CLIENTS[i], SERVERS[j])
    expected = [item.text if item.is_event else item.message
                for item in record.transcript.timeline()]
    got = [item.text if item.is_event else item.message
           for item in timeline(default_matrix().cells[i][j])]
    assert got == expected
    assert timeline(default_matrix().cells[i][j]) == record.transcript.timeline()


# -- Cells against the spec's era table (tests/_era_table.py) -------------------------------
def outside_the_table(client: PeerSpec, server: PeerSpec) -> str | None:
    """Why the era table does not decide this pair (None: it does)."""
    not_32601 = any(server.has(q) for q in ("unknown-32602", "silent", "silent-exit"))
    if client.has("fallback-32601") and not_32601:
        return "the client keys its fallback to -32601, which stdio.mdx forbids"
    if server.has("silent-exit") and client.kind == "dual" and not client.has("restart"):
        return "the server exits after its silence; the table assumes it stays up"
    return None


IN_THE_TABLE = [p for p in PAIRS if outside_the_table(CLIENTS[p[0]], SERVERS[p[1]]) is None]


def test_only_the_known_quirky_pairs_are_outside_the_table() -> None:
    """The pairs the table does not decide are exactly those ``test_pairs_outside_the_table``
    pins: a dual client keyed to -32601, or one that does not restart a server that exits."""
    outside = {(CLIENTS[i].label, SERVERS[j].label) for i, j in PAIRS
               if outside_the_table(CLIENTS[i], SERVERS[j])}
    assert len(outside) == 5
    assert all(SERVERS[j].has("silent-exit") or CLIENTS[i].has("fallback-32601")
               for i, j in PAIRS if (CLIENTS[i].label, SERVERS[j].label) in outside)


@pytest.mark.parametrize("pair", IN_THE_TABLE, ids=_pair_id)
def test_cell_agrees_with_the_era_table(pair: tuple[int, int]) -> None:
    client, server = CLIENTS[pair[0]], SERVERS[pair[1]]
    cell = default_matrix().cells[pair[0]][pair[1]]
    works = ERA_TABLE[(client.kind, server.kind)]
    if not works:
        assert cell.status == "failed"
        assert cell.failure == "era"
    elif set(client.revisions) & set(server.revisions):
        assert cell.status == "ok", cell.reason
        assert cell.revision in set(client.revisions) & set(server.revisions)
    else:
        assert cell.status == "failed"
        assert cell.failure == "revision"


@pytest.mark.parametrize(("client", "server", "ok", "failure"), [
    # the spec's dual-era client falls back on any error or a timeout ...
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+unknown-32602", True, None),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+silent", True, None),
    # ... but a server that exits after its silence takes the fallback down with it,
    # unless the client restarts it
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+silent-exit", False, "quirk"),
    ("dual:2026-07-28,2025-11-25+restart", "legacy:2025-11-25+silent-exit", True, None),
    # a client keyed to -32601 fails exactly where the spec says not to key it
    ("dual:2026-07-28,2025-11-25+fallback-32601", "legacy:2025-11-25+unknown-32601", True, None),
    ("dual:2026-07-28,2025-11-25+fallback-32601", "legacy:2025-11-25+unknown-32602", False,
     "quirk"),
    ("dual:2026-07-28,2025-11-25+fallback-32601", "legacy:2025-11-25+silent", False, "quirk"),
    # a lenient legacy server serves a modern client under legacy rules: that fails
    ("modern:2026-07-28", "legacy:2025-11-25+lenient", False, "era"),
])
def test_pairs_outside_the_table(client: str, server: str, ok: bool, failure: str | None
                                 ) -> None:
    matrix = default_matrix()
    i = [a.notation for a in matrix.clients].index(client)
    j = [a.notation for a in matrix.servers].index(server)
    cell = matrix.cells[i][j]
    assert (cell.status == "ok") is ok
    assert cell.failure == failure


def test_the_marks_that_the_built_in_set_shows() -> None:
    marks = {c.mark for _, _, c in default_matrix().pairs()}
    # one modern revision is built in, so no pair can retry after -32022
    assert marks == {"direct", "downgraded", "era-fallback", "failed"}


# -- The sweep the benchmark uses -----------------------------------------------------------
def test_the_sweep_has_a_peer_for_every_subset_in_every_kind() -> None:
    legacy, modern = len(REGISTRY.of_era(Era.LEGACY)), len(REGISTRY.of_era(Era.MODERN))
    plain = (2**legacy - 1) + (2**modern - 1) + (2**legacy - 1) * (2**modern - 1)
    assert len(sweep_peers("server")) == plain
    with_quirk = sweep_peers("server", ("silent",))
    assert len(with_quirk) == plain + plain - (2**modern - 1)  # modern servers take no silence
    assert len({p.notation for p in with_quirk}) == len(with_quirk)


# -- Transcripts only where asked ------------------------------------------------------------
def test_a_matrix_without_transcripts_is_the_same_matrix_without_them() -> None:
    lean = build_matrix(CLIENTS, SERVERS, keep_transcripts=False)
    full = default_matrix()
    assert all(cell.transcript is None for _, _, cell in lean.pairs())
    assert all("transcript" not in cell.to_dict() for _, _, cell in lean.pairs())
    assert [[cell.replace(transcript=None) for cell in row]
            for row in full.cells] == [list(row) for row in lean.cells]
    assert lean.summary() == full.summary()


def test_a_quirk_failure_is_judged_as_for_a_lone_pair() -> None:
    """build_matrix runs each plain pair once for all its quirky variants: same verdicts."""
    clients = sweep_peers("client", ("restart", "fallback-32601"))[::7]
    servers = sweep_peers("server", ("silent", "silent-exit", "unknown-32602"))[::5]
    matrix = build_matrix(clients, servers, "handshake", keep_transcripts=False)
    failures = {cell.failure for _, _, cell in matrix.pairs()}
    assert "quirk" in failures and "negotiation" in failures  # both answers are seen
    for i, j, cell in matrix.pairs():
        expected = None if cell.status == "ok" else failure_kind(clients[i], servers[j])
        assert cell.failure == expected, (clients[i].notation, servers[j].notation)

"""Peer notation: ``KIND:REV[,REV...][+QUIRK[=VALUE]...]`` and bare revisions.

Every valid form parses to the :class:`PeerSpec` it names and prints back to the
same notation; every kind of bad spec is a :class:`UsageError` with one line
that names the spec, and through the CLI that is one stderr line and exit code 2.
"""

from __future__ import annotations

import pytest

from mcp_skew.cli import main
from mcp_skew.errors import UsageError
from mcp_skew.peers import BUILTIN_CLIENTS, BUILTIN_SERVERS
from mcp_skew.simulator import PeerSpec, parse_peer, split_notation
from mcp_skew.simulator._peers import KINDS
from mcp_skew.simulator.quirks import QUIRKS
from mcp_skew.versions import REGISTRY, Era

LEGACY = REGISTRY.of_era(Era.LEGACY)
MODERN = REGISTRY.of_era(Era.MODERN)

# -- valid forms ------------------------------------------------------------------------

#: (spec, role, kind, revisions newest first, quirks)
VALID = [
    ("2025-06-18", "client", "legacy", ("2025-06-18",), ()),
    ("2026-07-28", "server", "modern", ("2026-07-28",), ()),
    ("legacy:2025-06-18", "client", "legacy", ("2025-06-18",), ()),
    ("legacy:2025-06-18,2025-03-26", "server", "legacy", ("2025-06-18", "2025-03-26"), ()),
    ("legacy:2024-11-05,2025-11-25,2025-06-18", "client", "legacy",
     ("2025-11-25", "2025-06-18", "2024-11-05"), ()),
    ("modern:2026-07-28", "client", "modern", ("2026-07-28",), ()),
    ("dual:2026-07-28,2025-11-25", "client", "dual", ("2026-07-28", "2025-11-25"), ()),
    ("dual:2025-11-25,2026-07-28", "server", "dual", ("2026-07-28", "2025-11-25"), ()),
    ("legacy:2025-11-25+silent", "server", "legacy", ("2025-11-25",), (("silent", None),)),
    ("2025-06-18+strict", "client", "legacy", ("2025-06-18",), (("strict", None),)),
    ("legacy:2025-11-25,2025-06-18+fixed=2025-06-18+reject", "server", "legacy",
     ("2025-11-25", "2025-06-18"), (("fixed", "2025-06-18"), ("reject", None))),
    ("modern:2026-07-28+slow=8000", "server", "modern", ("2026-07-28",), (("slow", "8000"),)),
    ("dual:2026-07-28,2025-11-25+restart+probe-timeout=500", "client", "dual",
     ("2026-07-28", "2025-11-25"), (("restart", None), ("probe-timeout", "500"))),
    ("modern:2026-07-28+discover+strict", "client", "modern", ("2026-07-28",),
     (("discover", None), ("strict", None))),
    ("  legacy:2025-06-18 , 2025-03-26  ", "client", "legacy", ("2025-06-18", "2025-03-26"), ()),
]


@pytest.mark.parametrize(("spec", "role", "kind", "revisions", "quirks"), VALID,
                         ids=[v[0].strip() for v in VALID])
def test_valid_spec(spec: str, role: str, kind: str, revisions: tuple[str, ...],
                    quirks: tuple[tuple[str, str | None], ...]) -> None:
    peer = parse_peer(spec, role)  # type: ignore[arg-type]
    assert (peer.kind, peer.revisions, peer.quirks) == (kind, revisions, quirks)


@pytest.mark.parametrize(("spec", "role"), [(v[0], v[1]) for v in VALID],
                         ids=[v[0].strip() for v in VALID])
def test_notation_round_trips(spec: str, role: str) -> None:
    peer = parse_peer(spec, role)  # type: ignore[arg-type]
    assert parse_peer(peer.notation, role) == peer  # type: ignore[arg-type]
    assert str(peer) == peer.name == peer.notation


@pytest.mark.parametrize("revision", REGISTRY.revisions())
def test_bare_revision_is_a_single_revision_peer_of_its_era(revision: str) -> None:
    peer = parse_peer(revision, "client")
    expected = "modern" if REGISTRY.get(revision).era is Era.MODERN else "legacy"
    assert (peer.kind, peer.revisions, peer.quirks) == (expected, (revision,), ())


def test_revisions_by_era_and_quirk_values() -> None:
    peer = parse_peer(f"dual:{','.join(REGISTRY.revisions())}+slow=250+sticky-era", "server")
    assert peer.legacy == REGISTRY.ordered(LEGACY)
    assert peer.modern == REGISTRY.ordered(MODERN)
    assert peer.has("sticky-era") and not peer.has("silent")
    assert peer.value("slow") == "250" and peer.value("sticky-era") is None
    assert peer.ms("slow", 0) == 250 and peer.ms("no-such", 7) == 7
    assert peer.profile().revision == peer.revisions[0]


def test_label_names_a_peer_in_tables() -> None:
    peer = PeerSpec("legacy", ("2025-06-18",), label="old-server")
    assert peer.name == str(peer) == "old-server" and peer.notation == "legacy:2025-06-18"


def test_every_quirk_parses_for_its_role_and_kinds() -> None:
    """Built from QUIRKS: each quirk is accepted on every kind it names."""
    revisions = {"legacy": LEGACY[-1], "modern": MODERN[-1], "dual": f"{MODERN[-1]},{LEGACY[-1]}"}
    values = {"none": "", "ms": "=1500", "revision": f"={LEGACY[0]}", "code": "=-32602",
              "count": "=3", "layout": "=prm"}
    for quirk in QUIRKS.values():
        for kind in quirk.kinds:
            peer = parse_peer(f"{kind}:{revisions[kind]}+{quirk.name}{values[quirk.value]}",
                              quirk.role)
            assert peer.has(quirk.name), (quirk.name, kind)


# -- bad specs ----------------------------------------------------------------------------

#: (what is wrong, spec, role, a fragment of the message)
BAD = [
    ("empty", "", "client", "empty peer spec"),
    ("blank", "   ", "server", "empty peer spec"),
    ("unknown kind", "old:2025-06-18", "client", "unknown kind 'old'"),
    ("kind is case sensitive", "Legacy:2025-06-18", "client", "unknown kind 'Legacy'"),
    ("no revision", "legacy:", "client", "no revision given"),
    ("only commas", "legacy:,", "server", "no revision given"),
    ("kind without colon", "legacy", "client", "no revision given"),
    ("only quirks", "+silent", "server", "no revision given"),
    ("unknown revision", "legacy:2025-01-01", "client", "unknown revision '2025-01-01'"),
    ("unknown bare revision", "2099-12-31", "server", "unknown revision '2099-12-31'"),
    ("revision twice", "legacy:2025-06-18,2025-06-18", "client", "listed twice"),
    ("bare revisions need a kind", "2025-06-18,2025-03-26", "client", "name the kind"),
    ("legacy kind, modern revision", "legacy:2026-07-28", "client", "legacy revisions only"),
    ("legacy kind, mixed eras", "legacy:2026-07-28,2025-11-25", "server",
     "legacy revisions only"),
    ("modern kind, legacy revision", "modern:2025-11-25", "server", "modern revisions only"),
    ("dual without a legacy revision", "dual:2026-07-28", "client",
     "at least one legacy and one modern"),
    ("dual without a modern revision", "dual:2025-11-25,2025-06-18", "server",
     "at least one legacy and one modern"),
    ("unknown quirk", "legacy:2025-06-18+wobbly", "server", "unknown server quirk 'wobbly'"),
    ("empty quirk", "legacy:2025-06-18+", "server", "unknown server quirk ''"),
    ("server quirk on a client", "legacy:2025-06-18+silent", "client",
     "unknown client quirk 'silent'"),
    ("client quirk on a server", "dual:2026-07-28,2025-11-25+restart", "server",
     "unknown server quirk 'restart'"),
    ("quirk not for this kind", "modern:2026-07-28+silent", "server",
     "applies to legacy/dual servers, not modern"),
    ("client quirk not for this kind", "legacy:2025-06-18+restart", "client",
     "applies to dual clients, not legacy"),
    ("value on a flag", "legacy:2025-06-18+silent=yes", "server", "takes no value"),
    ("missing value", "legacy:2025-06-18+fixed", "server", "needs a value"),
    ("empty value", "legacy:2025-06-18+fixed=", "server", "needs a value"),
    ("milliseconds not a number", "legacy:2025-06-18+slow=fast", "server",
     "takes milliseconds, not 'fast'"),
    ("negative milliseconds", "dual:2026-07-28,2025-11-25+probe-timeout=-5", "client",
     "takes milliseconds, not '-5'"),
    ("error code not a number", "legacy:2025-06-18+not-found-code=oops", "server",
     "takes an error code, not 'oops'"),
    ("a Unicode digit", "legacy:2025-06-18+slow=²", "server",
     "takes milliseconds, not '²' (0 to 86400000)"),
    ("thousands of digits", "legacy:2025-06-18+slow=" + "9" * 5000, "server",
     "takes milliseconds, not '9999999999999999999999999999999999999999'... (5000 characters)"),
    ("milliseconds over a day", "legacy:2025-06-18+slow=86400001", "server",
     "takes milliseconds, not '86400001'"),
    ("a zero count", "legacy:2025-11-25+session-expiry=0", "server",
     "takes a count, not '0' (1 to 1000000)"),
    ("unknown revision as a value", "legacy:2025-06-18+fixed=2024-01-01", "server",
     "unknown revision '2024-01-01'"),
]


@pytest.mark.parametrize(("spec", "role", "fragment"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_bad_spec_is_one_line_usage_error(spec: str, role: str, fragment: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_peer(spec, role)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message
    assert fragment in message
    if spec.strip():
        assert repr(spec) in message  # the message names the spec it is about


@pytest.mark.parametrize(("spec", "role", "fragment"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_bad_spec_through_the_cli(spec: str, role: str, fragment: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    good = {"client": "dual:2026-07-28,2025-11-25", "server": "legacy:2025-11-25"}
    args = {**good, role: spec}
    code = main(["simulate", "--client", args["client"], "--server", args["server"]])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("mcp-skew: error: ") and fragment in err
    assert "Traceback" not in err


def test_kinds_are_the_documented_three() -> None:
    assert KINDS == ("legacy", "modern", "dual")


# -- The notation's one reader (split_notation): parse_peer, the renderers, the guide ------
@pytest.mark.parametrize(("spec", "kind", "revisions", "quirk_names"), [
    ("dual:2026-07-28,2025-11-25+restart", "dual", ("2026-07-28", "2025-11-25"), ("restart",)),
    ("legacy:2025-11-25+silent+fixed=2025-03-26", "legacy", ("2025-11-25",),
     ("silent", "fixed")),
    ("2025-06-18", "", ("2025-06-18",), ()),
    ("legacy:", "legacy", (), ()),
    ("py-mcp@2.3:dual+restart", "py-mcp@2.3", ("dual",), ("restart",)),
])
def test_split_notation_reads_the_parts_as_written(spec: str, kind: str,
                                                   revisions: tuple[str, ...],
                                                   quirk_names: tuple[str, ...]) -> None:
    notation = split_notation(spec)
    assert (notation.kind, notation.revisions, notation.quirk_names) == (kind, revisions,
                                                                         quirk_names)
    assert notation.head == spec.partition("+")[0]


@pytest.mark.parametrize("spec", ["legacy:2025-11-25,2025-06-18+silent+fixed=2025-03-26",
                                  "2025-06-18+lenient", "modern:2026-07-28"])
def test_split_notation_writes_back_what_it_read(spec: str) -> None:
    assert split_notation(spec).text == spec


def test_every_built_in_peer_reads_back_as_parse_peer_made_it() -> None:
    for spec in (*BUILTIN_CLIENTS, *BUILTIN_SERVERS):
        peer = parse_peer(spec, "server" if spec in BUILTIN_SERVERS else "client")
        notation = split_notation(peer.notation)
        assert (notation.kind, notation.revisions) == (peer.kind, peer.revisions)
        assert notation.quirk_names == tuple(name for name, _ in peer.quirks)

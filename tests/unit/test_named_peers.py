"""Named peers: the notation, the catalogue, and each model against the measured facts.

The facts are the tables of docs/real-peers.md (measured on the real packages);
the drift tests (tests/interop/test_drift_*.py) check the same models against the
packages themselves. These tests run in memory and take well under a second.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.errors import UsageError
from mcp_skew.matrix._build import build_matrix
from mcp_skew.peers import (
    FAMILIES,
    NAMED_RESOLVERS,
    REAL_CLIENTS,
    REAL_SERVERS,
    NamedResolver,
    known_names,
    named_peer_names,
    resolve,
    resolve_peer,
)
from mcp_skew.peers._lookup import iter_models
from mcp_skew.realpeers._realmatrix import RealCell, real_peers, render_real
from mcp_skew.simulator import MemoryLink, PeerSpec, SimClient, SimServer, parse_peer, run
from mcp_skew.simulator._server import Reaction
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
MODERN = "2026-07-28"


def sim(client: str, server: str, scenario: str = "handshake") -> Any:
    return run(resolve_peer(client, "client"), resolve_peer(server, "server"), scenario)


# -- the notation ---------------------------------------------------------------------------------

#: (name, role, the line's first version, the model's notation prefix)
RESOLVES = [
    ("py-mcp@1.0", "server", (1, 0, 0), "legacy:2024-11-05+silent-exit"),
    ("py-mcp@1.0.1", "server", (1, 0, 0), "legacy:2024-11-05+silent-exit"),
    ("py-mcp@1.8.9", "server", (1, 0, 0), "legacy:2024-11-05+silent-exit"),
    ("py-mcp@1.9", "server", (1, 9, 0), "legacy:2025-03-26,2024-11-05+silent-exit"),
    ("py-mcp@1.9.3", "server", (1, 9, 0), "legacy:2025-03-26,2024-11-05+silent-exit"),
    ("py-mcp@1.9.4", "server", (1, 9, 4), "legacy:2025-03-26,2024-11-05+unknown-32602"),
    ("py-mcp@1.12.3", "server", (1, 10, 0), "legacy:2025-06-18,2025-03-26,2024-11-05+unknown"),
    ("py-mcp@1.14", "server", (1, 14, 0), "legacy:2025-06-18,2025-03-26,2024-11-05+unknown"),
    ("py-mcp@1.22", "client", (1, 14, 0), "legacy:2025-06-18,2025-03-26,2024-11-05"),
    ("py-mcp@1", "server", (1, 24, 0), "legacy:2025-11-25,"),
    ("py-mcp@1.30", "client", (1, 24, 0), "legacy:2025-11-25,"),
    ("py-mcp@2", "server", (2, 0, 0), "dual:2026-07-28,"),
    ("py-mcp@2.3", "server", (2, 0, 0), "dual:2026-07-28,"),
    ("py-mcp@2.3", "client", (2, 0, 0), "dual:2026-07-28,"),
    ("py-mcp@2.3:auto", "client", (2, 0, 0), "dual:2026-07-28,"),
    ("py-mcp@2.3:legacy", "client", (2, 0, 0), "legacy:2025-11-25,"),
    ("fastmcp@4", "server", (4, 0, 0), "dual:2026-07-28,"),
    ("fastmcp@4.2.3", "server", (4, 0, 0), "dual:2026-07-28,"),
    ("ts-sdk@1", "server", (1, 25, 0), "legacy:2025-11-25,"),
    ("ts-sdk@1.32.2", "client", (1, 25, 0), "legacy:2025-11-25,"),
    ("ts-server@2.4", "server", (2, 4, 0), "dual:2026-07-28,"),
    ("ts-server@2.4:dual", "server", (2, 4, 0), "dual:2026-07-28,"),
    ("ts-server@2.4:modern", "server", (2, 4, 0), "modern:2026-07-28+legacy-32022"),
    ("ts-server@2.4:legacy", "server", (2, 4, 0), "legacy:2025-11-25,"),
    ("ts-client@2.4", "client", (2, 4, 0), "legacy:2025-11-25,"),
    ("ts-client@2.4:legacy", "client", (2, 4, 0), "legacy:2025-11-25,"),
    ("ts-client@2", "client", (2, 4, 0), "legacy:2025-11-25,"),
    ("ts-client@2.4:auto", "client", (2, 4, 0), "dual:2026-07-28,"),
]


@pytest.mark.parametrize(("name", "role", "first", "notation"), RESOLVES,
                         ids=[f"{n}-{r}" for n, r, _, _ in RESOLVES])
def test_a_name_resolves_to_the_line_that_contains_it(name: str, role: str,
                                                       first: tuple[int, int, int],
                                                       notation: str) -> None:
    resolved = resolve(name, role)  # type: ignore[arg-type]
    assert resolved is not None and resolved.line.first == first
    peer = resolve_peer(name, role)  # type: ignore[arg-type]
    assert peer.notation.startswith(notation), peer.notation
    assert peer.name == name  # the label is the name as written


def test_the_label_is_short_and_the_note_says_where_it_was_measured() -> None:
    peer = resolve_peer("py-mcp@1.12.3", "server")
    assert peer.label == "py-mcp@1.12.3"
    assert "mcp (PyPI) 1.10.0-1.13.x server" in peer.note
    assert "mcp==1.10.0" in peer.note and "tests/interop/test_drift_servers.py" in peer.note
    auto = resolve_peer("py-mcp@2.3", "client")
    assert "auto set-up" in auto.note and "tests/interop/test_drift_clients.py" in auto.note
    assert "@modelcontextprotocol/client@2.4.0" in resolve_peer("ts-client@2.4:auto", "client").note


def test_quirks_after_a_name_are_added_or_override() -> None:
    peer = resolve_peer("py-mcp@2.3+probe-timeout=3000", "client")
    assert peer.value("probe-timeout") == "3000" and peer.has("fallback-denylist")
    assert [n for n, _ in peer.quirks].count("probe-timeout") == 1
    assert peer.name == "py-mcp@2.3+probe-timeout=3000"
    slow = resolve_peer("py-mcp@1.10+slow=500", "server")
    assert slow.ms("slow", 0) == 500 and slow.has("unknown-32602")
    with pytest.raises(UsageError, match="applies to dual clients"):
        resolve_peer("py-mcp@1.10+restart", "client")


#: (spec, role, a fragment of the one-line message)
BAD = [
    ("foo@1", "server", "unknown named peer 'foo@1'; known: py-mcp@1.0, "),
    ("fastmcp@4", "client", "fastmcp has no client model; known clients: py-mcp@1.0"),
    ("ts-client@2.4", "server", "ts-client has no server model"),
    ("ts-server@2.4", "client", "ts-server has no client model"),
    ("py-mcp@x.y", "server", "'x.y' is not a version"),
    ("py-mcp@", "server", "'' is not a version"),
    ("py-mcp@0.9", "server", "no server model for py-mcp 0.9; known: py-mcp@1.0 (1.0.0-1.8.x)"),
    ("py-mcp@3", "client", "no client model for py-mcp 3"),
    ("ts-server@2.1", "server", "no server model for ts-server 2.1; known: "
     "ts-server@2.4[:dual|legacy|modern] (2.4.x)"),
    ("ts-sdk@1.12", "server", "no server model for ts-sdk 1.12; known: ts-sdk@1.25 (1.25.0-1.x)"),
    ("ts-server@2.4:bogus", "server", "has no server mode 'bogus'; modes: dual, legacy, modern"),
    ("py-mcp@1.10:legacy", "client", "has no client mode 'legacy'; modes: none (one set-up)"),
    ("py-mcp@2.3:", "client", "has no client mode ''"),
]


@pytest.mark.parametrize(("spec", "role", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_name_is_one_clear_line(spec: str, role: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        resolve_peer(spec, role)  # type: ignore[arg-type]
    text = str(info.value)
    assert message in text and "\n" not in text


def test_a_bad_name_through_the_cli_is_one_stderr_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", "py-mcp@2.3", "--server", "nope@1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mcp-skew: error: peer spec 'nope@1': unknown named peer")
    assert len(err.splitlines()) == 1


def test_the_resolvers_are_an_explicit_list_a_caller_extends() -> None:
    acme = PeerSpec("legacy", ("2025-06-18",), label="acme@1")
    mine = NamedResolver(lambda head, role: acme if head == "acme@1" else None, lambda: ["acme@1"])
    resolvers = (*NAMED_RESOLVERS, mine)
    assert resolve_peer("acme@1", "server", resolvers=resolvers) == acme
    assert resolve_peer("py-mcp@1.0", "server", resolvers=resolvers).label == "py-mcp@1.0"
    with pytest.raises(UsageError, match="unknown named peer 'acme@1'"):
        resolve_peer("acme@1", "server")  # nothing registered itself anywhere
    with pytest.raises(UsageError) as info:
        resolve_peer("nope@1", "server", resolvers=resolvers)
    assert str(info.value).endswith(", acme@1")


@pytest.mark.parametrize("spec", ["py-mcp@1.0", "py-mcp@1.0+unknown-32602", "@peer.json"])
def test_the_simulator_resolves_no_names_and_no_files(spec: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_peer(spec, "server")
    text = str(info.value)
    assert text.startswith(f"peer spec {spec!r}: ") and "mcp_skew.peers.resolve_peer" in text
    assert "\n" not in text


def test_a_head_without_at_is_not_a_name() -> None:
    assert resolve_peer("legacy:2025-06-18", "server").label == ""


# -- the catalogue ---------------------------------------------------------------------------------

def test_every_model_parses_and_every_line_is_installable() -> None:
    for family, line, role, mode, model in iter_models():
        peer = resolve_peer(model.notation, role)
        assert peer.notation == model.notation, (family.name, line.span, mode)
        assert model.evidence, (family.name, line.span)
        if model.reported:  # built from public reports (an app that needs an account)
            assert line.installs is None and all(u.startswith("https://") for u in model.reported)
            continue
        assert line.installs is not None, f"{family.name} {line.span} has no drift check"
        installed = line.installs.version.split(".")
        assert tuple(int(p) for p in installed) >= line.first, (family.name, line.span)


def test_lines_are_ordered_and_every_role_has_a_runner_script() -> None:
    scripts = ROOT / "mcp_skew" / "realpeers" / "servers"
    for family in FAMILIES.values():
        firsts = [line.first for line in family.lines]
        assert firsts == sorted(firsts) and len(set(firsts)) == len(firsts)
        if any(line.servers for line in family.lines):
            assert (scripts / family.server_script).is_file(), family.name
        if any(m for line in family.lines for m in line.clients.values() if not m.reported):
            assert (scripts / family.client_script).is_file(), family.name


@pytest.mark.parametrize(("names", "role"), [(REAL_CLIENTS, "client"), (REAL_SERVERS, "server")])
def test_the_real_world_sets_resolve(names: tuple[str, ...], role: str) -> None:
    peers = [resolve_peer(n, role) for n in names]  # type: ignore[arg-type]
    assert [p.name for p in peers] == list(names)
    assert len({p.name for p in peers}) == len(peers)


def test_known_names_cover_both_roles() -> None:
    assert "py-mcp@2.0[:auto|legacy]" in known_names()
    assert "ts-server@2.4[:dual|legacy|modern]" in known_names("server")
    assert all(not n.startswith(("ts-server", "fastmcp")) for n in known_names("client"))
    assert named_peer_names() == known_names()


# -- servers against the measured table (docs/real-peers.md §Summary table) -------------------------

def modern(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return _wire.request(REGISTRY.get(MODERN), msg_id, method, params)


def plain(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return _wire.request(REGISTRY.get("2025-11-25"), msg_id, method, params)


def initialize(msg_id: int, revision: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"protocolVersion": revision, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "0"}}}


def answer(srv: SimServer, message: dict[str, Any]) -> str:
    """How a person reads the measured table: 'result', 'error N', 'none', 'exit'."""
    reaction = srv.receive(message)
    if reaction.exit:
        return "exit"
    if not reaction.replies:
        return "none"
    reply = reaction.replies[0]
    return f"error {reply['error']['code']}" if "error" in reply else "result"


def first(name: str, message: dict[str, Any]) -> str:
    return answer(SimServer(resolve_peer(name, "server")), message)


def answered(name: str, asked: str) -> str:
    reply = SimServer(resolve_peer(name, "server")).receive(initialize(1, asked)).replies[0]
    return str(reply["result"]["protocolVersion"])


#: name -> (disc+meta, disc no meta, early ping, early foo/bar, early tools/list,
#:          answers for 2025-11-25 / 2026-07-28 / 2024-11-05, missing resource, foo/bar after init)
TABLE = {
    "py-mcp@1.0": ("none", "none", "none", "none", "none",
                   ("2024-11-05", "2024-11-05", "2024-11-05"), "error 0", "none"),
    "py-mcp@1.9": ("none", "none", "none", "none", "none",
                   ("2025-03-26", "2025-03-26", "2024-11-05"), "error 0", "none"),
    "py-mcp@1.9.4": ("error -32602", "error -32602", "error -32602", "error -32602",
                     "error -32602", ("2025-03-26", "2025-03-26", "2024-11-05"), "error 0",
                     "error -32602"),
    "py-mcp@1.10": ("error -32602", "error -32602", "error -32602", "error -32602",
                    "error -32602", ("2025-06-18", "2025-06-18", "2024-11-05"), "error 0",
                    "error -32602"),
    "py-mcp@1.22": ("error -32602", "error -32602", "result", "error -32602", "error -32602",
                    ("2025-06-18", "2025-06-18", "2024-11-05"), "error 0", "error -32602"),
    "py-mcp@1.23": ("error -32602", "error -32602", "result", "error -32602", "error -32602",
                    ("2025-06-18", "2025-06-18", "2024-11-05"), "error 0", "error -32602"),
    "py-mcp@1.30": ("error -32602", "error -32602", "result", "error -32602", "error -32602",
                    ("2025-11-25", "2025-11-25", "2024-11-05"), "error 0", "error -32602"),
    "py-mcp@2.3": ("result", "error -32601", "result", "error -32601", "error -32602",
                   ("2025-11-25", "2025-11-25", "2024-11-05"), "error -32602", "error -32601"),
    "fastmcp@4": ("result", "error -32601", "result", "error -32601", "error -32602",
                  ("2025-11-25", "2025-11-25", "2024-11-05"), "error -32602", "error -32601"),
    "ts-sdk@1": ("error -32601", "error -32601", "result", "error -32601", "result",
                 ("2025-11-25", "2025-11-25", "2024-11-05"), "error -32602", "error -32601"),
    "ts-server@2.4:dual": ("result", "error -32601", "result", "error -32601", "result",
                           ("2025-11-25", "2025-11-25", "2024-11-05"), "error -32602",
                           "error -32601"),
    "ts-server@2.4:legacy": ("error -32601", "error -32601", "result", "error -32601", "result",
                             ("2025-11-25", "2025-11-25", "2024-11-05"), "error -32602",
                             "error -32601"),
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_server_model_matches_the_measured_table(name: str) -> None:
    disc, bare, ping, foo, tools, versions, missing, after = TABLE[name]
    assert first(name, modern(1, "server/discover")) == disc
    assert first(name, plain(1, "server/discover")) == bare
    assert first(name, plain(1, "ping")) == ping
    assert first(name, plain(1, "foo/bar")) == foo
    assert first(name, plain(1, "tools/list")) == tools
    assert tuple(answered(name, asked) for asked in ("2025-11-25", MODERN, "2024-11-05")) == versions
    srv = SimServer(resolve_peer(name, "server"))
    srv.receive(initialize(1, "2024-11-05"))
    srv.receive({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert answer(srv, plain(2, "resources/read", {"uri": "mem://missing"})) == missing
    assert answer(srv, plain(3, "foo/bar")) == after


@pytest.mark.parametrize("name", ["py-mcp@1.0", "py-mcp@1.9"])
def test_old_python_servers_exit_on_the_input_after_an_unknown_request(name: str) -> None:
    srv = SimServer(resolve_peer(name, "server"))
    assert answer(srv, modern(1, "server/discover")) == "none"
    assert answer(srv, initialize(2, "2025-11-25")) == "exit"


@pytest.mark.parametrize("name", ["py-mcp@2.3", "fastmcp@4"])
def test_python_2x_servers_fix_the_era_by_the_first_request(name: str) -> None:
    srv = SimServer(resolve_peer(name, "server"))
    assert answer(srv, modern(1, "server/discover")) == "result"
    assert answer(srv, initialize(2, "2025-11-25")) == "error -32022"
    legacy = SimServer(resolve_peer(name, "server"))
    assert answer(legacy, initialize(1, "2025-11-25")) == "result"
    assert answer(legacy, modern(2, "tools/list")) == "error -32600"


def test_ts_server_dual_keeps_discover_a_discardable_probe() -> None:
    srv = SimServer(resolve_peer("ts-server@2.4:dual", "server"))
    assert answer(srv, modern(1, "server/discover")) == "result"
    assert answer(srv, initialize(2, "2025-11-25")) == "result"


@pytest.mark.parametrize("message", [initialize(1, "2025-11-25"), plain(1, "ping"),
                                     plain(1, "tools/list"), plain(1, "server/discover")])
def test_ts_server_modern_answers_claimless_requests_with_32022(message: dict[str, Any]) -> None:
    assert first("ts-server@2.4:modern", message) == "error -32022"
    assert first("ts-server@2.4:modern", modern(1, "server/discover")) == "result"


# -- clients against the measured behaviour (docs/real-peers.md §Clients) ---------------------------

#: (client, server, status, revision, mark, path) for the measured client rows
CLIENT_ROWS = [
    # mcp 2.3 auto vs the logging fake server: silent -> initialize after 10 s
    ("py-mcp@2.3", "legacy:2025-11-25+silent", "ok", "2025-11-25", "era-fallback",
     [f"discover {MODERN}", "timeout after 10000 ms", "initialize 2025-11-25",
      "accepted 2025-11-25"]),
    ("py-mcp@2.3", "legacy:2025-11-25", "ok", "2025-11-25", "era-fallback", None),
    ("py-mcp@2.3", "legacy:2025-11-25+unknown-32602", "ok", "2025-11-25", "era-fallback", None),
    ("py-mcp@2.3", f"modern:{MODERN}", "ok", MODERN, "direct", None),
    ("py-mcp@2.3", "legacy:2025-11-25+fixed=2024-11-05", "ok", "2024-11-05", "era-fallback", None),
    # ... and against the real servers
    ("py-mcp@2.3", "py-mcp@1.0", "failed", None, "failed",
     [f"discover {MODERN}", "timeout after 10000 ms", "initialize 2025-11-25", "server exited"]),
    ("py-mcp@2.3:legacy", "py-mcp@1.0", "ok", "2024-11-05", "downgraded", None),
    ("py-mcp@2.3", "py-mcp@1.9.4", "ok", "2025-03-26", "era-fallback",
     [f"discover {MODERN}", "error -32602", "initialize 2025-11-25", "counter-offer 2025-03-26",
      "accepted 2025-03-26"]),
    ("py-mcp@2.3", "py-mcp@1.22", "ok", "2025-06-18", "era-fallback", None),
    ("py-mcp@2.3", "ts-sdk@1", "ok", "2025-11-25", "era-fallback", None),
    ("py-mcp@2.3", "py-mcp@2.3", "ok", MODERN, "direct", None),
    # mcp 1.22 client: legacy 2025-06-18 only
    ("py-mcp@1.22", f"dual:{MODERN},2025-11-25,2025-06-18", "ok", "2025-06-18", "direct", None),
    ("py-mcp@1.22", f"dual:{MODERN},2025-11-25", "failed", None, "failed",
     ["initialize 2025-06-18", "counter-offer 2025-11-25", "disconnect"]),
    ("py-mcp@1.22", "legacy:2025-11-25+fixed=2024-11-05", "ok", "2024-11-05", "downgraded", None),
    ("py-mcp@1.22", "py-mcp@2.3", "ok", "2025-06-18", "direct", None),
    # the TypeScript v2 client in auto mode restarts the server after a timeout
    ("ts-client@2.4:auto", "py-mcp@1.0", "ok", "2024-11-05", "era-fallback",
     [f"discover {MODERN}", "timeout after 60000 ms", "restart", "initialize 2025-11-25",
      "counter-offer 2024-11-05", "accepted 2024-11-05"]),
    ("ts-client@2.4", "py-mcp@2.3", "ok", "2025-11-25", "direct", None),
]


@pytest.mark.parametrize("row", CLIENT_ROWS, ids=[f"{c}-x-{s}" for c, s, *_ in CLIENT_ROWS])
def test_client_model_matches_the_measured_behaviour(row: tuple[Any, ...]) -> None:
    client, server, status, revision, mark, path = row
    record = sim(client, server)
    assert (record.status, record.revision, record.mark) == (status, revision, mark)
    if path is not None:
        assert record.session.path == path


class _Probe32022(SimServer):
    """The logging fake server's --discover=-32022:LIST: the probe gets -32022 naming LIST."""

    supported: tuple[str, ...] = ()

    def receive(self, message: dict[str, Any]) -> Reaction:
        if message.get("method") != "server/discover":
            return SimServer.receive(self, message)
        data = {"supported": list(self.supported), "requested": MODERN}
        return Reaction(replies=[_wire.error(message["id"], -32022, "Unsupported", data)])


@pytest.mark.parametrize(("supported", "status", "discovers"), [
    (("2025-11-25", MODERN), "ok", 2),  # re-probes once at 2026-07-28, then initialize
    (("2099-01-01",), "failed", 1),  # modern only, disjoint: raises
])
def test_py_mcp_2_auto_on_a_32022_probe(supported: tuple[str, ...], status: str,
                                        discovers: int) -> None:
    server = resolve_peer("legacy:2025-11-25", "server")

    def make() -> SimServer:
        srv = _Probe32022(server)
        srv.supported = supported
        return srv

    link = MemoryLink(make)
    session = SimClient(resolve_peer("py-mcp@2.3", "client")).negotiate(link)
    assert session.status == status
    sent = [e.message["method"] for e in link.transcript.entries if e.dir == "c2s"]
    assert sent.count("server/discover") == discovers
    assert ("initialize" in sent) is (status == "ok")


# -- the known case -------------------------------------------------------------------------------

def test_the_known_case_mcp_2_3_default_mode_fails_against_mcp_1_0() -> None:
    """The known case: the probe goes unanswered, the fallback initialize finds the process gone;
    legacy mode works; against 1.9.4 (which answers -32602) the default mode works too."""
    auto = sim("py-mcp@2.3", "py-mcp@1.0", "default")
    assert auto.status == "failed" and auto.session.reason == "initialize 2025-11-25: server exited"
    assert "the server process exited" in [n.text for n in auto.transcript.notes]
    assert sim("py-mcp@2.3:legacy", "py-mcp@1.0").revision == "2024-11-05"
    assert sim("py-mcp@2.3", "py-mcp@1.9").status == "failed"  # 1.9.0-1.9.3: silent too
    assert sim("py-mcp@2.3", "py-mcp@1.9.4").revision == "2025-03-26"


def test_simulate_prints_a_named_pair(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", "py-mcp@2.3", "--server", "py-mcp@1.0", "--trace"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("py-mcp@2.3  x  py-mcp@1.0: failed: initialize 2025-11-25: server exited")
    assert "no answer to id 1 within 10000 ms" in out


# -- the docs -------------------------------------------------------------------------------------



# -- the commands ---------------------------------------------------------------------------------

def test_verify_peer_list_names_every_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify-peer", "--list"]) == 0
    out = capsys.readouterr().out
    for _, _, _, _, model in iter_models():
        assert f"model: {model.notation}" in out


def test_a_model_checked_by_its_own_test_is_not_run_against_stdio_servers() -> None:
    """mcp-remote is a Streamable HTTP client upstream only: the stdio drift check says
    which test checks it, installing nothing."""
    from mcp_skew.realpeers._client_drift import verify_client

    resolved = resolve("mcp-remote@0.1", "client")
    assert resolved is not None and resolved.model.checked_by
    report = verify_client(resolved)
    assert report.unavailable is not None and resolved.model.checked_by in report.unavailable
    assert not report.comparisons and "verify-peer" not in resolved.note()


def test_verify_peer_refuses_a_bad_name_before_installing(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify-peer", "nope@1"]) == 2
    assert "unknown named peer 'nope@1'; known: py-mcp@1.0" in capsys.readouterr().err
    assert main(["verify-peer", "fastmcp@4", "--role", "client"]) == 2
    assert "fastmcp has no client model" in capsys.readouterr().err


def test_matrix_set_real_puts_the_named_clients_against_the_named_servers(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--set", "real", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [a["label"] for a in data["clients"]] == list(REAL_CLIENTS)
    assert [a["label"] for a in data["servers"]] == list(REAL_SERVERS)
    cells = {(c["client"], c["server"]): c for row in data["cells"] for c in row}
    assert cells[("py-mcp@2.3", "py-mcp@1.0")]["status"] == "failed"
    assert cells[("py-mcp@2.3:legacy", "py-mcp@1.0")]["revision"] == "2024-11-05"
    assert cells[("py-mcp@2.3", "py-mcp@1.9.4")]["revision"] == "2025-03-26"
    assert cells[("py-mcp@2.3", "py-mcp@2.3")]["revision"] == MODERN


def test_render_real_marks_each_cell() -> None:
    matrix = build_matrix(real_peers("client")[2:4], real_peers("server")[:2], "handshake")
    reals = [RealCell(True, "failed", None, "MCPError: Connection closed"),
             RealCell(True, "ok", "2025-03-26"),  # predicted failed: differs
             RealCell(True, "ok", "2024-11-05"),
             RealCell(False, detail="not installed")]
    cells = []
    for row in matrix.cells:
        out = []
        for cell in row:
            real = reals[len(cells) * 2 + len(out)]
            real.predicted_status, real.predicted_revision = cell.status, cell.revision
            out.append(cell.replace(real=real.result()))
        cells.append(tuple(out))
    text = render_real(replace(matrix, cells=tuple(cells)))
    assert "3 of 4 cells ran with the real packages; 2 agree with the prediction, 1 differ" in text
    assert "py-mcp@2.3           =   !" in text and "py-mcp@2.3:legacy    =   -" in text
    assert ("- py-mcp@2.3 x py-mcp@1.9: predicted failed, real ok 2025-03-26" in text)
    markdown = render_real(replace(matrix, cells=tuple(cells)), "markdown")
    assert "## Run for real" in markdown and "| py-mcp@2.3 | = | ! |" in markdown

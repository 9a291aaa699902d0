"""Draft revisions change what goes on the wire, with no code change.

Three drafts, each a profile file extending 2026-07-28, and the transcript change
each one's rule predicts:

- a draft that **adds a method** (``tools/search``): its simulated servers answer
  it (with the row's ``answer`` and the fields every result must carry), while a
  2026-07-28 server answers -32601;
- a draft that **requires a new ``_meta`` key**: its clients send the key on every
  request, its servers reject a request without it with -32602 naming the key,
  and a 2026-07-28 server does not ask for it;
- a draft that **removes ``server/discover``**: its dual-era and ``discover``
  clients open with their first request instead, and its servers answer
  ``server/discover`` with -32601.

Also the two spec fixes made on the way: every required ``_meta`` key of
2026-07-28 is checked (-32602, ``basic/index.mdx`` §_meta), and a dual-era
server's legacy quirks leave its modern traffic alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.simulator import PeerSpec, RunRecord, SimServer, parse_peer, run
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY, Registry, Role, with_profile_files

BASE = "2026-07-28"
TENANT = "io.example/tenant"

ADDS_METHOD = """
revision = "2026-12-search"
extends = "2026-07-28"
title = "A draft that adds tools/search"

[[changes]]
id = "draft-tools-search"
summary = "Adds tools/search"
impact = "additive"
cite = { revision = "2026-12-search", source = "https://example.com/draft-search" }
add = { methods = { "tools/search" = { kind = "request", direction = "client->server", capability = "tools", answer = { tools = [] } } } }
"""  # noqa: E501 - one TOML line, as a person writes it

REQUIRES_META = f"""
revision = "2026-12-tenant"
extends = "2026-07-28"

[[changes]]
id = "draft-tenant-meta"
summary = "Every request names its tenant in _meta"
impact = "breaking"
cite = {{ revision = "2026-12-tenant", source = "https://example.com/draft-tenant" }}
add = {{ request_meta_required = ["{TENANT}"] }}
"""

REMOVES_DISCOVER = """
revision = "2026-12-nodiscover"
extends = "2026-07-28"

[[changes]]
id = "draft-no-discover"
summary = "Drops server/discover"
impact = "breaking"
cite = { revision = "2026-12-nodiscover", source = "https://example.com/draft-nodiscover" }
remove = { methods = ["server/discover"] }
"""


@dataclass(frozen=True)
class Draft:
    """A loaded draft: its revision, and the registry that holds it beside the built-ins."""

    revision: str
    registry: Registry

    def peer(self, spec: str, role: Role) -> PeerSpec:
        return parse_peer(spec, role, self.registry)


def _load(tmp_path: Path, text: str) -> Draft:
    path = tmp_path / "draft.toml"
    path.write_text(text, encoding="utf-8")
    registry = with_profile_files([str(path)])
    return Draft(registry.revisions()[-1], registry)


@pytest.fixture
def search(tmp_path: Path) -> Draft:
    return _load(tmp_path, ADDS_METHOD)


@pytest.fixture
def tenant(tmp_path: Path) -> Draft:
    return _load(tmp_path, REQUIRES_META)


@pytest.fixture
def nodiscover(tmp_path: Path) -> Draft:
    return _load(tmp_path, REMOVES_DISCOVER)


def answer(server: PeerSpec, revision: str, method: str, params: dict[str, Any] | None = None,
           meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The one reply of a fresh ``server`` to a request built under ``revision``."""
    request = _wire.request(server.registry.get(revision), 1, method, params)
    if meta is not None:
        request["params"]["_meta"] = meta
    (reply,) = SimServer(server).receive(request).replies
    return reply


def sent(record: RunRecord) -> list[dict[str, Any]]:
    return [e.message for e in record.transcript.entries if e.dir == "c2s"]


BUILT_IN = Draft(BASE, REGISTRY)


# -- a draft that adds a method ---------------------------------------------------------------------

def test_a_draft_method_is_answered_by_the_drafts_servers(search: Draft) -> None:
    reply = answer(search.peer(f"modern:{search.revision}", "server"), search.revision,
                   "tools/search", {"query": "echo"})
    assert reply["result"]["tools"] == []
    assert reply["result"]["resultType"] == "complete"  # required on every result of the draft


def test_the_same_method_is_unknown_to_the_base_revision(search: Draft) -> None:
    reply = answer(search.peer(f"modern:{BASE}", "server"), BASE, "tools/search", {"query": "echo"})
    assert reply["error"]["code"] == -32601


def test_a_dual_servers_legacy_quirk_does_not_silence_a_draft_method(search: Draft) -> None:
    server = search.peer(f"dual:{search.revision},2025-11-25+silent", "server")
    reply = answer(server, search.revision, "tools/search")
    assert "result" in reply


# -- a draft that requires a _meta key --------------------------------------------------------------

def test_the_drafts_clients_send_the_new_key_on_every_request(tenant: Draft) -> None:
    spec = f"modern:{tenant.revision}"
    record = run(tenant.peer(spec, "client"), tenant.peer(spec, "server"))
    assert record.status == "ok" and record.revision == tenant.revision
    requests = [m for m in sent(record) if "id" in m]
    assert len(requests) == 7  # the first request, then the six steps of the default scenario
    assert all(TENANT in m["params"]["_meta"] for m in requests)
    assert all(s.ok for s in record.steps)


def test_the_drafts_servers_reject_a_request_without_it(tenant: Draft) -> None:
    meta = _wire.request_meta(tenant.registry.get(tenant.revision))
    del meta[TENANT]
    reply = answer(tenant.peer(f"modern:{tenant.revision}", "server"), tenant.revision, "tools/list",
                   meta=meta)
    assert reply["error"]["code"] == -32602
    assert TENANT in reply["error"]["message"]


def test_the_base_revision_neither_sends_nor_asks_for_it(tenant: Draft) -> None:
    record = run(tenant.peer(f"modern:{BASE}", "client"),
                 tenant.peer(f"dual:{tenant.revision},{BASE},2025-11-25", "server"))
    assert record.status == "ok" and record.revision == BASE
    assert not any(TENANT in m["params"]["_meta"] for m in sent(record) if "id" in m)


# -- a draft that removes server/discover -----------------------------------------------------------

def test_the_drafts_dual_client_no_longer_probes_with_discover(nodiscover: Draft) -> None:
    record = run(nodiscover.peer(f"dual:{nodiscover.revision},2025-11-25", "client"),
                 nodiscover.peer("legacy:2025-11-25", "server"), "handshake")
    assert [m["method"] for m in sent(record)] == ["tools/list", "initialize",
                                                  "notifications/initialized"]
    assert record.session.path[0] == f"tools/list {nodiscover.revision}"
    assert record.status == "ok" and record.mark == "era-fallback"


def test_the_base_dual_client_still_probes_with_discover(nodiscover: Draft) -> None:
    record = run(nodiscover.peer(f"dual:{BASE},2025-11-25", "client"),
                 nodiscover.peer("legacy:2025-11-25", "server"), "handshake")
    assert sent(record)[0]["method"] == "server/discover"


def test_the_drafts_discover_client_opens_with_its_first_request(nodiscover: Draft) -> None:
    record = run(nodiscover.peer(f"modern:{nodiscover.revision}+discover", "client"),
                 nodiscover.peer(f"modern:{nodiscover.revision}", "server"), "handshake")
    assert [m["method"] for m in sent(record)] == ["tools/list"]
    assert record.status == "ok"


def test_the_drafts_servers_answer_discover_with_32601(nodiscover: Draft) -> None:
    draft = nodiscover.peer(f"modern:{nodiscover.revision}", "server")
    assert answer(draft, nodiscover.revision, "server/discover")["error"]["code"] == -32601
    assert "result" in answer(nodiscover.peer(f"modern:{BASE}", "server"), BASE, "server/discover")


# -- spec fixes -------------------------------------------------------------------------------------

@pytest.mark.parametrize("missing", [_wire.CAPS_KEY])
def test_a_2026_request_without_a_required_meta_key_gets_32602(missing: str) -> None:
    """2026-07-28 ``basic/index.mdx`` §_meta: protocolVersion and clientCapabilities are required."""
    meta = _wire.request_meta(REGISTRY.get(BASE))
    del meta[missing]
    reply = answer(BUILT_IN.peer(f"modern:{BASE}", "server"), BASE, "tools/list", meta=meta)
    assert reply["error"]["code"] == -32602 and missing in reply["error"]["message"]


@pytest.mark.parametrize("quirk", ["silent", "silent-exit", "unknown-32602"])
def test_legacy_quirks_leave_modern_traffic_alone(quirk: str) -> None:
    """A dual-era server answers an unknown modern method by 2026-07-28 rules: -32601."""
    server = SimServer(parse_peer(f"dual:{BASE},2025-11-25+{quirk}", "server"))
    request = _wire.request(REGISTRY.get(BASE), 1, "vendor/unknown")
    (reply,) = server.receive(request).replies
    assert reply["error"]["code"] == -32601
    assert server.receive(_wire.request(REGISTRY.get(BASE), 2, "tools/list")).replies  # still alive


def test_legacy_quirks_still_apply_to_legacy_traffic() -> None:
    server = SimServer(parse_peer(f"dual:{BASE},2025-11-25+silent", "server"))
    assert server.receive({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).replies == []


# -- a loaded draft reaches the commands ------------------------------------------------------------

def test_matrix_with_a_draft_shows_its_peers_without_naming_them(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    path = tmp_path / "search.toml"
    path.write_text(ADDS_METHOD, encoding="utf-8")
    assert main(["--profile", str(path), "matrix", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for role in ("clients", "servers"):
        notations = [peer["notation"] for peer in data[role]]
        assert "modern:2026-12-search" in notations
        assert "dual:2026-12-search,2025-11-25" in notations
    assert "2026-12-search" not in REGISTRY  # the invocation made its own registry


def test_migrate_to_a_draft(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tenant.toml"
    path.write_text(REQUIRES_META, encoding="utf-8")
    assert main(["--profile", str(path), "migrate", BASE, "2026-12-tenant"]) == 0
    out = capsys.readouterr().out
    assert "draft-tenant-meta" in out and "https://example.com/draft-tenant" in out

"""Extensions as a second axis: the table, the notation, the negotiation on the wire, and
how the probes read it (in-process; the real processes are in tests/slow/unit).

Sources: 2026-07-28 ``basic/versioning.mdx`` §Extension Negotiation and the schema's
``ClientCapabilities.extensions`` / ``ServerCapabilities.extensions`` (absent before
2026-07-28); ext-apps ``specification/2026-01-26/apps.mdx`` §Client<>Server Capability
Negotiation (a host advertises ``io.modelcontextprotocol/ui`` with ``mimeTypes`` in
``initialize``, whatever the protocol revision) and §Resource Discovery
(``_meta.ui.resourceUri``; "Host MUST use resources/read").
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_skew.errors import UsageError
from mcp_skew.peers import resolve_peer
from mcp_skew.probe._extensions import check_extensions
from mcp_skew.probe_client._extensions import app_fates, with_extensions
from mcp_skew.probe_client._findings import Row, client_findings
from mcp_skew.probe_client._infer import InferredClient, Traits
from mcp_skew.probe_client._observe import Observation
from mcp_skew.simulator import ExtensionsSeen, RunRecord, parse_peer, read_extensions, run
from mcp_skew.versions import EXTENSIONS, REGISTRY

UI = "io.modelcontextprotocol/ui"
TASKS = "io.modelcontextprotocol/tasks"
DUAL = "dual:2026-07-28,2025-11-25"
APP = "ui://mcp-skew/app.html"


def sim(client: str, server: str, scenario: str = "apps") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario)


def sent(record: RunRecord) -> list[dict[str, Any]]:
    return [e.message for e in record.transcript.entries
            if e.dir == "c2s" and isinstance(e.message, dict)]


def answers(record: RunRecord) -> list[dict[str, Any]]:
    return [e.message for e in record.transcript.entries
            if e.dir == "s2c" and isinstance(e.message, dict)]


def pairs(record: RunRecord) -> list[tuple[str, Any]]:
    return [("->" if e.dir == "c2s" else "<-", e.message) for e in record.transcript.entries
            if e.dir in ("c2s", "s2c")]


# -- the table ---------------------------------------------------------------------------------

def test_the_table_knows_mcp_apps_and_tasks_by_id_and_short_name() -> None:
    assert EXTENSIONS.named("ui") is EXTENSIONS.get(UI) is EXTENSIONS.named(UI)
    assert EXTENSIONS.named("tasks") is EXTENSIONS.get(TASKS)
    assert EXTENSIONS.named("nope") is None
    ui = EXTENSIONS.get(UI)
    assert ui is not None and ui.settings("client") == {"mimeTypes": ["text/html;profile=mcp-app"]}
    assert ui.settings("server") == {}
    assert ui.settings("client") is not ui.settings("client")  # a fresh copy each time


@pytest.mark.parametrize(("revision", "carrier", "in_schema"), [
    ("2024-11-05", "initialize", False), ("2025-03-26", "initialize", False),
    ("2025-06-18", "initialize", False), ("2025-11-25", "initialize", False),
    ("2026-07-28", "request-meta", True),
])
def test_where_each_revision_carries_the_clients_extensions(revision: str, carrier: str,
                                                           in_schema: bool) -> None:
    profile = REGISTRY.get(revision)
    assert EXTENSIONS.carrier(profile) == carrier
    assert EXTENSIONS.in_schema(profile) is in_schema


def test_tasks_was_a_core_capability_until_the_extension() -> None:
    tasks = EXTENSIONS.get(TASKS)
    assert tasks is not None
    assert tasks.core_in(REGISTRY.get("2025-11-25"), "server")
    assert not tasks.core_in(REGISTRY.get("2026-07-28"), "server")
    assert not tasks.core_in(REGISTRY.get("2025-06-18"), "client")


def test_a_tool_points_at_an_app_only_with_a_ui_uri() -> None:
    ui = EXTENSIONS.get(UI)
    assert ui is not None
    assert ui.tool_resource({"_meta": {"ui": {"resourceUri": APP}}}) == APP
    assert ui.tool_resource({"_meta": {"ui": {"resourceUri": "https://x/app"}}}) is None
    assert ui.tool_resource({"_meta": {"ui/resourceUri": APP}}) is None  # the flat old key
    assert ui.tool_resource({"name": "t"}) is None


def test_declared_keeps_objects_only() -> None:
    assert EXTENSIONS.declared({"extensions": {UI: {}, "x/y": 3}}) == {UI: {}}
    assert EXTENSIONS.declared({"extensions": []}) == {}
    assert EXTENSIONS.declared(None) == {}


# -- the notation ------------------------------------------------------------------------------

def test_ext_is_the_second_axis_of_a_peer_spec() -> None:
    peer = parse_peer("legacy:2025-11-25+silent+ext=ui,tasks", "server")
    assert peer.extensions == (UI, TASKS) and peer.quirks == (("silent", None),)
    assert peer.notation == "legacy:2025-11-25+silent+ext=ui,tasks"
    assert parse_peer(peer.notation, "server") == peer
    assert parse_peer(f"2025-11-25+ext={UI}", "client").extensions == (UI,)
    assert parse_peer("2025-11-25+ext=ui,ui", "client").extensions == (UI,)


@pytest.mark.parametrize(("spec", "words"), [
    ("2025-11-25+ext=", "needs the extensions"),
    ("2025-11-25+ext=uii", "unknown extension 'uii' (did you mean ui?)"),
])
def test_a_wrong_extension_is_one_clear_line(spec: str, words: str) -> None:
    with pytest.raises(UsageError, match=words.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_peer(spec, "client")


def test_a_named_peer_takes_extensions_too() -> None:
    peer = resolve_peer("py-mcp@2.3+ext=ui", "client")
    assert peer.extensions == (UI,) and peer.name.endswith("+ext=ui")
    assert resolve_peer("py-mcp@2.3", "client").extensions == ()


# -- negotiation on the wire -------------------------------------------------------------------

def test_a_legacy_client_advertises_in_initialize_and_the_server_declares_its_own() -> None:
    record = sim("legacy:2025-11-25+ext=ui", "legacy:2025-11-25+ext=ui,tasks")
    init = sent(record)[0]
    assert init["method"] == "initialize"
    assert init["params"]["capabilities"]["extensions"] == {
        UI: {"mimeTypes": ["text/html;profile=mcp-app"]}}
    result = answers(record)[0]["result"]
    assert result["capabilities"]["extensions"] == {UI: {}, TASKS: {}}
    assert all("_meta" not in (m.get("params") or {}) for m in sent(record))


def test_a_modern_client_advertises_in_every_request() -> None:
    record = sim(f"{DUAL}+ext=ui", "modern:2026-07-28+ext=ui")
    requests = [m for m in sent(record) if "id" in m]
    assert [m["method"] for m in requests] == ["server/discover", "tools/list", "resources/read"]
    for m in requests:
        caps = m["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
        assert caps["extensions"] == {UI: {"mimeTypes": ["text/html;profile=mcp-app"]}}
    discovered = answers(record)[0]["result"]
    assert discovered["capabilities"]["extensions"] == {UI: {}}
    assert record.status == "ok"


def test_the_app_is_listed_to_a_client_that_asked_and_read_by_it() -> None:
    record = sim(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui")
    seen = read_extensions(pairs(record))
    assert seen.advertised == {UI} and seen.offered == {UI}
    assert seen.tools == {UI: {"show": APP}} and seen.read == {APP} and not seen.unread()
    read = answers(record)[-1]["result"]["contents"][0]
    assert read["mimeType"] == "text/html;profile=mcp-app" and read["uri"] == APP


def test_a_client_without_the_extension_gets_core_tools_only() -> None:
    record = sim(DUAL, f"{DUAL}+ext=ui", "lists")
    listed = next(a["result"]["tools"] for a in answers(record)
                  if "tools" in a.get("result", {}))
    assert [t["name"] for t in listed] == ["echo", "fail"]
    assert "extensions" not in json.dumps(sent(record))


def test_before_2025_06_18_a_tool_has_no_meta_so_the_app_link_is_lost() -> None:
    # Tool._meta is in the profile's tool fields from 2025-06-18 on (schema Tool)
    record = sim("legacy:2025-03-26+ext=ui", "legacy:2025-03-26+ext=ui")
    assert record.revision == "2025-03-26" and record.status != "ok"
    listed = next(a["result"]["tools"] for a in answers(record) if "tools" in a.get("result", {}))
    assert "show" in [t["name"] for t in listed] and all("_meta" not in t for t in listed)
    newer = sim("legacy:2025-06-18+ext=ui", "legacy:2025-06-18+ext=ui")
    assert newer.status == "ok"


def test_the_apps_scenario_is_deterministic() -> None:
    first = sim(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui,tasks")
    again = sim(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui,tasks")
    assert first.to_dict() == again.to_dict()


def test_peers_without_extensions_send_what_they_always_sent() -> None:
    record = sim("legacy:2025-11-25", "legacy:2025-11-25", "default")
    assert "extensions" not in json.dumps([e.message for e in record.transcript.entries])


# -- the probes' reading -----------------------------------------------------------------------

def test_check_extensions_runs_one_more_client_advertising_what_is_offered() -> None:
    offered = sim("legacy:2025-11-25", "legacy:2025-11-25+ext=ui", "lists")
    asked: list[str] = []

    def again(spec: Any) -> RunRecord:
        asked.append(spec.notation)
        return run(spec, parse_peer("legacy:2025-11-25+ext=ui", "server"), "lists")

    named = [parse_peer("legacy:2025-11-25+ext=ui", "client"), parse_peer(DUAL, "client")]
    report = check_extensions([offered], named, again)
    assert report is not None and asked == ["legacy:2025-11-25+ext=ui"]
    assert report.offered() == [UI] and report.seen.tools == {UI: {"show": APP}}
    assert report.advertised_by == {UI: ["legacy:2025-11-25+ext=ui"]}
    text = "\n".join(report.lines())
    assert "io.modelcontextprotocol/ui (MCP Apps): offered" in text
    assert f"tool show -> {APP}" in text and "named clients that advertise it" in text
    assert report.to_dict()["checked_with"] == "legacy:2025-11-25+ext=ui"


def test_check_extensions_is_quiet_where_nothing_is_offered() -> None:
    plain = sim("legacy:2025-11-25", "legacy:2025-11-25", "lists")
    assert check_extensions([plain], [], lambda spec: None) is None


def _inferred(spec: str) -> InferredClient:
    return InferredClient(parse_peer(spec, "client"), "behaves like it", Traits())


def test_probe_client_infers_no_ui_read_from_an_app_it_never_read() -> None:
    never = read_extensions(pairs(sim(f"{DUAL}+no-ui-read+ext=ui", f"{DUAL}+ext=ui")))
    assert app_fates([never]) == [(1, APP, False, False)]
    inferred = with_extensions(_inferred(DUAL), [never, None])
    assert inferred.spec is not None and inferred.spec.extensions == (UI,)
    assert inferred.spec.has("no-ui-read") and "never reads" in inferred.sentence
    reads = read_extensions(pairs(sim(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui")))
    assert not with_extensions(_inferred(DUAL), [reads]).spec.has("no-ui-read")  # type: ignore[union-attr]


def test_probe_client_leaves_a_client_that_advertises_nothing_as_it_was() -> None:
    seen = ExtensionsSeen(offered={UI})
    inferred = _inferred(DUAL)
    assert with_extensions(inferred, [seen]) is inferred


def _row(seen: ExtensionsSeen) -> Row:
    observed = Observation("dual:2026-07-28,2025-11-25+ext=ui", "works", "ok", "2026-07-28",
                           "modern", "direct", [], "", extensions=seen)
    return Row(1, observed.server, "dual", "", observed, None, None, None)


def test_probe_client_finds_an_app_advertised_and_never_read() -> None:
    never = read_extensions(pairs(sim(f"{DUAL}+no-ui-read+ext=ui", f"{DUAL}+ext=ui")))
    (finding,) = client_findings([_row(never)], "dual")
    assert finding.code == "client-never-reads-app" and APP in finding.message
    reads = read_extensions(pairs(sim(f"{DUAL}+ext=ui", f"{DUAL}+ext=ui")))
    assert client_findings([_row(reads)], "dual") == []
    # a client that does not advertise it was never listed the app: nothing to read
    plain = read_extensions(pairs(sim(DUAL, f"{DUAL}+ext=ui")))
    assert client_findings([_row(plain)], "dual") == []


def test_a_stateless_http_server_never_sees_the_initialize_that_declared_them() -> None:
    # each request is served alone by a fresh server (quirk stateless-http): the extensions the
    # client declared once, in initialize, are gone by tools/list, as in airbytehq/PyAirbyte
    # PR 1097 (FastMCP's stateless_http: no client params left for client_supports_extension)
    client = parse_peer("legacy:2025-11-25+ext=ui", "client")
    stateful = run(client, parse_peer("legacy:2025-11-25+ext=ui", "server"), "apps",
                   transport="http")
    assert stateful.status == "ok"
    stateless = run(client, parse_peer("legacy:2025-11-25+ext=ui+stateless-http", "server"),
                    "apps", transport="http")
    assert stateless.revision == "2025-11-25" and stateless.status != "ok"
    assert "no listed tool points at an app" in next(st.got for st in stateless.steps if not st.ok)

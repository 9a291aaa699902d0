"""The next revision before it ships: a draft's identity apart from its wire string, the SEPs
in flight as layers over 2026-07-28, and what the simulator does with them.

- ``next`` is named ``next`` in every report and puts ``2026-07-28`` on the wire (the spec
  repository's draft schema declares the release's ``LATEST_PROTOCOL_VERSION``:
  conformance PR 495); a saved peer keeps the identity;
- SEP-3279 (pull request 3279: "CallToolResult.outputs replaces content and
  structuredContent ... Earlier protocol versions retain the legacy wire shape"): a
  2026-07-28 client meets a ``next+sep-3279`` server on the same wire string and cannot
  read its tool results: the result-shape boundary, in the path and in the matrix;
- the HTTP+SSE removal (2026-07-28 ``deprecated.mdx``: earliest removal three months after
  SEP-2596 is Final): a 2024-11-05-only client loses HTTP against a ``next`` server;
- SEP-3221 (pull request 3221: "Standard -32021 (MISSING_REQUIRED_CLIENT_CAPABILITY)"):
  a tool with host-injected parameters is hidden from a client that does not declare
  ``io.modelcontextprotocol/secure-params``, and a direct call gets -32021.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_skew import cli
from mcp_skew.cli import main
from mcp_skew.peers import PEER_FILE_FORMAT, resolve_peer
from mcp_skew.simulator import PeerSpec, RunRecord, SimServer, parse_peer, run
from mcp_skew.simulator.messages import _wire
from mcp_skew.versions import REGISTRY
from mcp_skew.versions._seps import (
    DRAFT,
    LAYERS,
    Status,
    compose,
    drafts_named,
    next_layers,
    with_drafts,
)

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
DRAFTS = with_drafts(["next+sep-3279+sep-3221", "next+sep-2663"], REGISTRY)


def peer(spec: str, role: str = "client") -> PeerSpec:
    return parse_peer(spec, role, DRAFTS)  # type: ignore[arg-type]


def versions_sent(record: RunRecord) -> set[Any]:
    found = set()
    for entry in record.transcript.entries:
        params = entry.message.get("params") if entry.dir == "c2s" else None
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(meta, dict):
            found.add(meta.get(VERSION_KEY))
    return found


def cells(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[tuple[str, str], dict[str, Any]]:
    assert main(["matrix", "--format", "json", *argv]) == 0
    data = json.loads(capsys.readouterr().out)
    return {(c["client"], c["server"]): c for row in data["cells"] for c in row}


# -- identity and wire string ------------------------------------------------------------------------

def test_next_is_named_next_and_puts_the_releases_string_on_the_wire() -> None:
    profile = DRAFTS.get("next")
    assert (profile.revision, profile.wire_version) == ("next", "2026-07-28")
    assert REGISTRY.get("2026-07-28").wire_version == "2026-07-28"
    record = run(peer("modern:next"), peer("modern:next", "server"))
    assert record.session.revision == "next"  # the report
    assert versions_sent(record) == {"2026-07-28"}  # the transcript
    assert "next" not in json.dumps([e.message for e in record.transcript.entries])


def test_a_next_server_lists_its_wire_string_in_discover_and_32022() -> None:
    server = peer("modern:next", "server")
    discover = _wire.request(DRAFTS.get("next"), 1, "server/discover", {})
    (reply,) = SimServer(server).receive(discover).replies
    assert reply["result"]["supportedVersions"] == ["2026-07-28"]
    asked = _wire.request(DRAFTS.get("next"), 2, "tools/list", {})
    asked["params"]["_meta"][VERSION_KEY] = "2099-01-01"
    (refused,) = SimServer(server).receive(asked).replies
    assert refused["error"]["data"]["supported"] == ["2026-07-28"]


def test_every_report_shows_next(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--client", "modern:next", "--server", "modern:next"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("ok, next (modern, direct)")
    assert "accepted next" in out
    found = cells(capsys, "--clients", "modern:next", "modern:2026-07-28",
                  "--servers", "modern:2026-07-28", "modern:next")
    assert found["modern next", "modern next"]["revision"] == "next"
    assert found["modern next", "modern 2026"]["revision"] == "next"
    assert found["modern 2026", "modern next"]["revision"] == "2026-07-28"
    assert len({server for _, server in found}) == 2  # one wire string, two columns


def test_a_saved_peer_keeps_next(tmp_path: Path) -> None:
    path = tmp_path / "next.json"
    path.write_text(json.dumps({"format": PEER_FILE_FORMAT, "peer": "modern:next", "role": "server",
                                "label": "", "target": "x", "sentence": "a next server"}),
                    encoding="utf-8")
    server = resolve_peer(f"@{path}", "server")
    assert server.revisions == ("next",)
    record = run(peer("modern:2026-07-28"), server)
    assert record.status == "ok" and versions_sent(record) == {"2026-07-28"}


def test_a_composed_draft_is_one_revision_in_a_peer_spec_beside_quirks() -> None:
    server = peer("dual:next+sep-3279,2025-11-25+unknown-32602", "server")
    assert server.revisions == ("next+sep-3279", "2025-11-25")
    assert server.quirks == (("unknown-32602", None),)


def test_drafts_are_found_where_a_command_line_names_them() -> None:
    argv = ["matrix", "--servers", "modern:next+sep-3279+slow=5", "--clients", "next", "nextcloud",
            "next.toml"]
    assert drafts_named(argv) == ("next+sep-3279", "next")


def test_the_default_matrix_never_meets_next(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--format", "json"]) == 0
    assert '"next' not in capsys.readouterr().out


# -- the layers --------------------------------------------------------------------------------------

def test_next_is_the_release_with_the_final_layers_that_may_ship_next() -> None:
    carried = {x.name for x in next_layers()}
    assert carried == {x.name for x in LAYERS if x.status is Status.FINAL and not x.earliest}
    assert "sep-2577" not in carried  # removable only from a release on or after 2027-07-28
    ids = {c.id for c in DRAFTS.get("next").changes}
    assert ids == {c.id for x in next_layers() for c in x.changes}


@pytest.mark.parametrize("layer", LAYERS, ids=lambda x: x.name)
def test_each_layer_is_a_cited_checked_delta(layer: Any) -> None:
    assert layer.sources and all(s.startswith("https://github.com/") for s in layer.sources)
    assert layer.checked and layer.status in Status
    for change in layer.changes:
        assert change.id.startswith(layer.name)  # the guide's rule id names its layer
        assert change.cite.url().startswith("https://")
        assert change.touches()  # a delta, not only words


def test_a_layer_already_in_next_or_unknown_is_refused() -> None:
    with pytest.raises(LookupError, match="already in next"):
        compose("next+sep-2640")
    with pytest.raises(LookupError, match="unknown SEP layer"):
        compose("next+sep-1")


def test_versions_seps_lists_status_date_and_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["versions", "--seps", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["wire"] == "2026-07-28" and data["next"] == [x.name for x in next_layers()]
    for row in data["layers"]:
        assert row["status"] in {"Final", "In review", "Draft"} and row["checked"] and row["sources"]


@pytest.mark.parametrize(("a", "b", "ids"), [
    ("2026-07-28", "next", ("sep-2640-skills", "sep-2596-http-sse-removed")),
    ("next", "next+sep-3279", ("sep-3279-tool-output-variants", "sep-3279-call-tool-outputs")),
])
def test_diff_shows_a_layers_changes_with_citations(capsys: pytest.CaptureFixture[str], a: str,
                                                    b: str, ids: tuple[str, ...]) -> None:
    assert main(["diff", a, b]) == 0
    out = capsys.readouterr().out
    for rule in ids:
        assert rule in out
    assert "https://github.com/modelcontextprotocol/modelcontextprotocol/" in out


def test_migrate_to_next_names_each_layers_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "2026-07-28", "next+sep-3279", "--role", "server"]) == 0
    out = capsys.readouterr().out
    for rule in ("sep-2640-skills", "sep-2596-http-sse-removed", "sep-3279-call-tool-outputs"):
        assert f"`{rule}`" in out
    assert "Drop the HTTP+SSE endpoint" in out and "Answer tools/call with outputs" in out


# -- what the simulator does with them ---------------------------------------------------------------

def test_sep_3279_a_2026_client_cannot_read_a_next_sep_3279_servers_results() -> None:
    record = run(peer("modern:2026-07-28"), peer("modern:next+sep-3279", "server"))
    assert record.session.revision == "2026-07-28"  # one wire string: they negotiate
    assert record.status == "failed" and record.failed_step == "call a tool"
    assert "tools/call: result shape outputs" in record.session.path
    same = run(peer("modern:next+sep-3279"), peer("modern:next+sep-3279", "server"))
    assert same.status == "ok"
    before = run(peer("modern:2026-07-28"), peer("modern:next", "server"))
    assert before.status == "ok"  # next without the layer keeps content


def test_sep_3279_boundary_in_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    found = cells(capsys, "--clients", "modern:2026-07-28", "--servers", "modern:next",
                  "modern:next+sep-3279")
    assert found["modern 2026", "modern next"]["status"] == "ok"
    cell = found["modern 2026", "modern next+sep-3279"]
    assert cell["status"] != "ok" and "result shape" in cell["reason"]
    assert "tools/call: result shape outputs" in cell["path"]


def test_sse_removed_a_2024_11_05_client_loses_http_against_next(
        capsys: pytest.CaptureFixture[str]) -> None:
    found = cells(capsys, "--transport", "http", "--clients", "legacy:2024-11-05",
                  "--servers", "dual:2026-07-28,2024-11-05", "dual:next,2024-11-05")
    assert found["2024-11-05", "dual 2026+24-11"]["status"] == "ok"
    lost = found["2024-11-05", "dual next+24-11"]
    assert lost["status"] == "failed"
    assert any("no SSE stream" in step for step in lost["path"])
    stdio = run(peer("legacy:2024-11-05"), peer("dual:next,2024-11-05", "server"))
    assert stdio.status == "ok"  # stdio is untouched: only the HTTP transport went


def _tools(client: str, server: str) -> list[str]:
    record = run(peer(client), peer(server, "server"), "lists")
    replies = [e.message for e in record.transcript.entries if e.dir == "s2c"]
    return [t["name"] for r in replies for t in (r.get("result") or {}).get("tools", [])]


def test_sep_3221_hides_the_secure_tool_from_a_client_without_the_extension() -> None:
    server = "modern:next+sep-3279+sep-3221"
    assert "deploy" in _tools("modern:next+sep-3279+sep-3221", server)
    assert "deploy" not in _tools("modern:next", server)
    assert "deploy" not in _tools("modern:next+sep-3279+sep-3221", "modern:next+sep-3279")


def test_sep_3221_a_direct_call_without_the_extension_gets_32021() -> None:
    server = SimServer(peer("modern:next+sep-3279+sep-3221", "server"))
    call = _wire.request(DRAFTS.get("next"), 1, "tools/call", {"name": "deploy", "arguments": {}})
    (reply,) = server.receive(call).replies
    assert reply["error"]["code"] == -32021
    assert "io.modelcontextprotocol/secure-params" in json.dumps(reply["error"]["data"])
    declared = _wire.request(DRAFTS.get("next+sep-3279+sep-3221"), 2, "tools/call",
                             {"name": "deploy", "arguments": {}})
    (served,) = SimServer(peer("modern:next+sep-3279+sep-3221", "server")).receive(declared).replies
    assert served["result"]["isError"] is False


FILE_DRAFT = """
revision = "draft-2027-03"
extends = "next+sep-3279"
wire = "2026-07-28"
title = "A team's reading of the March 2027 draft"

[[changes]]
id = "team-x-note"
summary = "A feature of its own"
impact = "additive"
cite = { revision = "draft-2027-03", source = "https://example.com/spec" }
add = { features = ["team-x"] }
"""


def test_a_profile_file_names_its_layers_and_its_wire_string(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "draft.toml"
    path.write_text(FILE_DRAFT, encoding="utf-8")
    assert main(["--profile", str(path), "simulate", "--client", "modern:draft-2027-03",
                 "--server", "modern:next+sep-3279", "--trace"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("ok, draft-2027-03 (modern, direct)")
    sent = [line for line in out.splitlines() if "->  {" in line]
    assert sent and all(f'"{VERSION_KEY}": "2026-07-28"' in line for line in sent)
    assert not any("draft-2027-03" in line for line in sent)
    assert main(["--profile", str(path), "show", "draft-2027-03", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["wire"] == "2026-07-28"
    assert shown["lineage"][-3:] == ["next", "next+sep-3279", "draft-2027-03"]


def test_a_released_revisions_profile_has_no_wire_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "2026-07-28", "--format", "json"]) == 0
    assert "wire" not in json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("command", ["probe", "probe-client"])
def test_with_an_unknown_revision_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                         command: str) -> None:
    assert main([command, "--with", "2099-01-01", "--", "no-such-program-x", "{server}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown revision '2099-01-01'" in err


def test_with_a_layer_that_does_not_exist_is_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--with", "next+sep-1", "--", "no-such-program-x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown SEP layer 'sep-1'" in err


def test_a_free_text_value_named_next_adds_no_draft() -> None:
    from mcp_skew import cli

    assert "next" not in cli._with_named_drafts(["matrix", "--out", "next"], REGISTRY)
    assert "next" not in cli._with_named_drafts(["probe", "--label=next", "--", "x"], REGISTRY)
    assert "next" not in cli._with_named_drafts(["probe", "--label", "next", "--", "x"], REGISTRY)
    assert "next" in cli._with_named_drafts(["probe", "--with", "next", "--", "x"], REGISTRY)
    assert "next" not in cli._with_named_drafts(["probe", "--", "server", "next"], REGISTRY)


def test_the_command_line_looks_for_the_drafts_name() -> None:
    # the command line loads the drafts only for a word with their name in it (the default
    # matrix never loads them): that name is the drafts' own, and every draft has it
    assert cli._DRAFT == DRAFT
    assert all(cli._DRAFT in name for name in drafts_named(
        ["next", "modern:next+sep-3279", "--with=next+sep-2640"]))

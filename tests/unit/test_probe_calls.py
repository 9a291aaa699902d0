"""The probe's call step (docs/calls.md): each real client calls one tool with arguments from
its inputSchema and reads the result as its revision does; in-process servers
(tests/_tool_servers.py), so no process starts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _tool_servers import target

from mcp_skew.cli import main
from mcp_skew.probe import ProbeOptions, ProbeReport, probe
from mcp_skew.probe._calls import CALL_STEP, arguments_for, choose, dialect_of
from mcp_skew.probe._command import _named_clients
from mcp_skew.probe._exchanges import exchanges
from mcp_skew.probe._peer import save_peer
from mcp_skew.versions import REGISTRY

NAMED = _named_clients()
CALL_CODES = {"tool-call-failed", "output-schema-dialect", "structured-content-missing",
              "structured-content-mismatch"}


def _probe(case: str, **opts: Any) -> ProbeReport:
    return probe(target(case), ProbeOptions(named_clients=NAMED, **opts))


def _found(report: ProbeReport, code: str) -> list[tuple[str, str]]:
    return [(r.name, f.message) for r, f in report.findings() if f.code == code]


def _calls(report: ProbeReport) -> list[dict[str, Any]]:
    """Every tools/call request the real runs sent."""
    return [ex.params for r in report.runs if r.real
            for ex in exchanges(r.record.transcript, REGISTRY) if ex.method == "tools/call"]


def test_a_tool_that_lists_but_fails_every_call_is_a_finding() -> None:
    """The zod-major case: the schema lists {"def", "type"} and every call is isError."""
    report = _probe("call-fails")
    found = _found(report, "tool-call-failed")
    real = [r for r in report.runs if r.real and not r.prober and r.record.session.status == "ok"]
    assert real and {name for name, _ in found} == {r.name for r in real}
    assert all("tools/call search with {}" in m and "keyValidator._parse" in m
               for _, m in found)
    # a checking step: the clients still list, so their verdicts stay as they were
    assert all(r.record.status == "ok" for r in real)
    assert {s.got for r in real for s in r.record.steps if s.name == CALL_STEP} == {
        "tool error (isError)"}


def test_a_draft_07_output_schema_names_the_clients_that_refuse_it() -> None:
    """@modelcontextprotocol/client 2.0.0-beta.x refuses draft-07; 2.4.0 (PR 2534) reads it."""
    report = _probe("draft-07")
    found = _found(report, "output-schema-dialect")
    assert found, [f.code for _, f in report.findings()]
    message = found[0][1]
    assert "$schema draft-07" in message and "list_allowed_directories" in message
    assert "+dialect-2020-12-only (@modelcontextprotocol/client 2.0.0-beta.1" in message
    assert "predicted" in message and "ts-client@2.4" not in message
    # only where the negotiated revision has outputSchema (2025-06-18 and later)
    revisions = {r.record.revision for r, f in report.findings()
                 if f.code == "output-schema-dialect"}
    assert revisions <= {"2025-06-18", "2025-11-25"}


def test_an_output_schema_without_structured_content_names_the_sdk_clients() -> None:
    report = _probe("no-structured")
    found = _found(report, "structured-content-missing")
    assert found
    assert all("ts-client@2.4:legacy" in m and "ts-sdk@1" in m for _, m in found)
    assert all(not r.startswith("legacy:2025-03-26") and not r.startswith("legacy:2024")
               for r, _ in found)
    mismatch = _found(_probe("mismatch"), "structured-content-mismatch")
    assert mismatch and all("dirs" in m and "not of type 'array'" in m for _, m in mismatch)


def test_a_good_tool_has_no_call_finding_and_the_same_server_starts() -> None:
    report = _probe("ok")
    assert not {f.code for _, f in report.findings()} & CALL_CODES
    assert report.mode == "fast" and report.starts == len([r for r in report.runs if r.real])
    assert {json.dumps(c, sort_keys=True) for c in _calls(report)} == {
        json.dumps({"arguments": {"text": ""}, "name": "echo"}, sort_keys=True)}


def test_predicted_rows_call_nothing() -> None:
    """A predicted row was not run: no call, no call finding (observations only)."""
    report = _probe("call-fails")
    predicted = [r for r in report.runs if not r.real]
    assert predicted
    assert all(not any(s.name == CALL_STEP for s in r.record.steps) for r in predicted)
    assert all(not r.to_dict()["findings"] for r in predicted)


def test_a_destructive_tool_is_called_only_when_named() -> None:
    default = _probe("destructive-first")
    assert {c["name"] for c in _calls(default)} == {"echo"}
    named = _probe("destructive-first", tool="delete_everything")
    assert "delete_everything" in {c["name"] for c in _calls(named)}


def test_arguments_are_generated_deterministically_and_valid() -> None:
    schema = {"type": "object", "required": ["n", "path", "mode"],
              "properties": {"n": {"type": "integer", "minimum": 5},
                             "path": {"type": "string", "minLength": 3},
                             "mode": {"enum": ["r", "w"]}}}
    first = arguments_for(schema)
    assert isinstance(first, dict) and first["n"] >= 5 and len(first["path"]) >= 3
    assert first["mode"] in ("r", "w")
    assert arguments_for(json.loads(json.dumps(schema))) == first


def test_a_schema_nothing_satisfies_is_not_called_and_says_why() -> None:
    impossible = {"type": "object", "required": ["x"],
                  "properties": {"x": {"type": "string", "minLength": 5, "maxLength": 2}}}
    choice = choose([{"name": "never", "inputSchema": impossible}])
    assert choice.tool is None and choice.why.startswith("never: no arguments satisfy")
    skipped = choose([{"name": "rm", "inputSchema": {"type": "object"},
                       "annotations": {"destructiveHint": True}}])
    assert skipped.tool is None and "destructiveHint" in skipped.why
    assert choose([]).why == "no tool listed"


def test_dialects_are_read_from_schema_uris() -> None:
    assert dialect_of({"$schema": "http://json-schema.org/draft-07/schema#"}) == "draft-07"
    assert dialect_of({"$schema": "https://json-schema.org/draft/2020-12/schema"}) == "2020-12"
    assert dialect_of({"$schema": "http://json-schema.org/draft-04/schema#"}) == "draft-04"
    assert dialect_of({"type": "object"}) is None


@pytest.mark.parametrize(("revision", "dialect", "structured"), [
    ("2024-11-05", None, None), ("2025-03-26", None, None), ("2025-06-18", None, "object"),
    ("2025-11-25", "2020-12", "object"), ("2026-07-28", "2020-12", "any JSON value")])
def test_profiles_say_the_dialect_and_the_structured_content(
        revision: str, dialect: str | None, structured: str | None) -> None:
    """2025-11-25 basic/index.mdx §JSON Schema Usage: 2020-12 without $schema; schema
    CallToolResult.structuredContent: an object (2025-06-18), any JSON value (2026-07-28)."""
    profile = REGISTRY.get(revision)
    assert profile.settings["tool_schema_dialect"] == dialect
    assert profile.settings["structured_content"] == structured


def test_args_without_tool_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--quiet", "--args", '{"a": 1}', "--", "x"]) == 2
    err = capsys.readouterr().err
    assert "--args needs --tool NAME" in err and err.count("\n") == 1


@pytest.mark.parametrize(("case", "quirk", "refused_by"), [
    ("no-structured", "no-structured-content", "ts-client@2.4:legacy"),
    ("draft-07", "draft-07-output-schema", None),
])
def test_a_saved_peer_keeps_the_traits_and_the_matrix_predicts_the_refusal(
        case: str, quirk: str, refused_by: str | None, tmp_path: Any) -> None:
    """The saved peer keeps what clients refuse (a quirk), not the schemas; the matrix plays
    it against the named clients: ts-client@2.4 fails the call of a tool without
    structuredContent (-32600) and reads a draft-07 outputSchema (PR 2534); a client with
    dialect-2020-12-only refuses draft-07."""
    report = _probe(case)
    assert report.peer.spec is not None and report.peer.spec.has(quirk)
    saved = tmp_path / "peer.json"
    save_peer(report.peer, saved, "x", f"tools:{case}")
    assert "outputSchema" not in saved.read_text(encoding="utf-8")
    out = tmp_path / "matrix.json"
    assert main(["matrix", "--quiet", "--servers", f"@{saved}", "--clients",
                 "ts-client@2.4:legacy", "--clients", "legacy:2025-11-25+dialect-2020-12-only",
                 "--clients", "legacy:2025-11-25", "--format", "json", "--out", str(out)]) == 0
    cells = {c["client"]: c for row in json.loads(out.read_text(encoding="utf-8"))["cells"]
             for c in row}
    failed = {name for name, c in cells.items() if c.get("failed_step") == "call a tool"}
    assert "2025-11-25" not in failed
    if refused_by is not None:
        assert failed == {refused_by}
    else:
        assert failed == {"legacy 25-11 dialect-2020-12-only"}  # its label in the matrix

"""``mcp-skew versions``, ``show`` and ``diff``, and the generated reference pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.commands import versions as command
from mcp_skew.versions import BUILTIN, REVISIONS, Direction, Kind, profile_for
from mcp_skew.versions._plain import profile_to_dict
from mcp_skew.versions._profile import SETTINGS, TABLES

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)


# -- versions ---------------------------------------------------------------------------------


def test_versions_table_lists_every_builtin_with_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "versions")
    assert (code, err) == (0, "")
    for profile in BUILTIN:
        line = next(line for line in out.splitlines() if line.startswith(profile.revision))
        counts = [
            len(profile.method_names(kind, direction))
            for kind in (Kind.REQUEST, Kind.NOTIFICATION)
            for direction in (Direction.C2S, Direction.S2C)
        ]
        cells = line.split()
        assert cells[1] == profile.era.value
        assert [int(c) for c in cells[2:7]] == [*counts, len(profile.changes)]
        assert profile.title[:40] in line  # long headlines wrap onto the next line


def test_versions_json(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "versions")["revisions"]
    assert [row["revision"] for row in rows] == list(REVISIONS)
    latest = rows[-1]
    assert latest == {
        "revision": "2026-07-28", "era": "modern", "requests_c2s": 10, "requests_s2c": 0,
        "notifications_c2s": 1, "notifications_s2c": 8,
        "changes": len(profile_for("2026-07-28").changes), "source": "built-in",
        "headline": profile_for("2026-07-28").title,
    }


def test_versions_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "versions", "--format", "markdown")
    assert code == 0 and out.startswith("# MCP revisions\n")
    assert sum(line.startswith("| 20") for line in out.splitlines()) == len(REVISIONS)


# -- show -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("revision", REVISIONS)
def test_show_json_is_the_full_profile(capsys: pytest.CaptureFixture[str], revision: str) -> None:
    code, out, _ = run(capsys, "show", revision, "--format", "json")
    assert code == 0
    data = json.loads(out)
    profile = profile_for(revision)
    assert out == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert data == profile_to_dict(profile)
    assert set(data["tables"]) == set(TABLES) and set(data["settings"]) == set(SETTINGS)
    for table in TABLES:
        assert set(data["tables"][table]) == profile.names(table)
    assert data["era"] == profile.era.value
    assert [c["id"] for c in data["changes"]] == [c.id for c in profile.changes]


def test_show_json_is_stable(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "show", "2026-07-28", "--format", "json") == run(
        capsys, "show", "2026-07-28", "--format", "json"
    )


def test_show_json_rows(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "show", "2026-07-28")
    assert data["tables"]["errors"]["UnsupportedProtocolVersion"] == {
        "code": -32022, "message": "Unsupported protocol version",
        "data": ["supported", "requested"], "note": "",
    }
    assert data["tables"]["methods"]["tools/call"]["capability"] == "tools"
    assert data["tables"]["deprecations"]["Roots"]["cite"]["url"].endswith("deprecated.mdx")
    assert data["settings"]["era"] == "modern"
    assert data["tables"]["request_meta_required"] == sorted([CAPS_KEY, VERSION_KEY])


@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("revision", REVISIONS)
def test_show_documents_name_every_row(
    capsys: pytest.CaptureFixture[str], revision: str, fmt: str
) -> None:
    code, out, _ = run(capsys, "show", revision, "--format", fmt)
    assert code == 0
    profile = profile_for(revision)
    for table in TABLES:
        for name in profile.names(table):
            assert name in out, (table, name)
    for change in profile.changes:
        assert change.id in out and change.cite.url() in out


# -- diff -----------------------------------------------------------------------------------------


def _delta(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(d for d in data["table_delta"] if d["name"] == name)
    return found


def _change(data: dict[str, Any], rule: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in data["changes"] if c["id"] == rule)
    return found


def _change_delta(data: dict[str, Any], rule: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(d for d in _change(data, rule)["delta"] if d["name"] == name)
    return found


@pytest.fixture
def upgrade(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    data: dict[str, Any] = run_json(capsys, "diff", "2025-11-25", "2026-07-28")
    return data


def test_diff_names_the_removed_and_added_methods(upgrade: dict[str, Any]) -> None:
    methods = _delta(upgrade, "methods")
    removed = {"initialize", "notifications/initialized", "ping", "logging/setLevel"}
    assert removed <= set(methods["removed"])
    assert {"server/discover", "subscriptions/listen"} <= set(methods["added"])
    by_change = [
        set(_change_delta(upgrade, rule, "methods")["removed"])
        for rule in ("handshake-removed", "ping-removed", "logging-level-per-request")
    ]
    assert set().union(*by_change) == removed


def test_diff_names_the_per_request_meta_keys(upgrade: dict[str, Any]) -> None:
    assert _delta(upgrade, "request_meta_required")["added"] == sorted([CAPS_KEY, VERSION_KEY])
    optional = set(_delta(upgrade, "request_meta_optional")["added"])
    assert {"io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/logLevel"} <= optional
    era = _delta(upgrade, "era")
    assert (era["before"], era["after"]) == ("legacy", "modern")


def test_diff_names_minus_32022(upgrade: dict[str, Any]) -> None:
    change = _change(upgrade, "unsupported-protocol-version-error")
    error = change["edits"]["add"]["errors"]["UnsupportedProtocolVersion"]
    assert (error["code"], error["data"]) == (-32022, ["supported", "requested"])
    assert "-32022" in change["summary"]
    assert "UnsupportedProtocolVersion" in _delta(upgrade, "errors")["added"]


def test_diff_names_result_type_and_caching_hints(upgrade: dict[str, Any]) -> None:
    assert _delta(upgrade, "result_fields_required")["added"] == ["resultType"]
    assert _delta(upgrade, "cache_fields")["added"] == ["cacheScope", "ttlMs"]
    assert "server/discover" in _delta(upgrade, "cacheable_results")["added"]
    assert _change(upgrade, "caching-hints")["impact"] == "breaking"


def test_diff_names_the_resource_not_found_change(upgrade: dict[str, Any]) -> None:
    setting = _delta(upgrade, "resource_not_found")
    assert (setting["kind"], setting["before"], setting["after"]) == (
        "setting", "ResourceNotFound", "InvalidParams",
    )
    change = _change(upgrade, "resource-not-found-32602")
    assert "-32602" in change["summary"] and "-32002" in change["summary"]
    assert "ResourceNotFound" in change["edits"]["replace"]["errors"]
    assert "ResourceNotFound" in _delta(upgrade, "errors")["changed"]


def test_diff_names_the_deprecations(upgrade: dict[str, Any]) -> None:
    deprecations = _delta(upgrade, "deprecations")
    assert {"Roots", "Sampling", "Logging"} <= set(deprecations["added"])
    assert "HTTP+SSE transport" in deprecations["changed"]
    deprecating = {c["id"] for c in upgrade["changes"] if c["impact"] == "deprecation"}
    assert {"roots-sampling-logging-deprecated", "http-sse-removal-scheduled"} <= deprecating
    http_sse = _change(upgrade, "http-sse-removal-scheduled")
    assert "HTTP+SSE transport" in http_sse["edits"]["replace"]["deprecations"]


def test_diff_lists_every_change_with_its_citation(upgrade: dict[str, Any]) -> None:
    latest = profile_for("2026-07-28")
    assert [c["id"] for c in upgrade["changes"]] == [c.id for c in latest.changes]
    assert (upgrade["from"], upgrade["to"], upgrade["direction"]) == (
        "2025-11-25", "2026-07-28", "upgrade",
    )
    for change in upgrade["changes"]:
        assert change["undo"] is False
        assert change["cite"]["text"] and change["cite"]["url"].startswith("https://")
        assert change["impact"] in {"breaking", "additive", "behaviour", "deprecation",
                                    "clarification"}


def test_diff_downgrade(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "diff", "2026-07-28", "2025-06-18")
    assert data["direction"] == "downgrade"
    assert all(change["undo"] for change in data["changes"])
    newest_first = [c.id for p in reversed(BUILTIN[3:]) for c in reversed(p.changes)]
    assert [c["id"] for c in data["changes"]] == newest_first
    methods = _delta(data, "methods")
    assert {"initialize", "ping", "elicitation/create"} <= set(methods["added"])
    assert "server/discover" in methods["removed"]
    assert _change_delta(data, "handshake-removed", "era") == {
        "name": "era", "kind": "setting", "added": [], "removed": [], "changed": [],
        "before": "modern", "after": "legacy",
    }
    handshake_methods = _change_delta(data, "handshake-removed", "methods")
    assert handshake_methods["added"] == ["initialize", "notifications/initialized"]


def test_diff_downgrade_mirrors_the_upgrade(capsys: pytest.CaptureFixture[str]) -> None:
    up = run_json(capsys, "diff", "2024-11-05", "2026-07-28")
    down = run_json(capsys, "diff", "2026-07-28", "2024-11-05")
    assert [c["id"] for c in down["changes"]] == [c["id"] for c in reversed(up["changes"])]
    for forward, backward in zip(up["table_delta"], down["table_delta"], strict=True):
        assert (forward["added"], forward["removed"]) == (backward["removed"], backward["added"])


def test_diff_of_a_revision_with_itself_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "diff", "2025-06-18", "2025-06-18")
    assert (data["direction"], data["changes"], data["table_delta"]) == ("same", [], [])


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_diff_documents(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "diff", "2026-07-28", "2025-11-25", "--format", fmt)
    assert code == 0
    assert "downgrade" in out
    for change in profile_for("2026-07-28").changes:
        assert change.id in out and str(change.cite) in out and change.cite.url() in out
    assert "resource_not_found" in out and "InvalidParams -> ResourceNotFound" in out


# -- errors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["show", "2099-01-01"], ["diff", "2099-01-01", "2025-06-18"], ["diff", "2025-06-18", "x"]],
    ids=["show", "diff-a", "diff-b"],
)
def test_unknown_revision_is_one_error_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("mcp-skew: error: unknown revision ")
    assert err.rstrip().endswith("known revisions: " + ", ".join(REVISIONS))


def test_bad_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["show", "2025-06-18", "--format", "yaml"])
    assert info.value.code == 2
    assert "invalid choice: 'yaml'" in capsys.readouterr().err


# -- the generated reference pages (golden) ----------------------------------------------------------






def test_write_and_check_reference_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert command._main(["--check", str(tmp_path)]) == 1
    assert command.REGENERATE in capsys.readouterr().out
    assert command._main(["--write", str(tmp_path)]) == 0
    assert command.write_reference_pages(tmp_path, check=True) == []
    (tmp_path / "2024-11-05.md").write_text("stale\n", encoding="utf-8")
    assert command.write_reference_pages(tmp_path, check=True) == ["2024-11-05.md"]


def test_a_profile_that_restates_its_auth_rules_unchanged_differs_in_nothing() -> None:
    # a --profile file builds its own AuthRule rows: a row equal in every field to the
    # inherited one is no change (rows compare by value, not by which object they are)
    import dataclasses

    from mcp_skew.versions._diff import table_delta

    profile = profile_for("2025-11-25")
    restated = {key: dataclasses.replace(rule) for key, rule in profile.tables["auth"].items()}
    assert restated and all(restated[k] is not profile.tables["auth"][k] for k in restated)
    same = dataclasses.replace(profile, tables={**profile.tables, "auth": restated})
    assert table_delta(profile, same) == ()

"""The AI apps as named peers (docs/apps.md): the reported client behaviours as quirks
(initialize after a successful server/discover, both at once, an exit taken as fatal)
reproduce the reports against a sticky-era server while the fixed release works; reported
models say so wherever they show; `matrix --set apps` runs from the stored models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.peers import app_peers, builtin_peer, resolve
from mcp_skew.peers._apps import APP_DRIVES
from mcp_skew.peers._catalogue import APP_CLIENTS, APP_SERVERS
from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.transcript import Entry
from mcp_skew.versions import REGISTRY

#: the servers of the reports: Python mcp 2.x / FastMCP 4.x on stdio fix the era on the probe
STICKY = "py-mcp@2.3"
DUAL = "dual:2026-07-28,2025-11-25"  # a dual-era server that does not fix the era
DUAL_ALL = "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"


def _pair(client: str, server: str) -> RunRecord:
    c = builtin_peer(client, "client") if "@" in client else parse_peer(client, "client")
    s = builtin_peer(server, "server") if "@" in server else parse_peer(server, "server")
    return run(c, s, "lists")


def _wire(record: RunRecord) -> list[tuple[str, object, object]]:
    return [(e.dir, e.message.get("method"), e.message.get("id"))
            for e in record.transcript.entries
            if isinstance(e, Entry) and isinstance(e.message, dict)]


def _error_codes(record: RunRecord) -> list[int]:
    return [e.message["error"]["code"] for e in record.transcript.entries
            if isinstance(e, Entry) and isinstance(e.message, dict) and "error" in e.message]


def test_init_after_discover_fails_against_a_sticky_server_as_reported() -> None:
    """anthropics/claude-code 96183: discover succeeds, then initialize gets -32022."""
    record = _pair("claude-code@2.1.280", STICKY)
    assert record.status == "failed"
    methods = [m for d, m, _ in _wire(record) if d == "c2s" and m]
    assert methods[:2] == ["server/discover", "initialize"]
    assert _error_codes(record) == [-32022]
    assert "quirk init-after-discover" in record.session.reason
    assert [str(s) for s in record.session.path] == [
        "discover 2026-07-28", "accepted 2026-07-28", "initialize 2025-11-25", "error -32022"]


def test_init_after_discover_lands_on_legacy_with_a_server_that_does_not_fix_the_era() -> None:
    record = _pair("claude-code@2.1.280", DUAL)
    assert record.status == "ok"
    assert (record.session.revision, record.session.era.value if record.session.era else None) \
        == ("2025-11-25", "legacy")


def test_init_after_discover_fails_a_modern_only_server() -> None:
    """96183's title: 'breaking modern-only servers'."""
    assert _pair("claude-code@2.1.280", "ts-server@2.4:modern").status == "failed"


def test_the_fixed_claude_code_release_works_with_the_sticky_server() -> None:
    record = _pair("claude-code@2.1.332", STICKY)
    assert record.status == "ok" and record.session.revision == "2026-07-28"
    assert next(m for d, m, _ in _wire(record) if d == "c2s") == "server/discover"
    assert "initialize" not in [m for d, m, _ in _wire(record) if d == "c2s"]


def test_both_at_once_puts_discover_and_initialize_on_the_wire_before_any_answer() -> None:
    """github/copilot-cli 4525: ids 0 and 1 before either answer, then -32022 and no retry."""
    record = _pair("copilot-cli@1.0.81", STICKY)
    wire = _wire(record)
    first_answer = next(i for i, (d, _, _) in enumerate(wire) if d == "s2c")
    sent = [m for d, m, _ in wire[:first_answer] if d == "c2s"]
    assert sent == ["server/discover", "initialize"]
    assert record.status == "failed" and _error_codes(record) == [-32022]
    # no second probe after the refused handshake
    assert [m for d, m, _ in wire if d == "c2s"].count("server/discover") == 1


def test_both_at_once_overrides_a_longer_probe_wait() -> None:
    spec = parse_peer(f"{DUAL}+probe-timeout=10000+both-at-once", "client")
    assert spec.client_policy.probe_timeout_ms == 0 and spec.client_policy.no_reprobe
    without = parse_peer(f"{DUAL}+probe-timeout=10000", "client")
    assert without.client_policy.probe_timeout_ms == 10_000
    assert run(without, builtin_peer(STICKY, "server"), "lists").status == "ok"


def test_exit_fatal_overrides_restart() -> None:
    """github/copilot-cli 4809: a strict legacy server that exits is a lost server, where a
    client that restarts it falls back on a fresh process."""
    server = builtin_peer("py-mcp@1.0", "server")  # silent on the probe, exits on next input
    restarts = run(parse_peer(f"{DUAL_ALL}+restart", "client"), server, "lists")
    fatal = run(parse_peer(f"{DUAL_ALL}+restart+exit-fatal", "client"), server, "lists")
    assert restarts.status == "ok"
    assert fatal.status == "failed" and "exited" in fatal.session.reason


def test_copilot_1_0_79_stops_on_minus_32602() -> None:
    """github/copilot-cli 4370: FastMCP on Python mcp 1.x answers the probe -32602."""
    assert _pair("copilot-cli@1.0.79", "py-mcp@1.22").status == "failed"
    assert _pair("copilot-cli@1.0.79", "ts-sdk@1").status == "ok"  # -32601 falls back


def test_reported_models_say_so_with_their_links() -> None:
    for name in APP_CLIENTS:
        resolved = resolve(name, "client")
        assert resolved is not None
        peer = resolved.peer()
        if resolved.model.reported:
            assert resolved.line.installs is None
            assert peer.label.endswith("(reported)")
            assert "reported, not measured" in peer.note
            assert all(link.startswith("https://github.com/") and link in peer.note
                       for link in resolved.model.reported)
        else:
            assert resolved.line.installs is not None and "reported" not in peer.label
            assert "drift-checked on" in peer.note
            assert APP_DRIVES[resolved.family.name].measured


def test_at_least_three_apps_are_measured() -> None:
    measured = {r.family.name for n in APP_CLIENTS
                if (r := resolve(n, "client")) and not r.model.reported}
    assert len(measured) >= 3


def test_apps_set_rows_and_columns() -> None:
    clients, servers = app_peers("client", REGISTRY), app_peers("server", REGISTRY)
    assert [c.label for c in clients][:3] == list(APP_CLIENTS[:3])
    assert len(clients) == len(APP_CLIENTS)
    assert any("sticky-era" in str(s) for s in servers)
    assert len(servers) == len(app_peers("server", REGISTRY)) and APP_SERVERS


def _matrix_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["matrix", "--set", "apps", "--format", "json", *argv]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def _cells(data: dict[str, object]) -> dict[tuple[str, str], dict[str, object]]:
    cells = data["cells"]
    assert isinstance(cells, list)
    return {(c["client"], c["server"]): c for row in cells for c in row}


def test_matrix_set_apps_shows_the_reported_failure_and_the_fixed_release(
        capsys: pytest.CaptureFixture[str]) -> None:
    cells = _cells(_matrix_json(capsys))
    sticky = "dual 2026+25-11 sticky-era"
    assert cells[("copilot-cli@1.0.81 (reported)", sticky)]["status"] == "failed"
    assert cells[("claude-code@2.1.280 (reported)", sticky)]["status"] == "failed"
    fixed = cells[("claude-code@2.1.332", sticky)]
    assert fixed["status"] == "ok" and fixed["revision"] == "2026-07-28"


def test_matrix_set_apps_takes_saved_servers(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    saved = tmp_path / "server.json"
    saved.write_text(json.dumps({
        "format": "mcp-skew-probe-peer/1", "role": "server", "label": "my-server",
        "peer": "modern:2026-07-28"}), encoding="utf-8")
    data = _matrix_json(capsys, "--servers", f"@{saved}")
    cells = _cells(data)
    assert {s for _, s in cells} == {"my-server"}
    assert cells[("opencode@1.18", "my-server")]["status"] == "failed"
    assert cells[("claude-code@2.1.332", "my-server")]["status"] == "ok"


def test_restart_after_exit_initializes_again_on_a_fresh_process() -> None:
    """Claude Code 2.1.332 (measured): the fallback goes to the probe's process; when that
    process exits on it, a fresh one is started and initialized."""
    server = parse_peer("legacy:2025-11-25+silent-exit", "server")
    again = run(parse_peer(f"{DUAL_ALL}+restart-after-exit", "client"), server, "lists")
    plain = run(parse_peer(DUAL_ALL, "client"), server, "lists")
    assert plain.status == "failed"
    assert again.status == "ok"
    assert [str(s) for s in again.session.path][1:6] == [
        "timeout after 3000 ms", "initialize 2025-11-25", "server exited", "restart",
        "initialize 2025-11-25"]
    # a server that stays alive gets the fallback on the same process: no restart
    alive = run(parse_peer(f"{DUAL_ALL}+restart-after-exit", "client"),
                parse_peer("legacy:2025-11-25+silent", "server"), "lists")
    assert alive.status == "ok" and "restart" not in [str(s) for s in alive.session.path]

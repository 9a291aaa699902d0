"""Extensions against real processes: ``probe`` of a server offering MCP Apps, and
``probe-client`` of a client that advertises MCP Apps and never reads the ``ui://``
resource (the fast tests are tests/unit/test_extensions.py).

The server is the simulated server behind real stdio (tests/servers/sim_stdio_server.py)
with ``+ext=ui``: it declares ``io.modelcontextprotocol/ui`` in its capabilities and lists
its app tool only to a client that advertises the extension (ext-apps 2026-01-26
``apps.mdx`` §Server Behavior). The client is tests/clients/scripted_client.py with
``--apps``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from _paths import TESTS

from mcp_skew.cli import main

SERVER = [sys.executable, str(TESTS / "servers" / "sim_stdio_server.py")]
CLIENT = [sys.executable, str(TESTS / "clients" / "scripted_client.py")]
UI = "io.modelcontextprotocol/ui"
APP = "ui://mcp-skew/app.html"
OFFERS = "dual:2026-07-28,2025-11-25+ext=ui"


def test_probe_names_the_extension_its_app_tool_and_the_named_clients(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.json"
    saved = tmp_path / "server.json"
    code = main(["probe", "--quiet", "--format", "json", "--out", str(out),
                 "--save-peer", str(saved), "--", *SERVER, OFFERS])
    err = capsys.readouterr().err
    assert code in (0, 1), err  # old legacy clients fail against a 2025-11-25 server
    card = json.loads(out.read_text(encoding="utf-8"))
    ext = card["extensions"]
    assert ext["offered"] == [UI]
    # the built-in clients advertise nothing, so the app's tool shows only to the extra run
    assert ext["tools"] == {UI: {"show": APP}} and ext["checked_with"].endswith("+ext=ui")
    assert ext["advertised_by"] == {UI: []} and ext["named_clients"] > 0
    # the extra run is a server start of its own, counted with the others
    assert card["starts"] >= sum(1 for c in card["clients"] if c["real"]) + 1
    assert card["peer"]["spec"].endswith("+ext=ui")
    assert json.loads(saved.read_text(encoding="utf-8"))["peer"].endswith("+ext=ui")
    # the default clients' own runs stay as they were: none of them saw the app tool
    assert any(client.get("transcript") for client in card["clients"])
    for client in card["clients"]:
        assert "ui://" not in json.dumps(client.get("transcript", []))


def test_the_probe_card_names_the_extension(capsys: pytest.CaptureFixture[str]) -> None:
    main(["probe", "--quiet", "--", *SERVER, "legacy:2025-11-25+ext=ui"])
    text = capsys.readouterr().out
    assert "io.modelcontextprotocol/ui (MCP Apps): offered" in text
    assert f"tool show -> {APP}" in text
    assert "named clients that advertise it: none of" in text


def test_probe_of_a_server_without_extensions_says_nothing_of_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.json"
    main(["probe", "--quiet", "--format", "json", "--out", str(out), "--", *SERVER,
          "legacy:2025-11-25"])
    capsys.readouterr()
    assert "extensions" not in json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("mode", "read"), [("no-read", False), ("read", True)])
def test_probe_client_sees_whether_the_client_reads_the_app(
        mode: str, read: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.json"
    saved = tmp_path / "client.json"
    code = main(["probe-client", "--quiet", "--format", "json", "--out", str(out),
                 "--save-peer", str(saved), "--timeout", "60", "--server", OFFERS,
                 "--server", "legacy:2025-11-25+ext=ui",
                 "--", *CLIENT, "--apps", mode, "--", "{server}"])
    err = capsys.readouterr().err
    assert code == 0, err
    card = json.loads(out.read_text(encoding="utf-8"))
    assert card["extensions"]["advertised"] == [UI]
    assert card["extensions"]["apps"] == [
        {"row": 1, "uri": APP, "called": True, "read": read},
        {"row": 2, "uri": APP, "called": True, "read": read}]
    spec = card["inferred"]["spec"]
    assert spec.endswith("+ext=ui") and ("no-ui-read" in spec) is not read
    assert json.loads(saved.read_text(encoding="utf-8"))["peer"] == spec
    codes = [(f["code"], f["index"]) for f in card["findings"]]
    never = [("client-never-reads-app", 1), ("client-never-reads-app", 2)]
    assert [c for c in codes if c[0] == "client-never-reads-app"] == ([] if read else never)


def test_probe_client_text_card_says_it_never_read_the_app(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["probe-client", "--quiet", "--timeout", "60", "--server", "legacy:2025-11-25+ext=ui",
          "--", *CLIENT, "--apps", "no-read", "--", "{server}"])
    text = capsys.readouterr().out
    assert "advertises: io.modelcontextprotocol/ui (MCP Apps)" in text
    assert f"{APP}: called its tool, never read it" in text
    assert "it never reads the ui:// resource" in text

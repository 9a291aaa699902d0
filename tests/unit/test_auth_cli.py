"""The commands of scenario auth: simulate and matrix (HTTP only), probe --token."""

from __future__ import annotations

import json

import pytest

from mcp_skew.cli import main

LAYOUTS = ("origin", "defaults", "prm", "prm-root", "oidc", "no-dcr")
CLIENTS = ("legacy:2025-03-26", "legacy:2025-06-18", "legacy:2025-06-18+auth-origin-fallback",
           "legacy:2025-11-25", "legacy:2025-11-25+rfc8414-only", "modern:2026-07-28",
           "dual:2026-07-28,2025-11-25")
#: the server of every column: one that speaks every client's revision, with a layout
SERVER = "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26+auth={}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [
    ("simulate", "--client", "legacy:2025-06-18", "--server", "legacy:2025-06-18"),
    ("matrix",), ("matrix", "--transport", "both", "--format", "json")])
def test_scenario_auth_over_stdio_is_one_clear_line(capsys: pytest.CaptureFixture[str],
                                                    command: tuple[str, ...]) -> None:
    code, out, err = cli(capsys, *command, "--scenario", "auth")
    assert code == 2 and not out
    assert err.count("\n") == 1 and "does not apply over stdio" in err


def test_the_matrix_over_clients_and_layouts(capsys: pytest.CaptureFixture[str]) -> None:
    """Each cell follows the client revision's rules (docs/auth.md has the table)."""
    code, out, _ = cli(capsys, "matrix", "--scenario", "auth", "--transport", "http",
                       "--format", "json", "--clients", *CLIENTS, "--servers",
                       *(SERVER.format(layout) for layout in LAYOUTS))
    assert code == 0
    rows = json.loads(out)["cells"]  # rows in --clients order, columns in --servers order
    cells = {(client, layout): cell for client, row in zip(CLIENTS, rows, strict=True)
             for layout, cell in zip(LAYOUTS, row, strict=True)}
    works = {key for key, c in cells.items() if c["status"] == "ok"}
    assert works == {
        ("legacy:2025-06-18", "prm"),
        ("legacy:2025-06-18+auth-origin-fallback", "origin"),
        ("legacy:2025-06-18+auth-origin-fallback", "prm"),
        *((c, lay) for c in ("legacy:2025-11-25", "modern:2026-07-28", "dual:2026-07-28,2025-11-25")
          for lay in ("prm", "prm-root", "oidc", "no-dcr")),
        *(("legacy:2025-11-25+rfc8414-only", lay) for lay in ("prm", "prm-root", "no-dcr")),
    }, sorted(works)
    for key, cell in cells.items():
        assert any(step.startswith("auth") for step in cell["path"]), key
        if key not in works:
            assert cell["failure"] == "auth", (key, cell["failure"], cell["path"])


def test_simulate_json_carries_the_auth_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "simulate", "--scenario", "auth", "--transport", "http",
                       "--client", "legacy:2025-11-25", "--server",
                       "legacy:2025-11-25+auth=prm-root", "--json")
    assert code == 0
    auth = json.loads(out)["auth"]
    assert auth[0]["authorized"] is True
    assert [h["kind"] for h in auth[0]["hops"]] == [
        "challenge", "prm", "prm", "as-metadata", "register", "authorize", "token", "retry"]


@pytest.mark.parametrize(("args", "said"), [
    (("--token", "abc", "--", "python3", "x.py"), "--token is for a server at --url"),
    (("--url", "http://127.0.0.1:9/mcp", "--token", "a b"), "not an access token"),
])
def test_probe_token_is_checked(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                said: str) -> None:
    code, _, err = cli(capsys, "probe", *args)
    assert code == 2 and said in err

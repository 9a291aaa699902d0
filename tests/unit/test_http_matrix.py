"""``mcp-skew matrix --transport http|both``: every built-in pair over Streamable HTTP.

:data:`DIFFERING` pins every cell of the built-in matrix where HTTP and stdio
differ, each with the rule that makes them differ and where the spec says it;
every other cell is the same on both transports.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.matrix import Matrix, build_matrix
from mcp_skew.matrix._command import differing
from mcp_skew.matrix._render_text import cell_text
from mcp_skew.peers import builtin_peers

STDIO_RULE = "2026-07-28: basic/transports/stdio.mdx §Backward Compatibility"
HTTP_RULE = "2026-07-28: basic/transports/streamable-http.mdx §Backward Compatibility"
#: Why a timed-out probe decides differently on the two transports.
TIMEOUT_RULE = (
    f"stdio: no reply within a reasonable timeout means a legacy server, fall back ({STDIO_RULE}); "
    f"HTTP: only a 4xx without a recognised modern error body means one ({HTTP_RULE}; "
    "2026-07-28 basic/versioning.mdx §Compatibility Matrix, row Dual-era/Legacy), so a held "
    "probe that times out is an error and the client does not fall back")

#: (client label, server label) -> (stdio cell, HTTP cell, the rule that makes them differ).
DIFFERING: dict[tuple[str, str], tuple[str, str, str]] = {
    ("dual 2026+25-11", "legacy 25-11 silent"): ("25-11 ↩", "✗ quirk", TIMEOUT_RULE),
    ("dual 2026+25-11..24-11", "legacy 25-11 silent"): ("25-11 ↩", "✗ quirk", TIMEOUT_RULE),
    # +restart replaces a dead or wedged stdio process before falling back; over HTTP the
    # timed-out probe is an error before there is anything to restart
    ("dual 2026+25-11 restart", "legacy 25-11 silent"): ("25-11 ↩", "✗ quirk", TIMEOUT_RULE),
    ("dual 2026+25-11 restart", "legacy 25-11 silent-exit"): ("25-11 ↩", "✗ quirk",
                                                              TIMEOUT_RULE),
}


@cache
def matrix(transport: str) -> Matrix:
    return build_matrix(builtin_peers("client"), builtin_peers("server"),
                        transport=transport)  # type: ignore[arg-type]


def test_every_cell_where_http_and_stdio_differ_is_pinned_with_its_rule() -> None:
    found = {(c, s): (a, b) for c, s, a, b in differing(matrix("stdio"), matrix("http"))}
    assert found == {pair: cells[:2] for pair, cells in DIFFERING.items()}


@pytest.mark.parametrize("pair", sorted(DIFFERING), ids=" x ".join)
def test_each_difference_is_the_timeout_rule_in_the_path(pair: tuple[str, str]) -> None:
    stdio, http = matrix("stdio"), matrix("http")
    i = [a.label for a in stdio.clients].index(pair[0])
    j = [a.label for a in stdio.servers].index(pair[1])
    over_stdio, over_http = stdio.cells[i][j], http.cells[i][j]
    assert "timeout after 3000 ms" in over_stdio.path
    assert over_stdio.mark == "era-fallback"
    assert over_http.path[-2:] == ("timeout after 3000 ms",
                                   "http: a timeout is an error, not a legacy server")
    assert HTTP_RULE in over_http.reason and over_http.failure == "quirk"


def test_the_http_matrix_runs_every_built_in_pair_over_http() -> None:
    http = matrix("http")
    assert http.transport == "http" and matrix("stdio").transport == "stdio"
    assert len([c for _, _, c in http.pairs()]) == 12 * 13
    for _, _, cell in http.pairs():
        assert cell.transport == "http" and cell.to_dict()["transport"] == "http"
        messages = [r for r in cell.transcript or () if r["dir"] in ("c2s", "s2c")]
        assert all("http" in r for r in messages)
        # no message at all only where a 2024-11-05 client's HTTP+SSE GET found no stream
        assert messages or "http+sse: GET got HTTP 405, no SSE stream" in cell.to_dict()["path"]
    for _, _, cell in matrix("stdio").pairs():
        assert cell.transport == "stdio" and "transport" not in cell.to_dict()


def test_every_dual_era_fallback_over_http_read_a_4xx() -> None:
    for _, _, cell in matrix("http").pairs():
        if cell.mark != "era-fallback":
            continue
        probe_answer = next(r for r in cell.transcript or ()
                            if r["dir"] in ("s2c", "event") and "status" in r.get("http", {}))
        assert 400 <= probe_answer["http"]["status"] < 500
        assert "http: no modern error in the answer, fall back" in cell.path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["matrix", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)


def test_matrix_transport_http_is_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--transport", "http")
    assert code == 0 and err == ""
    assert out.startswith("MCP compatibility matrix. Rows are clients, columns are servers, each "
                          "cell the revision the pair speaks (scenario default, over Streamable "
                          "HTTP).")
    assert "scenario default, over Streamable HTTP): 39 work directly" in out
    assert "--transport http --trace" in out


def test_matrix_transport_both_shows_the_two_and_where_they_differ(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--transport", "both")
    assert code == 0 and err == ""
    stdio_at = out.index("Transport: stdio\n================\n")
    http_at = out.index("Transport: Streamable HTTP (--transport http)\n")
    differ_at = out.index(f"Where stdio and Streamable HTTP differ ({len(DIFFERING)} pairs)")
    assert stdio_at == 0 < http_at < differ_at
    for (client, server), (a, b, _) in DIFFERING.items():
        assert f"- {client} x {server}: stdio {a}, HTTP {b}" in out[differ_at:]
    code, out, _ = _run(capsys, "--transport", "both", "--format", "markdown")
    assert out.startswith("## Transport: stdio\n\n# Compatibility matrix")


def test_stdio_output_is_unchanged_by_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    _, plain, _ = _run(capsys)
    _, stdio, _ = _run(capsys, "--transport", "stdio")
    assert plain == stdio
    _, doc, _ = _run(capsys, "--format", "json")
    assert "transport" not in json.loads(doc)


def test_the_json_matrix_keeps_its_transport(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    out = tmp_path / "http.json"
    code, _, err = _run(capsys, "--transport", "http", "--format", "json", "--out", str(out),
                        "--clients", "dual:2026-07-28,2025-11-25", "--servers",
                        "legacy:2025-11-25+silent")
    assert code == 0 and "wrote" in err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["transport"] == "http"
    again = Matrix.from_dict(doc)
    assert again.transport == "http" and again.to_dict() == doc
    code, text, _ = _run(capsys, "--from", str(out))
    assert code == 0 and "over Streamable HTTP" in text and "✗ quirk" in text
    assert cell_text(again.cells[0][0]) == "✗ quirk"


@pytest.mark.parametrize(("argv", "says"), [
    (("--transport", "both", "--format", "json"), "--transport both prints two matrices"),
    (("--transport", "http", "--from", "x.json"), "takes no --transport"),
])
def test_what_the_transport_option_refuses(capsys: pytest.CaptureFixture[str],
                                           argv: tuple[str, ...], says: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and says in err


def test_two_http_matrices_are_the_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "--transport", "http", "--format", "json")[1]
    second = _run(capsys, "--transport", "http", "--format", "json")[1]
    assert first == second

"""Every output format of the matrix: it renders, reads back, escapes, stays in its width.

The golden file ``docs/matrix.md`` is checked in ``tests/docs/test_matrix_doc.py``;
the terminal view's fitted layout in ``test_matrix_width.py``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from functools import cache
from html.parser import HTMLParser
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.errors import UsageError
from mcp_skew.matrix import Cell, Matrix, RealRun, build_matrix, render
from mcp_skew.matrix._build import FORMAT_VERSION, outcome, timeline
from mcp_skew.matrix._render import FORMATS, VIEWS
from mcp_skew.matrix._render_data import CSV_COLUMNS
from mcp_skew.matrix._render_text import FAILURE_WORDS, SYMBOLS, legend_lines
from mcp_skew.matrix._simple_table import stack
from mcp_skew.peers import builtin_peers
from mcp_skew.peers._sets import sweep_peers
from mcp_skew.simulator import StepResult, parse_peer
from mcp_skew.simulator.findings import Finding


@cache
def default_matrix() -> Matrix:
    return build_matrix(builtin_peers("client"), builtin_peers("server"))


@cache
def round_tripped() -> Matrix:
    return Matrix.from_dict(json.loads(render(default_matrix(), "json")))


# -- Every format ----------------------------------------------------------------------------
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders(fmt: str, view: str) -> None:
    text = render(default_matrix(), fmt, view)
    assert text.endswith("\n") and len(text) > 500
    for axis in (*default_matrix().clients, *default_matrix().servers):
        assert axis.label in text or fmt in ("text", "grid")


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_matrix_read_back_renders_the_same(fmt: str, view: str) -> None:
    assert render(round_tripped(), fmt, view) == render(default_matrix(), fmt, view)


def test_json_round_trips_byte_for_byte() -> None:
    first = render(default_matrix(), "json")
    assert render(Matrix.from_dict(json.loads(first)), "json") == first
    assert round_tripped() == default_matrix()


def test_json_has_every_cell_with_its_transcript() -> None:
    data = json.loads(render(default_matrix(), "json"))
    assert data["format"] == "mcp-skew-matrix" and data["format_version"] == FORMAT_VERSION == 3
    assert data["mcp_skew_version"] and data["scenario"] == "default"
    assert [a["notation"] for a in data["clients"]] == [
        p.notation for p in builtin_peers("client")]
    keys = {"client", "server", "status", "revision", "era", "path", "mark", "reason",
            "transcript"}
    assert all(keys <= set(cell) and "events" not in cell
               for row in data["cells"] for cell in row)
    assert all(cell["transcript"] for row in data["cells"] for cell in row)
    assert all(set(r) in ({"ms", "dir", "message"}, {"ms", "dir", "event", "text"},
                          {"ms", "dir", "event", "text", "side", "code"})
               for row in data["cells"] for cell in row for r in cell["transcript"])
    s = data["summary"]
    assert s["works"] + s["fallback"] + s["fails"] == s["pairs"] == 156


def _version_2_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """A version-3 cell as version 2 wrote it: messages and events apart, ``t_ms``."""
    old: dict[str, Any] = {}
    for key, value in cell.items():
        if key != "transcript":
            old[key] = value
            continue
        messages = [r for r in value if r["dir"] != "event"]
        old["transcript"] = [{"t_ms": r["ms"], "dir": r["dir"], "message": r["message"]}
                             for r in messages]
        old["events"] = [{"t_ms": r["ms"], "event": r["text"],
                          "after": sum(1 for x in value[:i] if x["dir"] != "event")}
                         for i, r in enumerate(value) if r["dir"] == "event"]
    return old


@pytest.mark.parametrize("version", [1, 2])
def test_older_documents_read_as_version_3(version: int) -> None:
    """Versions 1 and 2 kept messages and events in two lists (1: ``event_after`` apart)."""
    current = json.loads(render(default_matrix(), "json"))
    old = {**current, "format_version": version,
           "cells": [[_version_2_cell(cell) for cell in row] for row in current["cells"]]}
    if version == 1:
        for row in old["cells"]:
            for cell in row:
                cell["event_after"] = [event.pop("after") for event in cell["events"]]
        assert any(cell["event_after"] for row in old["cells"] for cell in row)
    assert any(cell["events"] for row in old["cells"] for cell in row)
    kept = json.dumps(old)
    read = Matrix.from_dict(old)
    assert json.dumps(old) == kept  # the document read is left as it was
    assert read == default_matrix()
    assert render(read, "json") == render(default_matrix(), "json")
    cells = [cell for _, _, cell in read.pairs()]
    assert [timeline(c) for c in cells] == [timeline(c) for _, _, c in default_matrix().pairs()]


def test_a_bad_transcript_in_a_version_3_document_is_a_usage_error() -> None:
    data = json.loads(render(default_matrix(), "json"))
    data["cells"][0][0]["transcript"][0] = {"t_ms": 0, "dir": "c2s", "message": {}}
    with pytest.raises(UsageError, match=r"cells\.0\.0\.transcript\.0: .ms.: Field required"):
        Matrix.from_dict(data)

@pytest.mark.parametrize(("key", "value", "message"), [
    ("steps", [{"name": "list tools", "ok": "yes"}],
     r"cells\.0\.0\.steps\.0\.ok: Input should be a valid boolean"),
    ("findings", ["era-mismatch"], r"cells\.0\.0\.findings\.0: Input should be a valid dictionary"),
    ("real", [True], r"cells\.0\.0\.real: Input should be a valid dictionary"),
    ("features_lost", "tools", r"cells\.0\.0\.features_lost: Input should be a valid list"),
    ("round_trips", "2", r"cells\.0\.0\.round_trips: Input should be a valid integer"),
    ("revision", 20251125, r"cells\.0\.0\.revision: Input should be a valid string"),
    ("path", ["initialize 2025-11-25", 3], r"cells\.0\.0\.path\.1: Input should be a valid string"),
])
def test_a_bad_cell_value_is_a_one_line_usage_error(key: str, value: Any, message: str) -> None:
    data = json.loads(render(build_matrix(builtin_peers("client")[:1],
                                          builtin_peers("server")[:1]), "json"))
    data["cells"][0][0][key] = value
    with pytest.raises(UsageError, match=message) as caught:
        Matrix.from_dict(data)
    assert "\n" not in str(caught.value)


def test_a_cell_is_typed_and_its_json_is_the_runs() -> None:
    cell = default_matrix().cells[0][0]
    assert isinstance(cell, Cell) and isinstance(cell.path, tuple)
    assert all(isinstance(s, StepResult) for s in cell.steps)
    assert all(isinstance(f, Finding) for f in cell.findings)
    assert cell.real is None and cell.transport == "stdio"
    assert Cell.from_dict(cell.to_dict(), FORMAT_VERSION) == cell


def test_a_cells_real_run_round_trips_and_goes_last() -> None:
    cell = default_matrix().cells[0][0].replace(
        real=RealRun(True, False, "ok", "2025-03-26", "differs", 1.25))
    data = cell.to_dict()
    assert list(data)[-1] == "real"
    assert data["real"] == {"ran": True, "agrees": False, "status": "ok",
                            "revision": "2025-03-26", "detail": "differs", "seconds": 1.25}
    assert Cell.from_dict(data, FORMAT_VERSION) == cell


def test_unknown_format_or_view_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown format"):
        render(default_matrix(), "yaml")
    with pytest.raises(UsageError, match="unknown view"):
        render(default_matrix(), "text", "both")


@pytest.mark.parametrize(("data", "message"), [
    ({}, "not an mcp-skew matrix"),
    ({"format": "mcp-skew-matrix", "format_version": 99}, "newer"),
    ({"format": "mcp-skew-matrix", "format_version": 1, "clients": [{"label": 1}]}, "clients"),
    ({"format": "mcp-skew-matrix", "format_version": 1, "clients": [], "servers": [],
      "cells": [[]]}, "rows"),
    ({"format": "mcp-skew-matrix", "format_version": 1,
      "clients": [{"label": "c", "notation": "2025-11-25"}],
      "servers": [{"label": "s", "notation": "2025-11-25"}], "cells": [[{"status": "ok"}]]},
     r"cells\.0\.0\.client: Field required"),
])
def test_bad_json_is_a_usage_error(data: Any, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        Matrix.from_dict(data)


# -- Text ---------------------------------------------------------------------------------
def test_the_terminal_table_fits_160_columns() -> None:
    text = render(default_matrix(), "text", "pairs")
    assert max(len(line) for line in text.splitlines()) <= 160


def test_the_features_view_names_what_each_pair_loses_and_fits_when_fitted() -> None:
    """The features view names the lost features in each cell, a name per line at most
    (``CELL_LINES``): too wide for one table of 160 columns, so fitted to 160 it comes in
    blocks, and every cell's names are there."""
    from mcp_skew.matrix._render_text import CELL_LINES, render_text

    matrix = default_matrix()
    text = render_text(matrix, "features", width=160)
    assert max(len(line) for line in text.splitlines()) <= 160
    table = text.split("Legend:")[0]
    for _, _, cell in matrix.pairs():
        for name in (*cell.client_loses, *cell.server_loses):
            assert name in table
    rule = render(matrix, "text", "features").splitlines()[2]
    assert set(rule) == {"-", " "}
    assert max(len(dashes) for dashes in rule.split()[1:]) <= CELL_LINES


def test_the_terminal_view_has_a_legend_for_every_mark_and_a_summary() -> None:
    matrix = default_matrix()
    text = render(matrix, "text")
    keys = {key for key, _ in legend_lines(matrix)}
    for _, _, cell in matrix.pairs():
        if cell.status == "ok" and SYMBOLS[cell.mark]:
            assert SYMBOLS[cell.mark] in keys
        if cell.status != "ok":
            assert f"✗ {FAILURE_WORDS[cell.failure or '']}" in keys
    s = matrix.summary()
    assert f"{s.works} work directly, {s.fallback} work after a fallback" in text
    assert f"{s.fails} fail." in text
    assert "2025-11-25" in text and "mcp-skew simulate --client" in text


def test_a_re_probe_cell_has_its_mark_in_every_format() -> None:
    """A dual-era client meets a modern server slower than its probe timeout."""
    dual = parse_peer("dual:2026-07-28,2025-11-25", "client")
    matrix = build_matrix([dual], [parse_peer("modern:2026-07-28+slow=5000", "server"),
                                   parse_peer("modern:2026-07-28", "server")])
    slow, plain = matrix.cells[0]
    assert (slow.mark, plain.mark) == ("re-probe", "direct")
    assert (outcome(slow), outcome(plain)) == ("fallback", "works")
    assert matrix.summary().fallback == 1
    text = render(matrix, "text")
    assert "2026 ↪" in text
    assert dict(legend_lines(matrix))["↪"].startswith("re-probe: the probe timed out")
    rows = list(csv.DictReader(io.StringIO(render(matrix, "csv"))))
    assert [(r["mark"], r["outcome"]) for r in rows] == [("re-probe", "fallback"),
                                                          ("direct", "works")]
    case = ET.fromstring(render(matrix, "junit")).findall("./testsuite/testcase")[0]
    assert case.find("failure") is None and "re-probe" in (case.findtext("system-out") or "")
    html = render(matrix, "html")
    assert "2026 ↪" in html and "re-probe: the probe timed out" in html

def test_colour_is_ansi_and_only_on_request() -> None:
    assert "\x1b[" not in render(default_matrix(), "text")
    coloured = render(default_matrix(), "text", color=True)
    assert "\x1b[32m" in coloured and "\x1b[31m" in coloured
    plain = re.sub(r"\x1b\[\d+m", "", coloured)
    assert plain == render(default_matrix(), "text")


@pytest.mark.parametrize(("label", "stacked"), [
    ("2025-06-18", "2025-06-18"),
    ("legacy 25-06+25-03", "legacy\n25-06\n+25-03"),
    ("legacy 25-11..24-11", "legacy\n25-11..\n24-11"),
    ("legacy 25-11 silent-exit", "legacy\n25-11\nsilent-\nexit"),
])
def test_stacked_column_labels(label: str, stacked: str) -> None:
    assert stack(label) == stacked


def test_features_view_lists_what_is_lost() -> None:
    text = render(default_matrix(), "text", "features")
    assert "Features lost" in text
    assert "2026 → 25-11" in text and "caching-hints" in text
    assert "its users never get elicitation" in text and "server loses" in text
    said = " ".join(text.split())  # the footer's prose, unwrapped
    assert ("server 25-11 → 25-03 elicitation, url-elicitation, sampling-with-tools, tasks "
            "never reach a client that negotiates 25-03 (1 pair)") in said


# -- Machine formats -----------------------------------------------------------------------
def test_csv_has_one_row_per_cell() -> None:
    rows = list(csv.DictReader(io.StringIO(render(default_matrix(), "csv"))))
    assert len(rows) == 156
    assert tuple(rows[0]) == CSV_COLUMNS
    cells = [c for _, _, c in default_matrix().pairs()]
    assert [r["status"] for r in rows] == [c.status for c in cells]
    assert rows[0]["client_spec"] == "legacy:2024-11-05"


def test_junit_has_a_testcase_per_cell_and_a_failure_per_failed_cell() -> None:
    root = ET.fromstring(render(default_matrix(), "junit"))
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 156
    failed = [c for c in cases if c.find("failure") is not None]
    assert len(failed) == default_matrix().summary().fails
    assert root.find("testsuite").get("failures") == str(len(failed))  # type: ignore[union-attr]
    assert all("ms  ->  " in (c.findtext("system-out") or "") for c in cases)


def test_junit_drops_characters_xml_cannot_carry() -> None:
    data = json.loads(render(build_matrix(builtin_peers("client")[:1],
                                          builtin_peers("server")[:1]), "json"))
    data["cells"][0][0]["reason"] = "bad \x00 byte"
    data["cells"][0][0]["status"] = "failed"
    ET.fromstring(render(Matrix.from_dict(data), "junit"))


def test_markdown_is_a_pipe_table_with_a_row_per_client() -> None:
    text = render(default_matrix(), "markdown")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) >= 1 + len(default_matrix().clients)


def test_github_adds_colour_marks_and_the_failures() -> None:
    text = render(default_matrix(), "github")
    assert "🟢" in text and "🔴" in text and "<details>" in text


# -- HTML ---------------------------------------------------------------------------------
class _Checker(HTMLParser):
    VOID = frozenset({"meta", "br", "input", "link", "img", "hr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        for key in ("src", "href"):
            if (values.get(key) or "").startswith(("http:", "https:", "//")):
                self.external.append(str(values[key]))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


def test_html_is_one_well_formed_self_contained_file() -> None:
    checker = _Checker()
    text = render(default_matrix(), "html")
    checker.feed(text)
    assert checker.stack == []
    assert checker.external == []
    assert "<link" not in text and "<script src" not in text
    targets = [link[1:] for link in checker.links if link.startswith("#")]
    assert len(targets) >= 156 and set(targets) <= checker.ids


def test_html_escapes_everything_it_reads() -> None:
    data = json.loads(render(build_matrix(builtin_peers("client")[:1],
                                          builtin_peers("server")[:1]), "json"))
    evil = '<script>alert("x")</script>'
    data["clients"][0]["label"] = evil
    data["cells"][0][0]["reason"] = evil
    data["cells"][0][0]["transcript"][0]["message"] = {"method": evil}
    text = render(Matrix.from_dict(data), "html")
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert" in text


# -- Properties ----------------------------------------------------------------------------
SWEEP_CLIENTS = sweep_peers("client", ("restart",))
SWEEP_SERVERS = sweep_peers("server", ("silent", "lenient"))


@settings(max_examples=15, deadline=None)
@given(clients=st.lists(st.sampled_from(SWEEP_CLIENTS), min_size=1, max_size=3),
       servers=st.lists(st.sampled_from(SWEEP_SERVERS), min_size=1, max_size=3),
       scenario=st.sampled_from(["default", "handshake", "lists"]))
def test_any_matrix_round_trips_and_fits(clients: list[Any], servers: list[Any],
                                         scenario: str) -> None:
    matrix = build_matrix(clients, servers, scenario)
    text = render(matrix, "json")
    again = Matrix.from_dict(json.loads(text))
    assert render(again, "json") == text
    assert render(again, "text") == render(matrix, "text")
    for _, _, cell in matrix.pairs():
        assert (cell.failure is None) == (cell.status == "ok")


# -- Revisions the registry lacks ----------------------------------------------------------
def test_a_matrix_naming_revisions_this_registry_lacks_still_renders() -> None:
    data = json.loads(render(build_matrix(builtin_peers("client")[:2],
                                          builtin_peers("server")[:2]), "json"))
    data["clients"][0]["notation"] = "modern:2027-01-01+discover"
    data["cells"][0][0].update(revision="2027-01-01", era="modern")
    matrix = Matrix.from_dict(data)
    for fmt in FORMATS:
        for view in VIEWS:
            assert render(matrix, fmt, view)
    assert "2027 = 2027-01-01" in render(matrix, "text")


def test_the_features_view_says_the_same_losses_in_every_format() -> None:
    """Markdown and HTML show each cell's losses on one line, as CSV and JSON list them."""
    from mcp_skew.matrix._render_text import losses_text

    matrix = default_matrix()
    markdown, html = render(matrix, "markdown", "features"), render(matrix, "html", "features")
    rows = {(r["client"], r["server"]): r
            for r in csv.DictReader(io.StringIO(render(matrix, "csv")))}
    lost = [c for _, _, c in matrix.pairs() if c.client_loses or c.server_loses]
    assert lost
    for cell in lost:
        said = losses_text(cell)
        assert f"| {said}" in markdown and said in html
        row = rows[(cell.client, cell.server)]
        assert row["client_loses"].split() == list(cell.client_loses)
        assert row["server_loses"].split() == list(cell.server_loses)

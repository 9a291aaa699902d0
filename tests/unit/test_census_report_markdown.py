"""The census report in Markdown holds whatever a registry, a package or a server calls
itself: a ``|`` does not split a table cell, a line break does not end a row, a heading or
a list item (each outside text through ``mcp_skew._markup.markdown_cell``)."""

from __future__ import annotations

import re
from typing import Any

from mcp_skew.census._report import build_report, render_report

HOSTILE = "io.evil/a|b\n# injected | x\\"


def _rows() -> list[dict[str, Any]]:
    probed = {"key": "a", "server": HOSTILE, "version": "1|2", "kind": "package",
              "registry_type": "npm", "identifier": HOSTILE, "package_version": "1\n2",
              "status": "probed", "error": None, "peer": "legacy:2025-06-18",
              "sentence": "legacy only", "server_info": {"name": HOSTILE, "version": "1"},
              "readiness": {"modern": False, "modern_reason": f"no | answer\n{HOSTILE}",
                            "dual": True, "legacy_any": True, "legacy": {"2025-06-18": True}}}
    failed = {"key": "b", "server": HOSTILE, "version": "3", "kind": "package",
              "registry_type": "pypi", "identifier": "x", "package_version": "3",
              "status": "start-failed", "error": f"no answer; stderr: {HOSTILE}",
              "dependencies": {"mcp": "1.0 | evil\nrow"}}
    return [probed, failed]


def _cells(row: str) -> list[str]:
    """A table row's cells: split at each ``|`` that no backslash escapes."""
    return re.split(r"(?<!\\)\|", row.strip())[1:-1]


def test_the_by_sdk_table_keeps_five_cells_per_row() -> None:
    text = render_report(build_report(_rows()), "markdown")
    lines = text.splitlines()
    head = lines.index("| SDK | servers (started) | modern-only | dual-era (fallback) | "
                       "legacy (all revisions) |")
    table = []
    for line in lines[head:]:
        if not line.startswith("|"):
            break
        table.append(line)
    assert len(table) == 2 + 2  # the header, the rule, one row per SDK
    assert all(len(_cells(row)) == 5 for row in table)
    assert any("serverInfo io.evil/a\\|b # injected \\| x\\\\" in row for row in table)
    assert any("py-mcp 1.0 \\| evil row" in row for row in table)


def test_no_outside_text_starts_a_line_of_its_own() -> None:
    text = render_report(build_report(_rows()), "markdown")
    assert not any(line.startswith(("# injected", "row", "2)", "2 (")) for line in text.splitlines())
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    assert len(headings) == 2 and all("# injected" in h for h in headings)


def test_plain_names_are_written_as_they_are() -> None:
    rows = _rows()
    for row in rows:
        row.update(server="io.example/plain", identifier="plain", version="1",
                   package_version="1", server_info={"name": "plain"}, error=None)
    rows[1]["dependencies"] = {"mcp": "1.9.4"}
    text = render_report(build_report(rows), "markdown")
    assert "| py-mcp 1.9.4 | 1 (0) |" in text and "### io.example/plain 1 (package npm plain@1)" \
        in text

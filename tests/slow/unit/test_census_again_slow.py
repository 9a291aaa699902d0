"""A server that exits mid-conversation is probed twice by the census (census/_again.py),
end to end on local servers (``tests/servers/dies_midway.py``): one that exits on its second
request in every process keeps its row (the second probe saw the same) with both probes in
its report; one whose first probe's processes exit and whose second probe's do not gets a
row that says it varies, naming both observations."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from _paths import TESTS

from mcp_skew.census._store import CensusDB
from mcp_skew.cli import main

SPEC = "legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05"


def _entry(name: str, when: str) -> dict[str, Any]:
    return {"server": {"name": f"io.example/{name}", "version": "1.0.0", "packages": [
        {"registryType": "local", "identifier": "dies_midway.py", "version": "1.0.0",
         "transport": {"type": "stdio"},
         "packageArguments": [{"type": "positional", "value": when},
                              {"type": "positional", "value": SPEC}]}]}}


def test_a_server_that_dies_midway_is_probed_twice_and_its_row_says_what_both_saw(
        tmp_path: Path) -> None:
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"servers": [_entry("always", "always"),
                                               _entry("first", "first")]}))
    db = tmp_path / "census.sqlite"
    assert main(["census", str(listing), "--db", str(db), "--jobs", "2", "--quiet",
                 "--local-root", str(TESTS / "servers")]) == 0
    store = CensusDB(db, create=False)
    try:
        rows = {r["key"].split("/")[1].split("@")[0]: r for r in store.rows(report=False)}
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        reports = {k.split("/")[1].split("@")[0]: json.loads(r)
                   for k, r in conn.execute("SELECT key, report FROM results")}

    always = rows["always"]  # the same crash in both probes: one observation, kept
    assert always["status"] == "probed" and always["peer"] is not None
    assert "varies" not in always["readiness"]
    assert always["readiness"]["legacy_any"] is False
    assert not any(always["readiness"]["legacy"].values())
    both = reports["always"]
    assert both["again"]["peer"] == both["peer"]
    assert both["starts"] > both["again"]["starts"] > 0  # both probes' starts

    first = rows["first"]  # its first probe's processes died, its second probe's did not
    assert first["sentence"].startswith("varies from one probe to the next")
    varies = first["readiness"]["varies"]
    assert sorted(varies["legacy_any"]) == [False, True]
    assert first["readiness"]["legacy_any"] is False  # not ready in every probe
    seen = {c["client"]: c["status"] for c in reports["first"]["again"]["clients"]
            if c.get("transcript")}
    assert seen and "ok" in seen.values()

"""``census`` on a listing with an entry that is not text (a lone surrogate in its name or
version; issue 33: the census traced back, and under ``--cluster`` the well-formed row next
to it was stored as ``error``): one line sets the entry aside, the other is probed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _paths import TESTS

from mcp_skew.census._store import CensusDB

LOCAL = ["--local-root", str(TESTS / "servers"), "--probe-jobs", "2", "--sandbox", "none"]


def _server(name: str, version: str) -> dict[str, object]:
    return {"name": name, "version": version, "packages": [{
        "registryType": "local", "identifier": "sim_stdio_server.py", "version": version,
        "transport": {"type": "stdio"},
        "packageArguments": [{"type": "positional", "value": "legacy:2025-06-18"}]}]}


@pytest.mark.parametrize("executor", [["--jobs", "1"], ["--cluster", "local:1"]],
                         ids=["pool", "cluster"])
@pytest.mark.parametrize("field", ["name", "version"])
def test_the_entry_is_set_aside_and_the_good_one_probed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], executor: list[str],
        field: str) -> None:
    if executor[0] == "--cluster":
        pytest.importorskip("distributed", reason="the cluster extra")
    from mcp_skew.cli import main

    bad = _server("io.x/bad\ud800" if field == "name" else "io.x/bad",
                  "1.\ud800" if field == "version" else "1.0.0")
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"servers": [{"server": bad},
                                               {"server": _server("io.x/good", "1.0.0")}]}),
                       encoding="utf-8")
    db = tmp_path / "c.sqlite"
    code = main(["census", str(listing), "--db", str(db), *executor, *LOCAL])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (f"mcp-skew census: invalid entry: {listing} entry 0: {field} is not text"
            in err), err
    assert "Traceback" not in err
    store = CensusDB(db, create=False)
    try:
        rows = {r["key"]: (r["status"], r["peer"]) for r in store.rows(report=False)}
    finally:
        store.close()
    assert rows == {"io.x/good@1.0.0#package0": ("probed", "legacy:2025-06-18")}

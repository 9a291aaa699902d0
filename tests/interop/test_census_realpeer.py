"""The census of real registry packages (tests/census/real-listing.json): two releases of the
reference server-everything from npm, three releases of ``mcp-server-time`` from PyPI, a
package that is not on npm and an entry that needs an API key.

What they do, as measured (docs/census.md): both server-everything releases (built on
``@modelcontextprotocol/sdk`` 1.x) are legacy servers of every legacy revision;
mcp-server-time 2026.10.19 runs on ``mcp`` 2.x as a dual-era server; 2026.1.26 and 0.6.2
set no upper bound on ``mcp``, so their pinned releases install ``mcp`` 2.x today and die
at import (``McpError`` is gone): crashes at start that only a census of pinned releases
shows.

The same listing gives the same rows, timings aside, with both CPUs kept busy by two busy
loops as on an idle machine (a cold start stretched by load is waited for, never stored as
``start-failed``).

Installs go to the shared environment cache; skipped when npm's or PyPI's registry
cannot be reached.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.census._report import _kind_and_cause
from mcp_skew.census._store import CensusDB
from mcp_skew.cli import main
from mcp_skew.realpeers._envs import MARKER_NAME, cache_root, find_uv

pytestmark = pytest.mark.realpeer

LISTING = Path(__file__).resolve().parents[1] / "census" / "real-listing.json"
EVERYTHING = "io.github.modelcontextprotocol/server-everything"
TIME = "io.github.modelcontextprotocol/server-time"


def _reachable() -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm and node are needed")
    for url in ("https://registry.npmjs.org/", "https://pypi.org/simple/"):
        try:
            urllib.request.urlopen(url, timeout=10).close()
        except OSError as exc:
            pytest.skip(f"{url} unreachable: {exc}")


def _census(db: Path, listing: Path = LISTING) -> dict[str, dict[str, Any]]:
    # the two packages of the listing are the project's own test choice, run unsandboxed on
    # purpose where no sandbox tool is installed (CI machines have none)
    sandbox = [] if shutil.which("bwrap") else ["--sandbox", "none"]
    assert main(["census", str(listing), "--db", str(db), "--jobs", "2", *sandbox]) == 0
    store = CensusDB(db, create=False)
    try:
        return {r["key"]: r for r in store.rows(report=False)}
    finally:
        store.close()


@pytest.fixture(scope="module")
def idle_rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    _reachable()
    return _census(tmp_path_factory.mktemp("idle") / "census.sqlite")


def _untimed(row: dict[str, Any]) -> dict[str, Any]:
    """A row's verdict, without what load may change (times, costs, the worker, raw text)."""
    readiness = {k: v for k, v in (row["readiness"] or {}).items() if not k.endswith("_ms")}
    return {"status": row["status"], "peer": row["peer"], "sentence": row["sentence"],
            "readiness": readiness, "server_info": row["server_info"],
            "dependencies": row["dependencies"], "failure": _kind_and_cause(row)}


@pytest.fixture
def both_cpus_busy() -> Iterator[None]:
    spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for proc in spin:
            proc.kill()
            proc.wait()


def test_the_same_listing_gives_the_same_rows_with_both_cpus_busy(
        tmp_path: Path, idle_rows: dict[str, dict[str, Any]], both_cpus_busy: None) -> None:
    busy = _census(tmp_path / "busy.sqlite")
    assert {k: _untimed(r) for k, r in busy.items()} == \
        {k: _untimed(r) for k, r in idle_rows.items()}


def test_the_census_of_real_packages(idle_rows: dict[str, dict[str, Any]]) -> None:
    rows = idle_rows
    status = {k: r["status"] for k, r in rows.items()}
    assert status == {
        f"{EVERYTHING}@2025.11.25#package0": "probed",
        f"{EVERYTHING}@2026.1.26#package0": "probed",
        "io.example/no-such-package@0.0.1#package0": "install-failed",
        f"{TIME}@2026.1.26#package0": "start-failed",
        f"{TIME}@2026.10.19#package0": "probed",
        f"{TIME}@0.6.2#package0": "start-failed",
        "io.example/needs-api-key@1.0.0#package0": "needs-config",
    }
    for version in ("2025.11.25", "2026.1.26"):
        row = rows[f"{EVERYTHING}@{version}#package0"]
        assert row["peer"].startswith("legacy:2025-11-25,2025-06-18,2025-03-26,2024-11-05")
        assert "@modelcontextprotocol/sdk" in row["dependencies"]
        assert row["readiness"]["modern"] is False and row["readiness"]["dual"] is True
    time_now = rows[f"{TIME}@2026.10.19#package0"]
    assert time_now["peer"].startswith("dual:2026-07-28,") and "mcp" in time_now["dependencies"]
    for version in ("2026.1.26", "0.6.2"):
        assert "McpError" in rows[f"{TIME}@{version}#package0"]["error"]
    assert "404" in rows["io.example/no-such-package@0.0.1#package0"]["error"]


def _verdicts(rows: dict[str, dict[str, Any]], cache: Path) -> dict[str, str]:
    """Each row's verdict, its environment cache's path named ``$CACHE`` (a server that dies
    at import says where the module it could not import lies: under the cache)."""
    def named(row: dict[str, Any]) -> dict[str, Any]:
        error = row.get("error")
        return {**row, "error": error.replace(str(cache), "$CACHE") if error else error}

    return {k: json.dumps(_untimed(named(r)), sort_keys=True) for k, r in rows.items()}


def _pypi_only(listing: Path, out: Path) -> Path:
    """``listing`` with only its PyPI entries (what uv or pip installs), as a one-page listing."""
    entries = [e for page in json.loads(listing.read_text()) for e in page["servers"]
               if all(p["registryType"] == "pypi" for p in e["server"].get("packages", []))]
    out.write_text(json.dumps([{"servers": entries}]))
    return out


def test_uv_and_pip_give_the_same_rows(tmp_path: Path, idle_rows: dict[str, dict[str, Any]],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The census fills each server's venv with uv when it can: cold, with uv and with pip
    (each in an empty cache), the same verdicts as each other and as the shared cache's. Only
    the listing's PyPI entries run cold: npm fills the others whichever installer is chosen."""
    if find_uv() is None:
        pytest.skip("no uv here (the test extra installs it)")
    listing = _pypi_only(LISTING, tmp_path / "pypi-listing.json")
    idle = {k: v for k, v in _verdicts(idle_rows, cache_root()).items() if TIME in k}
    assert len(idle) == 3  # the three mcp-server-time releases
    rows = {}
    for tool in ("uv", "pip"):
        cache = tmp_path / f"cache-{tool}"
        monkeypatch.setenv("MCP_SKEW_INSTALLER", tool)
        monkeypatch.setenv("MCP_SKEW_CACHE", str(cache))
        rows[tool] = _verdicts(_census(tmp_path / f"{tool}.sqlite", listing), cache)
        markers = sorted((cache / "envs").glob(f"py-*/{MARKER_NAME}"))
        assert len(markers) == 3  # the three mcp-server-time releases
        assert all(f'"installer": "{tool}"' in m.read_text() for m in markers)
    assert rows["uv"] == rows["pip"] == idle


def _listing(tmp: Path, *entries: tuple[str, str, str, str]) -> Path:
    """A one-page listing of ``(name, registryType, identifier, version)`` entries."""
    out = tmp / "listing.json"
    out.write_text(json.dumps({"servers": [
        {"server": {"name": name, "version": version, "packages": [
            {"registryType": registry, "identifier": identifier, "version": version,
             "transport": {"type": "stdio"}}]}} for name, registry, identifier, version
        in entries]}))
    return out


TEXT_EDITOR = "io.github.tumf/mcp-text-editor"


@pytest.mark.skipif(sys.version_info >= (3, 13), reason="mcp-text-editor 1.2.2 installs here")
def test_an_install_failure_is_the_same_row_after_uv_and_pip(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mcp-text-editor 1.2.2 needs Python 3.13: uv and pip both fail to install it, each in
    its own words (``uv install ...`` / ``pip install ...`` and their output, kept in the
    row's error); the row's verdict, its failure's kind and cause included, is the same."""
    _reachable()
    if find_uv() is None:
        pytest.skip("no uv here (the test extra installs it)")
    listing = _listing(tmp_path, (TEXT_EDITOR, "pypi", "mcp-text-editor", "1.2.2"))
    rows, errors = {}, {}
    for tool in ("uv", "pip"):
        cache = tmp_path / f"cache-{tool}"
        monkeypatch.setenv("MCP_SKEW_INSTALLER", tool)
        monkeypatch.setenv("MCP_SKEW_CACHE", str(cache))
        got = _census(tmp_path / f"{tool}.sqlite", listing)
        rows[tool] = _verdicts(got, cache)
        errors[tool] = got[f"{TEXT_EDITOR}@1.2.2#package0"]["error"]
    assert rows["uv"] == rows["pip"]
    assert errors["uv"].startswith("uv install ") and errors["pip"].startswith("pip install ")
    verdict = json.loads(rows["uv"][f"{TEXT_EDITOR}@1.2.2#package0"])
    assert verdict["status"] == "install-failed"
    assert verdict["failure"] == ["needs another Python", "install-failed: install "
                                  "mcp-text-editor==1.2.2 failed: needs Python >=3.13"]


NOTION = "io.github.makenotion/notion-mcp-server"


def test_a_node_server_that_loads_fetch_gives_the_same_row_idle_and_busy(
        tmp_path: Path) -> None:
    """@notionhq/notion-mcp-server loads Node's fetch at start, which instantiates a
    WebAssembly module in the background: under the census's old address-space bound
    (RLIMIT_AS 4096 MiB) that killed it a few seconds after its start, cutting short the
    exchange then in flight, so its row changed with the load. Under the memory bound
    (RLIMIT_DATA) every client's conversation ends as the server chose: the same row idle
    and with both CPUs busy, every legacy client reaching it."""
    _reachable()
    listing = _listing(tmp_path, (NOTION, "npm", "@notionhq/notion-mcp-server", "2.5.2"))
    idle = _census(tmp_path / "idle.sqlite", listing)
    spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        busy = _census(tmp_path / "busy.sqlite", listing)
    finally:
        for proc in spin:
            proc.kill()
            proc.wait()
    assert {k: _untimed(r) for k, r in busy.items()} == {k: _untimed(r) for k, r in idle.items()}
    row = idle[f"{NOTION}@2.5.2#package0"]
    assert row["status"] == "probed" and row["readiness"]["legacy_any"] is True
    assert all(row["readiness"]["legacy"].values()) and "varies" not in row["readiness"]

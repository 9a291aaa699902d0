"""``census`` runs no registry package without a working sandbox unless ``--sandbox none``
says so, and refuses ``--no-network`` where nothing would enforce it: one line, exit 2, before
anything runs (and, on a cluster's worker, the job is ``unsupported`` with the reason)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.census import _launch, _work
from mcp_skew.census._launch import InstalledPackage
from mcp_skew.cli import main


def _listing(tmp_path: Path, registry: str) -> Path:
    package = {"registryType": registry, "identifier": "some-server", "version": "1.0.0",
               "transport": {"type": "stdio"}}
    servers = [{"server": {"name": "io.example/s", "version": "1.0.0", "description": "d",
                           "packages": [package]},
                "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active",
                                                                         "isLatest": True}}}]
    path = tmp_path / "listing.json"
    path.write_text(json.dumps([{"servers": servers}]))
    return path


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where neither bwrap nor firejail works."""
    def none_here(name: str) -> str | None:
        if name not in ("auto", "none"):
            raise _launch.Unsupported(f"--sandbox {name}: not installed")
        return None
    monkeypatch.setattr(_launch, "sandbox_tool", none_here)
    monkeypatch.setattr(_work, "sandbox_tool", none_here)


def test_registry_packages_without_a_sandbox_are_refused(tmp_path: Path, no_sandbox: None,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    db = tmp_path / "c.sqlite"
    assert main(["census", str(_listing(tmp_path, "npm")), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "no working sandbox" in err and "--sandbox none" in err
    assert err.count("\n") == 1
    assert not db.exists()  # refused before anything ran


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_no_network_without_a_sandbox_is_refused(tmp_path: Path, no_sandbox: None,
                                                 sandbox: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite"
    assert main(["census", str(_listing(tmp_path, "local")), "--db", str(db), "--sandbox",
                 sandbox, "--no-network"]) == 2
    assert "--no-network needs a sandbox" in capsys.readouterr().err
    assert not db.exists()


def _settings(**fields: Any) -> Any:
    return _work.Settings(**fields)


def test_on_a_worker_a_registry_package_without_a_sandbox_is_not_started(
        tmp_path: Path, no_sandbox: None) -> None:
    installed = InstalledPackage(("node", "server.js"), 0.0, True, {}, root=tmp_path)
    with pytest.raises(_launch.Unsupported, match="no working sandbox"):
        _work._command(_settings(), installed, (), tmp_path)
    argv = _work._command(_settings(sandbox="none"), installed, (), tmp_path)
    assert argv[-2:] == ("node", "server.js")  # asked for outright: it runs, unsandboxed
    with pytest.raises(_launch.Unsupported, match="--no-network"):
        _work._command(_settings(sandbox="none", network=False), installed, (), tmp_path)

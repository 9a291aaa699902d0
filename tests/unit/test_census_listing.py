"""The census's inputs: listings in the MCP Registry's format, the list API, configuration,
the resource-limit wrapper. Malformed input is one line and exit code 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.census._launch import (
    NeedsConfig,
    resolve_config,
    sandbox_argv,
)
from mcp_skew.census._listing import Job, ListingError, read_listing, server_jobs
from mcp_skew.cli import main

LISTING = Path(__file__).resolve().parents[1] / "census" / "listing.json"


def _server(name: str, **extra: Any) -> dict[str, Any]:
    pkg = {"registryType": "npm", "identifier": f"@x/{name}", "version": "1.0.0",
           "transport": {"type": "stdio"}, **extra}
    return {"name": f"io.example/{name}", "version": "1.0.0", "packages": [pkg]}


def test_a_saved_listing_of_two_pages_gives_one_job_per_package_and_remote() -> None:
    jobs = read_listing([str(LISTING)])
    assert [j.key for j in jobs] == [
        "io.example/legacy-0618@1.0.0#package0", "io.example/dual@2.0.0#package0",
        "io.example/needs-key@0.3.0#package0", "io.example/missing@0.0.1#package0",
        "io.example/crashes@0.1.0#package0", "io.example/remote-modern@1.0.0#remote0"]
    assert jobs[-1].what == "remote http://127.0.0.1:8765/mcp"


def test_a_folder_of_server_json_and_json_lines_read_the_same(tmp_path: Path) -> None:
    servers = [_server("a"), _server("b")]
    folder = tmp_path / "servers"
    folder.mkdir()
    for s in servers:
        (folder / f"{s['name'].rsplit('/')[-1]}.json").write_text(json.dumps(s))
    lines = tmp_path / "servers.jsonl"
    lines.write_text("\n".join(json.dumps({"server": s, "_meta": {}}) for s in servers) + "\n")
    assert [j.key for j in read_listing([str(folder)])] == [j.key for j in read_listing([str(lines)])]
    # a server listed twice is one job
    assert len(read_listing([str(folder), str(lines)])) == 2


@pytest.mark.parametrize(("doc", "message"), [
    ({"servers": "no"}, "not a list-API page"),
    ({"servers": [{"server": {"version": "1"}}]}, "name: missing"),
    ({"servers": [{"server": {"name": "x", "version": 1}}]}, "version: got a number, expected a string"),
    ([{"servers": [_server("a", identifier=3)]}], "packages[0].identifier: got a number"),
    (_server("a", transport={}), "transport.type: missing"),
    (_server("a", environmentVariables=[{"isRequired": True}]), "environmentVariables[0].name"),
    (_server("a", packageArguments=[{"type": "named", "name": "--x", "isRequired": "yes"}]),
     "isRequired: got a string, expected a boolean"),
    ({"name": "x", "version": "1", "remotes": [{"type": "sse"}]}, "remotes[0].url: missing"),
    ({"servers": [], "metadata": {"nextCursor": 5}}, "nextCursor is not a string"),
])
def test_malformed_listings_are_one_line_and_exit_2(tmp_path: Path, doc: Any, message: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ListingError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_listing([str(path)])
    assert main(["census", str(path), "--db", str(tmp_path / "c.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mcp-skew: error: ") and message in err


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '"text"'])
def test_files_that_are_not_listings(tmp_path: Path, content: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    assert main(["census", str(path), "--db", str(tmp_path / "c.sqlite")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_paths_dbs_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello")
    cases = [
        ["census", str(tmp_path / "absent.json")],
        ["census", str(tmp_path)],  # a folder without *.json
        ["census", str(LISTING), "--db", str(not_db)],
        ["census", str(LISTING), "--jobs", "0"],
        ["census", str(LISTING), "--registry", "http://127.0.0.1:1/"],
        ["census", "--registry", "ftp://example/"],
        ["census", str(LISTING), "--cluster", "remote:3"],
        ["census", str(LISTING), "--cluster", "local:0"],
        ["census", str(LISTING), "--scheduler", "nonsense"],
        ["census", str(LISTING), "--scheduler", "tcp://host-without-port"],
        ["census", str(LISTING), "--cluster", "local", "--scheduler", "tcp://h:1"],
        ["census", "report", "--db", str(tmp_path / "absent.sqlite")],
        ["census", "report", "--db", str(not_db)],
    ]
    for argv in cases:
        assert main([*argv, *([] if "--db" in argv else ["--db", str(tmp_path / "c.sqlite")])]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mcp-skew: error: "), (argv, err)
    assert not_db.read_text() == "hello"


# -- configuration -------------------------------------------------------------------------------
def _job(**pkg: Any) -> Job:
    return server_jobs(_server("x", **pkg), "test")[0]


def test_inputs_take_value_then_default_and_required_ones_need_config() -> None:
    launch = resolve_config(_job(
        packageArguments=[
            {"type": "positional", "value": "serve"},
            {"type": "named", "name": "--root", "value": "{dir}/data",
             "variables": {"dir": {"default": "/srv"}}},
            {"type": "named", "name": "--verbose"},
            {"type": "positional", "valueHint": "optional-path"},
        ],
        environmentVariables=[{"name": "MODE", "default": "ro"},
                              {"name": "TOKEN", "isSecret": True}]))
    assert launch.package_args == ("serve", "--root=/srv/data", "--verbose")
    assert dict(launch.env) == {"MODE": "ro"}
    with pytest.raises(NeedsConfig, match="TOKEN is required"):
        resolve_config(_job(environmentVariables=[{"name": "TOKEN", "isRequired": True}]))
    with pytest.raises(NeedsConfig, match="packageArguments"):
        resolve_config(_job(packageArguments=[{"type": "positional", "valueHint": "path",
                                               "isRequired": True}]))
    with pytest.raises(NeedsConfig, match="variable key"):
        resolve_config(_job(packageArguments=[{"type": "named", "name": "--k", "value": "{key}",
                                               "variables": {"key": {"isRequired": True}}}]))


def test_sandbox_argv_keeps_only_the_scratch_folder_writable(tmp_path: Path) -> None:
    bwrap = sandbox_argv("/usr/bin/bwrap", tmp_path, network=False)
    assert bwrap[1:4] == ("--ro-bind", "/", "/") and "--unshare-all" in bwrap
    assert "--share-net" not in bwrap and bwrap[-1] == "--"
    home, env = Path("/home/u"), Path("/home/u/.cache/mcp-skew/envs/npm-1")
    hidden = sandbox_argv("/usr/bin/bwrap", tmp_path, network=True, hide=home,
                          keep=(env, Path("/usr")))
    over = hidden.index("--tmpfs")
    assert hidden[over:over + 6] == ("--tmpfs", str(home), "--ro-bind", str(env), str(env),
                                     "--bind")
    firejail = sandbox_argv("/usr/bin/firejail", tmp_path, network=True)
    assert f"--read-write={tmp_path}" in firejail and "--net=none" not in firejail


def test_a_sandbox_named_outright_must_work(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    if shutil.which("firejail") is not None:
        pytest.skip("firejail is installed here")
    assert main(["census", str(LISTING), "--sandbox", "firejail", "--db",
                 str(tmp_path / "c.sqlite")]) == 2
    assert capsys.readouterr().err == ("mcp-skew: error: --sandbox firejail: not installed, or "
                                       "it cannot make a sandbox here\n")

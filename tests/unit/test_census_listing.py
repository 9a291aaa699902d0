"""The census's inputs: listings in the MCP Registry's format, the list API, configuration,
the resource-limit wrapper. Malformed input is one line and exit code 2."""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_skew.census import ListingError, read_listing, read_registry
from mcp_skew.census._launch import (
    NeedsConfig,
    limits_argv,
    resolve_config,
    sandbox_argv,
    sandbox_tool,
)
from mcp_skew.census._listing import Job, server_jobs
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


# -- the list API ------------------------------------------------------------------------------
@pytest.fixture
def registry() -> Iterator[tuple[str, list[str]]]:
    """A list API on loopback: two pages linked by nextCursor; the paths it was asked for."""
    pages = {None: {"servers": [{"server": _server("a"), "_meta": {}}],
                    "metadata": {"nextCursor": "c2", "count": 1}},
             "c2": {"servers": [{"server": _server("b"), "_meta": {}}], "metadata": {"count": 1}},
             "bad": {"servers": [{"server": {"name": 1}}]}}
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            from urllib.parse import parse_qs, urlsplit
            parts = urlsplit(self.path)
            cursor = parse_qs(parts.query).get("cursor", [None])[0]
            if parts.path != "/v0/servers" or cursor not in pages:
                self.send_error(404)
                return
            body = json.dumps(pages[cursor]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", asked
    finally:
        server.shutdown()
        server.server_close()


def test_the_list_api_is_read_page_by_page(registry: tuple[str, list[str]]) -> None:
    base, asked = registry
    jobs = read_registry(base + "/")
    assert [j.server for j in jobs] == ["io.example/a", "io.example/b"]
    assert asked == ["/v0/servers?limit=100", "/v0/servers?limit=100&cursor=c2"]
    with pytest.raises(ListingError, match="more than 1 pages"):
        read_registry(base, max_pages=1)
    with pytest.raises(ListingError, match="HTTP 404"):
        read_registry(base + "/v1/servers")


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


def test_the_limits_wrapper_sets_rlimits_and_execs_without_a_shell(tmp_path: Path) -> None:
    code = ("import resource as r; print(r.getrlimit(r.RLIMIT_CPU)[0], "
            "r.getrlimit(r.RLIMIT_AS)[0] >> 20, r.getrlimit(r.RLIMIT_FSIZE)[0] >> 20)")
    out = subprocess.run([*limits_argv(7, 2048, 0, 3), sys.executable, "-c", code],
                         capture_output=True, text=True, check=True, timeout=30).stdout
    assert out.split() == ["7", "2048", "3"]
    # a file larger than RLIMIT_FSIZE cannot be written
    big = subprocess.run([*limits_argv(0, 0, 0, 1), sys.executable, "-c",
                          f"open({str(tmp_path / 'f')!r}, 'wb').write(b'x' * (2 << 20))"],
                         capture_output=True, timeout=30, check=False)
    assert big.returncode != 0
    missing = subprocess.run([*limits_argv(0, 0, 0, 0), "no-such-program-here; echo hi"],
                             capture_output=True, text=True, timeout=30, check=False)
    assert missing.returncode == 127 and "cannot start" in missing.stderr


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


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bwrap is not installed")
def test_in_the_bwrap_sandbox_home_is_empty_and_only_scratch_is_writable(tmp_path: Path) -> None:
    if sandbox_tool("auto") is None:
        pytest.skip("bwrap cannot make a sandbox on this machine")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    code = ("import json, os, sys; print(json.dumps(sorted(os.listdir(sys.argv[1]))));"
            "open(sys.argv[2], 'w').write('x'); open(sys.argv[3], 'w')")
    keep = (Path(sys.base_prefix).resolve(), Path(sys.prefix))  # this Python, inside the home too
    argv = [*sandbox_argv(str(shutil.which("bwrap")), scratch, network=False, hide=Path.home(),
                          keep=keep),
            sys.executable, "-c", code, str(Path.home()), str(scratch / "ok"),
            str(tmp_path / "outside")]
    got = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    # the census user's home is an empty folder but for the way to what was kept
    kept = {p.relative_to(Path.home()).parts[0] for p in keep if p.is_relative_to(Path.home())}
    assert set(json.loads(got.stdout.splitlines()[0])) == kept
    assert (scratch / "ok").read_text() == "x"
    assert got.returncode != 0 and "Read-only file system" in got.stderr
    assert not (tmp_path / "outside").exists()


def test_a_sandbox_named_outright_must_work(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    if shutil.which("firejail") is not None:
        pytest.skip("firejail is installed here")
    assert main(["census", str(LISTING), "--sandbox", "firejail", "--db",
                 str(tmp_path / "c.sqlite")]) == 2
    assert capsys.readouterr().err == ("mcp-skew: error: --sandbox firejail: not installed, or "
                                       "it cannot make a sandbox here\n")

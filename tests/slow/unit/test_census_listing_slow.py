"""The census's inputs: listings in the MCP Registry's format, the list API, configuration,
the resource-limit wrapper. Malformed input is one line and exit code 2.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_census_listing.py``.
"""

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
from _waits import BOUND_S

from mcp_skew.census._launch import (
    limits_argv,
    sandbox_argv,
    sandbox_tool,
)
from mcp_skew.census._listing import ListingError, read_registry


def _server(name: str, **extra: Any) -> dict[str, Any]:
    pkg = {"registryType": "npm", "identifier": f"@x/{name}", "version": "1.0.0",
           "transport": {"type": "stdio"}, **extra}
    return {"name": f"io.example/{name}", "version": "1.0.0", "packages": [pkg]}


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


def test_the_limits_wrapper_sets_rlimits_and_execs_without_a_shell(tmp_path: Path) -> None:
    code = ("import resource as r; print(r.getrlimit(r.RLIMIT_CPU)[0], "
            "r.getrlimit(r.RLIMIT_DATA)[0] >> 20, r.getrlimit(r.RLIMIT_FSIZE)[0] >> 20)")
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


def test_the_memory_bound_is_memory_written_not_address_space_reserved() -> None:
    """Python's ``bytearray`` of 96 MiB under a bound of 64 MiB fails; 32 MiB does not."""
    code = "import sys; bytearray(int(sys.argv[1]) << 20)"
    runs = {mib: subprocess.run([*limits_argv(0, 64, 0, 0), sys.executable, "-c", code,
                                 str(mib)], capture_output=True, text=True, timeout=30,
                                check=False) for mib in (32, 96)}
    assert runs[32].returncode == 0, runs[32].stderr
    assert runs[96].returncode != 0 and "MemoryError" in runs[96].stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_node_server_may_reserve_webassembly_memory_under_the_memory_bound() -> None:
    """V8 reserves about 10 GiB of address space for a WebAssembly memory and makes
    writable only what it uses: under a bound of 1024 MiB a memory of 2 MiB works (Node's
    fetch makes one: it instantiates its HTTP parser so), one grown to 2 GiB does not.
    Under RLIMIT_AS (the bound before) the first failed too, and a Node server that loaded
    fetch died of it at a moment its load chose."""
    grow = ("const m = new WebAssembly.Memory({initial: 1, maximum: 65536}); "
            "console.log('made'); m.grow(Number(process.argv[1])); console.log('grew')")
    small, big = (subprocess.run([*limits_argv(0, 1024, 0, 0), "node", "-e", grow, pages],
                                 capture_output=True, text=True, timeout=60, check=False)
                  for pages in ("16", "32768"))  # 64 KiB pages: 1 MiB more; 2 GiB more
    assert small.returncode == 0 and small.stdout.split() == ["made", "grew"], small.stderr
    assert big.stdout.split() == ["made"] and "RangeError" in big.stderr


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


def test_a_registry_dripping_its_page_ends_with_the_timeout() -> None:
    """A list API that sends its headers, then one byte of the page at a time, keeps no
    census waiting: the page has ``timeout`` in all (a socket timeout alone starts again
    with every byte, and the old read waited for ever)."""
    stop = threading.Event()

    class Drip(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            while not stop.is_set():
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                stop.wait(0.2)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    outcome: list[BaseException | object] = []

    def read() -> None:
        try:
            outcome.append(read_registry(f"http://127.0.0.1:{server.server_address[1]}",
                                         timeout=1.0))
        except BaseException as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        reader.join(BOUND_S)
        assert not reader.is_alive(), "read_registry still reading a dripped page"
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
    assert isinstance(outcome[0], ListingError)
    assert "no whole page within 1 s" in str(outcome[0])

"""``census --scheduler`` at something that is not a Dask scheduler (issue 33: it hung, or
traced back): one line naming what it found, exit code 2, within the connection's bound
(10 s), and no database made. The command runs as a process: on the old code it never
ended, and the test's bound stops it."""

from __future__ import annotations

import contextlib
import http.server
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _http_servers import free_port
from _paths import TESTS
from _waits import BOUND_S

pytest.importorskip("distributed", reason="the cluster extra: pip install 'mcp-skew[cluster]'")

LISTING = TESTS / "census" / "listing.json"


@contextlib.contextmanager
def _http() -> Iterator[int]:
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def _speaker(first: bytes | None) -> Iterator[int]:
    """A listener that accepts and says ``first`` (None: nothing), then holds the line."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)
            if first is not None:
                conn.sendall(first)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(BOUND_S)
        listener.close()
        for conn in held:
            conn.close()


@contextlib.contextmanager
def _closed() -> Iterator[int]:
    yield free_port()


CASES: list[tuple[str, Callable[[], contextlib.AbstractContextManager[int]], str]] = [
    ("http", _http, "not a Dask scheduler: it accepted the connection and said nothing "
     "within 10 s"),
    ("silent", lambda: _speaker(None), "not a Dask scheduler: it accepted the connection and "
     "said nothing within 10 s"),
    ("garbage", lambda: _speaker(b"SSH-2.0-OpenSSH_9.6\r\n" * 4),
     "not a Dask scheduler: its first bytes are not a Dask message"),
    ("hangs-up", lambda: _speaker(b""), "not a Dask scheduler"),
    ("closed", _closed, "cannot connect: Connection refused"),
]


@pytest.mark.parametrize(("serve", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_scheduler_that_is_not_one_is_one_line_and_exit_2(
        tmp_path: Path, serve: Callable[[], contextlib.AbstractContextManager[int]],
        says: str) -> None:
    db = tmp_path / "c.sqlite"
    with serve() as port:
        address = f"tcp://127.0.0.1:{port}"
        done = subprocess.run(
            [sys.executable, "-m", "mcp_skew", "census", str(LISTING), "--db", str(db),
             "--scheduler", address, "--sandbox", "none"],
            capture_output=True, text=True, timeout=BOUND_S, stdin=subprocess.DEVNULL,
            check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"mcp-skew: error: --scheduler {address}: {says}"), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not db.exists()

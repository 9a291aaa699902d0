"""``probe --url`` against a server that answers with a 1 MB header line or with bad
chunking: each request fails with one note, the probe reports, and no thread prints a
traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytestmark = pytest.mark.slow

ANSWERS = {
    "huge-header": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20)
                   + b"\r\nContent-Length: 0\r\n\r\n",
    "bad-chunking": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\nzz\r\nbad\r\n",
}


@contextmanager
def hostile(answer: bytes) -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    stop = threading.Event()

    def one(conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(answer)
            except OSError:
                pass

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            threading.Thread(target=one, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        stop.set()
        sock.close()


@pytest.mark.parametrize("kind", sorted(ANSWERS))
def test_a_hostile_http_answer_gives_no_thread_traceback(kind: str) -> None:
    with hostile(ANSWERS[kind]) as port:
        proc = subprocess.run([sys.executable, "-m", "mcp_skew", "probe", "--url",
                               f"http://127.0.0.1:{port}/mcp", "--timeout", "3"],
                              capture_output=True, timeout=600, check=False)
    err = proc.stderr.decode()
    assert "Traceback" not in err and "Exception in thread" not in err, err[-2000:]
    assert proc.stdout  # the report card

"""Start a real MCP server on a local HTTP port for an interop test, and always stop it."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator, Sequence

import pytest
from _waits import BOUND_S

__all__ = ["announced_url", "free_port", "serving"]


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def announced_url(proc: subprocess.Popen[str], start_s: float = BOUND_S) -> str:
    """The URL ``mcp-skew serve --http`` says on its stderr it serves (``... on http://...``)."""
    assert proc.stderr is not None
    give_up = time.monotonic() + start_s
    while time.monotonic() < give_up:
        line = proc.stderr.readline()
        if " on http://" in line:
            return line.rsplit(" on ", 1)[1].strip()
        if not line and proc.poll() is not None:
            break
    raise AssertionError("serve did not say its URL")


def serving(argv: Sequence[str], port: int, what: str, start_s: float = BOUND_S
            ) -> Iterator[str]:
    """Run ``argv`` (a server listening on ``port``), yield its MCP URL, then stop it.

    Fails the test, with the tail of the server's stderr, when it exits or does not
    listen within ``start_s`` seconds; the process never outlives the test.
    """
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + start_s
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                    pytest.fail(f"{what} did not start: {err[-2000:]}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

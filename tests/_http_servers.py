"""Start a real MCP server on a local HTTP port for an interop test, and always stop it."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator, Sequence

import pytest
from _waits import BOUND_S

__all__ = ["AUTO", "announced_url", "assert_probed_as_the_wire_answers", "free_port", "serving"]


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


#: The named auto-mode clients a saved peer of a Python mcp 1.x Streamable HTTP server (or a
#: bridge built on it) must predict as the real ones behave (issue 35).
AUTO = ("py-mcp@2.3", "ts-client@2.4:auto", "inspector@2.12:auto")


def assert_probed_as_the_wire_answers(url: str) -> None:
    """The default probe of a Python mcp 1.x Streamable HTTP server at ``url``: no timeout,
    no ``silent`` peer, the plain dual-era client falls back on the 400 to 2025-11-25, and the
    saved peer predicts :data:`AUTO` doing the same."""
    from mcp_skew.peers import resolve_peer
    from mcp_skew.probe import ProbeOptions, Target, probe
    from mcp_skew.simulator import run

    report = probe(Target(url=url), ProbeOptions(timeout_ms=5000, probe_timeout_ms=3000))
    clients = [r for r in report.runs if not r.prober]
    assert not any(r.outcome == "timeout" for r in clients), [
        (r.name, list(r.record.session.path)) for r in clients if r.outcome == "timeout"]
    assert report.peer.spec is not None and "silent" not in report.peer.spec.notation
    dual = next(r for r in clients if r.record.client.kind == "dual" and not r.record.client.quirks)
    assert (dual.record.status, dual.record.revision) == ("ok", "2025-11-25"), \
        list(dual.record.session.path)
    for name in AUTO:
        sim = run(resolve_peer(name, "client"), report.peer.spec, "handshake", transport="http")
        assert (sim.status, sim.revision) == ("ok", "2025-11-25"), (name, list(sim.session.path))

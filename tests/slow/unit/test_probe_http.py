"""The Streamable HTTP link (and the HTTP+SSE fallback) against simulated servers over real HTTP."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest
from servers.sim_http import SimHttpServer

from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator.machine import Closed, Reply
from mcp_skew.simulator.messages._wire import CAPS_KEY, VERSION_KEY
from mcp_skew.wire import HttpLink, TransportError

DUAL = "dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"


def negotiate(client: str, url: str) -> tuple[Any, HttpLink]:
    link = HttpLink(url)
    session = SimClient(parse_peer(client, "client"), request_timeout_ms=3000).negotiate(link)
    return session, link


def posts(srv: SimHttpServer) -> list[tuple[str, dict[str, str], Any]]:
    return [(path, headers, body) for method, path, headers, body in srv.seen if method == "POST"]


def modern(msg_id: int, method: str, version: str = "2026-07-28", **params: Any) -> dict[str, Any]:
    meta = {VERSION_KEY: version, CAPS_KEY: {}}
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {**params, "_meta": meta}}


def test_a_modern_request_carries_version_method_and_name_headers() -> None:
    with SimHttpServer(DUAL) as srv:
        link = HttpLink(srv.url)
        listed = link.request(modern(1, "tools/list"), 3000)
        called = link.request(modern(2, "tools/call", name="echo", arguments={"text": "hi"}), 3000)
        read = link.request(modern(3, "resources/read", uri="mem://héllo"), 3000)
        link.close()
    assert isinstance(listed, Reply) and listed.result is not None
    assert isinstance(called, Reply) and called.result is not None
    assert isinstance(read, Reply) and read.code == -32602  # not found, not a header mismatch
    headers = [h for _, h, _ in posts(srv)]
    assert headers[0]["mcp-protocol-version"] == "2026-07-28"
    assert headers[0]["mcp-method"] == "tools/list" and "mcp-name" not in headers[0]
    assert headers[1]["mcp-name"] == "echo"
    assert headers[2]["mcp-name"] == "=?base64?bWVtOi8vaMOpbGxv?="
    assert all("application/json" in h["accept"] and "text/event-stream" in h["accept"]
               for h in headers)


def test_a_legacy_session_keeps_its_id_and_sends_the_negotiated_version() -> None:
    with SimHttpServer("legacy:2025-06-18,2025-03-26") as srv:
        session, link = negotiate("legacy:2025-06-18", srv.url)
        link.request({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}, 3000)
        link.close()
    assert session.status == "ok"
    sent = posts(srv)
    assert "mcp-session-id" not in sent[0][1]  # initialize
    assert not srv.sessions  # DELETE on close ended the session
    later = [h for _, h, _ in sent[1:]]
    assert all(h.get("mcp-session-id") for h in later)
    assert all(h.get("mcp-protocol-version") == "2025-06-18" for h in later)
    assert [m for m, *_ in srv.seen][-1] == "DELETE"


def test_no_version_header_under_a_revision_that_has_none() -> None:
    with SimHttpServer("legacy:2025-03-26") as srv:
        session, link = negotiate("legacy:2025-03-26", srv.url)
        link.request({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}, 3000)
        link.close()
    assert session.status == "ok"
    assert all("mcp-protocol-version" not in h for _, h, _ in posts(srv))


def test_a_plain_400_is_read_as_a_legacy_refusal_and_the_dual_client_falls_back() -> None:
    with SimHttpServer("legacy:2025-11-25,2025-06-18") as srv:
        session, link = negotiate(DUAL, srv.url)
        link.close()
    assert (session.status, session.revision, session.mark) == ("ok", "2025-11-25", "era-fallback")
    probe_answer = link.transcript.entries[1].message
    assert probe_answer["error"]["code"] == -32600
    assert probe_answer["error"]["data"]["httpStatus"] == 400
    assert "synthesized" in probe_answer["error"]["data"]["mcpSkew"]


def test_a_400_with_a_modern_error_body_is_the_answer() -> None:
    with SimHttpServer(DUAL) as srv:
        link = HttpLink(srv.url)
        event = link.request(modern(1, "server/discover", version="1999-01-01"), 3000)
        link.close()
    assert isinstance(event, Reply) and event.code == -32022
    assert event.error is not None and event.error["data"]["supported"] == ["2026-07-28"]
    assert posts(srv)[0][1]["mcp-protocol-version"] == "1999-01-01"


def test_sse_response_bodies_are_read_up_to_the_answer() -> None:
    with SimHttpServer(DUAL, sse=True) as srv:
        session, link = negotiate(DUAL, srv.url)
        link.close()
    assert (session.status, session.revision) == ("ok", "2026-07-28")
    received = [e.message for e in link.transcript.entries if e.dir == "s2c"]
    assert received[0]["method"] == "notifications/message"  # before the response, kept
    assert "supportedVersions" in received[1]["result"]


def test_a_2024_11_05_client_speaks_http_sse() -> None:
    with SimHttpServer("legacy:2024-11-05", legacy_sse=True) as srv:
        session, link = negotiate("legacy:2024-11-05", srv.url)
        listed = link.request({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, 3000)
        link.close()
    assert (session.status, session.revision) == ("ok", "2024-11-05")
    assert isinstance(listed, Reply) and listed.result is not None
    # POST first (a server may speak 2024-11-05 over Streamable HTTP); the 405 sends it to GET
    assert [m for m, *_ in srv.seen[:2]] == ["POST", "GET"]
    assert all(path.startswith("/messages?session=") for path, _, _ in posts(srv)[1:])


def test_a_later_client_falls_back_to_http_sse_after_405() -> None:
    with SimHttpServer("legacy:2025-03-26,2024-11-05", legacy_sse=True) as srv:
        session, link = negotiate("legacy:2025-03-26", srv.url)
        link.close()
    assert (session.status, session.revision) == ("ok", "2025-03-26")
    methods = [(m, p.split("?")[0]) for m, p, _, _ in srv.seen]
    assert methods[:3] == [("POST", "/sse"), ("GET", "/sse"), ("POST", "/messages")]
    assert any("trying the HTTP+SSE transport" in n.text for n in link.transcript.notes)


def test_a_2024_11_05_client_fails_on_a_modern_server() -> None:
    """It POSTs first; the 400 carries a recognised modern error, so no HTTP+SSE GET."""
    with SimHttpServer("modern:2026-07-28") as srv:
        session, _ = negotiate("legacy:2024-11-05", srv.url)
    assert session.status == "failed"
    assert [m for m, *_ in srv.seen] == ["POST"]


def test_a_2024_11_05_client_speaks_2024_11_05_over_streamable_http() -> None:
    """POST first: a Streamable HTTP server that speaks protocol 2024-11-05 is found."""
    with SimHttpServer("legacy:2025-11-25,2024-11-05") as srv:
        session, _ = negotiate("legacy:2024-11-05", srv.url)
    assert (session.status, session.revision) == ("ok", "2024-11-05")
    assert "GET" not in {m for m, *_ in srv.seen}


def test_connection_refused_is_closed_and_a_bad_url_an_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    link = HttpLink(f"http://127.0.0.1:{port}/mcp")
    event = link.request(modern(1, "server/discover"), 2000)
    link.close()
    assert isinstance(event, Closed) and "HTTP request failed" in event.detail
    with pytest.raises(TransportError):
        HttpLink("ftp://example.com/mcp")


@pytest.mark.parametrize(("spec", "kw", "inferred"), [
    # a 2024-11-05 client POSTs first and finds 2024-11-05 spoken over Streamable HTTP
    (DUAL, {}, DUAL),
    ("legacy:2025-06-18,2025-03-26", {"sse": True}, "legacy:2025-06-18,2025-03-26+unknown-32602"),
    ("legacy:2024-11-05", {"legacy_sse": True}, "legacy:2024-11-05"),
])
def test_the_probe_over_http(spec: str, kw: dict[str, bool], inferred: str) -> None:
    with SimHttpServer(spec, **kw) as srv:
        report = probe(Target(url=srv.url), ProbeOptions(timeout_ms=3000))
    assert report.peer.spec is not None and report.peer.spec.notation == inferred
    clients = [r for r in report.runs if not r.prober]
    assert all(r.predicted and r.predicted["status"] == r.record.status for r in clients)
    if "unknown-32602" not in inferred:
        assert all(r.predicted and r.predicted["agrees"] for r in clients)
        return
    # a plain HTTP 400 before the session: simulated as -32602, which is not what the server
    # said, so each client whose first request was unknown to it gets both answers
    assert "HTTP 400 without a JSON-RPC body on unknown requests" in report.peer.sentence
    for r in clients:
        off = [f.message for f in r.record.findings if f.code == "simulation-disagrees"]
        first = r.record.transcript.entries[0].message
        unknown = isinstance(first, dict) and first.get("method") != "initialize"
        assert r.predicted is not None and r.predicted["agrees"] is not unknown, r.name
        assert bool(off) is unknown
        if off:
            assert "predicted error -32602; the real server answered" in off[0]
            assert "HTTP 400 without a JSON-RPC body (read as error -32600)" in off[0]


def test_the_probe_against_mcp_skew_serve_over_http() -> None:
    """Another implementation of the same server over HTTP: `mcp-skew serve --http`."""
    import re
    import subprocess
    import sys

    pytest.importorskip("mcp_skew.commands.serve", reason="mcp-skew serve is not available")
    spec = "dual:2026-07-28,2025-11-25,2025-06-18"
    proc = subprocess.Popen([sys.executable, "-m", "mcp_skew", "serve", "--http", "127.0.0.1:0",
                             spec], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"(http://\S+/mcp)", line)
        assert found, line
        report = probe(Target(url=found.group(1)), ProbeOptions(timeout_ms=3000))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert report.peer.spec is not None and report.peer.spec.notation == spec
    assert all(r.predicted and r.predicted["agrees"] for r in report.runs if not r.prober)


def test_an_http_sse_stream_cut_mid_chunk_ends_the_link_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server killed while its HTTP+SSE stream is open (chunked, a chunk announced and never
    sent): the stream's reader sees IncompleteRead, which ends the link like any closed stream."""
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]

        def serve() -> None:
            for _ in range(2):
                conn, _ = listener.accept()
                with conn:
                    head = conn.recv(65536)
                    if head.startswith(b"POST"):  # not Streamable HTTP: try the SSE stream
                        conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
                                     b"Connection: close\r\n\r\n")
                        continue
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                 b"Transfer-Encoding: chunked\r\n\r\n40\r\nevent: endp")

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        link = HttpLink(f"http://127.0.0.1:{port}/sse")
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2024-11-05", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}
        event = link.request(init, 3000)
        link.close()
        thread.join(timeout=5)
    assert not isinstance(event, Reply) or event.error is not None
    assert raised == []

"""HTTP+SSE, the transport of 2024-11-05, in the HTTP simulator (``--transport http``).

What the spec says, and what each test pins:

- 2024-11-05 ``basic/transports.mdx`` §HTTP with SSE: the server has an SSE
  endpoint and a POST endpoint; a client's GET opens the stream, whose first event
  is ``endpoint`` naming the POST URI; server messages come as SSE ``message``
  events. A 2024-11-05 client knows only this, so it GETs first.
- 2025-03-26..2025-11-25 ``basic/transports.mdx`` §Backwards Compatibility (and
  2026-07-28 ``basic/transports/streamable-http.mdx`` §HTTP+SSE Transport): a
  newer client POSTs ``initialize`` first; on 400/404/405 (without a recognised
  modern error, 2026-07-28) it GETs the URL and, when the ``endpoint`` event
  comes, uses HTTP+SSE from then on. A server supporting old clients hosts the
  old endpoints alongside the MCP endpoint: the simulated server with 2024-11-05
  and a later revision answers GET on the MCP endpoint with the old SSE stream
  (it has no standalone Streamable HTTP GET stream to give) and POSTs to ``/mcp``
  as Streamable HTTP.
- 2026-07-28 ``basic/versioning.mdx`` §Compatibility Matrix, row Legacy/Modern:
  "An HTTP+SSE client fails at its opening GET".
"""

from __future__ import annotations

import pytest

from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.simulator.http import HttpEndpoint, HttpRequest

M = "2026-07-28"
ALL_LEGACY = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"


def over_http(client: str, server: str, scenario: str = "handshake") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario,
               transport="http")


def methods(record: RunRecord) -> list[tuple[str, str]]:
    """(HTTP method, path) of each request the client made, GETs included, in order."""
    out: list[tuple[str, str]] = []
    for item in sorted([*record.transcript.entries, *record.transcript.notes],
                       key=lambda i: i.t_ms):
        http = item.http or item.get("http") or {}  # a message's, or an event's field
        if "method" in http and item.dir in ("c2s", "event"):
            out.append((http["method"], http["path"].split("?")[0]))
    return out


def test_a_2024_11_05_client_gets_the_stream_first_and_posts_where_it_says() -> None:
    record = over_http("legacy:2024-11-05", "legacy:2024-11-05", "lists")
    assert record.status == "ok" and record.revision == "2024-11-05"
    assert record.session.path == ["initialize 2024-11-05", "http+sse: endpoint /messages",
                                   "accepted 2024-11-05"]
    assert methods(record)[0] == ("GET", "/mcp")
    posts = [e for e in record.transcript.entries if e.dir == "c2s"]
    assert posts and all(e.http and e.http["path"].startswith("/messages?session_id=")
                         for e in posts)
    answers = [e for e in record.transcript.entries if e.dir == "s2c"]
    assert answers and all(e.http == {"sse_event": "message", "stream": "/mcp"} for e in answers)
    assert all(s.ok for s in record.steps)
    notes = [n.text for n in record.transcript.notes]
    assert any("event endpoint: /messages?session_id=mcp-skew-session-1" in t for t in notes)
    assert notes.count("HTTP 202 Accepted, no body") == 4  # initialize, initialized, 2 lists
    assert "client closes the HTTP+SSE stream (GET /mcp)" in notes


def test_answers_come_on_the_stream_after_the_202() -> None:
    record = over_http("legacy:2024-11-05", "legacy:2024-11-05")
    init = next(e for e in record.transcript.entries if e.dir == "c2s")
    answer = next(e for e in record.transcript.entries if e.dir == "s2c")
    accepted = next(n for n in record.transcript.notes if n.text.startswith("HTTP 202"))
    assert init.t_ms == 10 and accepted.t_ms == answer.t_ms == 20  # GET 0..10 ms, then POST


@pytest.mark.parametrize("server", [f"modern:{M}", "legacy:2025-11-25", f"dual:{M},2025-11-25"])
def test_a_2024_11_05_client_fails_at_its_get_on_a_streamable_http_server(server: str) -> None:
    """A Streamable HTTP server without 2024-11-05 has no GET stream: 405, and the client fails
    (versioning.mdx Compatibility Matrix: "An HTTP+SSE client fails at its opening GET")."""
    record = over_http("legacy:2024-11-05", server)
    assert record.status == "failed"
    assert record.session.path == ["initialize 2024-11-05",
                                   "http+sse: GET got HTTP 405, no SSE stream", "error -32601"]
    assert record.session.path[1].kind == "transport" and record.session.path[1].code == 405
    assert "HTTP 405 Method Not Allowed" in record.session.reason
    assert not [e for e in record.transcript.entries if e.dir == "c2s"]  # nothing POSTed


@pytest.mark.parametrize(("client", "revision"), [
    ("legacy:2025-03-26,2024-11-05", "2024-11-05"),
    (f"legacy:{ALL_LEGACY}", "2024-11-05"),
    (f"dual:{M},{ALL_LEGACY}", "2024-11-05"),
])
def test_a_newer_client_falls_back_to_http_sse_on_405(client: str, revision: str) -> None:
    record = over_http(client, "legacy:2024-11-05")
    assert (record.status, record.revision) == ("ok", revision)
    path = record.session.path
    at = path.index("http: HTTP 405 to initialize, try HTTP+SSE")
    assert path[at - 1].startswith("initialize ") and path[at + 1] == "http+sse: endpoint /messages"
    assert path[-2:] == ["counter-offer 2024-11-05", "accepted 2024-11-05"]
    # the same initialize (same id) is POSTed again on the stream's endpoint
    inits = [e for e in record.transcript.entries
             if e.dir == "c2s" and e.message.get("method") == "initialize"]
    assert [e.http["path"].split("?")[0] for e in inits if e.http] == ["/mcp", "/messages"]
    assert inits[0].message == inits[1].message


def test_a_client_without_2024_11_05_finds_the_stream_and_refuses_the_revision() -> None:
    record = over_http("legacy:2025-11-25", "legacy:2024-11-05")
    assert record.status == "failed"
    assert record.session.path[-3:] == ["http+sse: endpoint /messages",
                                        "counter-offer 2024-11-05", "disconnect"]


def test_no_fallback_on_a_recognised_modern_error() -> None:
    """A 400 with -32022 is a modern server's (2026-07-28 §HTTP+SSE Transport): no GET."""
    record = over_http("legacy:2025-11-25,2024-11-05", f"modern:{M}+legacy-32022")
    assert record.status == "failed"
    assert not any(s.kind == "transport" for s in record.session.path)
    assert ("GET", "/mcp") not in methods(record)


@pytest.mark.parametrize("server", [f"legacy:{ALL_LEGACY}", f"dual:{M},{ALL_LEGACY}"])
def test_a_server_with_2024_11_05_and_newer_serves_both(server: str) -> None:
    """Old clients GET the old stream; newer clients POST to the MCP endpoint as ever."""
    old = over_http("legacy:2024-11-05", server, "lists")
    new = over_http("legacy:2025-11-25", server, "lists")
    assert (old.status, old.revision, new.status, new.revision) == (
        "ok", "2024-11-05", "ok", "2025-11-25")
    assert "http+sse: endpoint /messages" in old.session.path
    assert not any(s.kind == "transport" for s in new.session.path)
    assert all(e.http and e.http["path"] == "/mcp" for e in new.transcript.entries
               if e.dir == "c2s")


def test_the_endpoint_itself() -> None:
    only = HttpEndpoint(parse_peer("legacy:2024-11-05", "server"))
    assert only.handle(HttpRequest("POST", "/mcp", {}, b"{}")).status == 405
    opened = only.handle(HttpRequest("GET", "/mcp", {"accept": "text/event-stream"}))
    assert (opened.status, opened.content_type) == (200, "text/event-stream")
    assert opened.encoded() == b"event: endpoint\ndata: /messages?session_id=mcp-skew-session-1\n\n"
    assert only.handle(HttpRequest("POST", "/messages?session_id=nope", {}, b"{}")).status == 404
    ping = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    got = only.handle(HttpRequest("POST", "/messages?session_id=mcp-skew-session-1", {}, ping))
    assert got.status == 202 and got.body is None
    assert only.take_events("mcp-skew-session-1") == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
    assert only.take_events("mcp-skew-session-1") == []
    only.close_stream("mcp-skew-session-1")
    assert only.handle(HttpRequest("POST", "/messages?session_id=mcp-skew-session-1", {},
                                   ping)).status == 404
    # http_sse=False closes the old endpoint: GET stays 405
    served = HttpEndpoint(parse_peer("legacy:2024-11-05", "server"), http_sse=False)
    assert served.handle(HttpRequest("GET", "/mcp", {})).status == 405


def test_a_silent_http_sse_server_times_out_and_a_dying_one_closes() -> None:
    silent = over_http(f"dual:{M},2024-11-05", "legacy:2024-11-05+silent")
    # the probe's POST got 405 (no body): no modern error, fall back; then the stream
    assert silent.status == "ok" and silent.revision == "2024-11-05"
    exiting = over_http("legacy:2024-11-05", "legacy:2024-11-05+silent-exit", "default")
    assert exiting.status == "ok"  # initialize is answered; the quirk bites on an unknown method


def test_stdio_is_untouched() -> None:
    record = run(parse_peer("legacy:2024-11-05", "client"), parse_peer(f"modern:{M}", "server"))
    assert not any(s.kind == "transport" for s in record.session.path)
    assert all(e.http is None for e in record.transcript.entries)


def test_http_sse_runs_are_deterministic() -> None:
    a = over_http(f"dual:{M},{ALL_LEGACY}", "legacy:2024-11-05", "default").to_document()
    b = over_http(f"dual:{M},{ALL_LEGACY}", "legacy:2024-11-05", "default").to_document()
    assert a == b

"""The probe over HTTP: the SSE priming event is no message, the dual-era clients read their
probe by the HTTP rule, and a URL where nothing listens is one line and exit 2."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from _serve_helpers import serve_in_thread

from mcp_skew.cli import main
from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.serve._http import ServedEndpoint, make_http_server, server_url
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator._transport import HTTP
from mcp_skew.wire import HttpLink

M = "2026-07-28"


@contextmanager
def serving(peer: str, *, sse: bool = False) -> Iterator[str]:
    endpoint = ServedEndpoint(parse_peer(peer, "server"), say=lambda t: None)
    endpoint.sse = sse  # answers as SSE streams, primed where the revision primes them
    server = make_http_server(endpoint, "127.0.0.1", 0)
    serve_in_thread(server, 0.05)
    try:
        yield server_url(server)
    finally:
        server.shutdown()
        server.server_close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_the_priming_event_is_no_message() -> None:
    with serving("legacy:2025-11-25", sse=True) as url:
        link = HttpLink(url)
        session = SimClient(parse_peer("legacy:2025-11-25", "client"),
                            request_timeout_ms=3000).negotiate(link)
        link.close()
    assert (session.status, session.revision) == ("ok", "2025-11-25")
    said = [e.message for e in link.transcript.entries if e.dir == "s2c"]
    assert said and all(isinstance(m, dict) for m in said)
    assert any(n.text.startswith("SSE priming event (id 1, empty data)")
               for n in link.transcript.notes)


def test_the_probe_reports_no_not_json_for_primed_streams() -> None:
    opts = ProbeOptions(timeout_ms=3000, probe_timeout_ms=1000, prober=False, jobs=2,
                        clients=(parse_peer("legacy:2025-11-25", "client"),
                                 parse_peer(f"dual:{M},2025-11-25", "client")))
    with serving("legacy:2025-11-25", sse=True) as url:
        report = probe(Target(url=url), opts)
    assert all(r.record.status == "ok" for r in report.runs)
    assert "not-json" not in {f.code for _, f in report.findings()}


def test_dual_era_clients_over_a_url_use_the_http_rule() -> None:
    """A held probe is an error over HTTP, not a legacy server (simulator/_transport.py)."""
    opts = ProbeOptions(timeout_ms=2000, probe_timeout_ms=300, prober=False,
                        clients=(parse_peer(f"dual:{M},2025-11-25", "client"),))
    with serving("legacy:2025-11-25+silent") as url:
        report = probe(Target(url=url), opts)
    run = report.runs[0]
    assert run.record.status == "failed"
    assert run.record.session.path == [f"discover {M}", "timeout after 300 ms",
                                       "http: a timeout is an error, not a legacy server"]
    assert HTTP.cite in run.record.session.reason


def test_the_http_rule_path_of_a_fallback_and_the_prediction_agrees() -> None:
    opts = ProbeOptions(timeout_ms=3000, probe_timeout_ms=1000, prober=False,
                        clients=(parse_peer(f"dual:{M},2025-11-25", "client"),
                                 parse_peer("legacy:2025-11-25", "client")))
    with serving("legacy:2025-11-25") as url:
        report = probe(Target(url=url), opts)
    dual = report.runs[0]
    assert dual.record.session.path == [
        f"discover {M}", "error -32601", "http: no modern error in the answer, fall back",
        "initialize 2025-11-25", "accepted 2025-11-25"]
    assert all(r.predicted and r.predicted["agrees"] for r in report.runs)
    # the prediction runs over HTTP too: its path names the rule
    assert dual.predicted is not None
    assert "http: no modern error in the answer, fall back" in dual.predicted["path"]


def test_probe_url_where_nothing_listens_is_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    assert main(["probe", "--quiet", "--client", "legacy:2025-11-25", "--url", url]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"mcp-skew: error: {url}: connection refused"]

"""Over Streamable HTTP too, every message a simulated peer sends validates against its
revision's official schema.

The HTTP link carries the same messages in POST bodies and JSON or SSE responses;
the checks are those of ``test_simulator_schema.py`` (which revision a message is
in, which definitions it must satisfy), run on the same pairs with
``transport="http"``, and on the SSE responses of the endpoint.
"""

from __future__ import annotations

import pytest
from test_simulator_schema import CONFORMING_QUIRKS, NONCONFORMING, QUIRK_FREE, problems

from mcp_skew.simulator import RunRecord, SimClient, parse_peer, run
from mcp_skew.simulator._scenario import SCENARIOS, play
from mcp_skew.simulator._transport import HTTP
from mcp_skew.simulator.http import HttpEndpoint, HttpMemoryLink


def over_http(client: str, server: str, scenario: str = "default") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario,
               transport="http")


@pytest.mark.parametrize(("client", "server"), QUIRK_FREE,
                         ids=[f"{c} x {s}" for c, s in QUIRK_FREE])
def test_every_message_of_a_quirk_free_http_run_validates(client: str, server: str) -> None:
    record = over_http(client, server)
    assert record.transport == "http"
    found = problems(record)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("client", "server"), CONFORMING_QUIRKS,
                         ids=[f"{c} x {s}" for c, s in CONFORMING_QUIRKS])
def test_every_message_of_an_http_run_with_conforming_quirks_validates(client: str,
                                                                       server: str) -> None:
    record = over_http(client, server)
    assert not {name for name, _ in record.server.quirks} & set(NONCONFORMING)
    found = problems(record)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("client", "server"), [
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25"),
    ("dual:2026-07-28,2025-11-25", "modern:2026-07-28"),
    ("legacy:2025-06-18", "dual:2026-07-28,2025-11-25,2025-06-18"),
])
def test_every_message_of_an_sse_answered_run_validates(client: str, server: str) -> None:
    link = HttpMemoryLink(HttpEndpoint(parse_peer(server, "server"), sse=True))
    sim = SimClient(parse_peer(client, "client"), transport=HTTP)
    session = sim.negotiate(link)
    assert session.status == "ok"
    record = RunRecord(sim.spec, link.endpoint.spec, "default", session, link.transcript,
                       transport="http")
    record.steps, record.findings, _ = play(SCENARIOS["default"], sim, link, session)
    assert all(step.ok for step in record.steps)
    assert any(r["dir"] == "s2c" and r["http"]["headers"]["Content-Type"] == "text/event-stream"
               for r in link.transcript.records())
    found = problems(record)
    assert not found, "\n".join(found)


#: HTTP+SSE runs (2024-11-05) and the HTTP quirks of real servers whose messages conform.
#: Not here: not-initialized-32000, whose refusal is the TypeScript SDK's error with
#: ``id: null`` (a transport-level answer that names no request), as the real server sends it
HTTP_SSE_AND_QUIRKS = [
    ("legacy:2024-11-05", "legacy:2024-11-05"),
    ("legacy:2025-11-25,2025-03-26,2024-11-05", "legacy:2024-11-05"),
    ("dual:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05", "legacy:2024-11-05"),
    ("legacy:2024-11-05", "dual:2026-07-28,2025-11-25,2024-11-05"),
    ("legacy:2024-11-05+post-first", "legacy:2025-11-25,2024-11-05+no-get"),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+empty-400"),
]


@pytest.mark.parametrize(("client", "server"), HTTP_SSE_AND_QUIRKS,
                         ids=[f"{c} x {s}" for c, s in HTTP_SSE_AND_QUIRKS])
def test_every_message_of_an_http_sse_or_http_quirk_run_validates(client: str,
                                                                  server: str) -> None:
    record = over_http(client, server)
    assert record.status == "ok"
    found = problems(record)
    assert not found, "\n".join(found)

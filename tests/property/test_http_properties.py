"""Properties of runs over Streamable HTTP, on random peers.

- every message crosses as an HTTP exchange (its record has ``http``);
- the transport changes an outcome only through a timeout, a dropped connection
  or a restart: a run whose stdio path has none of them negotiates the same
  revision, the same way, over HTTP, unless a peer has a quirk that acts over HTTP
  only (the only rule that differs is 2026-07-28
  ``basic/transports/streamable-http.mdx`` §Backward Compatibility: no answer is
  not a sign of a legacy server);
- over HTTP a dual-era client never falls back to ``initialize`` after a timeout,
  and every path step is typed (a ``rule`` step names its transport).
"""

from __future__ import annotations

import itertools

from _strategies import peers
from hypothesis import given, settings

from mcp_skew.simulator import PeerSpec, run
from mcp_skew.simulator.quirks import QUIRKS

UNANSWERED = frozenset({"timeout", "exited", "restart"})


@settings(max_examples=150, deadline=None)
@given(peers("client"), peers("server"))
def test_http_changes_an_outcome_only_where_an_answer_did_not_come(client: PeerSpec,
                                                                  server: PeerSpec) -> None:
    stdio = run(client, server)
    http = run(client, server, transport="http")
    assert http.transport == "http"
    records = http.transcript.records()
    assert all("http" in r for r in records if r["dir"] in ("c2s", "s2c"))
    # HTTP+SSE (2024-11-05): the transport itself answers (a GET that finds no stream, a POST
    # to an HTTP+SSE-only server gets 405 whatever the server's quirks): tests/unit/
    # test_http_sse_legacy.py pins those
    http_sse = any(step.kind == "transport" for step in http.session.path) or all(
        server.profile(r).settings.get("http_transport") == "http+sse" for r in server.revisions)
    # a quirk that acts over HTTP only (empty-400, not-initialized-32000, ...) is meant to
    # change what HTTP answers: tests/unit/test_http_quirks.py pins those
    http_only = any("stdio" not in QUIRKS[name].transports
                    for name, _ in (*client.quirks, *server.quirks))
    if not (http_sse or http_only) and not any(step.kind in UNANSWERED
                                               for step in stdio.session.path):
        assert (http.status, http.revision, http.mark) == (stdio.status, stdio.revision,
                                                           stdio.mark)
    path = http.session.path
    for before, after in itertools.pairwise(path):
        if before.kind == "timeout":
            assert after.kind != "request" or after.method != "initialize", path
    assert all(step.transport == "http" for step in path if step.kind == "rule")

"""``probe --url`` against a hostile server and authorization server
(``tests/_adversaries/http_server.py``): the user's ``--token`` and ``--header`` values reach
no other origin (an HTTP+SSE ``endpoint`` event elsewhere, ``file:`` or ``data:`` is refused,
a redirect elsewhere is not followed), a server or authorization server that drips its
answer a byte at a time ends the probe within bounds taken from ``--timeout``, and nested or
malformed authorization metadata is a line of the card, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _adversaries.http_server import hostile
from _waits import BOUND_S

pytestmark = pytest.mark.slow

SECRET = "s3cret-token"


def probe(url: str, *extra: str, client: str = "legacy:2024-11-05") -> tuple[int, str, str]:
    """One client's probe of ``url`` with a token and a header, as a user runs it; a run that
    does not end within the bound fails the test (a hang)."""
    cmd = [sys.executable, "-m", "mcp_skew", "probe", "--url", url, "--client", client,
           "--no-prober", "--token", SECRET, "--header", "X-Api-Key: hush", *extra]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=2 * BOUND_S,
                              check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"probe --url {url} {' '.join(extra)} still ran after {2 * BOUND_S:g} s")
    assert "Traceback" not in proc.stderr and "Exception in thread" not in proc.stderr, \
        proc.stderr[-3000:]
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("mode", ["sse-other-origin", "sse-scheme-relative", "sse-file",
                                  "sse-data"])
def test_an_endpoint_event_off_the_streams_origin_is_refused(mode: str) -> None:
    with hostile(mode) as h:
        code, out, _ = probe(h.url, "--timeout", "5")
        reached = list(h.elsewhere)
    assert reached == []  # no request at all, so no token and no header, went elsewhere
    assert code == 0
    assert "HTTP+SSE endpoint refused" in out, out[-3000:]


def test_a_redirect_elsewhere_carries_no_credentials() -> None:
    with hostile("redirect") as h:
        code, out, _ = probe(h.url, "--timeout", "5", client="legacy:2025-06-18")
        reached = list(h.elsewhere)
    assert reached == []
    assert code == 0 and "307" in out


def test_a_dripping_authorization_server_ends_with_the_timeout() -> None:
    # a byte every 0.2 s: far inside any per-read socket timeout, so only a deadline on the
    # whole exchange (and on the whole discovery) ends it; before, the probe never ended
    with hostile("drip-as", drip_s=0.2) as h:
        code, out, _ = probe(h.url, "--timeout", "1", "--format", "json",
                             client="legacy:2025-11-25")
    report = json.loads(out)
    assert code == 0 and report["auth"]["required"] is True
    paths = " ".join(e["path"] for e in report["auth"]["revisions"])
    assert "cut at 1 s (--timeout)" in paths, paths


def test_a_server_dripping_its_answers_ends_with_the_timeout() -> None:
    # initialize is answered; the notification after it (POSTed before anything else goes)
    # and every later request get an answer that never ends: each exchange is cut
    with hostile("drip-mcp", drip_s=0.2) as h:
        code, out, _ = probe(h.url, "--timeout", "1", "--format", "json",
                             client="legacy:2025-06-18")
    assert code == 0
    (client,) = json.loads(out)["clients"]
    assert client["path"] == ["initialize 2025-06-18", "accepted 2025-06-18"]
    assert client["reason"] == "connected, then list tools failed: timeout"
    notes = [e.get("text", "") for e in client["transcript"] if e.get("dir") == "event"]
    assert any("HTTP exchange cut at its deadline" in n for n in notes), notes


def test_deeply_nested_metadata_is_a_hop_of_the_path_not_a_traceback() -> None:
    with hostile("deep-metadata") as h:
        code, out, _ = probe(h.url, "--timeout", "5", client="legacy:2025-11-25")
    assert code == 0
    assert "the body is not JSON: nested deeper than 128 levels" in out, out[-3000:]


def test_malformed_metadata_urls_are_not_asked_and_say_why() -> None:
    with hostile("bad-url-metadata") as h:
        code, out, _ = probe(h.url, "--timeout", "5", client="legacy:2025-11-25")
        reached = list(h.elsewhere)
    assert code == 0 and reached == []
    assert "not asked: not a valid http(s) URL" in out, out[-3000:]
    assert "port '99999'" in out and "port 'port'" in out

"""``mcp-skew serve PEER --http``: statuses and headers, driven with urllib.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_serve_http.py``.
"""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import MODERN, C, V, initialize, modern, readline, serve_in_thread
from _waits import BOUND_S

from mcp_skew.serve._http import ServedEndpoint, decode_header_value, make_http_server, server_url
from mcp_skew.serve._log import LogWriter, read_log
from mcp_skew.simulator import parse_peer

TIMEOUT = BOUND_S


def modern_headers(message: dict[str, Any], **extra: str) -> dict[str, str]:
    headers = {"MCP-Protocol-Version": message["params"]["_meta"][V],
               "Mcp-Method": message["method"]}
    headers.update(extra)
    return headers


class Answer:
    def __init__(self, status: int, headers: Any, body: bytes) -> None:
        self.status, self.headers, self.raw = status, headers, body
        self.json = json.loads(body) if body else None

    @property
    def code(self) -> int | None:
        return self.json["error"]["code"] if self.json and "error" in self.json else None


def call(url: str, message: Any = None, headers: dict[str, str] | None = None, *,
         method: str = "POST", timeout: float = TIMEOUT) -> Answer:
    data = None if message is None else json.dumps(message).encode()
    head = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    head.update(headers or {})
    req = urllib.request.Request(url, data=data, headers=head, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return Answer(resp.status, resp.headers, resp.read())
    except urllib.error.HTTPError as err:
        return Answer(err.code, err.headers, err.read())


@contextmanager
def running(peer: str, log: LogWriter | None = None) -> Iterator[tuple[str, Any]]:
    endpoint = ServedEndpoint(parse_peer(peer, "server"), say=lambda t: None)
    server = make_http_server(endpoint, "127.0.0.1", 0, log=log)
    thread = serve_in_thread(server, 0.05)
    try:
        yield server_url(server), server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(TIMEOUT)


# -- the modern era --------------------------------------------------------------------------

def test_modern_discover_with_its_headers_is_200() -> None:
    with running("modern:2026-07-28") as (url, _):
        msg = modern(1, "server/discover")
        answer = call(url, msg, modern_headers(msg))
    assert answer.status == 200
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.json["result"]["supportedVersions"] == [MODERN]
    assert "Mcp-Session-Id" not in answer.headers  # a modern server never mints one


@pytest.mark.parametrize(("headers", "why"), [
    ({"Mcp-Method": "server/discover"}, "missing MCP-Protocol-Version"),
    ({"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "server/discover"}, "version"),
    ({"MCP-Protocol-Version": MODERN}, "missing Mcp-Method"),
    ({"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}, "method"),
])
def test_header_mismatch_is_400_and_32020(headers: dict[str, str], why: str) -> None:
    with running("dual:2026-07-28,2025-11-25") as (url, _):
        answer = call(url, modern(1, "server/discover"), headers)
    assert (answer.status, answer.code) == (400, -32020), why


def test_mcp_name_must_mirror_the_tool_name_base64_or_not() -> None:
    msg = modern(2, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
    with running("modern:2026-07-28") as (url, _):
        wrong = call(url, msg, modern_headers(msg, **{"Mcp-Name": "fail"}))
        plain = call(url, msg, modern_headers(msg, **{"Mcp-Name": "echo", "Mcp-Param-Text": "x"}))
        wrapped = "=?base64?" + base64.b64encode(b"echo").decode() + "?="
        encoded = call(url, msg, modern_headers(msg, **{"Mcp-Name": wrapped,
                                                         "Mcp-Param-Text": "x"}))
    assert (wrong.status, wrong.code) == (400, -32020)
    assert plain.status == encoded.status == 200
    assert decode_header_value(wrapped) == "echo"


def test_unsupported_version_is_400_and_32022_with_data() -> None:
    msg = modern(1, "tools/list", rev="2025-11-25")
    with running("modern:2026-07-28") as (url, _):
        answer = call(url, msg, modern_headers(msg))
    assert (answer.status, answer.code) == (400, -32022)
    assert answer.json["error"]["data"] == {"supported": [MODERN], "requested": "2025-11-25"}


def test_unknown_method_is_404_and_32601() -> None:
    with running("modern:2026-07-28") as (url, _):
        msg = modern(1, "prompts/list")  # no prompts capability
        undeclared = call(url, msg, modern_headers(msg))
        msg = modern(2, "ping")  # no ping in 2026-07-28
        unknown = call(url, msg, modern_headers(msg))
    assert (undeclared.status, undeclared.code) == (404, -32601)
    assert (unknown.status, unknown.code) == (404, -32601)


def test_missing_client_capabilities_is_400_and_32602() -> None:
    msg = modern(1, "tools/list")
    del msg["params"]["_meta"][C]
    with running("modern:2026-07-28") as (url, _):
        answer = call(url, msg, modern_headers(msg))
    assert (answer.status, answer.code) == (400, -32602)


def test_a_tool_error_and_an_unknown_tool_over_modern_http() -> None:
    with running("modern:2026-07-28") as (url, _):
        msg = modern(1, "tools/call", {"name": "fail", "arguments": {}})
        failed = call(url, msg, modern_headers(msg, **{"Mcp-Name": "fail"}))
        msg = modern(2, "tools/call", {"name": "nope", "arguments": {}})
        unknown = call(url, msg, modern_headers(msg, **{"Mcp-Name": "nope"}))
    assert failed.status == 200 and failed.json["result"]["isError"] is True
    assert (unknown.status, unknown.code) == (400, -32602)


def test_get_and_delete_on_a_modern_only_server_are_405() -> None:
    with running("modern:2026-07-28") as (url, _):
        assert call(url, method="GET").status == 405
        assert call(url, method="DELETE", headers={"Mcp-Session-Id": "x"}).status == 405


def test_modern_only_server_refuses_initialize_naming_its_versions() -> None:
    with running("modern:2026-07-28") as (url, _):
        init = call(url, initialize())
        bare = call(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert init.status == 400 and init.json["error"]["data"]["supported"] == [MODERN]
    assert (bare.status, bare.code) == (400, -32602)


# -- the legacy era --------------------------------------------------------------------------

def test_legacy_session_lifecycle() -> None:
    with running("legacy:2025-06-18") as (url, _):
        init = call(url, initialize())
        sid = init.headers["Mcp-Session-Id"]
        note = call(url, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"})
        tools = call(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                     {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"})
        missing = call(url, {"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                             "params": {"uri": "mem://missing"}}, {"Mcp-Session-Id": sid})
        bad_version = call(url, {"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
                           {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01"})
        stranger = call(url, {"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
                        {"Mcp-Session-Id": "no-such-session"})
        get = call(url, method="GET", headers={"Mcp-Session-Id": sid})
        ended = call(url, method="DELETE", headers={"Mcp-Session-Id": sid})
        after = call(url, {"jsonrpc": "2.0", "id": 6, "method": "tools/list"},
                     {"Mcp-Session-Id": sid})
    assert init.status == 200 and init.json["result"]["protocolVersion"] == "2025-06-18"
    assert note.status == 202 and note.raw == b""
    assert tools.status == 200 and tools.headers["Mcp-Session-Id"] == sid
    assert missing.status == 200 and missing.code == -32002  # a JSON-RPC answer, in session
    assert bad_version.status == 400
    assert stranger.status == 404
    assert get.status == 405
    assert ended.status == 200 and after.status == 404


def test_dual_era_client_probe_on_a_legacy_server_gets_400_with_a_legacy_error() -> None:
    msg = modern(1, "server/discover")
    with running("legacy:2025-11-25+unknown-32602") as (url, _):
        answer = call(url, msg, modern_headers(msg))
    assert (answer.status, answer.code) == (400, -32602)


def test_silent_server_holds_the_probe_until_the_client_gives_up() -> None:
    msg = modern(1, "server/discover")
    with running("legacy:2025-06-18+silent") as (url, _):
        with pytest.raises((TimeoutError, socket.timeout, urllib.error.URLError)):
            call(url, msg, modern_headers(msg), timeout=0.5)  # silent: no load makes it answer
        init = call(url, initialize())
    assert init.status == 200 and init.json["result"]["protocolVersion"] == "2025-06-18"


def test_silent_exit_server_stops_on_the_next_post(tmp_path: Path) -> None:
    log = LogWriter(tmp_path / "http.jsonl")
    msg = modern(1, "server/discover")
    with running("legacy:2025-06-18+silent-exit", log) as (url, server):
        with pytest.raises((TimeoutError, socket.timeout, urllib.error.URLError)):
            call(url, msg, modern_headers(msg), timeout=0.5)  # silent: no load makes it answer
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            call(url, initialize())  # closed unanswered, however long that takes
        assert server.stopping.wait(TIMEOUT)
        assert server.exit_code == 1
    log.close()
    entries, _ = read_log(tmp_path / "http.jsonl")
    assert [e.kind for e in entries if e.dir == "event"][-1] == "exit"


def test_origin_must_be_loopback() -> None:
    msg = modern(1, "server/discover")
    with running("modern:2026-07-28") as (url, _):
        evil = call(url, msg, modern_headers(msg, Origin="https://evil.example"))
        local = call(url, msg, modern_headers(msg, Origin="http://localhost:6274"))
    assert evil.status == 403 and local.status == 200


def test_parse_error_and_other_paths() -> None:
    with running("legacy:2025-06-18") as (url, _):
        req = urllib.request.Request(url, data=b"{not json", method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=TIMEOUT)
            status, body = 200, {}
        except urllib.error.HTTPError as err:
            status, body = err.code, json.loads(err.read())
        other = call(url.replace("/mcp", "/elsewhere"), initialize())
    assert status == 400 and body["error"]["code"] == -32700
    assert other.status == 404


def test_http_record_keeps_bodies_and_mcp_headers(tmp_path: Path) -> None:
    log = LogWriter(tmp_path / "http.jsonl")
    with running("dual:2026-07-28,2025-11-25", log) as (url, _):
        msg = modern(1, "server/discover")
        call(url, msg, modern_headers(msg))
    log.close()
    entries, _ = read_log(tmp_path / "http.jsonl")
    c2s = next(e for e in entries if e.dir == "c2s")
    s2c = next(e for e in entries if e.dir == "s2c")
    assert c2s.message == msg and (c2s.http or {})["headers"]["mcp-method"] == "server/discover"
    assert (s2c.http or {})["status"] == 200 and s2c.message["id"] == 1


def test_serve_http_refuses_a_remote_host_from_the_command_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "serve", "legacy:2025-06-18",
                           "--http", "0.0.0.0:0"], capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    assert proc.returncode == 2 and "--allow-remote" in proc.stderr


def test_serve_http_command_prints_its_url_and_answers() -> None:
    cmd = [sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-06-18", "--http",
           "127.0.0.1:0"]
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stderr
            line = readline(proc.stderr, TIMEOUT)
            url = line.split(" on ")[-1].strip()
            assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
            assert call(url, initialize()).json["result"]["protocolVersion"] == "2025-06-18"
        finally:
            proc.terminate()
            proc.wait(TIMEOUT)


def test_subscriptions_listen_opens_an_event_stream_with_its_acknowledgement() -> None:
    """2026-07-28 basic/patterns/subscriptions.mdx: the first message of a listen stream is
    notifications/subscriptions/acknowledged, with the subset of the filter the server honours
    (the simulated server has tools, no prompts) and the stream's subscriptionId."""
    with running("modern:2026-07-28") as (url, _):
        msg = modern(7, "subscriptions/listen",
                     {"notifications": {"toolsListChanged": True, "promptsListChanged": True}})
        head = modern_headers(msg)
        data = json.dumps(msg).encode()
        req = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            **head})
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            status, kind, body = resp.status, resp.headers["Content-Type"], resp.read().decode()
    assert status == 200 and kind.startswith("text/event-stream")
    ack_line, closing_line = [line for line in body.splitlines() if line.startswith("data:")]
    event = json.loads(ack_line.removeprefix("data:"))
    assert event["method"] == "notifications/subscriptions/acknowledged"
    assert event["params"]["notifications"] == {"toolsListChanged": True}
    assert event["params"]["_meta"] == {"io.modelcontextprotocol/subscriptionId": 7}
    # the stateless server ends the stream with the response, and says so (schema
    # SubscriptionsListenResult: sent when the server tears the subscription down)
    closing = json.loads(closing_line.removeprefix("data:"))
    assert closing["id"] == 7 and closing["result"]["resultType"] == "complete"
    assert closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 7


def test_subscriptions_listen_without_a_filter_is_invalid_params() -> None:
    with running("modern:2026-07-28") as (url, _):
        msg = modern(8, "subscriptions/listen")
        answer = call(url, msg, modern_headers(msg))
    assert answer.status == 400 and answer.code == -32602

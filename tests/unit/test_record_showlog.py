"""``mcp-skew show-log``: a wire log read as a person reads it, with the negotiation explained."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import C, V

from mcp_skew.serve import LogEntry
from mcp_skew.serve._annotate import annotate
from mcp_skew.serve._log import NO_MESSAGE, read_log
from mcp_skew.serve._show import render_log
from mcp_skew.simulator import parse_peer, run
from mcp_skew.simulator._path import PathStep
from mcp_skew.transcript import Entry
from mcp_skew.versions import REGISTRY


class Log:
    """A log built by hand, entry by entry."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def _add(self, ms: float, direction: str, message: Any = NO_MESSAGE, line: str | None = None,
             **fields: Any) -> Log:
        text = line if line is not None else json.dumps(message)
        http = fields.pop("http", None)
        self.entries.append(LogEntry(t_ms=ms, dir=direction,  # type: ignore[arg-type]
                                     index=len(self.entries), line=text, message=message,
                                     http=http, fields=tuple(fields.items())))
        return self

    def c2s(self, ms: float, message: Any) -> Log:
        return self._add(ms, "c2s", message)

    def s2c(self, ms: float, message: Any) -> Log:
        return self._add(ms, "s2c", message)

    def raw(self, ms: float, direction: str, line: str) -> Log:
        return self._add(ms, direction, NO_MESSAGE, line)

    def event(self, ms: float, event: str, text: str = "", **fields: Any) -> Log:
        self.entries.append(LogEntry(t_ms=ms, dir="event", index=len(self.entries), kind=event,
                                     text=text, fields=tuple(fields.items())))
        return self


def discover(msg_id: int, rev: str = "2026-07-28") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "server/discover",
            "params": {"_meta": {V: rev, C: {}}}}


def initialize(msg_id: int, rev: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"protocolVersion": rev, "capabilities": {},
                       "clientInfo": {"name": "client", "version": "9"}}}


def init_result(msg_id: int, rev: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id,
            "result": {"protocolVersion": rev, "capabilities": {"tools": {}},
                       "serverInfo": {"name": "server", "version": "1"}}}


def error(msg_id: Any, code: int, data: Any = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": f"error {code}"}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": err}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def codes(log: Log) -> list[str]:
    return [f.code for f in annotate(log.entries, REGISTRY).findings]


# -- the path, in the simulator's words -------------------------------------------------------

def from_simulator(client: str, server: str) -> tuple[list[LogEntry], list[PathStep]]:
    """A simulated run's transcript as a wire log, and the simulator's own path."""
    record = run(parse_peer(client, "client"), parse_peer(server, "server"), "handshake")
    log = Log()
    for item in record.transcript.timeline():
        if isinstance(item, Entry):
            log._add(item.t_ms, item.dir, item.message)
        elif "exited" in item.text:
            log.event(item.t_ms, "exit", item.text, side="server", code=1)
        elif "restarts the server" in item.text:
            log.event(item.t_ms, "start", item.text)
        elif "closes the connection" in item.text:
            log.event(item.t_ms, "client-eof", item.text)
    return log.entries, record.session.path


PAIRS = [
    ("dual:2026-07-28,2025-11-25", "legacy:2025-06-18"),
    ("dual:2026-07-28,2025-11-25,2025-06-18", "legacy:2025-06-18+silent"),
    ("dual:2026-07-28,2025-11-25+probe-timeout=10000", "legacy:2025-11-25+unknown-32602"),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-06-18+silent-exit"),
    ("dual:2026-07-28,2025-11-25", "modern:2026-07-28"),
    ("dual:2026-07-28,2025-11-25", "dual:2026-07-28,2025-11-25+sticky-era"),
    ("legacy:2025-11-25,2025-06-18", "legacy:2025-06-18"),
    ("legacy:2025-11-25", "legacy:2025-06-18"),
    ("legacy:2025-11-25", "modern:2026-07-28"),
    ("legacy:2025-11-25", "legacy:2025-03-26+reject"),
    ("modern:2026-07-28+discover", "modern:2026-07-28"),
    ("modern:2026-07-28+discover", "legacy:2025-11-25"),
    ("dual:2026-07-28,2025-11-25+probe-timeout=2000",
     "dual:2026-07-28,2025-11-25+slow=3000+sticky-era"),
    ("dual:2026-07-28,2025-11-25+restart", "legacy:2025-06-18+silent-exit"),
]


@pytest.mark.parametrize(("client", "server"), PAIRS, ids=[f"{c} x {s}" for c, s in PAIRS])
def test_the_path_of_a_simulated_transcript_is_the_simulators_path(client: str,
                                                                   server: str) -> None:
    entries, expected = from_simulator(client, server)
    annotation = annotate(entries, REGISTRY)
    assert annotation.path == expected
    # the same typed steps, not only the same words
    typed = [(s.kind, s.revision, s.method, s.code, s.ms) for s in annotation.path]
    assert typed == [(s.kind, s.revision, s.method, s.code, s.ms) for s in expected]


def test_a_re_probe_is_marked_as_the_simulator_marks_it() -> None:
    client = "dual:2026-07-28,2025-11-25+probe-timeout=2000"
    server = "dual:2026-07-28,2025-11-25+slow=3000+sticky-era"
    entries, path = from_simulator(client, server)
    assert "re-probe" in path
    record = run(parse_peer(client, "client"), parse_peer(server, "server"), "handshake")
    a = annotate(entries, REGISTRY)
    assert (a.status, a.mark) == (record.status, record.mark) == ("ok", "re-probe")


def test_silent_legacy_server_fallback_is_explained() -> None:
    log = (Log().event(0, "start", "started server")
           .c2s(5, discover(0)).c2s(10005, initialize(1, "2025-11-25"))
           .s2c(10009, init_result(1, "2025-06-18")).c2s(10010, INITIALIZED))
    a = annotate(log.entries, REGISTRY)
    assert " -> ".join(a.path) == ("discover 2026-07-28 -> timeout after 10000 ms -> "
                                   "initialize 2025-11-25 -> counter-offer 2025-06-18 -> "
                                   "accepted 2025-06-18")
    assert (a.status, a.revision, a.mark) == ("ok", "2025-06-18", "era-fallback")
    assert a.client.spoke == ["2026-07-28 (modern)", "2025-11-25 (legacy)"]
    assert a.client.info == "client 9" and a.server.info == "server 1"
    assert [f.code for f in a.findings] == ["silent-on-unknown"]
    notes = a.notes[2]
    assert any("no answer to id 0 (server/discover) after 10000 ms" in n for n in notes)


def test_a_client_that_gives_up_and_a_restart() -> None:
    gave_up = (Log().c2s(0, initialize(1, "2025-11-25")).event(5000, "eof", side="c2s")
               .event(5001, "signal", signal="SIGTERM")
               .event(5002, "exit", "server killed by signal SIGTERM", signal="SIGTERM"))
    a = annotate(gave_up.entries, REGISTRY)
    assert a.path == ["initialize 2025-11-25", "timeout after 5000 ms"]
    assert a.status == "failed" and a.findings == []  # not a crash: the client ended it
    restarted = (Log().event(0, "start").c2s(1, discover(0))
                 .event(3001, "start", "started again").c2s(3100, initialize(1, "2025-11-25"))
                 .s2c(3200, init_result(1, "2025-11-25")))
    assert annotate(restarted.entries, REGISTRY).path == [
        "discover 2026-07-28", "timeout after 3000 ms", "restart", "initialize 2025-11-25",
        "accepted 2025-11-25"]


def test_retry_after_32022_and_a_late_answer() -> None:
    log = (Log().c2s(0, discover(1, "2027-01-01"))
           .s2c(3, error(1, -32022, {"supported": ["2026-07-28"], "requested": "2027-01-01"}))
           .c2s(4, discover(2)).s2c(6, {"jsonrpc": "2.0", "id": 2, "result": {
               "supportedVersions": ["2026-07-28"], "capabilities": {}, "resultType": "complete",
               "ttlMs": 0, "cacheScope": "public"}}))
    a = annotate(log.entries, REGISTRY)
    assert a.path == ["discover 2027-01-01", "error -32022", "retry 2026-07-28",
                      "discover 2026-07-28", "accepted 2026-07-28"]
    assert a.mark == "retry-32022" and a.findings == []


def test_modern_results_are_checked_against_their_revision() -> None:
    log = (Log().c2s(0, discover(1)).s2c(1, {"jsonrpc": "2.0", "id": 1, "result": {
        "supportedVersions": ["2026-07-28"], "capabilities": {}}}))
    assert codes(log) == ["missing-result-type", "missing-cache-hints"]


def test_counter_offer_of_a_modern_revision_then_a_disconnect() -> None:
    log = (Log().c2s(0, initialize(1, "2025-11-25")).s2c(1, init_result(1, "2026-07-28"))
           .event(2, "eof", "client closed", side="c2s"))
    a = annotate(log.entries, REGISTRY)
    assert a.path[-2:] == ["counter-offer 2026-07-28", "disconnect"]
    assert a.status == "failed"
    assert [(f.code, f.severity) for f in a.findings] == [("counter-offer-unsupported", "error")]


def test_counter_offer_the_client_leaves() -> None:
    log = (Log().c2s(0, initialize(1, "2025-11-25")).s2c(1, init_result(1, "2024-11-05"))
           .event(2, "client-eof", "client closed"))
    a = annotate(log.entries, REGISTRY)
    assert a.path[-1] == "disconnect"
    assert [(f.code, f.severity) for f in a.findings] == [("counter-offer-unsupported",
                                                           "warning")]


def test_asking_again_with_the_counter_offer() -> None:
    log = (Log().c2s(0, initialize(1, "2025-11-25")).s2c(1, init_result(1, "2025-06-18"))
           .c2s(2, initialize(2, "2025-06-18")).s2c(3, init_result(2, "2025-06-18"))
           .c2s(4, INITIALIZED).c2s(5, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
    a = annotate(log.entries, REGISTRY)
    assert a.path == ["initialize 2025-11-25", "counter-offer 2025-06-18",
                      "initialize 2025-06-18", "accepted 2025-06-18"]
    assert (a.revision, a.mark) == ("2025-06-18", "downgraded")


def test_echo_and_reject_quirks_are_findings() -> None:
    echo = Log().c2s(0, initialize(1, "2031-01-01")).s2c(1, init_result(1, "2031-01-01"))
    assert codes(echo) == ["echoes-any-revision"]
    reject = (Log().c2s(0, initialize(1, "2025-11-25"))
              .s2c(1, error(1, -32602, {"supported": ["2025-03-26"], "requested": "2025-11-25"})))
    a = annotate(reject.entries, REGISTRY)
    assert [f.code for f in a.findings] == ["rejects-instead-of-counter-offer"]
    assert a.status == "failed" and a.path == ["initialize 2025-11-25", "error -32602"]


def test_modern_only_refusing_initialize_is_no_finding() -> None:
    log = (Log().c2s(0, initialize(1, "2025-11-25"))
           .s2c(1, error(1, -32601, {"supported": ["2026-07-28"]})))
    a = annotate(log.entries, REGISTRY)
    assert a.findings == [] and a.server.spoke == ["modern only (2026-07-28)"]


def test_resource_not_found_codes_per_revision() -> None:
    read = {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
            "params": {"uri": "mem://x", "_meta": {V: "2026-07-28", C: {}}}}
    modern = Log().c2s(0, read).s2c(1, error(2, -32002))
    assert [(f.code, f.severity) for f in annotate(modern.entries, REGISTRY).findings] == \
        [("resource-not-found-code", "error")]
    legacy = (Log().c2s(0, initialize(1, "2025-06-18")).s2c(1, init_result(1, "2025-06-18"))
              .c2s(2, INITIALIZED)
              .c2s(3, {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
                       "params": {"uri": "mem://x"}})
              .s2c(4, error(2, -32602)))
    assert [(f.code, f.severity) for f in annotate(legacy.entries, REGISTRY).findings] == \
        [("resource-not-found-code", "warning")]


def test_tool_input_error_as_protocol_error_on_2025_11_25() -> None:
    log = (Log().c2s(0, initialize(1, "2025-11-25")).s2c(1, init_result(1, "2025-11-25"))
           .c2s(2, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
           .s2c(3, {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "echo"}]}})
           .c2s(4, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": 5}}})
           .s2c(5, error(3, -32602)))
    assert codes(log) == ["tool-input-error-as-protocol-error"]


def test_crash_not_json_missing_meta_and_stray_answers() -> None:
    bad_meta = {"jsonrpc": "2.0", "id": 0, "method": "server/discover",
                "params": {"_meta": {V: "2026-07-28"}}}
    log = (Log().c2s(0, bad_meta).raw(1, "s2c", "Starting server...")
           .c2s(3000, initialize(1, "2025-11-25"))
           .s2c(3001, error(7, -32603))
           .event(3002, "exit", "server exited with code 1", side="server", code=1))
    a = annotate(log.entries, REGISTRY)
    assert sorted(f.code for f in a.findings) == ["crash-on-unknown", "not-json",
                                                  "schema-violation", "silent-on-unknown",
                                                  "unexpected-answer"]
    assert a.path[-1] == "server exited" and a.status == "failed"


def test_a_clean_exit_is_no_crash() -> None:
    log = (Log().c2s(0, discover(0)).c2s(5, initialize(1, "2025-11-25"))
           .s2c(6, init_result(1, "2025-11-25")).c2s(7, INITIALIZED)
           .event(8, "client-eof").event(9, "exit", "server exited with code 0", code=0))
    assert codes(log) == ["silent-on-unknown"]


# -- reading and printing ---------------------------------------------------------------------

def test_render_reads_like_a_wire_log() -> None:
    log = (Log().event(0, "start", "started python server.py (pid 7)")
           .c2s(1, initialize(1, "2025-11-25")).s2c(2, init_result(1, "2025-11-25"))
           .raw(3, "stderr", "INFO ready"))
    text = render_log(annotate(log.entries, REGISTRY), width=60)
    lines = text.splitlines()
    assert lines[0] == "0.000  ..  started python server.py (pid 7)"
    assert lines[1].startswith("0.001  ->  {") and "(+" in lines[1]  # clipped
    assert "# client offers 2025-11-25 (legacy handshake: initialize)" in text
    assert "0.003  2>  INFO ready" in text
    assert "  path: initialize 2025-11-25 -> accepted 2025-11-25" in text
    assert "  negotiated: 2025-11-25 (legacy, direct)" in text
    assert "  findings: none" in text


def test_read_log_formats_and_a_cut_last_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    good = json.dumps({"t": "2026-08-30T10:00:00Z", "dir": "c2s", "line": "{}"})
    path.write_text(good + "\n" + good[:20])
    entries, warnings = read_log(path)
    assert len(entries) == 1 and "cut short" in warnings[0]
    probe = tmp_path / "probe.jsonl"  # the probe's recorder: t_ms, dir, message / event
    probe.write_text(json.dumps({"t_ms": 4, "dir": "c2s", "message": discover(0)}) + "\n"
                     + json.dumps({"t_ms": 9, "event": "no answer"}) + "\n")
    entries, _ = read_log(probe)
    assert entries[0].t_ms == 4 and entries[0].message == discover(0)
    assert entries[1].dir == "event" and (entries[1].kind, entries[1].text) == ("note",
                                                                               "no answer")

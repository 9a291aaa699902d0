"""The stdio link against real processes: well-behaved, hanging, dying, junk-printing, flooding.

Nothing may hang and nothing may be lost: every wait is bounded, the transcript
keeps what came before the failure, and stderr is kept beside it.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from _paths import SERVERS
from _waits import BOUND_S, until

from mcp_skew.probe import ProbeOptions, Target, probe
from mcp_skew.simulator import SimClient, parse_peer
from mcp_skew.simulator.machine import Closed, Reply, Timeout
from mcp_skew.wire import JsonlRecorder, Limits, StdioLink, TransportError

PY = sys.executable


def server(name: str, *args: str) -> list[str]:
    return [PY, str(SERVERS / name), *args]


def initialize(msg_id: int = 1, revision: str = "2025-06-18") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"protocolVersion": revision, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "0"}}}


# -- the link itself ----------------------------------------------------------------------------


def test_a_simulated_server_over_real_stdio_negotiates_and_closes_cleanly() -> None:
    link = StdioLink(server("sim_stdio_server.py", "legacy:2025-06-18,2025-03-26"))
    session = SimClient(parse_peer("legacy:2025-06-18", "client")).negotiate(link)
    link.close()
    assert (session.status, session.revision) == ("ok", "2025-06-18")
    dirs = [e.dir for e in link.transcript.entries]
    assert dirs == ["c2s", "s2c", "c2s"]  # initialize, result, notifications/initialized
    times = [e.t_ms for e in link.transcript.entries]
    assert times == sorted(times)
    assert link.returncode == 0
    assert any("exited after stdin closed" in n.text for n in link.transcript.notes)


def test_the_command_is_not_run_through_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    link = StdioLink([PY, "-c", "import json, sys; print(json.dumps(sys.argv[1:]))",
                      f"; touch {marker}"])
    # the child prints its words and exits: the request ends on that (the bound: a busy start)
    assert isinstance(link.request(initialize(), int(BOUND_S * 1000)), Closed)
    link.close()
    assert not marker.exists()
    # what it printed may be read before or after the request was written: not in order
    printed = [e.message for e in link.transcript.entries if e.dir == "s2c"]
    assert printed == [[f"; touch {marker}"]]


def test_a_missing_command_is_a_transport_error() -> None:
    with pytest.raises(TransportError, match="cannot start"):
        StdioLink(["/nonexistent/mcp-server-binary"])


def test_a_hanging_server_times_out_and_is_killed_within_bounds() -> None:
    started = time.monotonic()
    link = StdioLink(server("hang_server.py", "--ignore-term"), close_grace_ms=50)
    event = link.request(initialize(), 300)
    link.close()
    assert isinstance(event, Timeout)
    assert time.monotonic() - started < BOUND_S  # the server sleeps an hour
    notes = [n.text for n in link.transcript.notes]
    assert "no answer to id 1 within 300 ms" in notes
    assert any("killed (SIGKILL)" in n for n in notes)


def test_the_overall_deadline_stops_sending() -> None:
    link = StdioLink(server("hang_server.py"), deadline_ms=400, close_grace_ms=100)
    first = link.request(initialize(1), 10_000)
    second = link.request(initialize(2), 10_000)
    link.close()
    assert isinstance(first, Timeout) and isinstance(second, Timeout)
    assert link.deadline_hit
    assert [e.message["id"] for e in link.transcript.entries] == [1]  # the second never left
    assert any("overall deadline" in n.text for n in link.transcript.notes)


def test_a_server_that_exits_on_its_first_line_is_closed_with_its_stderr() -> None:
    link = StdioLink(server("exit_first_line.py"))
    event = link.request(initialize(), 5000)
    again = link.request(initialize(2), 5000)
    link.close()
    assert isinstance(event, Closed) and "code 3" in event.detail
    assert isinstance(again, Closed)
    assert "fatal: cannot handle" in link.stderr_tail
    assert link.returncode == 3
    assert link.transcript.entries[0].message["method"] == "initialize"


def test_junk_on_stdout_is_recorded_raw_line_by_line() -> None:
    link = StdioLink(server("junk_server.py"))
    event = link.request(initialize(), 400)  # never answered: a timeout, whatever the pace
    until(lambda: sum(e.dir == "s2c" for e in link.transcript.entries) >= 3,
          "the banner and the two lines for the request")
    link.close()
    assert isinstance(event, Timeout)
    said = [e.message for e in link.transcript.entries if e.dir == "s2c"]
    assert said[0] == "Junk server v0.1 starting up..."
    assert said[1].startswith("ERROR: did not understand") and said[2] == "{not json either"
    assert said[-1] == "bye (no newline)"  # the last line had no newline: kept at end of stream


@pytest.mark.parametrize(("mode", "limits"), [
    ("lines", Limits(messages=3000, recorded=50)),
    ("giant", Limits(output_bytes=2 << 20, line_bytes=64 << 10)),
])
def test_a_flood_is_cut_off_and_the_server_killed(mode: str, limits: Limits) -> None:
    started = time.monotonic()
    link = StdioLink(server("flood_server.py", mode), limits=limits)
    event = link.request(initialize(), 10_000)
    link.close()
    assert time.monotonic() - started < BOUND_S  # the server floods for ever
    assert isinstance(event, Closed) and "flooded" in event.detail
    assert link.flooded
    received = [e for e in link.transcript.entries if e.dir == "s2c"]
    if mode == "lines":
        assert len(received) == 50
        assert any("later ones are counted, not recorded" in n.text for n in link.transcript.notes)
    else:
        assert len(received) == 1 and "over the 65536-byte cap" in received[0].message


def test_a_stderr_flood_is_drained_into_a_bounded_tail() -> None:
    link = StdioLink(server("flood_server.py", "stderr"), limits=Limits(stderr_bytes=4096),
                     close_grace_ms=100)
    event = link.request(initialize(), 500)  # never answered: a timeout, whatever the pace
    until(lambda: link.stderr_bytes > 100_000, "the flood to pass 100 kB")
    link.close()
    assert isinstance(event, Timeout)
    assert len(link.stderr_tail) <= 4096 and "log line" in link.stderr_tail


def test_restart_starts_a_fresh_process() -> None:
    link = StdioLink(server("sim_stdio_server.py", "legacy:2025-06-18+silent-exit"))
    assert isinstance(link.request({"jsonrpc": "2.0", "id": 1, "method": "foo/bar"}, 400),
                      Timeout)
    assert isinstance(link.request(initialize(2), 3000), Closed)  # silent, then exits
    assert link.restart()
    assert isinstance(link.request(initialize(3), 5000), Reply)
    link.close()
    started = [n.text for n in link.transcript.notes if n.text.startswith("started pid")]
    assert len(started) == 2 and started[0] != started[1]


def test_server_requests_get_an_answer_from_the_link() -> None:
    code = ("import json,sys\n"
            "sys.stdin.readline()\n"
            "for m in ({'jsonrpc':'2.0','id':'s1','method':'ping'},"
            "{'jsonrpc':'2.0','id':'s2','method':'roots/list'},"
            "{'jsonrpc':'2.0','id':1,'result':{}}):\n"
            "    print(json.dumps(m), flush=True)\n"
            "for _ in range(2): print(sys.stdin.readline().strip(), file=sys.stderr, flush=True)\n")
    link = StdioLink([PY, "-c", code])
    event = link.request(initialize(), 5000)
    until(lambda: '"id":"s2"' in link.stderr_tail, "the server to print both answers it got")
    link.close()
    assert isinstance(event, Reply)
    answers = [e.message for e in link.transcript.entries if e.dir == "c2s"][1:]
    assert answers == [{"jsonrpc": "2.0", "id": "s1", "result": {}},
                       {"jsonrpc": "2.0", "id": "s2", "error": {"code": -32601, "message": (
                           "Method not found: the mcp-skew probe client does not serve "
                           "roots/list")}}]
    assert '"id":"s1"' in link.stderr_tail


def test_the_recorder_writes_each_line_as_it_happens(tmp_path: Path) -> None:
    recorder = JsonlRecorder(tmp_path / "run.jsonl", tmp_path / "run.stderr.log")
    link = StdioLink(server("exit_first_line.py"), recorder=recorder)
    link.request(initialize(), 5000)
    until(lambda: len((tmp_path / "run.jsonl").read_text().splitlines()) >= 3, "three records")
    lines = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]
    assert lines[0]["format"] == "mcp-skew-transcript"  # the header, then each record
    assert lines[1]["event"] == "start" and lines[1]["text"].startswith("started pid")  # on disk
    assert lines[2]["dir"] == "c2s" and lines[2]["message"]["method"] == "initialize"
    link.close()
    recorder.close()
    assert "fatal: cannot handle" in (tmp_path / "run.stderr.log").read_text()


# -- the probe against bad servers: a classified outcome, within bounds, with transcripts ------

FAST = ProbeOptions(timeout_ms=250, probe_timeout_ms=250, client_timeout_ms=3000,
                    startup_timeout_ms=1000,
                    close_grace_ms=50, limits=Limits(messages=1000),
                    clients=(parse_peer("legacy:2025-06-18", "client"),
                             parse_peer("dual:2026-07-28,2025-06-18", "client")))


@pytest.mark.parametrize(("name", "args", "outcome", "code"), [
    ("hang_server.py", (), "timeout", None),
    ("exit_first_line.py", (), "exited", None),
    ("junk_server.py", (), "junk", "not-json"),
    ("flood_server.py", ("lines",), "flood", "output-flood"),
])
def test_bad_servers_get_a_classified_outcome(name: str, args: tuple[str, ...], outcome: str,
                                              code: str | None) -> None:
    started = time.monotonic()
    report = probe(Target(command=tuple(server(name, *args))), FAST)
    elapsed = time.monotonic() - started
    assert elapsed < BOUND_S, elapsed  # the servers hang, flood or say junk for ever
    clients = [r for r in report.runs if not r.prober]
    assert {r.outcome for r in clients} == {outcome}
    assert all(r.record.status == "failed" for r in report.runs)
    assert all(r.record.transcript.entries for r in report.runs)
    assert report.peer.spec is None
    if code is not None:
        assert code in {f.code for _, f in report.findings()}
    data = report.to_dict()
    assert all(c["transcript"] for c in data["clients"])

"""A wire log of several server processes (a client that starts its server twice, as the
TypeScript v2 client does: the server/discover probe in a throwaway process, the session in a
fresh one, both ``mcp-skew serve --record`` appending to one file): ``show-log`` shows each
process as a session of its own, timed from its own start, and ``replay`` replays each on a
fresh server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp_skew.serve._log import read_log, split_processes
from mcp_skew.serve._replay import replay_processes, replay_simulated
from mcp_skew.simulator import parse_peer

M = "2026-07-28"
DUAL_STICKY = f"dual:{M},2025-11-25+sticky-era"


def meta() -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": M,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"}}


DISCOVER = {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta()}}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def serve_into(log: Path, spec: str, *messages: dict[str, Any]) -> None:
    """One ``mcp-skew serve --record`` process, appending to ``log``."""
    data = "".join(json.dumps(m) + "\n" for m in messages).encode()
    subprocess.run([sys.executable, "-m", "mcp_skew", "serve", spec, "--record", str(log), "-q"],
                   input=data, capture_output=True, timeout=30, check=True)


def two_processes(tmp_path: Path, spec: str = DUAL_STICKY) -> Path:
    log = tmp_path / "two.jsonl"
    serve_into(log, spec, DISCOVER)  # the probe's process
    serve_into(log, spec, INITIALIZE, INITIALIZED, TOOLS)  # the session's process
    return log


def show(log: Path, *extra: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "show-log", str(log), *extra],
                          capture_output=True, text=True, timeout=30, check=True)
    return proc.stdout


def test_each_process_is_its_own_section_and_times_never_run_backwards(tmp_path: Path) -> None:
    log = two_processes(tmp_path)
    entries, _ = read_log(log)
    raw = [e.t_ms for e in entries]
    assert raw != sorted(raw)  # each process counts from its own start: the file runs backwards
    processes = split_processes(entries)
    assert [p.number for p in processes] == [1, 2]
    for p in processes:
        times = [e.t_ms for e in p.entries]
        assert times == sorted(times) and times[0] == 0
        assert p.entries[0].kind == "start"
    assert processes[1].offset_s is not None and processes[1].offset_s >= 0
    text = show(log)
    assert "2 server processes" in text
    assert text.count("== process ") == 2
    first, second = text.split("== process 2 of 2")
    assert "path: discover 2026-07-28 -> accepted 2026-07-28" in first
    assert "path: initialize 2025-11-25 -> accepted 2025-11-25" in second
    assert "restart" not in text
    for section in (first, second):  # the stamps of each section never decrease
        stamps = [float(line.split()[0]) for line in section.splitlines()
                  if line[:1].isdigit() and ("->" in line or "<-" in line or ".." in line)]
        assert stamps == sorted(stamps)


def test_show_log_json_has_one_annotation_per_process(tmp_path: Path) -> None:
    doc = json.loads(show(two_processes(tmp_path), "--json"))
    assert [p["process"] for p in doc["processes"]] == [1, 2]
    assert doc["processes"][0]["path"] == [f"discover {M}", f"accepted {M}"]
    assert doc["processes"][1]["path"] == ["initialize 2025-11-25", "accepted 2025-11-25"]


def test_replay_gives_each_process_a_fresh_server(tmp_path: Path) -> None:
    entries, _ = read_log(two_processes(tmp_path))
    spec = parse_peer(DUAL_STICKY, "server")
    report = replay_processes(entries, lambda part: replay_simulated(part, spec))
    assert report.ok and [x.verdict for x in report.exchanges] == ["same", "same", "same"]
    assert [list(p.replayed.path) for p in report.processes] == [
        [f"discover {M}", f"accepted {M}"], ["initialize 2025-11-25", "accepted 2025-11-25"]]
    # one merged session would be wrong twice: the sticky era refuses the second process's
    # initialize, and id 0 of both processes would pair with the wrong answers
    merged = replay_simulated(entries, spec)
    assert not merged.ok


def test_replay_command_line_reports_each_process(tmp_path: Path) -> None:
    log = two_processes(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "replay", str(log), "--server",
                           DUAL_STICKY], capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "process 1: replayed path: discover 2026-07-28 -> accepted 2026-07-28" in proc.stdout
    assert "process 2: replayed path: initialize 2025-11-25 -> accepted 2025-11-25" in proc.stdout


def test_a_log_of_one_process_is_one_session(tmp_path: Path) -> None:
    log = tmp_path / "one.jsonl"
    serve_into(log, DUAL_STICKY, INITIALIZE, INITIALIZED, TOOLS)
    entries, _ = read_log(log)
    assert len(split_processes(entries)) == 1
    text = show(log)
    assert "== process" not in text and "server processes" not in text

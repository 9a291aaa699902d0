"""One transcript format for every producer and reader (``mcp_skew.transcript``).

Round trips (write, read, write: the same bytes), every producer writing the
format (``simulate --json``, ``record``, ``serve --record``, ``probe --record``,
the matrix JSON), the readers taking the older formats, one clear error for a
bad line, and a Hypothesis round trip over records of every kind.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_transcript_model.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _paths import SERVERS
from _serve_helpers import initialize, modern, request
from _waits import BOUND_S

from mcp_skew.cli import main
from mcp_skew.transcript import TranscriptError, dumps, header, load_text, parse_record, record_dict
from mcp_skew.transcript._names import EVENTS, FORMAT, FORMAT_VERSION

TIMEOUT = BOUND_S
SIM = [sys.executable, str(SERVERS / "sim_stdio_server.py")]


# -- every producer writes the format ---------------------------------------------------------

def check_jsonl(path: Path, source: str) -> list[dict[str, Any]]:
    """A JSON Lines transcript: the header, then records the model takes back unchanged."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"format": FORMAT, "format_version": FORMAT_VERSION,
                                    "source": source, "clock": "wall"}
    out = []
    for line in lines[1:]:
        record = parse_record(json.loads(line))
        assert dumps(record) == line  # written in the model's own order
        assert record.t is not None and record.t.endswith("Z")
        out.append(record_dict(record))
    assert all(r["event"] in EVENTS for r in out if r["dir"] == "event")
    loaded = load_text(path.read_text(encoding="utf-8"), str(path))
    assert [record_dict(r) for r in loaded.records] == out
    return out


def test_record_writes_the_format(tmp_path: Path) -> None:
    log = tmp_path / "wire.jsonl"
    data = "".join(json.dumps(m) + "\n" for m in (
        modern(1, "server/discover"), initialize(2), request(3, "tools/list"))) + "not json\n"
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "record", "--log", str(log), "--",
                           sys.executable, "-m", "mcp_skew", "serve", "-q",
                           "legacy:2025-11-25"], input=data.encode(), capture_output=True,
                          timeout=TIMEOUT, check=False)
    assert proc.returncode == 0, proc.stderr
    records = check_jsonl(log, "record")
    assert records[0]["event"] == "start" and records[-1]["event"] == "exit"
    assert {r["dir"] for r in records} >= {"c2s", "s2c", "event"}
    assert [r["line"] for r in records if r["dir"] == "c2s"] == data.splitlines()
    assert all("message" in r for r in records if r["dir"] == "s2c")


def test_serve_record_writes_the_format(tmp_path: Path) -> None:
    log = tmp_path / "serve.jsonl"
    data = json.dumps(initialize(1)) + "\n"
    proc = subprocess.run([sys.executable, "-m", "mcp_skew", "serve", "-q", "legacy:2025-11-25",
                           "--record", str(log)], input=data.encode(), capture_output=True,
                          timeout=TIMEOUT, check=False)
    assert proc.returncode == 0, proc.stderr
    records = check_jsonl(log, "serve")
    assert [r["dir"] for r in records if r["dir"] != "event"] == ["c2s", "s2c"]


def test_probe_record_writes_the_format_of_its_report(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "rec"
    code = main(["probe", "--quiet", "--format", "json", "--record", str(record),
                 "--client", "legacy:2025-06-18", "--client", "dual:2026-07-28,2025-11-25",
                 "--no-prober", "--", *SIM, "legacy:2025-06-18"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    for client in report["clients"]:
        records = check_jsonl(Path(client["recorded"]), "probe")
        # the file is the report's transcript, each record with its wall-clock time
        assert [{k: v for k, v in r.items() if k != "t"} for r in records] == client["transcript"]
        assert records[0]["event"] == "start" and records[-1]["event"] == "exit"
        assert any(r["event"] == "client-eof" for r in records if r["dir"] == "event")


# -- bad input: one clear error ------------------------------------------------------------------

GOOD = json.dumps({"ms": 1, "dir": "c2s", "line": "{}"})
HEAD = dumps(header("record", "wall"))


@pytest.mark.parametrize(("text", "where", "what"), [
    (f"{HEAD}\n{GOOD}\nnot json at all\n{GOOD}\n", ":3:", "not JSON"),
    (f"{HEAD}\n[1, 2]\n", ":2:", "not a JSON object"),
    (f"{HEAD}\n{GOOD}\n{{\"ms\": 1, \"line\": \"x\"}}\n", ":3:", "no 'dir'"),
    (f"{HEAD}\n{{\"ms\": 1, \"dir\": \"sideways\", \"line\": \"x\"}}\n", ":2:", "unknown 'dir'"),
    (f"{HEAD}\n{{\"ms\": -3, \"dir\": \"c2s\", \"line\": \"x\"}}\n", ":2:", "'ms'"),
    (f"{HEAD}\n{{\"t_ms\": 3, \"dir\": \"c2s\", \"line\": \"x\"}}\n", ":2:", "'ms'"),
    (f"{HEAD}\n{{\"ms\": 3, \"dir\": \"c2s\"}}\n", ":2:", "needs 'line' or 'message'"),
    (f"{HEAD}\n{{\"ms\": 3, \"dir\": \"event\", \"event\": \"exit\", \"code\": \"1\"}}\n", ":2:",
     "'code'"),
    ('{"format": "mcp-skew-transcript", "format_version": 7}\n', ":1:", "newer"),
    ('{"format": "something-else", "format_version": 1}\n', ":1:", "not an mcp-skew transcript"),
])
def test_a_bad_line_is_one_error_naming_the_file_and_line(tmp_path: Path, text: str, where: str,
                                                          what: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(TranscriptError, match=what) as caught:
        load_text(text, str(path))
    assert str(caught.value).startswith(f"{path}{where} ")
    for command in (["show-log", str(path)], ["replay", str(path), "--server", "2025-11-25"]):
        proc = subprocess.run([sys.executable, "-m", "mcp_skew", *command], capture_output=True,
                              text=True, timeout=TIMEOUT, check=False)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and f"{path}{where} " in proc.stderr, proc.stderr


# -- any record, round trip ---------------------------------------------------------------------



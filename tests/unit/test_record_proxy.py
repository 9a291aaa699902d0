"""``mcp-skew record``: a transparent stdio proxy that logs every line, with tiny servers."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from mcp_skew.serve._log import LineSplitter, LogWriter, read_log

# -- the pieces ---------------------------------------------------------------------------------

def test_line_splitter_keeps_the_tail() -> None:
    split = LineSplitter()
    assert split.feed(b"a\nb") == [b"a"]
    assert split.feed(b"c\n\nd") == [b"bc", b""]
    assert split.finish() == b"d"
    assert split.finish() is None


def test_log_writer_is_lossless_for_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    writer = LogWriter(path)
    writer.line("c2s", b"\xff\xfe ok")
    writer.line("s2c", b'{"a":1}')
    writer.event("exit", "server exited with code 0", code=0)
    writer.close()
    raw = path.read_bytes()
    raw.decode("utf-8")  # the log itself is valid UTF-8
    entries, _ = read_log(path)
    assert entries[0].line is not None
    assert entries[0].line.encode("utf-8", "surrogateescape") == b"\xff\xfe ok"
    assert not entries[0].is_json and entries[1].message == {"a": 1}
    assert entries[2].get("code") == 0 and entries[2].t_ms >= entries[0].t_ms


def test_log_flushed_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    writer = LogWriter(path)
    writer.line("c2s", b"first")
    head, first = (json.loads(x) for x in path.read_text().splitlines())
    assert head["format"] == "mcp-skew-transcript" and head["source"] == "record"
    assert first["line"] == "first"  # on disk before close
    writer.close()
    os.remove(path)


def test_timestamps_are_iso_and_ms(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    writer = LogWriter(path)
    writer.line("c2s", b"x")
    time.sleep(0.01)
    writer.line("s2c", b"y")
    writer.close()
    first, second = (json.loads(x) for x in path.read_text().splitlines()[1:])
    assert first["t"].endswith("Z") and "T" in first["t"]
    assert second["ms"] >= first["ms"] + 5

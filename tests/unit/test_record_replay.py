"""``mcp-skew replay``: a log's client side sent again; where the answers differ."""

from __future__ import annotations

from pathlib import Path

from mcp_skew.serve._log import LogWriter, read_log
from mcp_skew.serve._replay import json_diff, replay_simulated
from mcp_skew.simulator import parse_peer


def test_replay_of_a_line_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    log = LogWriter(path)
    log.line("c2s", b"not json")
    log.line("s2c", b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')
    log.close()
    entries, _ = read_log(path)
    report = replay_simulated(entries, parse_peer("legacy:2025-06-18", "server"))
    assert report.exchanges == []  # no request to compare; the parse error is replayed
    assert report.replayed_entries[1].message["error"]["code"] == -32700


def test_json_diff() -> None:
    assert json_diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) == []
    assert json_diff({"a": 1}, {"a": 2}) == ["a: 1 -> 2"]
    assert json_diff({"a": 1}, {"b": 1}) == ["a: only in the recording: 1",
                                             "b: only in the replay: 1"]
    assert json_diff({"a": [1, 2]}, {"a": [1, 3]}) == ["a[1]: 2 -> 3"]
    assert json_diff({"a": [1]}, {"a": [1, 2]}) == ["a: [1] -> [1, 2]"]
    assert json_diff({"a": {"x": 1}, "b": 1}, {"a": {"x": 2}, "b": 1}, ignore=["a"]) == []
    assert json_diff(1, 1.0) == ["(whole): 1 -> 1.0"]

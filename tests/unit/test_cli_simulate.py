"""``mcp-skew simulate``: the JSON shape, the wire log, exit codes, and the user guide's trace."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.simulator import SCENARIOS, parse_peer, run

#: (client, server, status): runs that work and runs that fail, over every kind.
PAIRS = [
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+silent", "ok"),
    ("dual:2026-07-28,2025-11-25", "modern:2026-07-28", "ok"),
    ("legacy:2025-11-25,2025-06-18", "legacy:2025-06-18", "ok"),
    ("2025-06-18", "2025-11-25", "failed"),
    ("legacy:2025-11-25", "modern:2026-07-28", "failed"),
    ("modern:2026-07-28", "legacy:2025-11-25+lenient", "failed"),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-11-25+silent-exit", "failed"),
]
IDS = [f"{c} x {s}" for c, s, _ in PAIRS]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


# -- --json ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("client", "server", "status"), PAIRS, ids=IDS)
def test_json_shape(client: str, server: str, status: str,
                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--client", client, "--server", server, "--json")
    assert (code, err) == (0, "")
    record = json.loads(out)  # one JSON object, nothing else
    assert (record["format"], record["format_version"]) == ("mcp-skew-run", 2)
    assert {"client", "server", "status", "revision", "era", "path", "reason",
            "transcript"} <= set(record)
    assert "events" not in record  # format version 2: one list of transcript records
    assert record["client"] == parse_peer(client, "client").name
    assert record["server"] == parse_peer(server, "server").name
    assert record["status"] == status
    assert isinstance(record["reason"], str) and (record["reason"] == "") == (status == "ok")
    assert isinstance(record["path"], list) and all(isinstance(p, str) for p in record["path"])
    if status == "ok":
        assert isinstance(record["revision"], str) and record["era"] in ("legacy", "modern")
    else:
        assert record["revision"] is None and record["era"] is None
    times = []
    for entry in record["transcript"]:
        assert isinstance(entry["ms"], int)
        if entry["dir"] == "event":
            assert set(entry) <= {"ms", "dir", "event", "text", "side", "code"}
            assert entry["event"] and entry["text"]
        else:
            assert set(entry) == {"ms", "dir", "message"} and entry["dir"] in ("c2s", "s2c")
            assert entry["message"]["jsonrpc"] == "2.0"
        times.append(entry["ms"])
    assert times and times == sorted(times)


@pytest.mark.parametrize(("client", "server", "status"), PAIRS, ids=IDS)
def test_json_is_the_library_record(client: str, server: str, status: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "--client", client, "--server", server, "--json")
    record = run(parse_peer(client, "client"), parse_peer(server, "server"))
    assert json.loads(out) == json.loads(json.dumps(record.to_document()))
    assert {k: v for k, v in json.loads(out).items() if k not in ("format", "format_version")} \
        == json.loads(json.dumps(record.to_dict()))


@pytest.mark.parametrize(("client", "server", "status"), PAIRS, ids=IDS)
def test_json_transcript_is_the_timeline_in_order(
        client: str, server: str, status: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "--client", client, "--server", server, "--json")
    record = json.loads(out)
    got: list[Any] = [r["text"] if r["dir"] == "event" else r["message"]
                      for r in record["transcript"]]
    expected = run(parse_peer(client, "client"), parse_peer(server, "server")).transcript.timeline()
    assert got == [item.text if item.is_event else item.message for item in expected]

@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_scenario(scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    over = ("--transport", "http") if SCENARIOS[scenario].protected else ()  # auth: HTTP only
    ext = "+ext=ui" if scenario == "apps" else ""  # MCP Apps needs both sides to support it
    code, out, _ = cli(capsys, "--client", f"2025-11-25{ext}", "--server", f"2025-11-25{ext}",
                       "--scenario", scenario, "--json", *over)
    record = json.loads(out)
    assert code == 0 and record["scenario"] == scenario
    assert [s["name"] for s in record["steps"]] == [s.name for s in SCENARIOS[scenario].requests]
    assert all(s["ok"] for s in record["steps"])


# -- --trace and the default output ---------------------------------------------------------------

LINE = re.compile(r"^ *(\d+) ms  (->|<-|\.\.)  (.+)$")


@pytest.mark.parametrize(("client", "server", "status"), PAIRS, ids=IDS)
def test_trace_is_a_wire_log(client: str, server: str, status: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--client", client, "--server", server, "--trace")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"{parse_peer(client, 'client').name}  x  ")
    assert (": ok, " in lines[0]) == (status == "ok")
    log = [m.groups() for m in map(LINE.match, lines) if m]
    record = run(parse_peer(client, "client"), parse_peer(server, "server"))
    expected: list[tuple[str, str, Any]] = []
    for item in record.transcript.timeline():
        if not item.is_event:
            expected.append((str(item.t_ms), "->" if item.dir == "c2s" else "<-",
                             json.dumps(item.message)))
        else:
            expected.append((str(item.t_ms), "..", item.text))
    assert log == expected
    assert f"path: {' -> '.join(record.session.path)}" in lines


def test_default_output_is_the_verdict_and_the_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--client", "dual:2026-07-28,2025-11-25",
                       "--server", "legacy:2025-11-25+unknown-32602")
    assert code == 0
    assert out.splitlines() == [
        "dual:2026-07-28,2025-11-25  x  legacy:2025-11-25+unknown-32602: "
        "ok, 2025-11-25 (legacy, era-fallback)",
        "path: discover 2026-07-28 -> error -32602 -> initialize 2025-11-25 -> "
        "accepted 2025-11-25",
    ]


# -- exit codes -------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["--server", "2025-11-25"],  # no --client
    ["--client", "2025-11-25"],  # no --server
    ["--client", "2025-11-25", "--server", "2025-11-25", "--scenario", "nope"],
    ["--client", "2025-11-25", "--server", "2025-11-25", "--trace", "--json"],
    ["--client", "2025-11-25", "--server", "2025-11-25", "--bogus"],
], ids=["no client", "no server", "unknown scenario", "trace and json", "unknown option"])
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["simulate", *args])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "error:" in err and "Traceback" not in err


@pytest.mark.parametrize("args", [
    ["--client", "legacy:2026-07-28", "--server", "2025-11-25"],
    ["--client", "2025-11-25", "--server", "legacy:2025-11-25+restart"],
    ["--client", "2025-11-25", "--server", "legacy:2025-11-25+slow=soon"],
])
def test_bad_peer_spec_exits_2_with_one_line(args: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("mcp-skew: error: peer spec ") and err.count("\n") == 1


# -- docs/simulator.md -------------------------------------------------------------------------------




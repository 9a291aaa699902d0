"""One transcript format for every producer and reader (``mcp_skew.transcript``).

Round trips (write, read, write: the same bytes), every producer writing the
format (``simulate --json``, ``record``, ``serve --record``, ``probe --record``,
the matrix JSON), the readers taking the older formats, one clear error for a
bad line, and a Hypothesis round trip over records of every kind.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _serve_helpers import initialize
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_skew.cli import main
from mcp_skew.matrix import Cell, build_matrix
from mcp_skew.peers import builtin_peers
from mcp_skew.serve._annotate import annotate
from mcp_skew.serve._log import LogWriter, entry_of, header_line, read_log, record_line
from mcp_skew.simulator import RunRecord, parse_peer, run
from mcp_skew.transcript import (
    Entry,
    Note,
    Record,
    Transcript,
    TranscriptError,
    as_json,
    dumps,
    header,
    legacy_run_records,
    load_text,
    of_json,
    parse_record,
    record_dict,
)
from mcp_skew.transcript._jsonl import (
    EventRecord,
    Header,
    MessageRecord,
    dump_lines,
    parse_header,
    records_of,
)
from mcp_skew.transcript._names import EVENTS, FORMAT, FORMAT_VERSION
from mcp_skew.transcript._upgrade import classify_note
from mcp_skew.versions import REGISTRY

#: Runs of every shape: timeouts, exits, restarts, failures, fallbacks.
PAIRS = [
    ("dual:2026-07-28,2025-11-25", "legacy:2025-06-18"),
    ("dual:2026-07-28,2025-11-25,2025-06-18", "legacy:2025-06-18+silent"),
    ("dual:2026-07-28,2025-11-25", "legacy:2025-06-18+silent-exit"),
    ("dual:2026-07-28,2025-11-25+restart", "legacy:2025-06-18+silent-exit"),
    ("dual:2026-07-28,2025-11-25", "modern:2026-07-28"),
    ("legacy:2025-11-25", "modern:2026-07-28"),
    ("modern:2026-07-28+discover", "legacy:2025-11-25"),
    ("dual:2026-07-28,2025-11-25+probe-timeout=2000",
     "dual:2026-07-28,2025-11-25+slow=3000+sticky-era"),
]
IDS = [f"{c} x {s}" for c, s in PAIRS]


def simulated(client: str, server: str, scenario: str = "default") -> RunRecord:
    return run(parse_peer(client, "client"), parse_peer(server, "server"), scenario)


@cache
def default_cells() -> tuple[Cell, ...]:
    matrix = build_matrix(builtin_peers("client"), builtin_peers("server"))
    return tuple(cell for _, _, cell in matrix.pairs())


def data_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- the simulator's records ---------------------------------------------------------------

def test_the_fast_records_are_what_the_model_writes() -> None:
    """``Transcript.records()`` builds dicts without the model; they are the model's own."""
    for cell in default_cells():
        records = list(cell.transcript or ())
        assert [record_dict(parse_record(r)) for r in records] == records


@pytest.mark.parametrize(("client", "server"), PAIRS, ids=IDS)
def test_round_trip_is_byte_identical(client: str, server: str) -> None:
    record = simulated(client, server)
    records = records_of(record.transcript)
    text = dump_lines([header("simulate", "simulated"), *records])
    loaded = load_text(text, "run.jsonl")
    assert [record_dict(r) for r in loaded.records] == record.transcript.records()
    assert loaded.headers == [header("simulate", "simulated")] and not loaded.warnings
    assert dump_lines([*loaded.headers, *loaded.records]) == text
    assert dump_lines([header("simulate", "simulated"),
                       *records_of(simulated(client, server).transcript)]) == text  # same input


def test_a_message_and_an_event_are_one_record_type() -> None:
    """``Entry`` and ``Note`` make :class:`Record` s; the transcript's face is their one door
    (the simulator's face no longer repeats them)."""
    from mcp_skew import simulator

    entry = Entry(5, "c2s", {"jsonrpc": "2.0", "id": 0, "method": "ping"})
    note = Note(15, "no answer to id 0 within 10 ms", 1, "timeout")
    line = Entry(20, "s2c", "not json", {"status": 200})
    assert all(isinstance(r, Record) for r in (entry, note, line))
    assert {"Entry", "Note", "Transcript"}.isdisjoint(simulator.__all__)
    assert (note.dir, note.kind, note.after, note.is_event, entry.is_event) == (
        "event", "timeout", 1, True, False)
    with pytest.raises(AttributeError):
        entry.t_ms = 6  # type: ignore[misc]
    assert [as_json(r) for r in (entry, note, line)] == [
        {"ms": 5, "dir": "c2s", "message": {"jsonrpc": "2.0", "id": 0, "method": "ping"}},
        {"ms": 15, "dir": "event", "event": "timeout", "text": "no answer to id 0 within 10 ms"},
        {"ms": 20, "dir": "s2c", "line": "not json", "http": {"status": 200}}]
    assert [record_dict(parse_record(as_json(r))) for r in (entry, note, line)] == [
        as_json(r) for r in (entry, note, line)]


def test_a_transcript_keeps_its_records_in_order() -> None:
    transcript = Transcript()
    transcript.add(0, "c2s", {"id": 1})
    transcript.note(3, "the server process exited", "exit", side="server", code=1)
    transcript.add(4, "s2c", {"id": 1, "result": {}})
    assert [r.dir for r in transcript.timeline()] == ["c2s", "event", "s2c"]
    assert transcript.notes == [Note(3, "the server process exited", 1, "exit",
                                     (("side", "server"), ("code", 1)))]
    assert transcript.records()[1] == {"ms": 3, "dir": "event", "event": "exit",
                                       "text": "the server process exited", "side": "server",
                                       "code": 1}


@pytest.mark.parametrize(("client", "server"), PAIRS, ids=IDS)
def test_the_records_read_back_as_the_timeline(client: str, server: str) -> None:
    transcript = simulated(client, server).transcript
    assert of_json(transcript.records()) == transcript.timeline()
    assert of_json(json.loads(json.dumps(transcript.records()))) == transcript.timeline()


@pytest.mark.parametrize(("client", "server"), PAIRS, ids=IDS)
def test_the_records_follow_the_timeline(client: str, server: str) -> None:
    record = simulated(client, server)
    for item, out in zip(record.transcript.timeline(), record.transcript.records(), strict=True):
        assert out["ms"] == item.t_ms
        if out["dir"] == "event":
            assert out["text"] == item.text and out["event"] in EVENTS  # type: ignore[union-attr]
        else:
            assert out["message"] == item.message  # type: ignore[union-attr]


def test_every_simulated_note_has_the_name_its_sentence_gives() -> None:
    """So an older document, which kept only the sentence, converts to the same records."""
    seen = set()
    for cell in default_cells():
        for r in cell.transcript or ():
            if r["dir"] == "event":
                fields = {k: v for k, v in r.items() if k not in ("ms", "dir", "event", "text")}
                assert classify_note(r["text"]) == (r["event"], fields)
                seen.add(r["event"])
    for client, server in PAIRS:
        for note in simulated(client, server).transcript.notes:
            assert classify_note(note.text) == (note.kind, dict(note.fields))
            seen.add(note.kind)
    assert {"timeout", "exit", "restart", "client-eof"} <= seen


def test_the_annotated_path_of_a_simulate_document_is_the_simulators() -> None:
    """show-log reads the records of simulate --json, restarts and exits included."""
    for client, server in PAIRS:
        record = simulated(client, server, "handshake")
        loaded = load_text(json.dumps(record.to_document()), "run.json")
        assert loaded.kind == "run"
        entries = [entry_of(i, r) for i, r in enumerate(loaded.records)]
        assert annotate(entries, REGISTRY).path == record.session.path, (client, server)


def test_simulate_json_is_a_run_document_of_records(capsys: pytest.CaptureFixture[str]) -> None:
    client, server = PAIRS[3]
    assert main(["simulate", "--client", client, "--server", server, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["format"], data["format_version"]) == ("mcp-skew-run", 2)
    assert [record_dict(parse_record(r)) for r in data["transcript"]] == data["transcript"]
    assert data["transcript"] == simulated(client, server).transcript.records()


def test_the_matrix_json_holds_records(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--clients", "dual:2026-07-28,2025-11-25+restart", "2025-11-25",
                 "--servers", "legacy:2025-11-25+silent-exit", "2025-11-25",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format_version"] == 3
    for row in data["cells"]:
        for cell in row:
            assert "events" not in cell
            assert [record_dict(parse_record(r)) for r in cell["transcript"]] == cell["transcript"]


def test_a_log_writer_appending_to_a_log_writes_no_second_header(tmp_path: Path) -> None:
    path = tmp_path / "w.jsonl"
    for text in ("one", "two"):
        writer = LogWriter(path)
        writer.line("c2s", text)
        writer.close()
    lines = data_lines(path)
    assert [("format" in x) for x in lines] == [True, False, False]
    entries, warnings = read_log(path)
    assert [e.line for e in entries] == ["one", "two"] and not warnings


# -- older formats ------------------------------------------------------------------------------

def version_1_run(record: RunRecord) -> dict[str, Any]:
    """A run as ``simulate --json`` printed it before format version 2."""
    out = record.to_dict(transcript=False)
    out["transcript"] = [{"t_ms": e.t_ms, "dir": e.dir, "message": e.message}
                         for e in record.transcript.entries]
    out["events"] = [{"t_ms": n.t_ms, "event": n.text, "after": n.after}
                     for n in record.transcript.notes]
    return out


def shape(entries: list[Any]) -> list[tuple[Any, ...]]:
    return [(e.t_ms, e.dir, e.line, e.message, e.kind, e.text, e.fields) for e in entries]


@pytest.mark.parametrize(("client", "server"), PAIRS, ids=IDS)
def test_an_old_simulate_json_reads_as_the_new_one(tmp_path: Path, client: str,
                                                   server: str) -> None:
    record = simulated(client, server)
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(version_1_run(record), indent=2))
    new.write_text(json.dumps(record.to_document(), indent=2))
    assert legacy_run_records(version_1_run(record)) == record.transcript.records()
    assert shape(read_log(old)[0]) == shape(read_log(new)[0])
    without_after = version_1_run(record)
    for event in without_after["events"]:
        del event["after"]  # the oldest runs: events go before messages of the same ms
    assert {(e.t_ms, e.dir, e.text) for e in read_log(_written(tmp_path, without_after))[0]} == \
        {(e.t_ms, e.dir, e.text) for e in read_log(new)[0]}


def _written(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data))
    return path


def test_an_old_log_without_a_header_reads_as_records(tmp_path: Path) -> None:
    """``record``'s logs before the header: ``ms`` records, read unchanged."""
    path = tmp_path / "old.jsonl"
    old = [{"t": "2026-08-30T09:15:02.000000Z", "ms": 0.0, "dir": "event", "event": "start",
            "text": "started x (pid 7)", "argv": ["x"], "pid": 7},
           {"t": "2026-08-30T09:15:02.001000Z", "ms": 1.0, "dir": "c2s",
            "line": json.dumps(initialize(1)), "message": initialize(1)},
           {"t": "2026-08-30T09:15:02.500000Z", "dir": "stderr", "line": "ready"},
           {"t": "2026-08-30T09:15:03.000000Z", "ms": 1000.0, "dir": "event", "event": "exit",
            "text": "server exited with code 0", "side": "server", "code": 0, "signal": None}]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    entries, warnings = read_log(path)
    assert not warnings and len(entries) == 4
    assert dict(entries[0].fields) == {"argv": ["x"], "pid": 7}
    assert entries[1].message == initialize(1)
    assert (entries[2].dir, entries[2].t_ms) == ("stderr", 500.0)  # ms from t
    assert dict(entries[3].fields) == {"side": "server", "code": 0, "signal": None}


def test_an_old_probe_recording_reads_with_event_names(tmp_path: Path) -> None:
    """The probe's recordings before the header: ``t_ms``, events by their sentence."""
    path = tmp_path / "probe.jsonl"
    old = [{"t_ms": 0, "event": "started pid 42: python server.py"},
           {"t_ms": 2, "dir": "c2s", "message": initialize(1)},
           {"t_ms": 5002, "event": "no answer to id 1 within 5000 ms"},
           {"t_ms": 5003, "dir": "s2c", "message": "Traceback (most recent call last):"},
           {"t_ms": 5004, "event": "the server process exited (code 3)"},
           {"t_ms": 5005, "event": "client closes the connection"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    entries, _ = read_log(path)
    assert [(e.t_ms, e.dir, e.kind) for e in entries] == [
        (0, "event", "start"), (2, "c2s", ""), (5002, "event", "timeout"),
        (5003, "s2c", ""), (5004, "event", "exit"), (5005, "event", "client-eof")]
    assert dict(entries[0].fields) == {"pid": 42}
    assert dict(entries[4].fields) == {"side": "server", "code": 3}
    assert entries[3].message == "Traceback (most recent call last):"  # a JSON string, then


# -- bad input: one clear error ------------------------------------------------------------------

GOOD = json.dumps({"ms": 1, "dir": "c2s", "line": "{}"})
HEAD = dumps(header("record", "wall"))


def test_a_newer_run_document_is_an_error(tmp_path: Path) -> None:
    document = {**simulated(*PAIRS[0]).to_document(), "format_version": 3}
    with pytest.raises(TranscriptError, match="run format version 3 is newer"):
        load_text(json.dumps(document), "run.json")
    document = {**simulated(*PAIRS[0]).to_document()}
    document["transcript"][1] = {"ms": 1, "dir": "c2s"}
    with pytest.raises(TranscriptError, match=r"run.json: transcript\[1\]: a message record"):
        load_text(json.dumps(document), "run.json")


def test_a_cut_last_line_is_a_warning_only() -> None:
    loaded = load_text(f"{HEAD}\n{GOOD}\n{GOOD[:9]}", "cut.jsonl")
    assert len(loaded.records) == 1 and loaded.warnings == [
        "cut.jsonl:3: the last record is cut short (the writer stopped mid-line); skipped"]


def test_header_and_records_are_checked_types() -> None:
    assert isinstance(parse_header(header().model_dump()), Header)
    assert isinstance(parse_record({"ms": 0, "dir": "s2c", "message": None}), MessageRecord)
    assert record_dict(parse_record({"ms": 0, "dir": "s2c", "message": None})) == {
        "ms": 0, "dir": "s2c", "message": None}  # a JSON null is a message
    assert isinstance(parse_record({"ms": 0.5, "dir": "event", "event": "x"}), EventRecord)
    with pytest.raises(TranscriptError, match="'ms'"):
        parse_record({"ms": True, "dir": "event", "event": "x"})


def test_the_guide_describes_every_event_name_and_the_version() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "transcripts.md").read_text()
    rows = {line.split("|")[1].strip().strip("`") for line in guide.splitlines()
            if line.startswith("| `")}
    assert set(EVENTS) <= rows
    assert f'"format_version": {FORMAT_VERSION}' in guide and f'"format": "{FORMAT}"' in guide


# -- any record, round trip ---------------------------------------------------------------------

#: Text with what is hard in JSON Lines: line separators Python's splitlines() cuts at,
#: lone surrogates (bytes that were not UTF-8), quotes, newlines.
TEXT = st.text(alphabet=st.characters() | st.sampled_from(
    ["\u2028", "\u2029", "\x85", "\r", "\n", "\udcff", "\udc80", '"', "\\", "\x00"]),
    max_size=30)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12)
MS = st.integers(min_value=0, max_value=10**12) | st.floats(
    min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False)
STAMP = st.sampled_from(["2026-08-30T09:15:02.123456Z", "2027-01-01T00:00:00.000000Z"])


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if draw(st.booleans()):
        out["t"] = draw(STAMP)
    out["ms"] = draw(MS)
    kind = draw(st.sampled_from(["c2s", "s2c", "stderr", "event"]))
    out["dir"] = kind
    if kind == "event":
        out["event"] = draw(st.sampled_from(sorted(EVENTS)) | st.from_regex(r"[a-z][a-z0-9-]{0,15}",
                                                                             fullmatch=True))
        out["text"] = draw(TEXT)
        for key, values in (("side", st.sampled_from(["server", "c2s", "s2c", "stderr"])),
                            ("code", st.none() | st.integers(-255, 255)),
                            ("signal", st.none() | st.sampled_from(["SIGTERM", "SIGKILL"])),
                            ("argv", st.lists(TEXT, max_size=3)),
                            ("pid", st.integers(1, 2**22))):
            if draw(st.booleans()):
                out[key] = draw(values)
    else:
        has_line = kind == "stderr" or draw(st.booleans())
        if has_line:
            out["line"] = draw(TEXT)
            if draw(st.booleans()):
                out["partial"] = True
        if kind != "stderr" and (not has_line or draw(st.booleans())):
            out["message"] = draw(JSON)
        if kind != "stderr" and draw(st.booleans()):
            out["http"] = {"status": draw(st.integers(100, 599))}
    if draw(st.booleans()):
        out["x-extra"] = draw(JSON)  # a key of a later version is kept
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), max_size=8))
def test_any_records_round_trip(items: list[dict[str, Any]]) -> None:
    text = dump_lines([header("record", "wall"), *items])
    assert text.count("\n") == len(items) + 1  # one line each, whatever the text holds
    text.encode("utf-8")  # the file is UTF-8 even with lone surrogates
    loaded = load_text(text, "any.jsonl")
    assert [record_dict(r) for r in loaded.records] == items
    assert dump_lines([*loaded.headers, *loaded.records]) == text
    assert [dumps(parse_record(item)) for item in items] == [dumps(item) for item in items]


# -- the log writer's lines, written without the checked models ----------------------------------

@settings(max_examples=300, deadline=None)
@given(records(), st.randoms(use_true_random=False))
def test_a_record_line_is_the_line_of_the_checked_record(item: dict[str, Any],
                                                         rng: Any) -> None:
    """``record_line`` (the log writer's, no pydantic) writes what the checked path writes,
    whatever order the record's keys come in."""
    keys = list(item)
    rng.shuffle(keys)
    shuffled = {key: item[key] for key in keys}
    assert record_line(shuffled) == dumps(parse_record(shuffled))


@given(TEXT)
def test_a_header_line_is_the_line_of_the_checked_header(source: str) -> None:
    assert header_line(source) == dumps(header(source, "wall"))


def test_a_log_writers_lines_are_the_checked_records_lines(tmp_path: Path) -> None:
    """Every line a writer puts in a log, read and checked, is written back the same."""
    path = tmp_path / "w.jsonl"
    writer = LogWriter(path, source="serve")
    writer.event("start", "mcp-skew serve X on stdio", peer="X", argv=["a", "b"], pid=7)
    writer.line("c2s", b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
                http={"method": "POST", "path": "/mcp"})
    writer.line("s2c", b"not json \xff", partial=True)
    writer.line("stderr", '{"a": 1}')
    writer.event("exit", "server exited with code 1", side="server", code=1, signal=None)
    writer.close()
    first, *lines = path.read_text(encoding="utf-8").splitlines()
    assert first == dumps(header("serve", "wall"))
    assert len(lines) == 5
    for line in lines:
        assert dumps(parse_record(json.loads(line))) == line
    entries, warnings = read_log(path)
    assert [e.dir for e in entries] == ["event", "c2s", "s2c", "stderr", "event"] and not warnings

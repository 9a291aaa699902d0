"""Typed mutations of the inputs a person gives mcp-skew: no traceback, one line and exit 2.

Each test draws a valid document broken the way its schema can be (:mod:`_fuzz_inputs`:
a value of another type, a key dropped or unknown, a row its era needs removed; a log's
time too large or naive among aware ones) and runs ``mcp_skew.cli.main`` in this process
on every command that reads it. A document that loads must be one every command can run
with. Addresses are drawn from pieces, good and not: a malformed one is exit code 2
before anything starts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from _fuzz import check_outcome, examples, run_cli
from _fuzz_inputs import (
    FULL_PROFILE,
    MATRIX_FORMATS,
    SAVED_PEER,
    address,
    census_db_edits,
    log_text,
    matrix_from_case,
    profile_file,
    surrogate_listing,
    typed_mutation,
    url,
    with_control_text,
    with_lone_surrogates,
    write_census_db,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_skew._input import AddressError, parse_host_port, parse_url
from mcp_skew.census._listing import read_listing

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

#: For the tests whose example runs several commands: fewer in the default run (each class
#: is also a table-driven unit test; benchmarks/fuzz_corpus.py draws them at scale).
FEWER = settings(SETTINGS, max_examples=examples(15))

REV = "2099-01-01"
#: Every command that reads the registry, with the fuzzed revision where it takes one.
PROFILE_COMMANDS = [
    ["versions", "--format", "json"],
    ["show", REV],
    ["diff", "2026-07-28", REV],
    ["matrix", "--clients", f"modern:{REV}", f"dual:{REV},2025-11-25", "legacy:2025-06-18",
     "--servers", f"modern:{REV}", "dual:2026-07-28,2025-06-18", "--format", "json"],
    ["simulate", "--client", f"dual:{REV},2025-11-25", "--server", f"modern:{REV}"],
    ["simulate", "--client", f"modern:{REV}", "--server", f"modern:{REV}", "--scenario", "cache"],
    ["migrate", "2025-11-25", REV],
    ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
     "--to", f"dual:{REV},2025-11-25", "--duration", "2m", "--format", "json"],
]
SERVE_LINES = (
    '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":'
    '{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}\n'
    '{"jsonrpc":"2.0","id":2,"method":"x/search","params":{}}\n'
)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-inputs")


@SETTINGS
@given(drawn=profile_file())
def test_typed_profile_mutations_in_every_command(work: Path, drawn: tuple[str, str]) -> None:
    suffix, text = drawn
    path = work / f"profile{suffix}"
    path.write_text(text, encoding="utf-8")
    loads = None
    for command in PROFILE_COMMANDS:
        argv = ["--profile", str(path), *command]
        outcome = run_cli(argv)
        check_outcome(argv, outcome)
        code, _, err = outcome
        if code == 2 and err.startswith(f"mcp-skew: error: {path}: "):
            assert loads in (None, False), (argv, err)  # refused at load, or never
            loads = False
            break  # the same line for every command: the file is read before the command
        loads = True
    if loads:
        argv = ["--profile", str(path), "serve", f"modern:{REV}"]
        code, out, err = run_cli(argv, SERVE_LINES.encode())
        check_outcome(argv, (code, out, err))
        assert all(isinstance(json.loads(line), dict) for line in out.splitlines())


# -- wire logs, matrix documents, addresses -----------------------------------------------------


@SETTINGS
@given(text=log_text())
def test_typed_log_mutations_in_show_log_and_replay(work: Path, text: str) -> None:
    path = work / "log.jsonl"
    path.write_text(text, encoding="utf-8")
    for argv in (["show-log", str(path)], ["show-log", str(path), "--json"],
                 ["replay", str(path), "--server", "legacy:2025-06-18"]):
        check_outcome(argv, run_cli(argv), frozenset({0, 1, 2}))


@pytest.fixture(scope="module")
def matrix_doc() -> Any:
    code, out, _ = run_cli(["matrix", "--clients", "dual:2026-07-28,2025-11-25",
                            "--servers", "legacy:2024-11-05", "--scenario", "cache",
                            "--format", "json"])
    assert code == 0
    return json.loads(out)


@SETTINGS
@given(data=st.data(), view=st.sampled_from(["pairs", "features"]),
       fmt=st.sampled_from(["text", "html", "json", "csv", "junit"]))
def test_typed_matrix_document_mutations(work: Path, matrix_doc: Any, data: st.DataObject,
                                         view: str, fmt: str) -> None:
    path = work / "m.json"
    path.write_text(json.dumps(data.draw(typed_mutation(matrix_doc))), encoding="utf-8")
    argv = ["matrix", "--from", str(path), "--view", view, "--format", fmt]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(text=address(), probe_url=url(), scheduler=url(("tcp", "tls")))
def test_addresses_are_parsed_before_anything_starts(work: Path, text: str, probe_url: str,
                                                     scheduler: str) -> None:
    # only a malformed address: a good one would start a server, a probe or a census
    try:
        parse_host_port(text, "127.0.0.1")
    except AddressError:
        argv = ["serve", "legacy:2025-06-18", "--http", text]
        code, _, err = run_cli(argv)
        check_outcome(argv, (code, "", err))
        assert code == 2
    try:
        parse_url(probe_url, ("http", "https"))
    except AddressError:
        argv = ["probe", "--url", probe_url]
        code, _, err = run_cli(argv)
        assert code == 2 and err.startswith("mcp-skew: error: --url: "), err
    try:
        parse_url(scheduler, ("tcp", "tls"), need_port=True)
    except AddressError:
        argv = ["census", "--db", str(work / "c.sqlite"), "--scheduler", scheduler]
        code, _, err = run_cli(argv)
        assert code == 2 and "--scheduler: " in err and err.count("\n") == 1, err


# -- census databases and listings from elsewhere (issue 33; the procs part) ----------------------


@FEWER
@given(edits=census_db_edits())
def test_a_broken_census_database_is_one_line_in_report_and_matrix(
        work: Path, edits: list[tuple[str, tuple[Any, ...]]]) -> None:
    path = work / "census.sqlite"
    write_census_db(path, edits)
    before = path.read_bytes()
    for argv in (["census", "report", "--db", str(path), "--format", "json"],
                 ["matrix", "--servers", f"@{path}", "--format", "json"]):
        check_outcome(argv, run_cli(argv))
    assert path.read_bytes() == before  # only read: not a byte written, nothing it carries ran


@SETTINGS
@given(drawn=surrogate_listing(), suffix=st.sampled_from([".json", ".jsonl"]))
def test_a_listing_entry_that_is_not_text_is_set_aside(work: Path, drawn: tuple[str, int, int],
                                                       suffix: str) -> None:
    text, good, bad = drawn
    if suffix == ".jsonl" and text.startswith('{"servers"'):
        text = "".join(json.dumps(item["server"]) + "\n" for item in json.loads(text)["servers"])
    elif suffix == ".json" and not text.startswith('{"servers"'):
        text = json.dumps({"servers": [{"server": json.loads(line)}
                                       for line in text.splitlines()]})
    path = work / f"listing{suffix}"
    path.write_text(text, encoding="utf-8")
    invalid: list[str] = []
    jobs = read_listing([str(path)], invalid)
    assert len(invalid) == bad
    assert {job.server for job in jobs} == {f"io.x/good-{i}" for i in range(good)}
    for line in invalid:
        line.encode("utf-8")
    if not good:  # no job: nothing starts, the command reads the listing and stops
        argv = ["census", str(path), "--db", str(work / "surrogates.sqlite"), "--sandbox",
                "none"]
        code, _, err = run_cli(argv)
        check_outcome(argv, (code, "", err))
        assert code == 0 and err.count("invalid entry: ") == bad, err


# -- issue 33 (inputs): every --format x --view of matrix --from (format versions 2 and 3), lone
# surrogates in every JSON document read back, control characters in labels ------------------


@SETTINGS
@given(case=st.data())
def test_matrix_from_in_every_format_and_view(work: Path, matrix_doc: Any,
                                              case: st.DataObject) -> None:
    doc, fmt, view = case.draw(matrix_from_case(matrix_doc))
    path = work / "m-every.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    argv = ["matrix", "--from", str(path), "--format", fmt, "--view", view]
    check_outcome(argv, run_cli(argv))


@FEWER
@given(data=st.data(), fmt=st.sampled_from(MATRIX_FORMATS))
def test_lone_surrogates_in_documents_read_back(work: Path, matrix_doc: Any,
                                                data: st.DataObject, fmt: str) -> None:
    profile = work / "sur-profile.json"
    profile.write_text(json.dumps(data.draw(with_lone_surrogates(FULL_PROFILE))),
                       encoding="utf-8")
    for command in (["versions"], ["show", REV], ["migrate", "2026-07-28", REV],
                    ["diff", "2026-07-28", REV]):
        argv = ["--profile", str(profile), *command]
        check_outcome(argv, run_cli(argv))
    source = work / "sur-m.json"
    source.write_text(json.dumps(data.draw(with_lone_surrogates(matrix_doc))), encoding="utf-8")
    argv = ["matrix", "--from", str(source), "--format", fmt]
    check_outcome(argv, run_cli(argv))
    peer = work / "sur-peer.json"
    peer.write_text(json.dumps(data.draw(with_lone_surrogates(SAVED_PEER))), encoding="utf-8")
    argv = ["matrix", "--servers", f"@{peer}", "--clients", "legacy:2025-06-18", "--format", fmt]
    check_outcome(argv, run_cli(argv))


#: What a terminal acts on (tab and newline aside), as :func:`mcp_skew._output.terminal_safe`.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@FEWER
@given(data=st.data(), fmt=st.sampled_from(MATRIX_FORMATS),
       view=st.sampled_from(["pairs", "features"]))
def test_control_text_in_labels_and_documents_is_shown(work: Path, matrix_doc: Any,
                                                       data: st.DataObject, fmt: str,
                                                       view: str) -> None:
    source = work / "ctl-m.json"
    source.write_text(json.dumps(data.draw(with_control_text(matrix_doc))), encoding="utf-8")
    peer = work / "ctl-peer.json"
    peer.write_text(json.dumps(data.draw(with_control_text(SAVED_PEER))), encoding="utf-8")
    for argv in (["matrix", "--from", str(source), "--format", fmt, "--view", view],
                 ["matrix", "--servers", f"@{peer}", "--clients", "legacy:2025-06-18",
                  "--format", fmt, "--view", view, "--color", "never"]):
        code, out, err = run_cli(argv)
        check_outcome(argv, (code, out, err))
        assert not _CONTROL.search(out), (argv, _CONTROL.findall(out))

"""Every input surface of the command line, fuzzed: no traceback, a documented exit code.

The command line's promise: no input makes mcp-skew print a Python traceback or hang; a bad one
is one line on stderr and exit code 2 (``probe`` may say 1: a required revision failed).
Each test draws one kind of input (peer specs with quirks and junk values, named peers,
``@FILE`` peers, every numeric option of every command, ``--profile`` files, wire logs for
``show-log``/``replay``, mutated ``matrix --from`` documents, JSON-RPC lines to ``serve``)
and runs ``mcp_skew.cli.main`` in this process (:mod:`_fuzz`). The larger corpus is
``benchmarks/fuzz_corpus.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _fuzz import (
    PROFILE,
    check_outcome,
    examples,
    file_text,
    mutated,
    number,
    outlives_stdin,
    peer_file,
    peer_spec,
    recorded_log,
    rpc_line,
    run_cli,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_skew.commands.serve import parse_address
from mcp_skew.errors import UsageError

SETTINGS = settings(max_examples=examples(25), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def wire_log(work: Path) -> list[str]:
    """The lines of a log ``serve --record`` wrote for a short conversation."""
    return recorded_log(work / "good.jsonl")


@pytest.fixture(scope="module")
def matrix_doc() -> Any:
    code, out, _ = run_cli(["matrix", "--clients", "legacy:2025-06-18", "modern:2026-07-28",
                            "--servers", "dual:2026-07-28,2025-11-25", "legacy:2024-11-05",
                            "--format", "json"])
    assert code == 0
    return json.loads(out)


# -- peer specs ---------------------------------------------------------------------------------


@SETTINGS
@given(client=peer_spec("client"), server=peer_spec("server"))
def test_peer_specs_in_simulate_and_matrix(client: str, server: str) -> None:
    argv = ["simulate", "--client", client, "--server", server]
    check_outcome(argv, run_cli(argv))
    argv = ["matrix", "--clients", client, "--servers", server, "--format", "json"]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(client=peer_spec("client"), server=peer_spec("server"),
       counts=st.tuples(st.sampled_from(["", "*", "*2"]) | number().map(lambda n: "*" + n),
                        st.sampled_from(["", "*3"]) | number().map(lambda n: "*" + n)))
def test_peer_specs_with_counts_in_rollout(client: str, server: str,
                                           counts: tuple[str, str]) -> None:
    argv = ["rollout", "--clients", client + counts[0], "--fleet", server + counts[1],
            "--duration", "2m", "--format", "json"]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(data=st.data())
def test_peer_files(work: Path, data: st.DataObject) -> None:
    path = work / "peer.txt"
    path.write_text(data.draw(peer_file(path)), encoding="utf-8", errors="surrogatepass")
    other = work / "other.txt"
    other.write_text(f"@{path}", encoding="utf-8")
    serve = [] if outlives_stdin(f"@{path}") else [["serve", f"@{path}"]]
    for argv in (["simulate", "--client", "legacy:2025-06-18", "--server", f"@{path}"],
                 ["matrix", "--servers", f"@{other}", "--clients", f"@{path}"], *serve):
        check_outcome(argv, run_cli(argv))


# -- numbers ------------------------------------------------------------------------------------


@SETTINGS
@given(value=number(), unit=st.sampled_from(["", "s", "m", "ms", "h", "d"]))
def test_rollout_numbers(value: str, unit: str) -> None:
    for option in ("--duration", "--rate", "--start", "--every", "--rollback-at", "--seed",
                   "--keep-transcripts"):
        argv = ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
                "--to", "dual:2026-07-28,2025-11-25", "--duration", "3m", option, value + unit]
        check_outcome(argv, run_cli(argv))


@SETTINGS
@given(value=number())
def test_probe_numbers(work: Path, value: str) -> None:
    for option in ("--jobs", "--timeout", "--probe-timeout", "--client-timeout"):
        # --out in a missing folder: valid numbers reach that check and stop (no server runs)
        argv = ["probe", option, value, "--out", str(work / "missing" / "r.json"), "--", "true"]
        check_outcome(argv, run_cli(argv))


@SETTINGS
@given(value=number())
def test_census_numbers(work: Path, value: str) -> None:
    for option in ("--max-pages", "--jobs", "--cpu", "--memory", "--procs", "--fsize",
                   "--timeout", "--probe-timeout", "--client-timeout", "--install-timeout",
                   "--probe-jobs", "--install-jobs"):
        # no listing: the numbers are checked, then "give a listing" ends it (nothing runs)
        argv = ["census", "--db", str(work / "c.sqlite"), option, value]
        check_outcome(argv, run_cli(argv))


@SETTINGS
@given(value=number())
def test_verify_peer_jobs(value: str) -> None:
    argv = ["verify-peer", "no-such-peer", "--jobs", value]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(value=number(), change=st.sampled_from(["", "legacy:2025-11-25", "junk"]))
def test_simulate_server_change(value: str, change: str) -> None:
    argv = ["simulate", "--client", "dual:2026-07-28,2025-11-25", "--server",
            "legacy:2025-11-25", "--server-change", f"{value}={change}"]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(host=st.sampled_from(["", "127.0.0.1:", "[::1]:", "localhost:", ":", "[::1"]),
       port=number())
def test_serve_http_addresses(host: str, port: str) -> None:
    # parsed before anything binds: the command itself would serve forever on a good one
    try:
        _, value = parse_address(host + port)
    except UsageError as exc:
        assert "\n" not in str(exc)
    else:
        assert 0 <= value <= 65535


@SETTINGS
@given(value=number(), full=st.booleans())
def test_show_log_width(work: Path, wire_log: list[str], value: str, full: bool) -> None:
    log = work / "w.jsonl"
    log.write_text("\n".join(wire_log) + "\n", encoding="utf-8")
    argv = ["show-log", str(log), "--width", value, *(["--full"] if full else [])]
    check_outcome(argv, run_cli(argv))


# -- files ----------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data(), suffix=st.sampled_from([".json", ".toml"]),
       command=st.sampled_from([["versions"], ["versions", "show", "2099-01-01"],
                                ["migrate", "2026-07-28", "2099-01-01"],
                                ["simulate", "--client", "modern:2099-01-01", "--server",
                                 "modern:2026-07-28"]]))
def test_profile_files(work: Path, data: st.DataObject, suffix: str,
                       command: list[str]) -> None:
    path = work / f"profile{suffix}"
    if suffix == ".json":
        text = data.draw(st.one_of(st.just(json.dumps(PROFILE)),
                                   mutated(PROFILE).map(json.dumps), file_text()))
    else:
        text = data.draw(st.one_of(
            st.sampled_from(['revision = "2099-01-01"\nextends = "2026-07-28"\n',
                             'revision = 5\nextends = ["x"]\n', "a" + ".a" * 300 + " = 1\n",
                             "x = " + "[" * 2000 + "]" * 2000 + "\n", "= =\n",
                             'revision = "2099-01-01"\nextends = "2026-07-28"\nchanges = 3\n']),
            st.text(max_size=80)))
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = ["--profile", str(path), *command]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(data=st.data(), view=st.sampled_from(["pairs", "features"]),
       fmt=st.sampled_from(["text", "markdown", "github", "grid", "html", "json", "csv", "junit"]))
def test_matrix_from_mutated_documents(work: Path, matrix_doc: Any, data: st.DataObject,
                                       view: str, fmt: str) -> None:
    path = work / "m.json"
    doc = data.draw(mutated(matrix_doc, 4))
    path.write_text(json.dumps(doc), encoding="utf-8")
    argv = ["matrix", "--from", str(path), "--view", view, "--format", fmt]
    check_outcome(argv, run_cli(argv))


@SETTINGS
@given(data=st.data())
def test_wire_logs_for_show_log(work: Path, wire_log: list[str], data: st.DataObject) -> None:
    lines = list(wire_log)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["mutate", "junk", "drop", "dup"]))
        if action == "mutate":
            try:
                entry = json.loads(lines[i])
            except (ValueError, RecursionError):  # a junk line of before: 10,000 deep, say
                continue
            lines[i] = json.dumps(data.draw(mutated(entry)))
        elif action == "junk":
            lines[i] = data.draw(file_text())
        elif action == "drop" and len(lines) > 1:
            del lines[i]
        else:
            lines.insert(i, lines[i])
    log = work / "mutated.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    for extra in ([], ["--json"], ["--full"]):
        argv = ["show-log", str(log), *extra]
        check_outcome(argv, run_cli(argv))


# -- serve on stdio -------------------------------------------------------------------------------


@SETTINGS
@given(server=st.sampled_from(["legacy:2025-06-18", "modern:2026-07-28",
                               "dual:2026-07-28,2025-11-25,2025-03-26+lenient",
                               "legacy:2024-11-05+echo", "modern:2026-07-28+drop-unparsable"]),
       lines=st.lists(rpc_line(), min_size=1, max_size=6))
def test_serve_stdio_lines(server: str, lines: list[str]) -> None:
    stdin = "".join(line.replace("\n", " ") + "\n" for line in lines)
    argv = ["serve", server]
    code, out, err = run_cli(argv, stdin.encode("utf-8", "surrogatepass"))
    check_outcome(argv, (code, out, err), frozenset({0, 1}))
    # only JSON-RPC messages on standard output, one a line: split on "\n" alone (a raw U+0085
    # or U+2028 inside a JSON string is no line break; str.splitlines would split there)
    for line in filter(None, out.split("\n")):
        message = json.loads(line)
        assert isinstance(message, dict | list), line

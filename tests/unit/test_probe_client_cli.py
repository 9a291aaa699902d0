"""``mcp-skew probe-client``'s arguments: every mistake is one line and exit 2, before any
client runs (no process is started here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcp_skew.cli import _parser, main
from mcp_skew.probe_client._command import options
from mcp_skew.probe_client._launch import expand
from mcp_skew.versions import REGISTRY


@pytest.mark.parametrize(("argv", "message"), [
    (["probe-client"], "give the client's words after --"),
    (["probe-client", "--", "client"], "no {server}"),
    (["probe-client", "--transport", "http", "--", "client", "{server}"], "no {url}"),
    (["probe-client", "--server", "legacy:1999-01-01", "--", "c", "{server}"], "1999-01-01"),
    (["probe-client", "--server", "legacy:1999-01-01->dual:2026-07-28,2025-11-25", "--", "c",
      "{server}"], "1999-01-01"),
    (["probe-client", "--server", "legacy:2025-11-25->nonsense", "--", "c", "{server}"],
     "nonsense"),
    (["probe-client", "--require", "1999-01-01", "--", "c", "{server}"], "--require"),
    (["probe-client", "--timeout", "0", "--", "c", "{server}"], "--timeout"),
    (["probe-client", "--jobs", "99", "--", "c", "{server}"], "--jobs"),
    (["probe-client", "--env", "NOEQUALS", "--", "c", "{server}"], "--env"),
    (["probe-client", "--cwd", "/nonexistent/dir", "--", "c", "{server}"], "--cwd"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(("cpus", "jobs"), [(None, 1), (1, 1), (2, 2), (3, 2), (64, 2)])
def test_two_runs_at_once_by_default_where_two_cpus_exist(
        cpus: int | None, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)  # None: Python cannot tell

    def chosen(*argv: str) -> int:
        args = _parser().parse_args(["probe-client", *argv, "--", "c", "{server}"])
        args.registry = REGISTRY
        return options(args)[1].jobs

    assert chosen() == jobs
    assert chosen("--jobs", "1") == 1 and chosen("--jobs", "16") == 16  # given: as given


def test_an_output_that_cannot_be_written_fails_before_any_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe-client", "--out", str(tmp_path), "--", "c", "{server}"]) == 2
    assert "--out" in capsys.readouterr().err


def test_the_placeholders_are_filled_in_as_words_or_inside_a_word() -> None:
    server = ["python", "-m", "mcp_skew", "serve", "legacy:2025-11-25"]
    assert expand(["client", "--", "{server}"], server, "") == ["client", "--", *server]
    assert expand(["client", "--command={server}"], server, "") == [
        "client", "--command=python -m mcp_skew serve legacy:2025-11-25"]
    assert expand(["client", "--url", "{url}"], [], "http://127.0.0.1:1/mcp") == [
        "client", "--url", "http://127.0.0.1:1/mcp"]


def test_every_client_finding_is_in_the_guide() -> None:
    from mcp_skew.simulator.findings._codes import FINDING_CODES

    guide = (Path(__file__).resolve().parents[2] / "docs" / "probe-client.md").read_text()
    missing = [c for c in FINDING_CODES if c.startswith("client-") and f"`{c}`" not in guide]
    assert not missing

"""Small things a newcomer meets: a mistyped option or command suggests the one meant, in
one line with exit code 2; ``-V`` prints the version; ``-q`` on every command that
prints progress."""

from __future__ import annotations

import pytest
from _fuzz import run_cli

import mcp_skew


@pytest.mark.parametrize(("argv", "says"), [
    (["matrx"], "invalid choice: 'matrx' (choose from 'matrix', "),
    (["matrix", "--fromm", "x.json"], "unrecognized arguments: --fromm x.json; did you mean "
     "--from? (see mcp-skew matrix --help)"),
    (["matrix", "--clinets", "x"], "did you mean --clients?"),
    (["serve", "legacy:2025-06-18", "--htp", "1"], "did you mean --http?"),
    (["versions", "--formt", "json"], "did you mean --format?"),
    (["probe", "--urll", "x"], "did you mean --url?"),
    (["simulte"], "did you mean simulate?"),
    (["census", "report", "--formt", "html"], "did you mean --format?"),
])
def test_a_mistyped_word_suggests_the_one_meant(argv: list[str], says: str) -> None:
    code, out, err = run_cli(argv)
    assert (code, out) == (2, "")
    assert says in err and err.count("\n") == 1 and err.startswith("mcp-skew"), err


def test_no_suggestion_for_a_word_like_none() -> None:
    code, _, err = run_cli(["matrix", "--zzzzzz"])
    assert code == 2 and "did you mean" not in err and err.count("\n") == 1


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_the_version(flag: str) -> None:
    assert run_cli([flag]) == (0, f"mcp-skew {mcp_skew.__version__}\n", "")


@pytest.mark.parametrize("command", [
    ["matrix", "--clients", "legacy:2025-06-18", "--servers", "legacy:2025-06-18", "--progress"],
    ["census", "report"], ["probe", "--url", "http://127.0.0.1:1/mcp"], ["verify-peer"],
    ["serve", "legacy:2025-06-18"],
])
def test_every_command_that_prints_progress_takes_q(command: list[str]) -> None:
    code, _, err = run_cli([*command, "-q", "--zzzz"])  # parsed, then the unknown option
    assert code == 2 and "unrecognized arguments: --zzzz" in err, err


def test_q_silences_the_matrix_progress() -> None:
    argv = ["matrix", "--clients", "legacy:2025-06-18", "--servers", "legacy:2025-06-18",
            "--progress"]
    assert "matrix: 1/1 pairs" in run_cli(argv)[2]
    code, _, err = run_cli([*argv, "-q"])
    assert code == 0 and err == ""


# -- issue 33: did-you-mean for revisions, quirks, named peers and modes, as for options --------

@pytest.mark.parametrize(("argv", "says"), [
    (["simulate", "--client", "legacy:2025-11-52", "--server", "legacy:2025-06-18"],
     "unknown revision '2025-11-52' (did you mean 2025-11-25?)"),
    (["simulate", "--client", "legacy:2025-06-18", "--server", "legacy:2025-06-18+slient"],
     "unknown server quirk 'slient' (did you mean silent?)"),
    (["simulate", "--client", "legacy:2025-06-18", "--server", "py-mcpp@2.3"],
     "unknown named peer 'py-mcpp@2.3' (did you mean py-mcp@2.3?)"),
    (["simulate", "--client", "py-mcp@2.0:legcy", "--server", "legacy:2025-06-18"],
     "no client mode 'legcy' (did you mean legacy?)"),
    (["simulate", "--client", "lgacy:2025-06-18", "--server", "legacy:2025-06-18"],
     "unknown kind 'lgacy' (did you mean legacy?)"),
    (["simulate", "--client", "legacy:2025-06-18", "--server",
      "legacy:2025-06-18+fixed=2025-03-62"], "unknown revision '2025-03-62' (did you mean "
     "2025-03-26?)"),
    (["matrix", "--clients", "dual:2026-07-28,2025-11-25+restrat", "--servers", "2025-06-18"],
     "unknown client quirk 'restrat' (did you mean restart?)"),
    (["migrate", "2025-06-81", "2025-11-25"], "unknown revision '2025-06-81' (did you mean "
     "2025-06-18?)"),
    (["diff", "2025-06-18", "2025-11-2"], "(did you mean 2025-11-25?)"),
    (["show", "2025-1125"], "(did you mean 2025-11-25?)"),
    (["verify-peer", "py-mcpp@2.0"], "(did you mean py-mcp@2.0?)"),
])
def test_a_mistyped_revision_quirk_or_peer_suggests_the_one_meant(argv: list[str],
                                                                   says: str) -> None:
    code, out, err = run_cli(argv)
    assert (code, out) == (2, "")
    assert says in err and err.count("\n") == 1 and err.startswith("mcp-skew: error: "), err


@pytest.mark.parametrize("argv", [
    ["simulate", "--client", "legacy:2025-06-18", "--server", "legacy:2025-06-18+zzzzzz"],
    ["simulate", "--client", "legacy:2025-06-18", "--server", "zzzz@1"],
    ["show", "1999"],
    ["simulate", "--client", "legacy:2025-06-18", "--server", "legacy:2025-06-18+auth=nope"],
    ["show", "2099-01-01"],  # a date: every two share dashes and century
    ["simulate", "--client", "legacy:2031-02-03", "--server", "legacy:2025-06-18"],
])
def test_no_suggestion_for_a_name_like_none(argv: list[str]) -> None:
    code, _, err = run_cli(argv)
    assert code == 2 and "did you mean" not in err and err.count("\n") == 1, err

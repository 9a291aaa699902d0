"""``mcp-skew probe``: exit codes, formats, --record, --save-peer, bad input."""

from __future__ import annotations

import pytest

from mcp_skew.cli import main


@pytest.mark.parametrize(("args", "message"), [
    ([], "give a server command after -- or --url URL"),
    (["--url", "http://127.0.0.1:1/mcp", "--", "server"], "one of the two"),
    (["--tool", "t", "--args", "[1", "--", "x"], "--args is not JSON"),
    (["--tool", "t", "--args", "[1]", "--", "x"], "--args must be a JSON object"),
    (["--args", "{}", "--", "x"], "--args needs --tool NAME"),
    (["--require", "2030-01-01", "--", "x"], "--require: unknown revision '2030-01-01'"),
    (["--client", "legacy:2030-01-01", "--", "x"], "unknown revision"),
    (["--jobs", "0", "--", "x"], "--jobs: 0 is out of range (1 to 64)"),
    (["--jobs", "²", "--", "x"], "--jobs: '²' is not a whole number"),
    (["--timeout", "nan", "--", "x"], "--timeout: 'nan' is not a number of seconds"),
    (["--probe-timeout", "inf", "--", "x"], "--probe-timeout: 'inf' is not a number"),
    (["--client-timeout", "-1", "--", "x"], "--client-timeout: '-1' is not a number"),
    (["--timeout", "0", "--", "x"], "--timeout: 0 is out of range"),
    (["--env", "NOEQUALS", "--", "x"], "expected ENV=VALUE"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--quiet", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1

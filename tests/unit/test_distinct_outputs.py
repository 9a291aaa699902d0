"""Two outputs of one command never name one file (issue 33): ``--out`` and ``--save-peer``
the same path (as written, through a link, or a hard link), or a file inside the
``--record`` folder, is one line and exit code 2 before anything starts; nothing is
written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _fuzz import check_outcome, run_cli

from mcp_skew._output import check_distinct
from mcp_skew.errors import UsageError

COMMANDS = [["probe", "--timeout", "1"], ["probe-client", "--timeout", "1"]]
#: The program each command starts (never reached here: the outputs are refused first).
WORDS = {"probe": ["--", "true"], "probe-client": ["--", "true", "{server}"]}


def _run(argv: list[str]) -> str:
    code, _, err = run_cli(argv)
    check_outcome(argv, (code, "", err))
    assert code == 2, err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_out_and_save_peer_naming_one_file_are_refused(tmp_path: Path,
                                                        command: list[str]) -> None:
    report = tmp_path / "r.json"
    err = _run([*command, "--out", str(report), "--save-peer", str(report), *WORDS[command[0]]])
    assert f"--save-peer {report}: is the same file as --out {report}" in err
    assert not report.exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_link_or_a_dotted_path_to_the_same_file_is_refused(tmp_path: Path,
                                                             command: list[str]) -> None:
    report = tmp_path / "r.json"
    report.write_text("kept\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(report)
    hard = tmp_path / "hard.json"
    os.link(report, hard)
    (tmp_path / "sub").mkdir()
    for other in (link, hard, tmp_path / "sub" / ".." / "r.json",
                  tmp_path / "missing" / ".." / "r.json"):
        err = _run([*command, "--out", str(report), "--save-peer", str(other), *WORDS[command[0]]])
        assert "is the same file as --out" in err
        err = _run([*command, "--save-peer", str(hard), "--out", str(other), *WORDS[command[0]]])
        assert "--save-peer " in err and "is the same file as --out" in err
    assert report.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_an_output_inside_the_record_folder_is_refused(tmp_path: Path,
                                                       command: list[str]) -> None:
    folder = tmp_path / "rec"
    for option in ("--out", "--save-peer"):
        err = _run([*command, option, str(folder / "report.json"), "--record", str(folder),
                    *WORDS[command[0]]])
        assert f"{option} {folder / 'report.json'}: is in --record {folder}" in err
        err = _run([*command, option, str(folder), "--record", str(folder), *WORDS[command[0]]])
        assert f"is in --record {folder}" in err
    assert not folder.exists()


def test_distinct_outputs_and_stdout_pass(tmp_path: Path) -> None:
    check_distinct({"--out": tmp_path / "a", "--save-peer": tmp_path / "b", "--x": None},
                   {"--record": tmp_path / "rec"})
    check_distinct({"--out": "-", "--save-peer": "-"})
    with pytest.raises(UsageError, match="the same file"):
        check_distinct({"--out": tmp_path / "a", "--save-peer": str(tmp_path / "a")})


def test_check_outputs_checks_each_file_each_folder_and_that_they_are_distinct(
        tmp_path: Path) -> None:
    from mcp_skew._output import check_outputs

    out, folder = tmp_path / "card.json", tmp_path / "logs"
    check_outputs({"--out": str(out), "--save-peer": None}, {"--record": str(folder)})
    with pytest.raises(UsageError, match=r"^--save-peer .*no such directory"):
        check_outputs({"--out": None, "--save-peer": str(tmp_path / "no" / "peer.json")})
    with pytest.raises(UsageError, match=r"^--record "):
        check_outputs({"--out": None}, {"--record": str(tmp_path / "no" / "logs")})
    with pytest.raises(UsageError, match=r"--out"):
        check_outputs({"--out": str(folder / "card.json")}, {"--record": str(folder)})
    assert not out.exists() and not folder.exists()

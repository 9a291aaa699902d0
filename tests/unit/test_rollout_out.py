"""``mcp-skew rollout --out``: written as every command writes its report
(``_output.emit``): a regular file whole, a FIFO written through and left a FIFO, a directory
refused; and never over a file the command reads (an ``@FILE`` peer of ``--clients``,
``--fleet``, ``--to``, ``--clients-to``, or a ``--profile``), which is refused before the
work, exit 2 and one line, the file left as it was (matrix --out refuses the same)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from mcp_skew.cli import main
from mcp_skew.peers import PEER_FILE_FORMAT

ARGS = ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
        "--duration", "2m"]


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _peer_file(path: Path, spec: str, role: str) -> str:
    text = json.dumps({"format": PEER_FILE_FORMAT, "peer": spec, "role": role, "label": "",
                       "target": "x", "sentence": "a peer"})
    path.write_text(text, encoding="utf-8")
    return text


def test_a_regular_file_is_written_whole(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    code, text, _ = _cli(capsys, *ARGS, "--format", "json")
    out = tmp_path / "r.json"
    out.write_text("old")
    code, stdout, err = _cli(capsys, *ARGS, "--format", "json", "--out", str(out))
    assert code == 0 and stdout == "" and err.startswith(f"mcp-skew: wrote {out}: ")
    assert out.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("option", ["--fleet", "--clients", "--to", "--clients-to"])
def test_out_never_replaces_an_input_peer_file(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path, option: str) -> None:
    role = "client" if option in ("--clients", "--clients-to") else "server"
    path = tmp_path / "peer.json"
    before = _peer_file(path, "legacy:2025-11-25" if role == "server" else "legacy:2025-06-18",
                        role)
    count = "*2" if option in ("--fleet", "--clients") else ""
    argv = [*ARGS, option, f"@{path}{count}", "--out", str(path)]
    if option == "--clients-to":
        argv += ["--plan", "--to", "legacy:2025-06-18"]
    code, stdout, err = _cli(capsys, *argv)
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert "an input of the command" in err
    assert path.read_text(encoding="utf-8") == before


def test_a_directory_is_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    code, stdout, err = _cli(capsys, *ARGS, "--out", str(tmp_path))
    assert code == 2 and stdout == "" and err.count("\n") == 1 and "is a directory" in err


def test_a_fifo_is_written_through_and_stays_a_fifo(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        code, stdout, _ = _cli(capsys, *ARGS, "--format", "json", "--out", str(fifo))
        reader.join(60)
    finally:
        if reader.is_alive():  # nothing was written: let the reader go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert code == 0 and stdout == ""
    assert json.loads(got[0])["totals"]["requests"] > 0
    assert fifo.is_fifo()

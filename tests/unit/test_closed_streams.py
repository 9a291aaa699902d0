"""Closed and odd standard streams, for every command, in a real process (the streams are
the process's own): no traceback; a closed standard output is one line and exit code 2,
a closed standard input reads as empty, an ASCII-only encoding gets escapes, and a reader
that goes away ends the command quietly with 141 (as SIGPIPE reports in a shell).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CLI = [sys.executable, "-m", "mcp_skew"]
#: Generous: the command takes about a second; this bound is for a machine under load.
TIMEOUT = 300


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CLI, *argv], capture_output="stdout" not in kwargs
                          and "stderr" not in kwargs, timeout=TIMEOUT, check=False,
                          **kwargs)  # type: ignore[call-overload]


def _closed(fd: int, argv: list[str]) -> tuple[int, str]:
    """``mcp-skew ARGV`` with descriptor ``fd`` closed; (exit code, stderr)."""
    def close() -> None:
        os.close(fd)

    proc = subprocess.run([*CLI, *argv], stdin=subprocess.DEVNULL if fd != 0 else None,
                          stdout=subprocess.PIPE if fd != 1 else None, stderr=subprocess.PIPE,
                          preexec_fn=close, timeout=TIMEOUT, check=False)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def census_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mcp_skew.census._store import CensusDB

    path = tmp_path_factory.mktemp("db") / "c.sqlite"
    CensusDB(path).close()
    return path


COMMANDS = [
    ["versions"], ["show", "2025-06-18"], ["diff", "2025-06-18", "2026-07-28"],
    ["matrix", "--clients", "legacy:2025-06-18", "--servers", "legacy:2025-06-18"],
    ["migrate", "2025-06-18", "2026-07-28"],
    ["rollout", "--clients", "legacy:2025-06-18*2", "--fleet", "legacy:2025-11-25*2",
     "--duration", "2m"],
    ["census", "report", "--db", "{db}"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[a[0] for a in COMMANDS])
def test_a_closed_stdout_is_one_line_and_exit_2(argv: list[str], census_db: Path) -> None:
    code, err = _closed(1, [a.format(db=census_db) for a in argv])
    assert code == 2, err
    assert err == "mcp-skew: error: standard output is closed; nothing was written\n"


def test_a_closed_stdout_is_no_matter_with_out(tmp_path: Path) -> None:
    out = tmp_path / "m.txt"
    code, err = _closed(1, ["matrix", "--clients", "legacy:2025-06-18", "--servers",
                            "legacy:2025-06-18", "--out", str(out)])
    assert code == 0, err
    assert "legacy" in out.read_text(encoding="utf-8")


def test_a_closed_stdin_reads_as_empty() -> None:
    code, err = _closed(0, ["serve", "legacy:2025-06-18"])
    assert code == 0 and "Traceback" not in err, err
    code, err = _closed(0, ["matrix", "--from", "-"])
    assert code == 2 and err == "mcp-skew: error: --from -: not JSON (Expecting value " \
        "(at character 0))\n", err


def test_an_ascii_only_encoding_gets_escapes() -> None:
    proc = _run(["matrix", "--clients", "modern:2026-07-28", "--servers", "legacy:2024-11-05"],
                env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    assert b"\\u2717" in proc.stdout and b"Traceback" not in proc.stderr


def test_a_reader_that_goes_away_ends_it_quietly() -> None:
    proc = subprocess.Popen([*CLI, "versions", "--format", "json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before it writes: its first write meets a closed pipe
    err = proc.stderr.read()
    assert proc.wait(timeout=TIMEOUT) == 141
    assert err == b""


def test_a_full_read_is_unchanged() -> None:
    proc = _run(["versions", "--format", "json"])
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["revisions"]

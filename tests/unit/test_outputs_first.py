"""Output paths and schema files are checked before any work: nothing runs on a bad one;
and ``matrix --out`` writes through a symlink and a FIFO, which stay what they were."""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
from pathlib import Path

from _fuzz import check_outcome, run_cli

MATRIX = ["matrix", "--clients", "legacy:2025-06-18", "--servers", "legacy:2025-11-25",
          "--format", "json"]


def _server(marker: Path) -> list[str]:
    """A "server" that leaves a file behind if it is ever started."""
    return ["--", sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]


def _probe(argv: list[str]) -> tuple[int, str]:
    """``probe ARGV`` in this process; a fast test, so the cost guard (tests/_cost_guard.py)
    fails it outright if the probe starts its server."""
    code, _, err = run_cli(argv)
    check_outcome(argv, (code, "", err))
    return code, err


def test_probe_out_in_a_missing_folder_fails_before_the_probe(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    code, err = _probe(["probe", "--out", str(tmp_path / "no" / "r.json"), *_server(marker)])
    assert code == 2 and "--out" in err
    assert not marker.exists()


def test_a_bad_schema_file_fails_before_the_probe(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    for text, why in (("[" * 100_000, "not JSON"), ('{"a": 1}', "not a JSON Schema"),
                      ("{nope", "not JSON")):
        schemas = tmp_path / "schemas" / "2025-06-18"
        schemas.mkdir(parents=True, exist_ok=True)
        (schemas / "schema.json").write_text(text, encoding="utf-8")
        code, err = _probe(["probe", "--schemas", str(tmp_path / "schemas"), *_server(marker)])
        assert code == 2 and why in err and "schema.json" in err, err
    assert not marker.exists()


def test_matrix_out_writes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, _, err = run_cli([*MATRIX, "--out", str(link)])
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text(encoding="utf-8"))


def test_matrix_out_to_a_fifo_leaves_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with fifo.open("rb") as stream:
            got.append(stream.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code, _, err = run_cli([*MATRIX, "--out", str(fifo)])
    reader.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and json.loads(got[0])

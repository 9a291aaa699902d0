"""``matrix._command.run_command``: whether the real packages run is whether their runs were
given (``real``), one source of truth; the options ``--run-real`` does not take are refused
on that, not on a second reading of ``args.run_real``. Here the runs are given to a command
line without ``--run-real`` (stand-ins: no package runs, no process starts)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_skew.cli import main
from mcp_skew.commands import matrix as matrix_command
from mcp_skew.matrix import Matrix
from mcp_skew.matrix import _command as command

PAIR = ["--clients", "legacy:2025-11-25", "--servers", "legacy:2025-11-25"]


@pytest.fixture
def given(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The matrix command with stand-in real runs given, whatever its options; what ran."""
    ran: list[str] = []

    def runs(matrix: Matrix, **_kw: Any) -> Matrix:
        ran.append("runs")
        return matrix

    def section(_matrix: Matrix, fmt: str) -> str:
        ran.append(f"section {fmt}")
        return "REAL SECTION\n"

    def with_real(args: Any, peers: Any) -> int:
        return command.run_command(args, peers, (runs, section))

    monkeypatch.setattr(matrix_command, "run_command", with_real)
    monkeypatch.delenv("COLUMNS", raising=False)
    return ran


def test_given_real_runs_run_and_report(given: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", *PAIR]) == 0
    out, _ = capsys.readouterr()
    assert given == ["runs", "section text"]
    assert out.endswith("REAL SECTION\n")


@pytest.mark.parametrize(("extra", "refused"), [
    (["--transport", "http"], "--run-real runs the real packages over stdio"),
    (["--via", "supergateway@4"], "--via is simulated only"),
])
def test_given_real_runs_refuse_what_run_real_does_not_take(
        given: list[str], capsys: pytest.CaptureFixture[str], extra: list[str],
        refused: str) -> None:
    assert main(["matrix", *PAIR, *extra]) == 2
    _, err = capsys.readouterr()
    assert refused in err and err.count("\n") == 1
    assert given == []

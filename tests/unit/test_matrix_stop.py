"""A stop while ``matrix --run-real`` runs real pairs (``matrix._command._stoppable`` and
``realpeers._realmatrix.run_real``), in this process with no real package: the main thread
sees a stop even where its raise was swallowed, and tells the pairs' thread to start no more
pairs. (The same with real processes and signals: ``tests/slow/unit/
test_matrix_run_real_signals.py``.)"""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from mcp_skew import _stopping
from mcp_skew.matrix import _command as matrix_command
from mcp_skew.matrix import build_matrix
from mcp_skew.peers import builtin_peer
from mcp_skew.realpeers import _realmatrix
from mcp_skew.realpeers._installs import Install
from mcp_skew.wire import _procs


@pytest.fixture(autouse=True)
def _reopened() -> Any:
    yield
    _stopping._received.clear()
    _procs.reopen()


def test_a_swallowed_stop_stops_the_run_and_tells_its_thread() -> None:
    told: list[bool] = []

    def work(stop: threading.Event) -> Any:
        _stopping._received.append(signal.SIGTERM)  # a stop whose raise was swallowed
        told.append(stop.wait(30))  # the pairs' thread, waiting to be told
        return None

    with pytest.raises(_stopping.Terminated):
        matrix_command._stoppable(work)
    assert told == [True]


def test_a_stopped_run_starts_no_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[object] = []
    monkeypatch.setattr(_realmatrix, "prepare", lambda packages, jobs=2: {
        p: Install(p, Path("/nonexistent"), 0.0, True) for p in packages})
    monkeypatch.setattr(_realmatrix, "_run_pair", lambda *args: ran.append(args))
    clients = [builtin_peer("py-mcp@1.0", "client"), builtin_peer("ts-sdk@1.25", "client")]
    servers = [builtin_peer("py-mcp@1.0", "server")]
    stop = threading.Event()
    stop.set()
    real = _realmatrix.run_real(build_matrix(clients, servers, keep_transcripts=False),
                                stop=stop)
    assert ran == []
    details = {cell.real.detail for row in real.cells for cell in row if cell.real is not None}
    assert details == {"not run: the command was stopped"}

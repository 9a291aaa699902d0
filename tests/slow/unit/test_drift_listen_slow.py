"""The drift checks read a started server's work from /proc: they wait for a real HTTP server
to listen while it is busy starting, and give up on one that sits idle without listening
(``_drift.wait_listening``); they wait for a stdio server to be idle before the first message
(``_drift.wait_until_idle``). What ``wire.spawn`` returns is the supervisor, asleep at once;
the server's work is its family's.

Real processes: a Python process that spins (a start on a busy machine: using CPU or waiting
its turn for it) longer than the idle streak, then listens or sleeps; one that sleeps and
never listens.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from _paths import TESTS

from mcp_skew.realpeers import _drift
from mcp_skew.wire import end, spawn

pytestmark = pytest.mark.slow

IDLE_S = 1.0
SPIN_S = 3 * IDLE_S  # busy three idle streaks long: a fixed wait of IDLE_S would give up

SPIN_THEN_LISTEN = f"""
import socket, sys, time
give_up = time.monotonic() + {SPIN_S}
while time.monotonic() < give_up:
    pass
server = socket.create_server(("127.0.0.1", int(sys.argv[1])))
time.sleep(60)
"""


def _run(code: str, port: int) -> subprocess.Popen[bytes]:
    return spawn([sys.executable, "-c", code, str(port)], stdin=subprocess.DEVNULL)


def test_a_server_busy_longer_than_the_idle_streak_is_waited_for_until_it_listens() -> None:
    port = _drift._free_port()
    proc = _run(SPIN_THEN_LISTEN, port)
    try:
        started = time.monotonic()
        assert _drift.wait_listening(proc, port, idle_s=IDLE_S)
        assert time.monotonic() - started >= SPIN_S
    finally:
        end(proc)


def test_a_server_asleep_without_listening_is_given_up_after_the_idle_streak() -> None:
    port = _drift._free_port()
    proc = _run("import time; time.sleep(60)", port)
    try:
        started = time.monotonic()
        assert not _drift.wait_listening(proc, port, idle_s=IDLE_S)
        assert time.monotonic() - started < 60  # the streak, not the sleep, ended it
        assert proc.poll() is None
    finally:
        end(proc)


def test_the_idle_wait_is_the_servers_not_its_supervisors() -> None:
    spin_then_sleep = f"import time\ngive_up = time.monotonic() + {SPIN_S}\n" \
        "while time.monotonic() < give_up:\n    pass\ntime.sleep(60)"
    proc = _run(spin_then_sleep, 0)
    try:
        assert _drift.wait_until_idle(proc.pid, limit_s=60.0) >= SPIN_S
    finally:
        end(proc)


def test_a_links_deadline_runs_from_its_idle_start_not_its_spawn() -> None:
    # a start longer than the whole budget (a busy machine's), then a server that answers
    spin_then_serve = f"import runpy, sys, time\ngive_up = time.monotonic() + {SPIN_S}\n" \
        "while time.monotonic() < give_up:\n    pass\nsys.argv = sys.argv[:1] + ['0']\n" \
        f"runpy.run_path({str(TESTS / 'servers' / 'slow_answers.py')!r}, run_name='__main__')"
    link = _drift._real_link([sys.executable, "-c", spin_then_serve], budget_ms=2_500)
    try:
        assert link.now_ms() >= SPIN_S * 1000
        answer = link.request(_drift._raw_initialize(1, "2025-06-18"), 2_400)
        assert _drift._answer(answer) == "result 2025-06-18"
        assert not link.deadline_hit
    finally:
        link.close()

"""The drift checks' raw probes give each process's first answer the cold start measured in
a calibrating process: a server whose first answer comes late (lazy imports on the first
request, a slow start while the process sleeps) is not read as silent ("none").

Where no cold start could be measured (a server silent at it), the first answer has the
whole startup bound; a server that says nothing to the calibrating pair and exits on it
(mcp 1.0 to 1.9.3: silent to a request before ``initialize``, gone at the next message) is
measured with the handshake alone.

Real processes: ``mcp-skew serve`` of a server with ``+slow=MS``, which sleeps before reading
its input, so the idle wait before the first probe cannot cover it; the model it is compared
with is the same server without the slow start (a model says nothing of a start's length).
"""

from __future__ import annotations

import sys
import time

import pytest
from _paths import TESTS

from mcp_skew.peers import builtin_peer
from mcp_skew.realpeers import _drift
from mcp_skew.simulator import MemoryLink, SimServer, parse_peer

pytestmark = pytest.mark.slow

SLOW_MS = 3_000  # above the raw probes' 2 s per answer
PLAIN = "legacy:2025-11-25"
COMMAND = [sys.executable, "-m", "mcp_skew", "serve", f"{PLAIN}+slow={SLOW_MS}"]
PROBE = (_drift.RawLine("{not json"), _drift._raw_initialize(1, "2025-06-18"))
#: the model of mcp 1.9.3 served with the same slow start: silent to the calibrating pair
STRICT = "py-mcp@1.9"
STRICT_COMMAND = [sys.executable, "-m", "mcp_skew", "serve", f"{STRICT}+slow={SLOW_MS}"]


def _model_answers() -> list[str]:
    link = MemoryLink(lambda: SimServer(parse_peer(PLAIN, "server")))
    answers: list[str] = _drift._raw_run(link, PROBE).answers or []
    return answers


def test_the_cold_start_is_the_first_answer_not_the_end_of_the_start() -> None:
    cold = _drift.cold_start_ms(COMMAND)
    assert cold is not None and cold >= SLOW_MS


def test_a_server_that_exits_at_start_has_no_cold_start_and_is_not_waited_for() -> None:
    started = time.monotonic()
    assert _drift.cold_start_ms([sys.executable, str(TESTS / "servers" / "crash_at_start.py")]) is None
    assert time.monotonic() - started < _drift.startup_bound_ms() / 1000


def test_with_the_allowance_a_late_first_answer_is_read_as_the_model_reads_it() -> None:
    link = _drift._real_link(COMMAND)
    link.startup_allowance_ms = _drift._startup_allowance(_drift.cold_start_ms(COMMAND), jobs=2)
    real = _drift._raw_run(link, PROBE).answers
    assert real == _model_answers() == ["error -32700", "result 2025-11-25"]  # its counter-offer


def test_without_it_the_late_first_answer_is_lost() -> None:
    # the failure the allowance mends: the raw line's 2 s wait ends before the server reads
    real = _drift._raw_run(_drift._real_link(COMMAND), PROBE).answers
    assert real and real[0] == "none"


def test_with_no_cold_start_known_the_late_first_answer_has_the_whole_startup_bound() -> None:
    # nothing measured (the calibrating process said nothing): the rule, not a guess
    link = _drift._real_link(COMMAND)
    link.startup_allowance_ms = _drift._startup_allowance(None, jobs=2)
    real = _drift._raw_run(link, PROBE).answers
    assert real == _model_answers()


@pytest.fixture(scope="module")
def strict_cold() -> int | None:
    """The cold start of :data:`STRICT_COMMAND`, measured once for the file."""
    return _drift.cold_start_ms(STRICT_COMMAND)


def test_a_server_the_calibrating_pair_ends_unanswered_is_measured_by_its_handshake(
        strict_cold: int | None) -> None:
    first, exited = _drift._first_answer_ms(STRICT_COMMAND, _drift._EITHER_ERA)
    assert first is None and exited  # silent to discover, then gone at initialize
    assert strict_cold is not None and strict_cold >= SLOW_MS


def test_its_late_first_answer_is_read_as_the_model_reads_it(strict_cold: int | None) -> None:
    # the raw probe py-mcp 1.9 failed at load 20: its answer to initialize read as "none"
    probe = next(p for p in _drift.RAW_PROBES if p[0].startswith("raw: initialize 1999-01-01"))
    c = _drift.raw_comparison(STRICT_COMMAND, builtin_peer(STRICT, "server"), probe, strict_cold,
                              _drift._startup_allowance(strict_cold, jobs=2))
    assert c.agrees, c.differences
    assert c.real.answers == ["result 2025-03-26", "none", "exit", "exit"]

"""A process and a clock that a fast test replays, for the waits that poll a process family
(``realpeers._drift.wait_listening`` and ``_bridge_start.start_bridge``): the clock moves
only when the code under test sleeps, and the process exits when the clock reaches
``exits_at``, so no test waits on the machine's speed."""

from __future__ import annotations

from collections.abc import Iterator


class FakeClock:
    """``time.monotonic`` and ``time.sleep`` without waiting: sleep moves the clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class FakeProc:
    """The parts of a ``subprocess.Popen`` the waits read: its pid, no stdin, and ``poll``,
    which gives ``code`` from ``exits_at`` on (None: it never exits)."""

    pid = 1
    stdin = None

    def __init__(self, exits_at: float | None, clock: FakeClock, code: int = 1) -> None:
        self.exits_at, self.clock, self.code = exits_at, clock, code

    def poll(self) -> int | None:
        return self.code if self.exits_at is not None and self.clock.now >= self.exits_at \
            else None


class Closing:
    """What a successful ``socket.create_connection`` gives the waits: closed at once."""

    def close(self) -> None:
        pass


def busy_samples() -> Iterator[tuple[str, int]]:
    """A process family starting on a busy machine, as each poll reads it: runnable, a CPU
    tick now and then."""
    n = 0
    while True:
        n += 1
        yield ("R", n // 7)

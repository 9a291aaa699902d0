"""A real server process for ``replay -- COMMAND``: write exact lines, collect lines with times.

Why not the simulator's stdio link: replay sends the recorded lines **byte for
byte** (a line that is not JSON, a key order, a spacing, are part of what is
replayed), and a :class:`~mcp_skew.simulator.Link` speaks in parsed messages.
This is the smallest loop that does it: the command runs directly (no shell),
in a session of its own (:func:`mcp_skew.wire._procs.spawn`), one thread per
output pipe puts ``(ms, direction, bytes, partial)`` on a queue, and the caller
waits on the queue with a deadline. Writes have a deadline too (standard input
is non-blocking): a server that never reads cannot block the replay. Closing
ends the server's whole family (:func:`mcp_skew.wire._procs.end`): SIGTERM, a
grace period, SIGKILL, ``setsid`` descendants included.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import select
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UsageError
from ..wire import end, spawn
from ._log import LineSplitter

__all__ = ["Child", "ChildLine"]


@dataclass(frozen=True, slots=True)
class ChildLine:
    ms: float
    dir: str  #: s2c or stderr
    raw: bytes
    partial: bool = False


class Child:
    """One server process; ``send`` lines, ``lines(until)`` reads what came back."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        self._start = time.monotonic()
        try:
            self.proc = spawn(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, bufsize=0)
        except OSError as exc:
            raise UsageError(f"cannot run {self.argv[0]}: {exc.strerror or exc}") from None
        assert self.proc.stdin
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.queue: queue.Queue[ChildLine | None] = queue.Queue()
        self._open = 2
        assert self.proc.stdout and self.proc.stderr
        for stream, name in ((self.proc.stdout, "s2c"), (self.proc.stderr, "stderr")):
            threading.Thread(target=self._read, args=(stream.fileno(), name), daemon=True).start()

    def now_ms(self) -> float:
        return (time.monotonic() - self._start) * 1000

    def _read(self, fd: int, name: str) -> None:
        split = LineSplitter()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            for raw in split.feed(chunk):
                self.queue.put(ChildLine(self.now_ms(), name, raw))
        tail = split.finish()
        if tail is not None:
            self.queue.put(ChildLine(self.now_ms(), name, tail, partial=True))
        self.queue.put(None)

    def send(self, data: bytes, timeout_s: float) -> bool:
        """Write to the server's standard input within ``timeout_s``; False once it is closed
        or when the server has not read it all by then."""
        assert self.proc.stdin
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        give_up = time.monotonic() + timeout_s
        try:
            while view:
                left = give_up - time.monotonic()
                if left <= 0:
                    raise OSError(errno.ETIMEDOUT, "the server does not read its standard input")
                _, ready, _ = select.select([], [fd], [], left)
                if ready:
                    with contextlib.suppress(BlockingIOError):
                        view = view[os.write(fd, view):]
        except (OSError, ValueError):
            return False
        return True

    def next_line(self, deadline_ms: float) -> ChildLine | None:
        """The next line before ``deadline_ms``, or None (time is up, or both pipes ended)."""
        while self._open:
            wait = (deadline_ms - self.now_ms()) / 1000
            if wait <= 0:
                return None
            try:
                item = self.queue.get(timeout=wait)
            except queue.Empty:
                return None
            if item is None:
                self._open -= 1
                continue
            return item
        return None

    @property
    def ended(self) -> bool:
        return self._open == 0

    def close(self, timeout_s: float) -> int | None:
        """Close standard input, wait, then SIGTERM and SIGKILL to the server's family (the
        stdio shutdown order); the exit code, None if the server could not be collected."""
        assert self.proc.stdin
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout_s)
        return end(self.proc, grace_s=timeout_s)

"""A real server process for ``replay -- COMMAND``: write exact lines, collect lines with times.

Why not the simulator's stdio link: replay sends the recorded lines **byte for
byte** (a line that is not JSON, a key order, a spacing, are part of what is
replayed), and a :class:`~mcp_skew.simulator.Link` speaks in parsed messages.
This is the smallest loop that does it: the command runs directly (no shell),
one thread per output pipe puts ``(ms, direction, bytes, partial)`` on a
queue, and the caller waits on the queue with a deadline.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UsageError
from ._log import LineSplitter

__all__ = ["Child", "Line"]


@dataclass(frozen=True, slots=True)
class Line:
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
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         bufsize=0)
        except OSError as exc:
            raise UsageError(f"cannot run {self.argv[0]}: {exc.strerror}") from None
        self.queue: queue.Queue[Line | None] = queue.Queue()
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
                self.queue.put(Line(self.now_ms(), name, raw))
        tail = split.finish()
        if tail is not None:
            self.queue.put(Line(self.now_ms(), name, tail, partial=True))
        self.queue.put(None)

    def send(self, data: bytes) -> bool:
        """Write to the server's standard input; False once it is closed."""
        assert self.proc.stdin
        try:
            self.proc.stdin.write(data)
            return True
        except OSError:
            return False

    def next_line(self, deadline_ms: float) -> Line | None:
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
        """Close standard input, wait, then terminate and kill (the stdio shutdown order)."""
        assert self.proc.stdin
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        for step in (None, self.proc.terminate, self.proc.kill):
            if step is not None:
                with contextlib.suppress(OSError):
                    step()
            try:
                return self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                continue
        return None

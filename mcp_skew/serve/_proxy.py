"""A transparent stdio proxy that writes a wire log: ``mcp-skew record``.

Theory of operation
-------------------
The client starts ``mcp-skew record --log FILE -- COMMAND ARGS...`` as if it
were the server. The proxy runs ``COMMAND`` directly (no shell) and copies,
each on its own thread, with ``os.read``/``os.write`` and no buffering:

- our standard input to the child's standard input (``c2s``),
- the child's standard output to ours (``s2c``),
- the child's standard error to ours (``stderr``).

Each chunk is forwarded exactly as read, so the bytes and their order are
unchanged. Complete lines are cut out of the same chunks and logged **before**
the chunk is forwarded, so an answer never appears in the log ahead of the
line it answers, and a line the other side has seen is already on disk.

When our standard input ends, the child's is closed and the proxy waits for the
child to exit. SIGTERM, SIGINT and SIGHUP are passed on to the child (which
runs in a process group of its own, so a terminal's Ctrl-C reaches it once).
The child's exit (code or signal) is logged and becomes our exit code (a
signal N as 128+N, as a shell reports it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Sequence
from types import FrameType
from typing import IO, Final

from ._log import Direction, LineSplitter, LogWriter

__all__ = ["FORWARDED_SIGNALS", "run_proxy"]

FORWARDED_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_CHUNK = 65536
_DRAIN_SECONDS = 5.0  # how long to wait for the child's pipes after it exits


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class _Pump(threading.Thread):
    """Copies one pipe to another, logging each complete line first."""

    def __init__(self, src: int, dst: int | None, direction: Direction, log: LogWriter,
                 *, on_eof: str = "", close_dst: IO[bytes] | None = None) -> None:
        super().__init__(name=f"record-{direction}", daemon=True)
        self.src, self.dst, self.direction, self.log = src, dst, direction, log
        self.on_eof = on_eof
        self.close_dst = close_dst
        self.split = LineSplitter()
        self.dst_gone = False

    def run(self) -> None:
        while True:
            try:
                chunk = os.read(self.src, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
            for line in self.split.feed(chunk):
                self.log.line(self.direction, line)
            self._forward(chunk)
        tail = self.split.finish()
        if tail is not None:
            self.log.line(self.direction, tail, partial=True)
        if self.on_eof:
            self.log.event("eof", self.on_eof, side=self.direction)
        if self.close_dst is not None:
            with contextlib.suppress(OSError):
                self.close_dst.close()

    def _forward(self, chunk: bytes) -> None:
        if self.dst is None or self.dst_gone or not chunk:
            return
        try:
            _write_all(self.dst, chunk)
        except OSError as exc:
            self.dst_gone = True
            whom = {"c2s": "the server's standard input", "s2c": "the client's standard output",
                    "stderr": "standard error"}.get(self.direction, "the reader")
            self.log.event("write-failed", f"cannot write to {whom} ({exc.strerror}); what "
                           "follows is logged but not delivered", side=self.direction)


def _exit_text(code: int) -> tuple[str, dict[str, object]]:
    if code < 0:
        name = signal.Signals(-code).name
        return f"server killed by signal {name}", {"code": None, "signal": name}
    return f"server exited with code {code}", {"code": code, "signal": None}


def run_proxy(argv: Sequence[str], log: LogWriter, *, stdin_fd: int = 0, stdout_fd: int = 1,
              stderr_fd: int = 2) -> int:
    """Run ``argv`` behind the proxy until it exits; returns its exit code."""
    try:
        child = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, bufsize=0, process_group=0)
    except OSError as exc:
        log.event("spawn-failed", f"cannot run {argv[0]}: {exc.strerror}", argv=list(argv))
        os.write(stderr_fd, f"mcp-skew record: cannot run {argv[0]}: {exc.strerror}\n".encode())
        return 127
    assert child.stdin and child.stdout and child.stderr
    log.event("start", f"started {' '.join(argv)} (pid {child.pid})", argv=list(argv),
              pid=child.pid)
    c2s = _Pump(stdin_fd, child.stdin.fileno(), "c2s", log, close_dst=child.stdin,
                on_eof="the client closed its end (standard input ended); closing the "
                "server's standard input")
    s2c = _Pump(child.stdout.fileno(), stdout_fd, "s2c", log)
    err = _Pump(child.stderr.fileno(), stderr_fd, "stderr", log)
    previous = _forward_signals(child, log)
    try:
        for pump in (c2s, s2c, err):
            pump.start()
        code = child.wait()
        for pump in (s2c, err):
            pump.join(_DRAIN_SECONDS)
    finally:
        _restore(previous)
    text, fields = _exit_text(code)
    log.event("exit", text, side="server", **fields)
    return code if code >= 0 else 128 - code


def _forward_signals(child: subprocess.Popen[bytes], log: LogWriter
                     ) -> dict[int, object]:
    if threading.current_thread() is not threading.main_thread():
        return {}

    def forward(signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        log.event("signal", f"received {name}; passed on to the server", signal=name)
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)

    previous: dict[int, object] = {}
    for sig in FORWARDED_SIGNALS:
        previous[sig] = signal.signal(sig, forward)
    return previous


def _restore(previous: dict[int, object]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)  # type: ignore[arg-type]

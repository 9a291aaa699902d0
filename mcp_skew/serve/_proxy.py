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
child to exit, then until every line it wrote is delivered and logged, at the client's
pace (back-pressure: a client that pauses reading is waited for, however long; only a
signal to the proxy cuts that wait short, 5 seconds after it). SIGTERM, SIGINT and
SIGHUP are passed on to the child's process group; a child still running ``grace``
seconds after one is killed with its whole family (SIGKILL;
:func:`mcp_skew.wire._procs.end`, ``setsid`` descendants included), and so is whatever
of the family is left when the proxy returns, for any reason. A client line still
unterminated when the child ends (already forwarded: the proxy forwards bytes as they
come) is logged as a partial line.
The child's exit (code or signal) is logged and becomes our exit code (a signal N
as 128+N, as a shell reports it).

The child runs in a session of its own under the supervisor of
:mod:`mcp_skew.wire._procs` (a PID namespace where the machine allows it), so a proxy that
is itself killed with SIGKILL takes the server and everything it spawned down.

A log that cannot be written (a full disk) does not stop the traffic: the
failure is said once on standard error, and lines pass on unlogged.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from types import FrameType
from typing import IO, Any, Final

from .._stopping import check
from ..wire import end, spawn
from ._log import LINE_CAP, CutLine, Direction, LineSplitter, LogWriter

__all__ = ["FORWARDED_SIGNALS", "run_proxy"]

FORWARDED_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_CHUNK = 65536
_DRAIN_SECONDS = 5.0  # after a signal to the proxy, how long delivery may go on
GRACE_SECONDS: Final = 3.0  # after a forwarded signal, before the child's family is killed

class _SafeLog:
    """The log, whose write failures are said once on standard error and then ignored."""

    def __init__(self, log: LogWriter, stderr_fd: int) -> None:
        self.log, self.stderr_fd = log, stderr_fd
        self.broken = False
        self._lock = threading.Lock()

    def _failed(self, exc: OSError) -> None:
        with self._lock:
            if self.broken:
                return
            self.broken = True
        with contextlib.suppress(OSError):
            os.write(self.stderr_fd, f"mcp-skew record: cannot write the log "
                     f"({exc.strerror or exc}); the traffic goes on, unlogged\n".encode())

    def line(self, direction: Direction, raw: bytes, *, partial: bool = False) -> None:
        if not self.broken:
            try:
                self.log.line(direction, raw, partial=partial)
            except OSError as exc:
                self._failed(exc)

    def event(self, event: str, text: str, **fields: Any) -> None:
        if not self.broken:
            try:
                self.log.event(event, text, **fields)
            except OSError as exc:
                self._failed(exc)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class _Pump(threading.Thread):
    """Copies one pipe to another, logging each complete line first."""

    def __init__(self, src: int, dst: int | None, direction: Direction, log: _SafeLog,
                 *, on_eof: str = "", close_dst: IO[bytes] | None = None) -> None:
        super().__init__(name=f"record-{direction}", daemon=True)
        self.src, self.dst, self.direction, self.log = src, dst, direction, log
        self.on_eof = on_eof
        self.close_dst = close_dst
        self.split = LineSplitter(LINE_CAP)
        self.dst_gone = False
        self.cuts = 0
        self._lock = threading.Lock()
        self._finished = False

    def run(self) -> None:
        while True:
            try:
                chunk = os.read(self.src, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
            with self._lock:
                if self._finished:
                    return
                for line in self.split.feed(chunk):
                    self._log_line(line)
            self._forward(chunk)
        if not self.finish():
            return
        if self.on_eof:
            self.log.event("eof", self.on_eof, side=self.direction)
        if self.close_dst is not None:
            with contextlib.suppress(OSError):
                self.close_dst.close()

    def _log_line(self, line: bytes, *, partial: bool = False) -> None:
        self.log.line(self.direction, line, partial=partial)
        if isinstance(line, CutLine):
            self._cut(line.size)

    def _cut(self, size: int) -> None:
        """A line over the cap: in the log each time, on standard error the first time."""
        text = (f"a {self.direction} line of {size} bytes is over the cap of {LINE_CAP}: "
                f"passed on whole, logged cut to its first {LINE_CAP} bytes")
        self.log.event("line-cut", text, side=self.direction, bytes=size)
        self.cuts += 1
        if self.cuts == 1:
            with contextlib.suppress(OSError):
                os.write(self.log.stderr_fd, f"mcp-skew record: {text} (said once; each is "
                         "in the log)\n".encode())

    def finish(self) -> bool:
        """Log the unterminated tail, once (the stream ended, or the proxy is ending); False
        when it was done already."""
        with self._lock:
            if self._finished:
                return False
            self._finished = True
            tail = self.split.finish()
            if tail is not None:
                self._log_line(tail, partial=True)
            return True

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


def _runnable(command: str) -> str | None:
    """Why ``command`` cannot be run (None: it can), as ``execvp`` would find it."""
    if os.sep in command:
        if not os.path.exists(command):
            return "No such file or directory"
        return None if os.access(command, os.X_OK) else "Permission denied"
    return None if shutil.which(command) else "No such file or directory"


def _start(argv: Sequence[str]) -> subprocess.Popen[bytes]:
    why = _runnable(argv[0])
    if why is not None:
        raise OSError(0, why)
    return spawn(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 bufsize=0)


def _wait(child: subprocess.Popen[bytes], signalled: list[float], grace: float) -> int:
    """The child's exit code; its family is killed ``grace`` seconds after a forwarded signal."""
    while True:
        try:
            return child.wait(0.1)
        except subprocess.TimeoutExpired:
            if signalled and time.monotonic() - signalled[0] > grace:
                code = end(child, term=False)
                return code if code is not None else -signal.SIGKILL


def run_proxy(argv: Sequence[str], log: LogWriter, *, stdin_fd: int = 0, stdout_fd: int = 1,
              stderr_fd: int = 2, grace: float = GRACE_SECONDS) -> int:
    """Run ``argv`` behind the proxy until it exits; returns its exit code."""
    safe = _SafeLog(log, stderr_fd)
    forwarding = _Forwarding(safe)  # before the spawn: a signal in between is not lost
    previous = forwarding.install()
    try:
        check()  # a stop before the line above (its raise may have been swallowed): no start
        try:
            child = _start(argv)
        except OSError as exc:
            safe.event("spawn-failed", f"cannot run {argv[0]}: {exc.strerror}", argv=list(argv))
            os.write(stderr_fd,
                     f"mcp-skew record: cannot run {argv[0]}: {exc.strerror}\n".encode())
            return 127
        try:
            code, c2s = _proxy(child, argv, safe, forwarding, grace=grace,
                               fds=(stdin_fd, stdout_fd, stderr_fd))
        finally:
            end(child, term=False)  # whatever is left of its family, whatever happened
        c2s.finish()  # a client line without its newline, already forwarded to the server
        text, fields = _exit_text(code)
        safe.event("exit", text, side="server", **fields)
        return code if code >= 0 else 128 - code
    finally:
        _restore(previous)


def _proxy(child: subprocess.Popen[bytes], argv: Sequence[str], safe: _SafeLog,
           forwarding: _Forwarding, *, grace: float, fds: tuple[int, int, int]
           ) -> tuple[int, _Pump]:
    assert child.stdin and child.stdout and child.stderr
    stdin_fd, stdout_fd, stderr_fd = fds
    safe.event("start", f"started {' '.join(argv)} (pid {child.pid})", argv=list(argv),
               pid=child.pid)
    c2s = _Pump(stdin_fd, child.stdin.fileno(), "c2s", safe, close_dst=child.stdin,
                on_eof="the client closed its end (standard input ended); closing the "
                "server's standard input")
    s2c = _Pump(child.stdout.fileno(), stdout_fd, "s2c", safe)
    err = _Pump(child.stderr.fileno(), stderr_fd, "stderr", safe)
    forwarding.attach(child)
    for pump in (c2s, s2c, err):
        pump.start()
    code = _wait(child, forwarding.signalled, grace)
    end(child, term=False)  # what the server left behind (children, setsid ones)
    _drain((s2c, err), forwarding.signalled)
    return code, c2s


def _drain(pumps: Sequence[_Pump], signalled: list[float]) -> None:
    """Wait until every line the server wrote is delivered and logged, at the client's pace
    (back-pressure: a client that pauses reading is waited for, never cut off); a signal to
    the proxy stops the wait ``_DRAIN_SECONDS`` later (the client asked us to stop)."""
    for pump in pumps:
        while pump.is_alive():
            pump.join(0.1)
            if signalled and time.monotonic() - signalled[0] > _DRAIN_SECONDS:
                return


class _Forwarding:
    """SIGTERM, SIGINT and SIGHUP passed on to the child's process group (main thread only);
    one that came before the child existed is passed on when it does."""

    def __init__(self, log: _SafeLog) -> None:
        self.log = log
        self.child: subprocess.Popen[bytes] | None = None
        self.signalled: list[float] = []  #: when the first signal came
        self.pending: list[int] = []

    def install(self) -> dict[int, object]:
        if threading.current_thread() is not threading.main_thread():
            return {}
        return {sig: signal.signal(sig, self._forward) for sig in FORWARDED_SIGNALS}

    def _forward(self, signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        self.log.event("signal", f"received {name}; passed on to the server", signal=name)
        self.signalled[:] = self.signalled[:1] or [time.monotonic()]
        if self.child is None:
            self.pending.append(signum)
            return
        with contextlib.suppress(OSError):
            os.killpg(self.child.pid, signum)

    def attach(self, child: subprocess.Popen[bytes]) -> None:
        self.child = child
        for signum in self.pending:
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signum)


def _restore(previous: dict[int, object]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)  # type: ignore[arg-type]

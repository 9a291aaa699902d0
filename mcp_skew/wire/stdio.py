"""The stdio transport: a server process, newline-delimited JSON on its stdin and stdout.

Every revision frames messages the same way on stdio: one JSON-RPC message per
line, no embedded newlines, only valid MCP on stdout, logs on stderr
(``basic/transports.mdx`` of each revision, §stdio). Shutting down is closing
the server's stdin, waiting, then SIGTERM, then SIGKILL (``basic/lifecycle.mdx``
§Shutdown).

Theory of operation
-------------------
:class:`StdioLink` runs the command directly (an argument list, never a shell)
in a session and process group of its own (:func:`._procs.spawn`; :func:`._procs.end`
ends it with its descendants, ``setsid`` ones included). A reader thread feeds stdout to
:class:`NdjsonDecoder`, which cuts lines, keeps a partial line until its newline
arrives, and cuts a line longer than the cap so a flood cannot exhaust memory;
each line becomes a transcript entry as it arrives: the parsed JSON value, or
the raw text when it is not JSON. A second thread drains stderr into a bounded
tail (and the recorder). Writes go through a non-blocking pipe with a bounded
wait, so a server that stops reading cannot block the probe either.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._jsontext import dump_line, loads
from ..simulator.machine import Event
from ._base import Limits, RealLink, Recorder, TransportError
from ._procs import end, spawn

__all__ = ["Line", "NdjsonDecoder", "StdioLink", "parse_line"]

#: Longest raw (non-JSON) line kept in the transcript, in characters.
RAW_KEEP = 2000


@dataclass(frozen=True, slots=True)
class Line:
    """One line of output: its text, its size in bytes, and whether it was cut."""

    text: str
    size: int
    cut: bool = False


class NdjsonDecoder:
    """Cuts a byte stream into lines; robust to partial lines, CRLF and floods."""

    def __init__(self, max_line: int = 4 << 20) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping: int | None = None  #: bytes dropped so far of a line over the cap
        self._preview = b""
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> list[Line]:
        lines: list[Line] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                self._take(data[start:], lines)
                return lines
            self._take(data[start:end], lines)
            lines += self._finish()
            start = end + 1

    def flush(self) -> list[Line]:
        """At end of stream: the last line, if it had no newline."""
        return self._finish()

    def _take(self, chunk: bytes, lines: list[Line]) -> None:
        if self._skipping is not None:
            self._skipping += len(chunk)
            return
        self._buf += chunk
        if len(self._buf) > self.max_line:
            self._preview = bytes(self._buf[:200])
            self._skipping = len(self._buf)
            self._buf.clear()

    def _finish(self) -> list[Line]:
        if self._skipping is not None:
            size, preview = self._skipping, self._preview.decode("utf-8", errors="replace")
            self._skipping, self._preview = None, b""
            return [Line(preview, size, cut=True)]
        raw = bytes(self._buf).rstrip(b"\r")
        self._buf.clear()
        if not raw.strip():
            return []
        return [Line(self._text.decode(raw, final=True), len(raw))]


def parse_line(line: Line, max_line: int) -> Any:
    """The message a line carries: its JSON value, or its raw text when it is not JSON."""
    if line.cut:
        return (f"{line.text}... [a line of {line.size} bytes, over the {max_line}-byte cap; "
                "cut and not parsed]")
    try:
        return loads(line.text)
    except ValueError:
        text = line.text
        return text if len(text) <= RAW_KEEP else text[:RAW_KEEP] + f"... [{len(text)} chars]"


def _ending(returncode: int | None) -> tuple[str, dict[str, Any]]:
    """The transcript event of a server's end: an exit with its code or signal, or an EOF."""
    if returncode is None:  # stdout closed, the process still running
        return "eof", {"side": "s2c"}
    if returncode < 0:
        try:
            name: str | int = signal.Signals(-returncode).name
        except ValueError:
            name = -returncode
        return "exit", {"side": "server", "signal": name}
    return "exit", {"side": "server", "code": returncode}


class StdioLink(RealLink):
    """A real server over stdio, one process per generation (``restart`` starts another)."""

    def __init__(self, command: Sequence[str], *, cwd: str | None = None,
                 env: Mapping[str, str] | None = None, deadline_ms: int | None = None,
                 recorder: Recorder | None = None, limits: Limits | None = None,
                 close_grace_ms: int = 1000) -> None:
        super().__init__(deadline_ms=deadline_ms, recorder=recorder, limits=limits)
        if not command:
            raise TransportError("no server command given")
        self.command = [str(part) for part in command]
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.close_grace_ms = close_grace_ms
        self.proc: subprocess.Popen[bytes] | None = None
        self.returncode: int | None = None
        self._threads: list[threading.Thread] = []
        self._start()

    # -- process lifecycle --------------------------------------------------------------
    def _start(self) -> None:
        try:
            proc = spawn(  # an argument list, never a shell; a session of its own
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=self.cwd, env=self.env, bufsize=0,
            )
        except OSError as exc:
            raise TransportError(f"cannot start {self.command[0]!r}: {exc.strerror or exc}") from exc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self.proc = proc
        self.returncode = None
        self._note(f"started pid {proc.pid}: {' '.join(self.command)}", "start",
                   argv=list(self.command), pid=proc.pid)
        inbox = self._inbox
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(proc, inbox), daemon=True,
                             name=f"mcp-skew-stdout-{proc.pid}"),
            threading.Thread(target=self._read_stderr, args=(proc,), daemon=True,
                             name=f"mcp-skew-stderr-{proc.pid}"),
        ]
        for thread in self._threads:
            thread.start()

    def _read_stdout(self, proc: subprocess.Popen[bytes], inbox: Any) -> None:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        decoder = NdjsonDecoder(self.limits.line_bytes)
        total = count = 0
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            lines = decoder.feed(data) if data else decoder.flush()
            for line in lines:
                count += 1
                self._deliver(parse_line(line, self.limits.line_bytes), inbox)
            total += len(data)
            if total > self.limits.output_bytes or count > self.limits.messages:
                for line in decoder.flush():  # the start of a line cut by the cap
                    self._deliver(parse_line(line, self.limits.line_bytes), inbox)
                self._flood(proc, total, count, inbox)
                return
            if not data:
                break
        detail = self._exit_detail(proc)
        kind, fields = _ending(proc.returncode)
        self._end(detail, inbox, kind, **fields)

    def _flood(self, proc: subprocess.Popen[bytes], total: int, count: int, inbox: Any) -> None:
        self.flooded = (f"{total} bytes and {count} lines on stdout, over the caps of "
                        f"{self.limits.output_bytes} bytes or {self.limits.messages} lines")
        self._note(f"flood: {self.flooded}; the probe ends the server", "note")
        end(proc, term=False)
        self._end(f"the server flooded its output and was killed ({self.flooded})", inbox,
                  "exit", side="server")

    def _exit_detail(self, proc: subprocess.Popen[bytes]) -> str:
        try:
            code = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the server closed its stdout (the process is still running)"
        return f"the server process exited (code {code})"

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            self._keep_stderr(data)

    # -- writing ------------------------------------------------------------------------
    def _write(self, message: Any) -> bool:
        self._record("c2s", message)
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdin.closed:
            self._ended = self._ended or "the server process has exited"
            return False
        data = dump_line(message)
        budget = self._budget_ms(10_000) / 1000
        try:
            self._write_all(proc.stdin.fileno(), data, time.monotonic() + max(budget, 0.05))
        except OSError as exc:
            if exc.errno in (errno.EPIPE, errno.EBADF, errno.EINVAL):
                self._ended = self._ended or self._exit_detail(proc)
            else:
                self._ended = self._ended or f"write failed: {exc.strerror or exc}"
            return False
        return True

    def request_line(self, text: str, timeout_ms: int) -> Event:
        """Write ``text`` as one raw line (a line that need not be JSON) and wait for an answer
        with id null, as JSON-RPC 2.0 §5 gives to a message whose id could not be read.
        Sent before the server has said anything, the wait has the startup allowance, as a
        request's has."""
        allowance = 0 if self._heard else self.startup_allowance_ms
        self._record("c2s", text)
        proc = self.proc
        if self._ended is not None or proc is None or proc.stdin is None or proc.stdin.closed:
            return self._closed_event(self._ended or "the server process has exited")
        try:
            self._write_all(proc.stdin.fileno(), (text + "\n").encode(), time.monotonic() + 10)
        except OSError:
            self._ended = self._ended or self._exit_detail(proc)
            return self._closed_event(self._ended)
        return self._await(None, self._budget_ms(timeout_ms + allowance), timeout_ms, allowance)

    def outlives_stdin(self, wait_ms: int) -> bool:
        """Close the server's stdin and say whether it is still running ``wait_ms`` later
        (``close`` then ends it with SIGTERM and SIGKILL)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return False
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=wait_ms / 1000)
        except subprocess.TimeoutExpired:
            return True
        return False

    @staticmethod
    def _write_all(fd: int, data: bytes, give_up: float) -> None:
        view = memoryview(data)
        while view:
            left = give_up - time.monotonic()
            if left <= 0:
                raise OSError(errno.ETIMEDOUT, "the server does not read its stdin")
            _, ready, _ = select.select([], [fd], [], left)
            if not ready:
                continue
            try:
                sent = os.write(fd, view)
            except BlockingIOError:
                continue
            view = view[sent:]

    # -- ending -------------------------------------------------------------------------
    def _signal(self, proc: subprocess.Popen[bytes], sig: int) -> None:
        """Signal the process group we started (the server and any children it spawned)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)

    def _stop(self, grace_ms: int) -> str:
        """Close stdin, wait, then SIGTERM, then SIGKILL; returns how it ended."""
        proc = self.proc
        if proc is None:
            return "no process"
        if proc.poll() is not None:
            self._reap(proc)
            return f"had already exited (code {proc.returncode})"
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        how = "exited after stdin closed"
        try:
            proc.wait(timeout=grace_ms / 1000)
        except subprocess.TimeoutExpired:
            how = "terminated (SIGTERM) after stdin closed"
            self._signal(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                how = "killed (SIGKILL)"
        self._reap(proc)
        return f"{how} (code {proc.returncode})"

    def _reap(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill what is left of the server's family (its group, and descendants that left it
        with ``setsid``: :mod:`._procs`), join the readers, close the pipes."""
        end(proc, term=False)
        for thread in self._threads:
            thread.join(timeout=1.0)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                assert stream is not None
                stream.close()
        self.returncode = proc.returncode

    def restart(self) -> bool:
        self._note("client restarts the server process", "restart")
        self._note(f"old process {self._stop(grace_ms=200)}", "note")
        self._fresh_inbox()
        try:
            self._start()
        except TransportError as exc:
            self._note(str(exc), "spawn-failed", argv=list(self.command))
            self._ended = str(exc)
            return False
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._note("client closes the connection", "client-eof")
        how = self._stop(self.close_grace_ms)
        kind, fields = _ending(self.returncode)
        self._note(f"server {how}", kind, **fields)
        with self._lock:
            self._closed = True

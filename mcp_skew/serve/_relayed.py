"""A simulated stdio server served in this process, ready before the client starts.

Theory of operation
-------------------
A client that spawns ``{server}`` used to start a fresh Python process running
``mcp-skew serve`` (0.5 to 3 s before it could answer, more under load): the client's
waits raced that start, and a card read the machine's load as the client's behaviour
(issue 37). Now :class:`StdioServing` serves the peer here, on a Unix socket in a
private folder, before the client runs; ``{server}`` is a relay
(:mod:`mcp_skew.serve._relay`, ``python -I -S``, standard library only: the interpreter's start)
that joins the client's pipes to the socket. Each connection is one server process as
the client sees it: a fresh :class:`~mcp_skew.simulator.StdioServer`, a ``start`` event in the
run's log, the relay's start time in :attr:`StdioServing.stamps` (what
:func:`~._observe.rebase` times a first line from). The first answer's delay is then the
peer's modelled latency (its ``slow=MS``, slept in the connection's thread) only.

An upgrade case serves ``BEFORE`` for the first run and ``AFTER`` for the second on the
same socket (:meth:`StdioServing.upgrade`): the client meets the same command, upgraded.
:meth:`StdioServing.stop` ends every connection (a server that outlives its input too),
the listener and the log; the relays, in the client's process family, are ended with it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import threading
from pathlib import Path
from typing import Final

from ..simulator import PeerSpec
from ._log import LINE_CAP, LineSplitter, LogWriter
from ._stdio import serve_stdio

__all__ = ["HEADER", "RELAY", "StdioServing", "relay_words"]

#: The relay script (run by path: it is never imported).
RELAY: Final = Path(__file__).resolve().with_name("_relay.py")
#: The first word of the line a relay sends before the client's bytes.
HEADER: Final = b"mcp-skew-relay"
#: The most read from a relay at once.
CHUNK: Final = 65536
#: How often the accepting thread looks whether the run is over.
ACCEPT_POLL_S: Final = 0.1
#: The longest socket path the platforms take (``sun_path``, less its NUL).
_SUN_PATH: Final = 100


def relay_words(python: str, path: str) -> list[str]:
    """The ``{server}`` words: the relay, joined to the server listening at ``path``."""
    return [python, "-I", "-S", str(RELAY), path]


class _Stopped(Exception):
    """The run is over: a connection's thread ends (a server outliving its input, too)."""


def _folder() -> str:
    base = tempfile.gettempdir()
    folder = tempfile.mkdtemp(prefix="mcp-skew-relay-", dir=base)
    if len(folder) + 2 > _SUN_PATH:  # a long TMPDIR: a socket path cannot be that long
        shutil.rmtree(folder, ignore_errors=True)
        folder = tempfile.mkdtemp(prefix="mcp-skew-relay-", dir="/tmp")
    return folder


def _header(line: bytes) -> tuple[float, int] | None:
    words = line.split()
    if len(words) != 3 or words[0] != HEADER:
        return None
    try:
        return float(words[1]), int(words[2])
    except ValueError:
        return None


def _read_header(conn: socket.socket) -> tuple[bytes, bytes]:
    """The relay's first line, and what came after it in the same reads."""
    got = b""
    while b"\n" not in got and len(got) < 200:
        try:
            chunk = conn.recv(200)
        except OSError:
            return b"", b""
        if not chunk:
            return b"", b""
        got += chunk
    head, _, rest = got.partition(b"\n")
    return head, rest


def _pump(conn: socket.socket, first: bytes, write_fd: int, log: LogWriter) -> None:
    """The client's bytes, logged line by line as they arrive (a server asleep in its cold
    start or latency reads them later: the log times them when the client sent them), then
    passed to the server on a pipe; its end closes the pipe (the server's end of input)."""
    lines = LineSplitter(LINE_CAP)
    chunk = first
    try:
        while True:
            for line in lines.feed(chunk):
                log.line("c2s", line)
            with contextlib.suppress(OSError):  # the server ended: the bytes go nowhere
                _write_all(write_fd, chunk)
            try:
                chunk = conn.recv(CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
        tail = lines.finish()
        if tail is not None:
            log.line("c2s", tail, partial=True)
    finally:
        os.close(write_fd)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


class StdioServing:
    """``peer`` served on a Unix socket in this process, each connection a fresh server,
    the wire to ``log``; :attr:`words` is what ``{server}`` becomes."""

    def __init__(self, peer: PeerSpec, log: Path, python: str) -> None:
        self.peer = peer
        self.stamps: list[float] = []  #: when the client started each relay (wall clock)
        self._lock = threading.Lock()
        self._ending = threading.Event()  #: set when the connections of this run are to end
        self._closed = False
        self._conns: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._folder = _folder()
        self.path = str(Path(self._folder) / "s")
        self.writer = LogWriter(log, source="serve")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.path)
        self._listener.listen(16)
        self._listener.settimeout(ACCEPT_POLL_S)  # the accept ends soon after stop(), anywhere
        self.words = relay_words(python, self.path)
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def upgrade(self, peer: PeerSpec, log: Path) -> None:
        """From now on serve ``peer`` (the connections of the run before are ended), logging
        to ``log``, with no stamps yet."""
        self._end_connections()
        with self._lock:
            self.writer.close()
            self.writer = LogWriter(log, source="serve")
            self.peer, self.stamps = peer, []

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                if self._closed:
                    return
                continue
            except OSError:
                return  # closed: the run is over
            conn.settimeout(None)
            with self._lock:
                if self._closed:
                    conn.close()
                    return
                thread = threading.Thread(target=self._serve, args=(conn, self._ending),
                                          daemon=True)
                self._conns.append(conn)
                self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket, ending: threading.Event) -> None:
        def sleep(seconds: float) -> None:
            if ending.wait(seconds):
                raise _Stopped

        head, rest = _read_header(conn)
        header = _header(head)
        if header is None:  # not a relay of ours
            conn.close()
            return
        with self._lock:
            peer, log = self.peer, self.writer
            self.stamps.append(header[0])
            log.event("start", f"mcp-skew probe-client serves {peer.notation} on stdio "
                      f"(relay pid {header[1]})", peer=peer.notation, pid=header[1])
        read_fd, write_fd = os.pipe()
        pump = threading.Thread(target=_pump, args=(conn, rest, write_fd, log), daemon=True)
        pump.start()
        try:
            with open(read_fd, "rb") as reader, conn.makefile("wb") as writer:
                serve_stdio(peer, reader, writer, say=lambda _text: None, log=log, sleep=sleep,
                            logs_input=False)
        except (_Stopped, OSError, ValueError):
            pass  # ended with the run, or the relay went: as a killed server's, its log stops
        finally:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            pump.join(timeout=5)
            conn.close()

    def _end_connections(self) -> None:
        with self._lock:
            conns, threads = self._conns, self._threads
            self._conns, self._threads = [], []
            ending, self._ending = self._ending, threading.Event()
        ending.set()  # a server asleep (slow start, outliving its input) wakes and ends
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(timeout=5)

    def stop(self) -> None:
        """End every connection, the listener and the log; remove the socket's folder."""
        with self._lock:
            self._closed = True
        self._accepting.join(timeout=5)
        self._listener.close()
        self._end_connections()
        with self._lock:
            self.writer.close()
        shutil.rmtree(self._folder, ignore_errors=True)

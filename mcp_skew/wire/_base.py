"""What the real transports share: a wall-clock transcript, an inbox, bounded waits, a recorder.

Theory of operation
-------------------
A real link has I/O threads (a stdout reader, an HTTP request, an SSE stream)
that hand every message they receive to :meth:`RealLink._deliver`. That records
it in the transcript at once (wall-clock milliseconds since the link opened) and
puts it in the *inbox*, a queue the client's thread reads in
:meth:`RealLink.request`. So a message is in the transcript, and in the
recorder's file, the moment it arrives, whether or not anyone is waiting for it.

Every wait is bounded twice: by the request's own timeout and by the link's
overall deadline (one client's whole conversation). When the deadline has
passed, a request is not even sent.

Rule: a server's request to the client gets a plain answer here (``ping`` a
result, anything else -32601), so the client strategies in the simulator core
never see one.
"""

from __future__ import annotations

import errno
import os
import queue
import stat
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal, Protocol

from ..simulator.machine import Closed, Event, Reply, Timeout
from ..transcript import Transcript, as_json
from ..versions import Message

__all__ = [
    "JsonlRecorder",
    "Limits",
    "RealLink",
    "Recorder",
    "TransportError",
    "open_new",
]

Direction = Literal["c2s", "s2c"]


class TransportError(OSError):
    """A transport could not be opened (the command is missing, the URL is malformed)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that keep a misbehaving server from exhausting the probe."""

    line_bytes: int = 4 << 20  #: one stdio line (one message); longer lines are cut
    output_bytes: int = 32 << 20  #: all stdout of one process before it counts as a flood
    messages: int = 20_000  #: messages from one process before it counts as a flood
    recorded: int = 2_000  #: server messages kept in the transcript per process
    stderr_bytes: int = 64 << 10  #: stderr tail kept in memory
    stderr_file_bytes: int = 16 << 20  #: stderr written to the recorder


class Recorder(Protocol):
    """Where a link writes what it sees, as it sees it: each transcript record, and stderr."""

    def line(self, item: dict[str, Any]) -> None: ...
    def stderr(self, data: bytes) -> None: ...


def open_new(path: Path) -> int:
    """``path`` in a directory the command writes, opened to write from its start, never
    through a link it did not create, and without blocking.

    A new name is created (``O_CREAT | O_EXCL``); a name that exists is opened with
    ``O_NOFOLLOW`` (a symbolic link is refused, not followed: a link planted in the
    directory cannot make the command overwrite its target) and must be a regular file with
    no other hard link, which is then emptied. Anything else is an OSError whose
    ``strerror`` says what it is: a symbolic link, a directory, not a regular file; a FIFO
    with no reader is ENXIO at once, not a wait for one.
    """
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        fd = _open_existing(path, flags)
    os.set_blocking(fd, True)
    return fd


def _open_existing(path: Path, flags: int) -> int:
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "a symbolic link (not followed)", str(path)) from None
        raise
    info = os.fstat(fd)
    why = ("not a regular file" if not stat.S_ISREG(info.st_mode)
           else "a file with another hard link (not written through)" if info.st_nlink != 1
           else None)
    if why is not None:
        os.close(fd)
        raise OSError(errno.EEXIST, why, str(path))
    os.ftruncate(fd, 0)
    return fd


class JsonlRecorder:
    """Writes the transcript as JSON Lines, flushed at once, and stderr beside it.

    The transcript format (``mcp_skew.transcript``): a header (``source`` ``probe``,
    ``clock`` ``wall``), then each record as the link makes it, with ``t`` added.
    """

    def __init__(self, path: Path, stderr_path: Path | None = None,
                 stderr_limit: int = 16 << 20) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.stderr_path = stderr_path
        self._lock = threading.Lock()
        self._out: IO[str] = open(open_new(path), "w", encoding="utf-8")  # noqa: SIM115
        self._err: IO[bytes] | None = (open(open_new(stderr_path), "wb")  # noqa: SIM115
                                       if stderr_path else None)
        self._err_left = stderr_limit
        # the format's checked models (pydantic) load when a recording starts, not with the wire
        from ..transcript import dumps, header  # noqa: PLC0415

        self._out.write(dumps(header("probe", "wall")) + "\n")
        self._out.flush()

    def line(self, item: dict[str, Any]) -> None:
        from ..transcript import dumps, parse_record  # noqa: PLC0415  (loaded: see __init__)

        stamp = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        text = dumps(parse_record({"t": stamp, **item}))
        with self._lock:
            if not self._out.closed:
                self._out.write(text + "\n")
                self._out.flush()

    def stderr(self, data: bytes) -> None:
        with self._lock:
            if self._err is None or self._err.closed or self._err_left <= 0:
                return
            chunk = data[: self._err_left]
            self._err_left -= len(chunk)
            self._err.write(chunk)
            if self._err_left <= 0:
                self._err.write(b"\n[mcp-skew: stderr cut here]\n")
            self._err.flush()

    def close(self) -> None:
        with self._lock:
            self._out.close()
            if self._err is not None:
                self._err.close()


@dataclass(frozen=True, slots=True)
class _Ended:
    """The process exited or the connection closed; sticky for this generation."""

    detail: str


@dataclass(frozen=True, slots=True)
class _Bound:
    """An answer known to belong to one request (an HTTP response body)."""

    want_id: Any
    event: Reply | Closed


_Item = Any  # a message (dict or list), _Ended or _Bound


class RealLink:
    """The part of a real link that does not depend on the wire.

    Subclasses implement :meth:`_write` (send one message; False when the peer is
    gone) and may override :meth:`restart` and :meth:`close`.
    """

    def __init__(self, *, deadline_ms: int | None = None, recorder: Recorder | None = None,
                 limits: Limits | None = None) -> None:
        self.transcript = Transcript()
        self.limits = limits or Limits()
        self.recorder = recorder
        self.deadline_ms = deadline_ms
        self._t0 = time.monotonic()
        self._lock = threading.RLock()
        self._inbox: queue.Queue[_Item] = queue.Queue()
        self._closed = False
        self._ended: str | None = None
        self._received = 0  #: server messages this generation
        self._cut_noted = False
        #: what happened on this link, for the probe's classification
        self.timeouts = 0
        self.closed_seen = 0  #: requests that ended with Closed
        self.deadline_hit = False
        self.exits: list[str] = []
        self.flooded: str | None = None
        self._stderr_tail = bytearray()
        self.stderr_bytes = 0
        #: extra wait for requests sent before the server has said anything (a cold start)
        self.startup_allowance_ms = 0
        self._heard = False
        self.first_message_ms: int | None = None  #: when the first server message arrived

    # -- clock and transcript ---------------------------------------------------------
    def now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _record(self, direction: Direction, message: Any,
                http: dict[str, Any] | None = None) -> None:
        with self._lock:
            if self._closed:
                return
            self.transcript.add(self.now_ms(), direction, message, http)
            if self.recorder is not None:
                self.recorder.line(as_json(self.transcript.entries[-1]))

    def _note(self, text: str, kind: str = "note", **fields: Any) -> None:
        """An event (``kind``: a transcript event name) in the transcript and the recorder."""
        with self._lock:
            if self._closed:
                return
            self.transcript.note(self.now_ms(), text, kind, **fields)
            if self.recorder is not None:
                self.recorder.line(as_json(self.transcript.notes[-1]))

    def _keep_stderr(self, data: bytes) -> None:
        with self._lock:
            self.stderr_bytes += len(data)
            self._stderr_tail += data
            extra = len(self._stderr_tail) - self.limits.stderr_bytes
            if extra > 0:
                del self._stderr_tail[:extra]
        if self.recorder is not None:
            self.recorder.stderr(data)

    @property
    def stderr_tail(self) -> str:
        """The last bytes the server wrote on stderr, decoded."""
        with self._lock:
            return bytes(self._stderr_tail).decode("utf-8", errors="replace")

    # -- from the I/O threads ---------------------------------------------------------
    def _deliver(self, message: Any, inbox: queue.Queue[_Item] | None = None, *,
                 hand: bool = True, http: dict[str, Any] | None = None) -> None:
        """Record a server message (with its ``http`` field, where given) and hand it to the
        waiting client (if any); with ``hand`` False only record it: an answer made up from an
        HTTP status is recorded with that status (``http``) and reaches the client as the
        :class:`Reply` bound after it, which carries the status (:attr:`Reply.status`)."""
        target = inbox if inbox is not None else self._inbox
        self._received += 1
        if target is self._inbox and not self._heard:
            self._heard = True
            if self.first_message_ms is None:
                self.first_message_ms = self.now_ms()
        if self._received <= self.limits.recorded:
            self._record("s2c", message, http)
        elif not self._cut_noted:
            self._cut_noted = True
            self._note(f"the transcript keeps the first {self.limits.recorded} server "
                       "messages; later ones are counted, not recorded")
        if hand:
            target.put(message)

    def _end(self, detail: str, inbox: queue.Queue[_Item] | None = None, kind: str = "exit",
             **fields: Any) -> None:
        """The server is gone: every wait on this generation ends with Closed."""
        target = inbox if inbox is not None else self._inbox
        self.exits.append(detail)
        self._note(detail, kind, **fields)
        target.put(_Ended(detail))

    def _bind(self, want_id: Any, event: Reply | Closed,
              inbox: queue.Queue[_Item] | None = None) -> None:
        target = inbox if inbox is not None else self._inbox
        target.put(_Bound(want_id, event))

    def _fresh_inbox(self) -> None:
        """A new generation (a restart): stale items of the old one are dropped."""
        self._inbox = queue.Queue()
        self._ended = None
        self._heard = False
        self._received = 0
        self._cut_noted = False

    # -- the Link protocol --------------------------------------------------------------
    def _write(self, message: Any) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def _budget_ms(self, timeout_ms: int) -> int:
        if self.deadline_ms is None:
            return timeout_ms
        return max(0, min(timeout_ms, self.deadline_ms - self.now_ms()))

    def request(self, message: Message, timeout_ms: int) -> Event:
        allowance = 0 if self._heard else self.startup_allowance_ms
        budget = self._budget_ms(timeout_ms + allowance)
        if budget <= 0:
            self.deadline_hit = True
            self._note(f"the overall deadline of {self.deadline_ms} ms has passed; "
                       f"id {message.get('id')} not sent", "deadline")
            return Timeout(0)
        if self._ended is not None:
            self._record("c2s", message)
            self._note(f"write failed: {self._ended}", "write-failed")
            return self._closed_event(self._ended)
        if not self._write(message):
            self._note(f"write failed: {self._ended or 'the server is gone'}", "write-failed")
            return self._closed_event(self._ended or "the server is gone")
        event = self._await(message.get("id"), budget, timeout_ms, allowance)
        if isinstance(event, Closed):
            self.closed_seen += 1
        return event

    def _closed_event(self, detail: str) -> Closed:
        self.closed_seen += 1
        return Closed(detail)

    def notify(self, message: Message) -> None:
        if self._ended is not None:
            self._record("c2s", message)
            self._note(f"write failed: {self._ended}", "write-failed")
            return
        if not self._write(message):
            self._note(f"write failed: {self._ended or 'the server is gone'}", "write-failed")

    def _await(self, want_id: Any, budget_ms: int, timeout_ms: int, allowance_ms: int = 0
               ) -> Event:
        started = time.monotonic()
        give_up = started + budget_ms / 1000
        inbox = self._inbox
        while True:
            if allowance_ms > self.startup_allowance_ms:  # cut short meanwhile: another
                allowance_ms = self.startup_allowance_ms  # process showed the cold start
                budget_ms = min(budget_ms, timeout_ms + allowance_ms)
                give_up = started + budget_ms / 1000
            left = give_up - time.monotonic()
            # while a startup allowance runs, wake now and then to see whether it was cut
            wait = min(left, 0.05) if allowance_ms else left
            try:
                item = inbox.get(timeout=max(wait, 0)) if left > 0 else inbox.get_nowait()
            except queue.Empty:
                if allowance_ms and time.monotonic() < give_up:
                    continue
                return self._timed_out(want_id, budget_ms, timeout_ms, allowance_ms)
            event = self._match(item, want_id)
            if event is not None:
                return event

    def _match(self, item: _Item, want_id: Any) -> Event | None:
        if isinstance(item, _Ended):
            self._ended = item.detail
            return Closed(item.detail)
        if isinstance(item, _Bound):
            return item.event if item.want_id == want_id else None
        for message in item if isinstance(item, list) else [item]:
            if not isinstance(message, dict):
                continue
            if "method" in message:
                self._answer_server_request(message)
            elif message.get("id") == want_id and ("result" in message or "error" in message):
                return Reply(message)
        return None

    def _timed_out(self, want_id: Any, budget_ms: int, timeout_ms: int,
                   allowance_ms: int) -> Timeout:
        self.timeouts += 1
        if budget_ms < timeout_ms + allowance_ms:
            self.deadline_hit = True
            self._note(f"no answer to id {want_id} before the overall deadline "
                       f"({self.deadline_ms} ms)", "timeout")
            return Timeout(budget_ms)
        extra = f" (+{allowance_ms} ms startup allowance)" if allowance_ms else ""
        self._note(f"no answer to id {want_id} within {timeout_ms} ms{extra}", "timeout")
        return Timeout(timeout_ms)

    def _answer_server_request(self, message: Message) -> None:
        """A server-to-client request: ``ping`` gets a result, anything else -32601."""
        if "id" not in message:
            return  # a notification: recorded, nothing to do
        if message["method"] == "ping":
            answer: Message = {"jsonrpc": "2.0", "id": message["id"], "result": {}}
        else:
            answer = {"jsonrpc": "2.0", "id": message["id"],
                      "error": {"code": -32601, "message": "Method not found: the mcp-skew "
                                "probe client does not serve " + str(message["method"])}}
        self._write(answer)

    def restart(self) -> bool:  # pragma: no cover - overridden
        return False

    def close(self) -> None:  # pragma: no cover - overridden
        self._note("client closes the connection", "client-eof")
        with self._lock:
            self._closed = True

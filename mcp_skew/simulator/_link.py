"""Links: how a client's messages reach a server, and the transcript of what crossed.

A :class:`Link` is what a client strategy talks to: ``request`` (send, then wait
for the answer with that id, a timeout or the end of the process), ``notify``
and ``restart``. :class:`MemoryLink` runs a simulated server in the same
process on a **simulated clock**: latency and timeouts are simulated
milliseconds, nothing sleeps, and the same inputs give the same transcript byte
for byte. What crossed is kept in a :class:`~mcp_skew.transcript.Transcript` (its
records: :class:`~mcp_skew.transcript.Entry`, :class:`~mcp_skew.transcript.Note`), or,
for a run whose messages nobody reads, counted in a :class:`Tally`.
Real transports (stdio, HTTP) implement the same protocol in :mod:`mcp_skew.wire`.
:class:`StdioServer` is the other way round: a simulated server fed the lines a real client
writes (``mcp-skew serve`` and ``replay``, :mod:`mcp_skew.serve`), answering at the edge what
the server cannot read.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from ..transcript import Entry, Note, Record, Transcript
from ..versions import Message
from ._peers import PeerSpec
from ._server import Reaction, SimServer
from .machine._events import Closed, Event, Reply, Timeout
from .messages._json import Sealed, cross, decode
from .messages._wire import describe_message as describe

#: the heap's operations, looked up once (each message is pushed and popped)
_push, _pop = heapq.heappush, heapq.heappop

__all__ = [
    "Closed",
    "Entry",
    "Event",
    "Link",
    "LinkObserver",
    "MemoryLink",
    "Note",
    "Reply",
    "ServerChange",
    "StdioServer",
    "Tally",
    "Timeout",
    "Transcript",
]


@dataclass(eq=False, frozen=True, slots=True)
class ServerChange:
    """What happens to a simulated server at a scheduled time (:meth:`MemoryLink.schedule`):
    it is replaced by a server of ``server``'s spec, and/or it emits the notification
    ``emit`` (with ``params``) on the streams that opted in to it."""

    server: PeerSpec | None = None
    emit: str | None = None
    params: tuple[tuple[str, Any], ...] = ()


class Link(Protocol):
    """What a client strategy needs from a transport."""

    transcript: Transcript

    def now_ms(self) -> int: ...
    def request(self, message: Message, timeout_ms: int) -> Event: ...
    def notify(self, message: Message) -> None: ...
    def restart(self) -> bool: ...
    def close(self) -> None: ...


#: The kinds of event a run's verdict reads from its transcript (``RunRecord.reason``: an
#: authorization's refusal), which a :class:`Tally` keeps.
VERDICT_EVENTS: Final = frozenset({"auth"})


@dataclass(eq=False, slots=True)
class Tally(Transcript):
    """A transcript that keeps its events and only counts its messages: what a run keeps
    when nobody will read what crossed (a matrix cell without a transcript,
    ``build_matrix(keep_transcripts=False)``), where making a record per message and
    dropping it with the run was most of what a transcript cost.

    What a run reads of its transcript is still here: how many messages crossed
    (:meth:`count`: a finding's index, an event's ``after``) and the events a run's verdict
    reads (``notes`` of the kinds in :data:`VERDICT_EVENTS`: a run's reason reads an
    authorization's refusal). ``entries`` stays empty, the other events are not kept, and
    the timeline and the records, which it cannot give whole, are refused. The
    :class:`MemoryLink` that made it counts in ``messages`` itself (no call a message).
    """

    messages: int = 0  #: how many messages crossed

    def add(self, t_ms: int, direction: Literal["c2s", "s2c"], message: Any,
            http: dict[str, Any] | None = None) -> None:
        self.messages += 1

    def note(self, t_ms: int, text: str, kind: str = "note", **fields: Any) -> None:
        if kind in VERDICT_EVENTS:
            Transcript.note(self, t_ms, text, kind, **fields)

    def count(self) -> int:
        return self.messages

    def timeline(self) -> list[Record]:
        raise ValueError("this run counted its messages and kept none: no timeline "
                         "(run it with its transcript kept)")

    def records(self) -> list[dict[str, Any]]:
        raise ValueError("this run counted its messages and kept none: no records "
                         "(run it with its transcript kept)")


class LinkObserver:
    """What a driven machine reads from a link: its clock and its transcript's length."""

    __slots__ = ("_link",)

    def __init__(self, link: Link) -> None:
        self._link = link

    def now_ms(self) -> int:
        return self._link.now_ms()

    def position(self) -> int:
        transcript = self._link.transcript
        # what Transcript.count gives, without the call (a step asks at each request)
        return transcript.messages if type(transcript) is Tally else len(transcript.entries)

    def notices(self) -> list[tuple[int, Message]]:
        """The server notifications the link delivered since last asked, with the simulated
        time each arrived (a link that delivers none has no ``take_notices``: nothing)."""
        take = getattr(self._link, "take_notices", None)
        return list(take()) if take is not None else []


class MemoryLink:
    """A simulated server in memory, on a simulated clock.

    Each message is encoded to JSON text and decoded on the other side, as on a
    real wire. The server reads a message ``latency_ms`` after it is sent (or
    when it has finished starting), and its replies reach the client
    ``latency_ms`` later. A reply that arrives after the client stopped waiting
    is still recorded, when the clock passes it. ``records=False``: the transcript is a
    :class:`Tally` (its events kept, its messages counted), for a run whose messages nobody
    reads.
    """

    def __init__(self, server_factory: Callable[[], SimServer], latency_ms: int = 5, *,
                 stalls_on_server_request: bool = False, start_ms: int = 0,
                 records: bool = True) -> None:
        self._factory = server_factory
        self.latency_ms = latency_ms
        #: the client reads no answer after the server's first request to it (a client quirk)
        self.stalls_on_server_request = stalls_on_server_request
        self.stalled = False
        #: how the client answers a request of the server's (the ``features`` scenario:
        #: :func:`._feature_calls.response_to`); None: it leaves them unanswered
        self.answers: Callable[[Message], Message] | None = None
        #: the transcript when it only counts the messages (counted here: no call a message)
        self._tally = None if records else Tally()
        self.transcript: Transcript = Transcript() if self._tally is None else self._tally
        #: a link may start later than the run (a bridge's child process, :mod:`.bridges._link`)
        self._clock = start_ms
        self._seq = 0
        #: heap of (arrives, seq, message): a message, or a reply's JSON text alone (below)
        self._pending: list[tuple[int, int, Message | str]] = []
        #: what happens to the server at simulated times (:meth:`schedule`), a heap
        self._schedule: list[tuple[int, int, ServerChange]] = []
        #: server notifications delivered (when, what), not yet taken
        self._notices: list[tuple[int, Message]] = []
        self._start()

    def _start(self) -> None:
        server = self.server = self._factory()
        # nothing here reads a reply but the text that crosses: a prepared answer may come
        # as its text alone (Reaction.text), decoded as any reply's text is. Not from a
        # subclass, which may read or change its replies on the way (a test's hand server):
        # its replies are encoded afresh, so one it changed in place after a prepared answer
        # was sealed (``_wire.Prepared.reply``) crosses as it now is
        plain = type(server) is SimServer
        server.text_replies, self._unseal = plain, not plain
        self._ready_at = self._clock + self.server.startup_ms
        self._closed_at: int | None = None
        self._pending = []

    def now_ms(self) -> int:
        return self._clock

    # -- the server over simulated time ------------------------------------------------
    def schedule(self, at_ms: int, change: ServerChange) -> None:
        """At ``at_ms`` (simulated), ``change`` happens to the server: it is replaced by a
        server of another spec (a deploy, an upgrade, a rollback), or it emits a
        notification to the streams that asked for it."""
        self._seq += 1
        heapq.heappush(self._schedule, (at_ms, self._seq, change))

    def _apply_due(self, until_ms: int) -> None:
        """Apply every scheduled change due by ``until_ms``, in time order."""
        while self._schedule and self._schedule[0][0] <= until_ms:
            at, _, change = heapq.heappop(self._schedule)
            self._clock = max(self._clock, at)
            if change.server is not None:
                old = self.server.spec.name
                spec = change.server
                self._factory = functools.partial(SimServer, spec)
                self.transcript.note(self._clock, f"the server changes: {old} -> {spec.name} "
                                     "(a new process; the client is not told)", "server-change")
                self._start()
            if change.emit is not None:
                for sent in self.server.emit(change.emit, dict(change.params)):
                    self._seq += 1
                    heapq.heappush(self._pending, (self._clock + self.latency_ms, self._seq, sent))

    def wait_until(self, until_ms: int) -> None:
        """Let the simulated clock run to ``until_ms``: scheduled changes happen, and what
        the server sends meanwhile is delivered (and recorded)."""
        if until_ms <= self._clock:
            return
        self._deliver_until(until_ms)
        self._apply_due(until_ms)
        self._deliver_until(until_ms)
        self._clock = max(self._clock, until_ms)

    def take_notices(self) -> list[tuple[int, Message]]:
        """The server notifications delivered since last asked, with their arrival times."""
        taken, self._notices = self._notices, []
        return taken

    def _send(self, message: Message) -> bool:
        # encoded to JSON text and decoded again (:func:`.messages._json.cross`), as on a real wire:
        # what the server reads is what the transcript records
        wire: Message = cross(message)
        if self._schedule:
            self._apply_due(self._clock)
        clock = self._clock
        tally = self._tally
        if tally is None:
            self.transcript.add(clock, "c2s", wire)
        else:
            tally.messages += 1
        closed_at = self._closed_at
        if closed_at is not None and closed_at <= clock:
            return False
        # read when the server is ready: still starting, or busy with a request (a comparison
        # where max() would be a call a message)
        read_at = clock + self.latency_ms
        if read_at < self._ready_at:  # noqa: PLR1730
            read_at = self._ready_at
        server = self.server
        reaction = server.receive(wire)
        # a request keeps the server busy for its own latency (quirk latency); a notification
        # is read at once
        done = read_at + server.policy.latency_ms if "id" in wire and "method" in wire else read_at
        self._ready_at = done
        replies = reaction.replies
        if reaction.text is not None:  # the one reply, as its text
            self._seq += 1
            _push(self._pending, (done + self.latency_ms, self._seq, reaction.text))
        elif replies:  # they arrive together, in the order sent (their sequence numbers)
            arrives, pending, seq = done + self.latency_ms, self._pending, self._seq
            for reply in replies:
                seq += 1
                _push(pending, (arrives, seq, reply))
            self._seq = seq
        if reaction.exit:
            self._closed_at = read_at + self.latency_ms
        return True

    def _deliver_until(self, deadline: int, want_id: Any = None) -> Reply | None:
        """Deliver queued replies up to ``deadline``; stop at the one with ``want_id``."""
        # the heap, kept by this link (a server change or a restart gives a new one); the
        # schedule, one heap for the link's life; the transcript, the link's
        pending, schedule, add, tally = (self._pending, self._schedule, self.transcript.add,
                                         self._tally)
        while True:
            if schedule and schedule[0][0] <= deadline and (
                    not pending or schedule[0][0] < pending[0][0]):
                self._apply_due(schedule[0][0])  # a change due before the next reply
                pending = self._pending
                continue
            if not pending:
                return None
            at = pending[0][0]
            closed_at = self._closed_at
            if at > deadline or (closed_at is not None and at > closed_at):
                return None
            sent = _pop(pending)[2]
            if at > self._clock:  # noqa: PLR1730 - as above
                self._clock = at
            # the client reads what crossed the wire, as recorded: a reply's text (a server's
            # replies are objects: a string here is one's text) or the message's
            message: Message = decode(sent) if type(sent) is str else cross(
                dict(sent) if self._unseal and type(sent) is Sealed else sent)
            if tally is None:
                add(at, "s2c", message)
            else:
                tally.messages += 1
            if "method" in message:
                if "id" not in message:
                    self._notices.append((at, message))  # a notification: read later
                elif self.stalls_on_server_request:
                    self.stalled = True  # quirk stalls-on-server-request
                elif self.answers is not None:
                    self._send(self.answers(message))  # the user answers; the server goes on
                    pending = self._pending
            elif want_id is not None and message.get("id") == want_id and not self.stalled:
                return Reply(message)

    def request(self, message: Message, timeout_ms: int) -> Event:
        if not self._send(message):
            self.transcript.note(self._clock, "write failed: the server process has exited",
                                 "write-failed")
            return Closed()
        deadline = self._clock + timeout_ms
        reply = self._deliver_until(deadline, message["id"])
        if reply is not None:
            return reply
        if self._closed_at is not None and self._closed_at <= deadline:
            self._clock = max(self._clock, self._closed_at)
            # a simulated server ends itself only by a quirk (silent-exit), with code 1
            self.transcript.note(self._clock, "the server process exited", "exit",
                                 side="server", code=1)
            return Closed()
        self._clock = deadline
        self.transcript.note(self._clock, f"no answer to id {message['id']} within {timeout_ms} ms",
                             "timeout")
        return Timeout(timeout_ms)

    def notify(self, message: Message) -> None:
        if not self._send(message):
            self.transcript.note(self._clock, "write failed: the server process has exited",
                                 "write-failed")

    def restart(self) -> bool:
        self.transcript.note(self._clock, "client restarts the server process", "restart")
        self._start()
        return True

    def close(self) -> None:
        self._deliver_until(self._clock)
        self.transcript.note(self._clock, "client closes the connection", "client-eof")


class StdioServer:
    """Feeds lines to one :class:`SimServer`; returns the lines to write back."""

    def __init__(self, spec: PeerSpec, say: Callable[[str], None]) -> None:
        self.spec = spec
        self.server = SimServer(spec)
        self.say = say
        self.exit = False

    def batching(self) -> bool:
        return any(self.spec.profile(r).settings.get("batching") for r in self.spec.revisions)

    def handle_line(self, text: str) -> list[Any]:
        """The replies to one line (each is written as a line of its own, a batch as one)."""
        # the decoder of a raw line on first use: only serve's stdio edge reads lines
        from .messages._decode import PARSE_ERROR, Junk, decode_rpc  # noqa: PLC0415

        if not text.strip():
            return []
        decoded = decode_rpc(text)
        if isinstance(decoded, Junk):
            if decoded.code == PARSE_ERROR:  # not JSON: -32700, or dropped (drop-unparsable)
                reaction = self.server.unparsable(decoded.reason)
                self.say(f"recv a line that is not JSON ({decoded.reason}); " + (
                    "answering -32700" if reaction.replies else "dropped (quirk drop-unparsable)"))
                return list(reaction.replies)
            self.say(f"recv a line that is no JSON-RPC message ({decoded.reason}); "
                     f"answering {decoded.code}")
            return [decoded.error()]
        if isinstance(decoded.value, list):
            return self._batch(decoded.value)
        return list(self._one(decoded.value).replies)

    def _batch(self, batch: list[Any]) -> list[Any]:
        if not self.batching() or not batch:
            self.say(f"recv a batch of {len(batch)}; refused (-32600)")
            revs = ", ".join(self.spec.revisions)
            return [{"jsonrpc": "2.0", "id": None,
                     "error": {"code": -32600,
                               "message": f"Invalid request: no JSON-RPC batches in {revs}"}}]
        from .messages._decode import Junk, batch_element, unbatched_methods  # noqa: PLC0415

        replies: list[Any] = []
        unbatched = unbatched_methods(self.spec.profile(r) for r in self.spec.revisions)
        for item in batch:  # JSON-RPC 2.0 §6: each invalid element gets its own error
            checked = batch_element(item, unbatched)
            if isinstance(checked, Junk):
                self.say(f"recv a batch element that is refused ({checked.reason}); "
                         f"answering {checked.code}")
                replies.append(checked.error())
            elif isinstance(checked.value, dict):
                replies += self._one(checked.value).replies
            if self.exit:
                break
        return [replies] if replies else []

    def _one(self, message: Message) -> Reaction:
        self.say(f"recv {describe(message)}")
        try:
            reaction = self.server.receive(message)
        except Exception as exc:  # a message the simulator cannot read: answer, do not die
            self.say(f"internal error on {describe(message)}: {exc!r}")
            return Reaction(replies=[{"jsonrpc": "2.0", "id": message.get("id"),
                                      "error": {"code": -32603, "message": "Internal error"}}])
        for reply in reaction.replies:
            self.say(f"send {describe(reply)}")
        if not reaction.replies and "id" in message and "method" in message:
            self.say(f"no answer to {describe(message)} (server quirks: {self._quirks()})")
        if reaction.exit:
            self.exit = True
            self.say("the simulated server exits now (quirk), without answering")
        return reaction

    def _quirks(self) -> str:
        return ", ".join(name for name, _ in self.spec.quirks) or "none"

"""Driven machines: a client that says what to send and takes what arrives, sans I/O.

Theory of operation
-------------------
A simulated client never touches a transport. It is a :class:`Machine`: the
caller asks it for its first :data:`Action`, performs it (sends the message and
waits for the answer, sends a notification, restarts the server), and hands back
what happened: for a :class:`Send`, the :data:`~._events.Event` that ended the
wait (a :class:`~._events.Reply`, a :class:`~._events.Timeout` or
:class:`~._events.Closed`); for the other actions, ``None``. When the machine has
a verdict it returns :class:`Finished` holding it. This is the shape of h11 and
wsproto: the protocol logic is the same whichever link performs the actions (an
in-memory simulated server, a stdio process, an HTTP connection, a recorded log).

Inside, a machine is a generator that yields actions and receives events, so the
negotiation reads top to bottom; the generator is private to the machine.

The machine reads two things from its :class:`Observer`, the one who drives it:
the simulated (or measured) time, and the position in the transcript, so that a
finding can name the message it is about.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ...versions import Message
from ._events import Closed, Event

__all__ = [
    "Action",
    "Finished",
    "Machine",
    "Notify",
    "Observer",
    "Open",
    "Remark",
    "Restart",
    "Send",
    "Steps",
    "Wait",
    "ask",
    "drive",
]

T = TypeVar("T")

# The actions are performed, each once, never compared nor hashed: they have no value
# equality (``eq=False``: compared by identity). Each ``__eq__`` and ``__hash__`` that
# dataclasses would write is compiled on every start, the default matrix's too.


@dataclass(frozen=True, slots=True, eq=False)
class Send:
    """Send a request and wait for its answer at most ``timeout_ms``; answer with the event."""

    message: Message
    timeout_ms: int


@dataclass(frozen=True, slots=True, eq=False)
class Notify:
    """Send a notification; nothing to answer (``None``)."""

    message: Message


@dataclass(frozen=True, slots=True, eq=False)
class Restart:
    """Replace the server process (stdio) with a fresh one; answer ``None``, or
    :class:`~._events.Closed` when no fresh process could be started."""


@dataclass(frozen=True, slots=True, eq=False)
class Wait:
    """Let the clock run until ``until_ms`` (simulated) before the next action; answer
    ``None``. A link on a real clock does not wait: a scenario's times are simulated."""

    until_ms: int


@dataclass(frozen=True, slots=True, eq=False)
class Open:
    """Send a request that opens a long-lived stream (``subscriptions/listen``) without
    waiting for its answer; answer ``None``. What arrives on it is read as notices
    (:meth:`Observer.notices` of a link that has them)."""

    message: Message


@dataclass(frozen=True, slots=True, eq=False)
class Remark:
    """Write an event in the transcript at the current time (the client's cache at work);
    answer ``None``. A link without a transcript ignores it."""

    text: str
    kind: str = "cache"


Action = Send | Notify | Restart | Wait | Open | Remark


@dataclass(eq=False, frozen=True, slots=True)
class Finished(Generic[T]):
    """The machine's verdict."""

    value: T


#: The body of a machine: yields actions, receives events, returns its verdict.
Steps = Generator[Action, Event | None, T]


class Observer(Protocol):
    """What a machine may read from whoever drives it."""

    def now_ms(self) -> int: ...
    def position(self) -> int: ...


class Machine(Generic[T]):
    """A driven machine around a generator body (see the module docstring)."""

    __slots__ = ("_body", "_waiting")

    def __init__(self, body: Steps[T]) -> None:
        self._body = body
        self._waiting: Action | None = None

    def start(self) -> Action | Finished[T]:
        return self._step(None, first=True)

    def send(self, event: Event | None) -> Action | Finished[T]:
        """Hand back what the last action gave: an event for a Send, else None."""
        waiting = self._waiting
        if waiting is None:
            raise RuntimeError("the machine is not waiting for anything")
        if isinstance(waiting, Send):
            if event is None:
                raise RuntimeError(f"{type(waiting).__name__} takes an event")
        elif isinstance(waiting, Notify | Wait | Open | Remark):
            if event is not None:
                raise RuntimeError(f"{type(waiting).__name__} takes None")
        elif isinstance(waiting, Restart) and not (event is None or isinstance(event, Closed)):
            raise RuntimeError(f"{type(waiting).__name__} takes None or Closed")
        return self._step(event, first=False)

    def _step(self, event: Event | None, *, first: bool) -> Action | Finished[T]:
        try:
            action = next(self._body) if first else self._body.send(event)
        except StopIteration as stop:
            self._waiting = None
            return Finished(stop.value)
        self._waiting = action
        return action


def ask(message: Message, timeout_ms: int) -> Steps[Event]:
    """In a machine's body, ``yield from ask(...)``: send a request, get the event that ended
    the wait."""
    event = yield Send(message, timeout_ms)
    if event is None:  # Machine.send refuses this; here for the type checker
        raise RuntimeError("a Send was answered with None")
    return event


class Performer(Protocol):
    """A link that performs actions by blocking (the in-memory link, the probe's links).

    A link may also have ``wait_until(ms)`` (a simulated clock runs to ``ms``) and a
    ``transcript`` with ``note(ms, text, kind)``; :func:`drive` uses them where they exist
    and otherwise lets :class:`Wait` and :class:`Remark` pass.
    """

    def request(self, message: Message, timeout_ms: int) -> Event: ...
    def notify(self, message: Message) -> None: ...
    def restart(self) -> bool: ...


def _perform_quiet(action: Wait | Remark, link: Performer) -> None:
    """Perform an action that needs nothing of a real link: a wait, a remark."""
    if isinstance(action, Wait):
        wait = getattr(link, "wait_until", None)
        if wait is not None:
            wait(action.until_ms)
        return
    transcript = getattr(link, "transcript", None)
    now = getattr(link, "now_ms", None)
    if transcript is not None and now is not None:
        transcript.note(now(), action.text, action.kind)


def drive(machine: Machine[T], link: Performer) -> T:
    """Run ``machine`` to its verdict over a link that performs each action in turn.

    The machine's body is stepped directly: what :meth:`Machine.send` checks (the
    event fits the action) holds by construction here, since this loop performs
    each action itself, and a run of the matrix drives a dozen actions.
    """
    action = machine.start()
    body = machine._body  # the machine's own driver: same module
    request = link.request
    while True:
        # dispatched on the action's own type (the actions are final classes; a subclass
        # takes the isinstance path below)
        kind = type(action)
        event: Event | None = None
        if kind is Send:
            event = request(action.message, action.timeout_ms)  # type: ignore[union-attr]
        elif kind is Remark or kind is Wait:
            _perform_quiet(action, link)  # type: ignore[arg-type]
        elif isinstance(action, Finished):
            return action.value
        elif isinstance(action, Send):
            event = request(action.message, action.timeout_ms)
        elif isinstance(action, Notify | Open):
            link.notify(action.message)
        elif isinstance(action, Wait | Remark):
            _perform_quiet(action, link)
        elif not link.restart():
            event = Closed("could not start a fresh server process")
        try:
            action = body.send(event)
        except StopIteration as stop:
            machine._waiting = None
            return stop.value  # type: ignore[no-any-return]

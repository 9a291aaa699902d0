"""How a signal ends a command: SIGTERM and SIGHUP stop it as Ctrl-C does, and nothing it
started outlives it.

By default Python dies at once on SIGTERM and SIGHUP, skipping every ``finally``: the servers
and workers a command started would be left running. :func:`stopping` (around a command, main
thread only) turns both into :class:`Terminated`, a ``KeyboardInterrupt``, so each command's
own Ctrl-C handling runs (census keeps its finished rows, matrix writes nothing), then ends
every process family still running through the hooks the layers that start processes
register (:func:`register`; :mod:`mcp_skew.wire._procs` registers its ``refuse``,
``end_all`` and ``reopen`` when it is imported: before that no process was started, and
this leaf module imports nothing of the package). The exit code is
128 + the signal number, as a shell reports it. A SIGHUP that is ignored (``nohup``) stays
ignored; commands that handle signals themselves (``record``, ``serve``) install their own
handlers inside this one. Processes started by a command that is killed outright (SIGKILL)
are ended by their supervisors (:mod:`mcp_skew.wire._procs`).

The command line enters :func:`stopping` first thing, before it builds its parser and loads
the registry (about a second on a busy machine, and no process is started before it). A
signal before that kills the interpreter at once, as it would any program, when nothing has
been started yet.

A raise from a signal handler can be swallowed: Python reports and drops an exception that
a weakref callback or a ``__del__`` raises ("Exception ignored in ..."), and the import
system runs such callbacks, so a SIGTERM (or a Ctrl-C) during an import could be lost and
the command run on. So the handler also records the signal (and, for SIGTERM and SIGHUP,
makes the wire refuse new processes);
:func:`check` raises it again where a command is about to start something long (``record``
before its server starts, ``serve`` before it serves), and :func:`stopping` does at its end.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from types import FrameType

TYPE_CHECKING = False  # not typing's: --help imports no typing (benchmarks/bench_startup.py)
if TYPE_CHECKING:
    from concurrent.futures import Future
    from typing import Final, TypeVar

    T = TypeVar("T")

__all__ = ["STOP_SIGNALS", "StopHooks", "Terminated", "check", "end_everything", "exit_code",
           "finished", "first_done", "gather", "register", "stopping"]

#: The signals that stop a command as Ctrl-C does (SIGINT is Python's KeyboardInterrupt).
STOP_SIGNALS: Final = (signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: stop, as for Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


#: The stop signals that came inside :func:`stopping` (their raise may have been swallowed).
_received: list[int] = []


class StopHooks:
    """What a layer that starts processes does when a command stops.

    A plain class, not a dataclass: the command line imports this module before its parser,
    and ``dataclasses`` (with ``inspect``, ``ast``, ``dis``) is a tenth of ``--help``'s start.
    """

    __slots__ = ("end_all", "refuse", "reopen")

    def __init__(self, refuse: Callable[[], None], end_all: Callable[[bool], None],
                 reopen: Callable[[], None]) -> None:
        self.refuse = refuse  #: start no new process from now on (from a signal handler)
        self.end_all = end_all  #: end all still running; refuse new ones when given True
        self.reopen = reopen  #: start processes again (the command is over)


#: The registered hooks, by owner; replaced whole, never changed in place, so that a signal
#: handler reading it while :func:`register` runs sees the old value or the new one.
_hooks: dict[str, StopHooks] = {}


def register(owner: str, hooks: StopHooks) -> None:
    """Have :func:`stopping` call ``hooks`` (``owner``'s: registering again replaces them)."""
    global _hooks  # noqa: PLW0603 - replaced whole: see _hooks
    _hooks = {**_hooks, owner: hooks}


def _raise(signum: int, _frame: FrameType | None) -> None:
    _received.append(signum)
    for hooks in _hooks.values():
        hooks.refuse()  # no new process, even where the raise below is swallowed
    raise Terminated(signum)


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    """Ctrl-C as Python gives it (``KeyboardInterrupt``), recorded so that a raise that was
    swallowed is raised again (as :class:`Terminated` with SIGINT's number). New processes
    are not refused: a command's own Ctrl-C handling lets the running work finish."""
    _received.append(signum)
    raise KeyboardInterrupt


def check() -> None:
    """Raise :class:`Terminated` again for a stop signal that came inside :func:`stopping`
    (a no-op without one): its first raise may have been swallowed."""
    if _received:
        raise Terminated(_received[0])


def exit_code(exc: KeyboardInterrupt) -> int:
    """128 + the signal's number (SIGINT for a plain Ctrl-C). A command that returns it has
    handled the stop: :func:`stopping` does not raise it again, and the interpreter exits
    with it (:func:`_handled_in_exec`)."""
    _received.clear()
    _handled_in_exec()
    return 128 + (exc.signum if isinstance(exc, Terminated) else signal.SIGINT)


def _handled_in_exec() -> None:
    """Keep CPython from ending the process by SIGINT after a handled ``KeyboardInterrupt``.

    CPython 3.11 marks a ``KeyboardInterrupt`` that leaves code run by ``exec`` of a string
    as unhandled, even when a caller catches it, and then ends the interpreter by SIGINT
    instead of with its exit code; ``dataclasses`` and ``namedtuple`` build their methods so,
    and a Ctrl-C while a module that defines one is imported (Uvicorn's, at a server's start)
    lands there. The mark is a variable of the interpreter; where it is not exported (other
    versions keep it elsewhere), nothing is done."""
    with contextlib.suppress(Exception):
        import ctypes  # noqa: PLC0415 - only on the way out of a stopped command

        ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt").value = 0


def end_everything(*, refuse: bool) -> None:
    """End every process family still running, if any was ever started; with ``refuse``, no
    new one starts in this process from then on (the command is being stopped)."""
    for hooks in _hooks.values():
        hooks.end_all(refuse)


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` inside; every family is ended on the way
    out, whatever happened; the handlers are put back."""
    previous: dict[signal.Signals, object] = {}
    _received.clear()
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, _raise)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, _interrupt)
    stopped = False
    try:
        yield
        check()  # a stop whose raise was swallowed: the command ran on, it stops now
    except KeyboardInterrupt:
        stopped = True
        raise
    finally:
        try:
            end_everything(refuse=stopped)
        finally:
            for hooks in _hooks.values():  # the command is over: a caller in-process may
                hooks.reopen()  # spawn again
            for sig, handler in previous.items():
                signal.signal(sig, handler)  # type: ignore[arg-type]
            _received.clear()


#: How often a main thread waiting for other threads' work wakes to run a signal's handler.
WAKE_S: Final = 0.25


def first_done(futures: Collection[Future[T]]) -> set[Future[T]]:
    """Wait until one of ``futures`` (not empty) is done; those done, for a main thread that
    waits on other threads or processes inside :func:`stopping`.

    A stop signal is delivered to whichever thread of the process the kernel picks; the
    handler runs in the main thread only once it runs Python again, and a main thread blocked
    in a lock's wait (``as_completed``, ``Future.result``, ``pool.map``) is not woken when
    the signal lands on another thread: the command ran on until its work ended (a client's
    ``--timeout``, 600 s in a test). So the wait wakes every :data:`WAKE_S`, which runs the
    handler, and raises a stop whose raise was swallowed (:func:`check`)."""
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415 - not for --help

    while True:
        done, _ = wait(futures, timeout=WAKE_S, return_when=FIRST_COMPLETED)
        check()
        if done:
            return done


def finished(futures: Iterable[Future[T]]) -> Iterator[Future[T]]:
    """``futures`` as they finish (as :func:`concurrent.futures.as_completed`), waiting as
    :func:`first_done` does."""
    pending = set(futures)
    while pending:
        done = first_done(pending)
        pending -= done
        yield from done


def gather(futures: Iterable[Future[T]]) -> list[T]:
    """The results of ``futures`` in their order (as ``list(pool.map(...))``: the first
    failure is raised as soon as it is known), waiting as :func:`finished` does."""
    ordered = list(futures)
    for future in finished(ordered):
        if future.exception() is not None:
            future.result()
    return [f.result() for f in ordered]

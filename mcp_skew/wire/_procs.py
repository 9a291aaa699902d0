"""Child processes that never outlive the command.

Theory of operation
-------------------
Every process mcp-skew starts for a server or a client driver (``probe``, ``record``,
``replay``, ``census``, ``matrix --run-real``, the drift checks) is started by :func:`spawn`.
On Linux it runs under a **supervisor** (``_super.py``, a tiny single-threaded script) that
keeps the server's whole family in one place a descendant cannot leave:

1. **A PID namespace** where the machine allows it (``unshare(CLONE_NEWPID)``: root or
   ``CAP_SYS_ADMIN``; otherwise inside a new user namespace mapping the user to itself, where
   unprivileged user namespaces are allowed). The server runs under the namespace's init;
   when that init exits (the server exited, or the init was killed), the kernel kills every
   process in the namespace. ``setsid``, a double fork and an empty environment change
   nothing. A cgroup would do as well, but needs a delegated, writable cgroup v2 hierarchy,
   which most machines (and containers) do not give a user; a namespace needs no setup.
2. **The fallback** (no namespace, or ``MCP_SKEW_FAMILY=tree`` in the environment): the
   supervisor is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so a descendant whose parent
   exits is re-parented to the supervisor and stays in its tree; the supervisor kills what is
   left of the tree when the server exits. The server and its descendants also carry a mark in
   their environment (``MCP_SKEW_OWNER=<pid>-<n>``), and this process is a subreaper too: a
   process re-parented to us (the supervisor was killed) that is not one we started and not in
   our session is family. The limit of this way: a process that leaves the tree while the
   supervisor is gone, and clears its environment.

Either way the server runs in a session and process group of its own; signals sent to the
supervisor (SIGTERM, SIGINT, SIGHUP, ...) are passed on to the server's group; the supervisor
exits as the server did (its code, or its signal), so ``returncode`` is the server's. The
supervisor holds the read end of a pipe (the *lifeline*) whose write end only this process
holds: when this process dies, however (SIGKILL included), the supervisor sees end of file
and kills the whole family. So no server outlives mcp-skew, even one killed outright.

:func:`end` ends one: SIGTERM (to the supervisor, which passes it on), a grace period, then
SIGKILL to every process of its :func:`family` (read from ``/proc``: the supervisor's
descendants, its group and session, the marked processes, the re-parented ones), again until
none is left, and the reaping of what was re-parented to us. :func:`end_all` ends every family
still running and makes :func:`spawn` refuse from then on: the command line calls it when a
signal ends the command. The refusal is read under the same lock that registers a new
process, so a :func:`spawn` racing :func:`end_all` is either registered before the families
are listed (and ended with them) or refused: none starts unseen. :func:`refuse` sets it
alone (from a signal handler: it takes no lock).

Where ``/proc`` is missing (not Linux) there is no supervisor and the family is the process
group alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import itertools
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from .._stopping import StopHooks, register

__all__ = ["MARK", "end", "end_all", "family", "family_usage", "refuse", "reopen", "spawn",
           "subreaper", "supervised"]

#: The environment variable that marks a spawned server and its descendants.
MARK: Final = "MCP_SKEW_OWNER"
_PR_SET_CHILD_SUBREAPER: Final = 36
_PROC: Final = Path("/proc")
_SUPERVISOR: Final = Path(__file__).resolve().with_name("_super.py")
_numbers = itertools.count(1)
_subreaper: bool | None = None
#: pid -> the mark of each process :func:`spawn` started and :func:`end` has not ended
_marks: dict[int, str] = {}
#: the live processes :func:`spawn` started (for :func:`end_all`)
_live: dict[int, subprocess.Popen[bytes]] = {}
_lock = threading.Lock()
_lifeline: list[tuple[int, int]] = []  #: (owner pid, read end): the write end stays here
_closing: list[bool] = []


def subreaper() -> bool:
    """Make this process a child subreaper (once); whether it is one."""
    global _subreaper  # noqa: PLW0603 - a property of the whole process, set once
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError):
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _subreaper


def supervised() -> bool:
    """Whether :func:`spawn` starts servers under the supervisor (Linux, with ``/proc``)."""
    return sys.platform.startswith("linux") and _PROC.is_dir()


def _lifeline_fd() -> int:
    """The read end of this process's lifeline (made once per process: a fork makes its own)."""
    me = os.getpid()
    with _lock:
        if not _lifeline or _lifeline[0][0] != me:
            read, _write = os.pipe()  # the write end is never closed: it ends with us
            _lifeline[:] = [(me, read)]
        return _lifeline[0][1]


def _mode() -> str:
    return "tree" if os.environ.get("MCP_SKEW_FAMILY") == "tree" else "auto"


def _started(proc: subprocess.Popen[bytes], report: int, argv0: str) -> str:
    """Read the supervisor's report until the command runs; raise OSError as Popen would when
    it cannot be run. Returns the mode (``ns`` or ``tree``)."""
    got = b""
    give_up = time.monotonic() + 60.0
    with contextlib.closing(os.fdopen(report, "rb", buffering=0)) as pipe:
        while time.monotonic() < give_up:
            ready, _, _ = select.select([pipe], [], [], 1.0)
            if ready:
                data = pipe.read(512)
                if not data:
                    break
                got += data
            elif proc.poll() is not None:
                break
    words = dict(line.split(b" ", 1) for line in got.splitlines() if b" " in line)
    if b"exec" in words:
        code = int(words[b"exec"]) if words[b"exec"].isdigit() else errno.ENOENT
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        proc.wait()
        raise OSError(code, os.strerror(code), argv0)
    return words.get(b"mode", b"none").decode()


def spawn(argv: Sequence[str], *, env: Mapping[str, str] | None = None,
          **popen: Any) -> subprocess.Popen[bytes]:
    """``Popen`` in a new session, marked, under the supervisor; raises OSError as Popen does
    (and once :func:`end_all` has run)."""
    if _closing:
        raise OSError(errno.ECANCELED, "mcp-skew is ending: no new process")
    subreaper()
    marked = dict(os.environ if env is None else env)
    marked[MARK] = f"{os.getpid()}-{next(_numbers)}"
    command = list(argv)
    if not command:
        raise OSError(errno.EINVAL, "empty command")
    report = -1
    if supervised():
        lifeline = _lifeline_fd()
        report, report_w = os.pipe()
        command = [sys.executable, "-I", "-S", str(_SUPERVISOR), str(lifeline), str(report_w),
                   _mode(), "--", *command]
        popen["pass_fds"] = (*popen.get("pass_fds", ()), lifeline, report_w)
    try:
        with _lock:  # registered before a family() elsewhere can see it as an adopted orphan
            if _closing:  # read under the lock end_all lists under: never started unseen
                raise OSError(errno.ECANCELED, "mcp-skew is ending: no new process")
            proc: subprocess.Popen[bytes] = subprocess.Popen(command, env=marked,
                                                             start_new_session=True, **popen)
            _marks[proc.pid] = marked[MARK]
            _live[proc.pid] = proc
    except BaseException:
        if report >= 0:
            os.close(report)
        raise
    finally:
        if report >= 0:
            os.close(report_w)
    if report >= 0:
        try:
            _started(proc, report, str(argv[0]))
        except OSError:
            with _lock:
                _marks.pop(proc.pid, None)
                _live.pop(proc.pid, None)
            raise
    return proc


def refuse() -> None:
    """Make :func:`spawn` refuse from now on (takes no lock: safe in a signal handler)."""
    _closing[:] = [True]


def reopen() -> None:
    """Let :func:`spawn` start processes again (after :func:`end_all` refused them)."""
    _closing.clear()


def end_all(*, refuse: bool = True) -> None:
    """End every family :func:`spawn` started that is still running; with ``refuse``,
    :func:`spawn` refuses from then on (the command is stopping: a thread must not start
    another server while it does)."""
    if refuse:
        _closing[:] = [True]  # before the listing: a spawn after it sees this under the lock
    with _lock:
        procs = list(_live.values())
    for proc in procs:
        end(proc, grace_s=0.5)


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(parent, process group, session) of ``pid``; None when it is gone."""
    got = _full_stat(pid)
    return got[:3] if got is not None else None


def _full_stat(pid: int) -> tuple[int, int, int, str, int] | None:
    """(parent, process group, session, scheduler state, CPU ticks so far: utime + stime) of
    ``pid``, from one read of ``/proc/PID/stat``; None when it is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    try:
        return (int(fields[1]), int(fields[2]), int(fields[3]), fields[0],
                int(fields[11]) + int(fields[12]))
    except (IndexError, ValueError):
        return None


def _marked(pid: int, mark: bytes) -> bool:
    try:
        return mark in (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return False


def family(pid: int, mark: bytes | None = None) -> set[int]:
    """``pid``'s process family now: descendants, its group and session, its marked processes
    (``MARK=value`` bytes), the processes re-parented to us that we did not start (outside our
    session), and their descendants. ``pid`` itself is included while it lives."""
    if not _PROC.is_dir():
        return {pid}
    return _family_in(_scan(), pid, mark)


def family_usage(pid: int, mark: bytes | None = None) -> dict[int, tuple[str, int]]:
    """Each process of ``pid``'s :func:`family` now with its scheduler state (``R``, ``S``,
    ``D``, ``Z``, ...) and CPU ticks so far, from one scan of ``/proc``: each process's
    ``stat`` read once, for who is family and what each is doing at one moment (a poll that
    read the family, then each member's figures, read them twice). Empty without ``/proc``."""
    if not _PROC.is_dir():
        return {}
    table = _scan()
    return {p: (table[p][3], table[p][4]) for p in _family_in(table, pid, mark) if p in table}


def _scan() -> dict[int, tuple[int, int, int, str, int]]:
    """Every process now: :func:`_full_stat` of each, by pid."""
    table: dict[int, tuple[int, int, int, str, int]] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            got = _full_stat(int(entry.name))
            if got is not None:
                table[int(entry.name)] = got
    return table


def _family_in(table: dict[int, tuple[int, int, int, str, int]], pid: int,
               mark: bytes | None) -> set[int]:
    """:func:`family` read off one scan of the processes (:func:`_scan`)."""
    me = os.getpid()
    mine = table[me][2] if me in table else 0
    with _lock:
        known = set(_live) - {pid}
    found = {p for p, (_, group, session, _, _) in table.items()
             if pid in (p, group, session)}
    if subreaper():  # adopted: an orphan of a family whose supervisor was killed
        found |= {p for p, (parent, _, session, _, _) in table.items()
                  if parent == me and p not in known and session != mine}
    if mark is not None:
        found |= {p for p in table if p != me and _marked(p, mark)}
    children: dict[int, list[int]] = {}
    for p, (parent, *_) in table.items():
        children.setdefault(parent, []).append(p)
    todo = list(found)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found and child != me:
                found.add(child)
                todo.append(child)
    found.discard(me)
    return found


def _signal_all(pid: int, pids: set[int], sig: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pid, sig)
    for each in pids:
        with contextlib.suppress(OSError):
            os.kill(each, sig)


def _reap(pids: set[int]) -> None:
    """Collect the exit of what was re-parented to us (a subreaper), so no zombie is left."""
    for each in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(each, os.WNOHANG)


def end(proc: subprocess.Popen[bytes], *, grace_s: float = 1.0, term: bool = True,
        kill_wait_s: float = 2.0) -> int | None:
    """End ``proc`` and its family: SIGTERM (unless ``term`` is false), ``grace_s`` for the
    server to exit, then SIGKILL to every process of the family found again. Returns the
    server's exit code (negative: a signal), None if it could not be collected."""
    with _lock:
        value = _marks.pop(proc.pid, None)
    mark = f"{MARK}={value}".encode() if value is not None else None
    seen = family(proc.pid, mark)
    if term and proc.poll() is None:
        if supervised():  # the supervisor passes it on to the server's group
            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGTERM)
        else:
            _signal_all(proc.pid, seen, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(grace_s)
    seen |= family(proc.pid, mark)
    _signal_all(proc.pid, seen, signal.SIGKILL)
    code: int | None = None
    with contextlib.suppress(subprocess.TimeoutExpired):
        code = proc.wait(kill_wait_s)
    give_up = time.monotonic() + kill_wait_s
    while True:
        _reap(seen)
        left = {p for p in family(proc.pid, mark) if _stat(p) is not None}
        left = {p for p in left if not _zombie(p)}
        if not left or time.monotonic() >= give_up:
            break
        _signal_all(proc.pid, left, signal.SIGKILL)
        seen |= left
        time.sleep(0.02)
    with _lock:
        _live.pop(proc.pid, None)
    return code


def _zombie(pid: int) -> bool:
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return True
    state = text.rpartition(")")[2].split()[:1]
    return state == ["Z"]


# A stopped command ends every family and refuses new ones (mcp_skew._stopping); registered
# here, once the functions exist, so no stop can find this module half made.
register("wire", StopHooks(refuse=refuse, end_all=lambda refusing: end_all(refuse=refusing),
                           reopen=reopen))

"""Child processes that never outlive the command.

Theory of operation
-------------------
Every server mcp-skew starts (``probe``, ``record``, ``replay``) is started by
:func:`spawn`:

- in a **session and process group of its own** (``start_new_session``), so a
  signal to the group reaches the server and what it spawned, and a terminal's
  Ctrl-C reaches it once;
- with a **mark in its environment** (``MCP_SKEW_OWNER=<pid>-<n>``), which its
  descendants inherit;
- with this process made a **child subreaper** where Linux allows it
  (``prctl(PR_SET_CHILD_SUBREAPER)``): a descendant whose parent exits is
  re-parented to us, not to init, so it stays in our process tree.

:func:`end` ends one: SIGTERM to everything in its :func:`family`, a grace
period, then SIGKILL to the family found again (it may have spawned more), and
the reaping of what was re-parented to us. The family is read from ``/proc``:
the server's descendants (by parent pid), everything in its process group or
session, and every process that carries its mark, with their descendants. So a
grandchild that called ``setsid()`` (a new session and group, out of reach of
``killpg``) is still found: by its parent while the server lives, by its mark
(or as our adopted child) after. A cgroup would be tighter, but needs a
delegated hierarchy this tool cannot count on; a process that both leaves the
tree (double fork without a subreaper) and clears its environment escapes.

Where ``/proc`` is missing (not Linux) the family is the process group alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = ["MARK", "end", "family", "spawn", "subreaper"]

#: The environment variable that marks a spawned server and its descendants.
MARK: Final = "MCP_SKEW_OWNER"
_PR_SET_CHILD_SUBREAPER: Final = 36
_PROC: Final = Path("/proc")
_numbers = itertools.count(1)
_subreaper: bool | None = None
#: pid -> the mark of each process :func:`spawn` started and :func:`end` has not ended
_marks: dict[int, str] = {}


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


def spawn(argv: Sequence[str], *, env: Mapping[str, str] | None = None,
          **popen: Any) -> subprocess.Popen[bytes]:
    """``Popen`` in a new session, marked; raises OSError as Popen does."""
    subreaper()
    marked = dict(os.environ if env is None else env)
    marked[MARK] = f"{os.getpid()}-{next(_numbers)}"
    proc: subprocess.Popen[bytes] = subprocess.Popen(list(argv), env=marked,
                                                     start_new_session=True, **popen)
    _marks[proc.pid] = marked[MARK]
    return proc


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(parent, process group, session) of ``pid``; None when it is gone."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    try:
        return int(fields[1]), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def _marked(pid: int, mark: bytes) -> bool:
    try:
        return mark in (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return False


def family(pid: int, mark: bytes | None = None) -> set[int]:
    """``pid``'s process family now: descendants, its group and session, its marked processes
    (``MARK=value`` bytes), and their descendants. ``pid`` itself is included while it lives."""
    if not _PROC.is_dir():
        return {pid}
    table: dict[int, tuple[int, int, int]] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            got = _stat(int(entry.name))
            if got is not None:
                table[int(entry.name)] = got
    me = os.getpid()
    found = {p for p, (_, group, session) in table.items()
             if pid in (p, group, session)}
    if mark is not None:
        found |= {p for p in table if p != me and _marked(p, mark)}
    children: dict[int, list[int]] = {}
    for p, (parent, _, _) in table.items():
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
    value = _marks.pop(proc.pid, None)
    mark = f"{MARK}={value}".encode() if value is not None else None
    seen = family(proc.pid, mark)
    if term and proc.poll() is None:
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
    return code


def _zombie(pid: int) -> bool:
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return True
    state = text.rpartition(")")[2].split()[:1]
    return state == ["Z"]

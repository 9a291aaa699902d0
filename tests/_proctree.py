"""A process's descendants and command lines, read from Linux ``/proc`` (the slow census
tests count the workers running a server), and the signal dispositions a test gives the
commands it stops."""

from __future__ import annotations

import signal
from pathlib import Path

__all__ = ["children", "cmdline", "default_signals", "descendants", "marked", "probing_workers"]

#: The signals a test sends to stop a command.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def default_signals() -> None:
    """In a child (``preexec_fn``): each stop signal as a terminal would deliver it. The
    suite may run with some ignored, and a child inherits that: a shell without job control
    starts a background job with SIGINT ignored, ``nohup`` ignores SIGHUP; a command keeps an
    ignored signal ignored, so a test that sends it would wait for a stop that never comes."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


def children(pid: int) -> list[int]:
    """Children of a process, started by any of its threads."""
    out = []
    try:  # the process may end while its tasks are read: then it has no children
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []
    for task in tasks:
        try:
            out += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def descendants(pid: int) -> list[int]:
    out = []
    for child in children(pid):
        out += [child, *descendants(child)]
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def probing_workers(pid: int) -> list[int]:
    """Worker processes under ``pid`` (multiprocessing children of a pool or of a Dask nanny)
    that are running a server now (the simulated stdio server, or the resource-limits wrapper
    a census starts each server under)."""
    return [p for p in descendants(pid) if "spawn_main" in cmdline(p)
            and any("sim_stdio_server.py" in cmdline(c) or "_limits.py" in cmdline(c)
                    for c in children(p))]


def marked(owner: int) -> list[int]:
    """The live (not zombie) processes marked as started by the command ``owner``: wire._procs
    marks each child it starts in its environment, and the child's own children inherit the
    mark. Read from /proc, not from the process tree: a child in a PID namespace of its own
    has pids this process does not see, and a child in a new session leaves the tree."""
    from mcp_skew.wire._procs import MARK

    mark = f"{MARK}={owner}-".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes()
            state = (entry / "stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            continue
        if state != b"Z" and any(v.startswith(mark) for v in env.split(b"\0")):
            found.append(int(entry.name))
    return found

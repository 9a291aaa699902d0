"""A process's descendants and command lines, read from Linux ``/proc`` (the slow census
tests count the workers running a server)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["children", "cmdline", "descendants", "probing_workers"]


def children(pid: int) -> list[int]:
    """Children of a process, started by any of its threads."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
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

"""The cost guard: a fast test that starts a process, opens a socket or a Dask cluster fails.

The default run (``python -m pytest -q``) is for fast tests only. A test that needs a
process, a socket or a cluster belongs in ``tests/slow/`` (or carries the ``slow``
marker); one that installs a real SDK belongs in ``tests/interop/`` (``realpeer``).
So that a misfiled test fails at once instead of slowly making the default run long,
:func:`install` wraps the calls that start those things once per session, and
:func:`guarding` arms the wrappers around each phase (setup, call, teardown) of a test
that is marked neither ``slow`` nor ``realpeer``:

- ``subprocess.Popen`` (so ``subprocess.run`` and asyncio's subprocesses too), and
  ``os.system``, ``os.fork``, ``os.posix_spawn`` and ``os.posix_spawnp``;
- ``multiprocessing``'s ``Process.start`` (so ``ProcessPoolExecutor`` too);
- ``socket.socket`` ``connect``, ``connect_ex``, ``bind`` and ``listen`` (a socket pair,
  as asyncio's event loop makes for itself, is none of these and stays allowed);
- Dask's ``SpecCluster`` (so ``LocalCluster``), patched when ``distributed`` is imported.

The armed wrapper raises :class:`CostGuardError`, and it records the call too: code
under test that catches every exception (a worker that reports what went wrong) does
not hide it, the phase fails anyway. The guard is armed around the phases, not in a
fixture, so that a module- or session-scoped fixture that starts a server for a fast
test is caught as well; between tests, and for pytest's own work, nothing is armed.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.abc
import importlib.machinery
import multiprocessing.process
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

import pytest

__all__ = ["SLOW", "CostGuardError", "guarding", "install", "is_costly", "place", "taken"]

#: the folder directly under tests/ of the tests that start processes, sockets, clusters
SLOW = "slow"
#: markers that allow processes, sockets and clusters
COSTLY_MARKERS = (SLOW, "realpeer")
_DASK_MODULE = "distributed.deploy.spec"


class CostGuardError(RuntimeError):
    """A test not marked slow started a process, opened a socket or a cluster."""


class _State:
    """Which test is armed (its node id) and what it was caught doing."""

    armed: str | None = None
    seen: list[str] = []  # noqa: RUF012 (one process-wide record, reset per phase)


def place(folders: Sequence[str]) -> tuple[bool, str | None]:
    """Whether a file in ``folders`` (relative to tests/) is slow, and its kind's folder.

    ``unit/`` is fast unit, ``slow/unit/`` slow unit; a file directly in tests/ has no kind.
    """
    slow = tuple(folders[:1]) == (SLOW,)
    rest = folders[1:] if slow else folders
    return slow, (rest[0] if rest else None)


def taken() -> list[str]:
    """What the armed guard caught so far in this phase, forgotten (for the guard's own tests)."""
    seen, _State.seen = _State.seen, []
    return seen


def is_costly(item: pytest.Item) -> bool:
    """Whether ``item`` may start processes, sockets and clusters (marked slow or realpeer)."""
    return any(item.get_closest_marker(name) for name in COSTLY_MARKERS)


def _message(nodeid: str, what: str) -> str:
    return (f"{nodeid} {what}, but it is not marked slow: the default run is for fast tests. "
            "Move it to tests/slow/ (or mark it pytest.mark.slow); see tests/README.md")


def _check(what: str) -> None:
    """Raise (and record) when a test is armed; do nothing between tests."""
    nodeid = _State.armed
    if nodeid is None:
        return
    message = _message(nodeid, what)
    _State.seen.append(message)
    raise CostGuardError(message)


def _wrap(owner: Any, name: str, what: str) -> None:
    real: Callable[..., Any] = getattr(owner, name)
    if getattr(real, "_cost_guarded", False):
        return

    @functools.wraps(real)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        _check(what)
        return real(*args, **kwargs)

    guarded._cost_guarded = True  # type: ignore[attr-defined]
    setattr(owner, name, guarded)


def _wrap_dask(module: ModuleType) -> None:
    _wrap(module.SpecCluster, "__init__", "starts a Dask cluster")


class _PatchDaskOnImport(importlib.abc.MetaPathFinder):
    """Wraps Dask's cluster class when ``distributed`` is first imported (it is heavy: not before)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != _DASK_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        real = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            real(module)
            _wrap_dask(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Wrap the calls that start processes, sockets and clusters (idempotent; disarmed)."""
    _wrap(subprocess.Popen, "__init__", "starts a subprocess (subprocess.Popen)")
    for name in ("system", "fork", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            _wrap(os, name, f"starts a process (os.{name})")
    _wrap(multiprocessing.process.BaseProcess, "start", "starts a process (multiprocessing)")
    for name in ("connect", "connect_ex", "bind", "listen"):
        _wrap(socket.socket, name, f"opens a socket (socket.{name})")
    if _DASK_MODULE in sys.modules:
        _wrap_dask(sys.modules[_DASK_MODULE])
    elif not any(isinstance(finder, _PatchDaskOnImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PatchDaskOnImport())


@contextlib.contextmanager
def guarding(item: pytest.Item) -> Iterator[None]:
    """Arm the guard for one phase of ``item`` unless it is marked slow or realpeer.

    A call the code under test caught and swallowed still fails the phase.
    """
    if is_costly(item):
        yield
        return
    _State.armed, _State.seen = item.nodeid, []
    try:
        yield
    finally:
        _State.armed = None
    if _State.seen:
        pytest.fail(_State.seen[0], pytrace=False)

"""The cost guard: a test not marked slow that starts a process, a socket or a cluster fails.

These tests are fast tests themselves, so the guard is armed while they run: each does the
forbidden thing, sees the guard's error, and takes the record (:func:`_cost_guard.taken`)
so that its own phase does not fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import socket
import subprocess
import sys

import pytest
from _cost_guard import CostGuardError, place, taken


def test_a_subprocess_fails_with_a_message_that_says_where_the_test_goes() -> None:
    with pytest.raises(CostGuardError, match=r"test_cost_guard.py::\S+ starts a subprocess .*"
                                             r"not marked slow.*tests/slow/"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)
    assert len(taken()) == 1


@pytest.mark.parametrize("call", ["system", "fork", "posix_spawn"])
def test_the_os_ways_to_start_a_process_fail(call: str) -> None:
    args: dict[str, tuple[object, ...]] = {
        "system": ("true",), "fork": (), "posix_spawn": ("/bin/true", ["true"], {})}
    with pytest.raises(CostGuardError, match=f"os.{call}"):
        getattr(os, call)(*args[call])
    assert len(taken()) == 1


def test_a_multiprocessing_process_fails() -> None:
    process = multiprocessing.get_context("spawn").Process(target=print)
    with pytest.raises(CostGuardError, match="starts a process"):
        process.start()
    assert len(taken()) == 1


@pytest.mark.parametrize("call", ["bind", "listen", "connect", "connect_ex"])
def test_a_socket_fails(call: str) -> None:
    with socket.socket() as sock, pytest.raises(CostGuardError, match=f"socket.{call}"):
        getattr(sock, call)(*([("127.0.0.1", 0)] if call != "listen" else []))
    assert len(taken()) == 1


def test_a_caught_error_still_fails_the_test() -> None:
    with contextlib.suppress(Exception):  # as a worker that reports what went wrong
        subprocess.run(["true"], check=False)
    assert len(taken()) == 1  # the phase would fail with the guard's message without this


def test_a_socket_pair_and_an_event_loop_stay_allowed() -> None:
    async def echo() -> bytes:
        _, writer = await asyncio.open_connection(sock=left)
        writer.write(b"x")
        await writer.drain()
        writer.close()
        return await asyncio.to_thread(right.recv, 1)

    left, right = socket.socketpair()
    with left, right:
        assert asyncio.run(echo()) == b"x"
    assert taken() == []


def test_a_dask_cluster_fails() -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra")
    with pytest.raises(CostGuardError, match="starts a Dask cluster"):
        distributed.LocalCluster(processes=False, n_workers=1, dashboard_address=None)
    assert len(taken()) == 1


@pytest.mark.parametrize(("folders", "slow", "kind"), [
    (("unit",), False, "unit"),
    (("slow", "unit"), True, "unit"),
    (("slow", "property"), True, "property"),
    (("slow",), True, None),
    ((), False, None),
    (("unit", "slow"), False, "unit"),  # only a slow/ folder right under tests/ counts
])
def test_the_folder_gives_the_cost_and_the_kind(folders: tuple[str, ...], slow: bool,
                                                 kind: str | None) -> None:
    assert place(folders) == (slow, kind)


def test_this_fast_test_is_not_marked_slow(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("slow") is None
    assert request.node.get_closest_marker("unit") is not None

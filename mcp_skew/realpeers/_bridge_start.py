"""A named bridge, installed and started in front of a stdio server command (``probe --via``).

The bridge's package is installed in a cached environment as every real peer's is
(:mod:`._envs`); it is started with its table's start line (:class:`~mcp_skew.peers.NamedBridge`
``argv``) on a port the system chose, as a process family of its own
(:func:`mcp_skew.wire.spawn`: it and every server process it starts end with it, and with
the command), with a standard input kept open (supergateway ends when its standard input ends).
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..errors import UsageError
from ..peers import NamedBridge
from ..wire import end, spawn
from ._drift import _free_port, wait_listening
from ._envs import EnvironmentUnavailable, ensure_npm_env, ensure_python_env

__all__ = ["bridge_running", "start_bridge", "stop_bridge"]


def _entry(bridge: NamedBridge) -> list[str]:
    """The bridge's executable, from its installed package."""
    package = bridge.package
    try:
        if package.ecosystem == "npm":
            modules = ensure_npm_env(package.requirements).node_modules
            name = package.requirements[0].rsplit("@", 1)[0]
            return ["node", str(modules / name / _npm_bin(modules / name))]
        env = ensure_python_env(package.requirements)
    except EnvironmentUnavailable as exc:
        raise UsageError(f"--via {bridge.name}: cannot install {package.text}: {exc}") from None
    name = package.requirements[0].split("==")[0]
    return [str(Path(env.python).parent / name)]


def _npm_bin(folder: Path) -> str:
    """The package's own ``bin`` entry (``package.json``)."""
    import json  # noqa: PLC0415

    data = json.loads((folder / "package.json").read_text())
    found = data.get("bin")
    if isinstance(found, dict):
        found = next(iter(found.values()), None)
    if not isinstance(found, str):
        raise UsageError(f"{folder.name}: its package.json names no bin entry")
    return found


def start_bridge(bridge: NamedBridge, command: Sequence[str], *, idle_s: float = 5.0,
                 ceiling_s: float = 600.0) -> tuple[str, subprocess.Popen[bytes]]:
    """Start ``bridge`` in front of ``command``; its URL and its process, once it listens.

    The wait is :func:`._drift.wait_listening`'s: for as long as the bridge's process family
    is busy starting (using CPU, or waiting its turn for one on a busy machine: ``/proc``),
    up to ``ceiling_s``; a bridge that exits fails at once, and one that sits idle for
    ``idle_s`` without listening fails then. Either is one clear line."""
    if not bridge.argv:
        raise UsageError(f"--via {bridge.name}: a bridge to a remote server, not in front of a "
                         "command (its model runs in simulate --via)")
    port = _free_port()
    argv: list[str] = []
    for part in bridge.argv:
        if part == "{bin}":
            argv += _entry(bridge)
        elif part == "{argv}":
            argv += list(command)
        else:
            argv.append(part.format(port=port, cmd=shlex.join(command)))
    try:
        proc = spawn(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    except OSError as exc:
        raise UsageError(f"--via {bridge.name}: cannot start it: {exc}") from None
    started = time.monotonic()
    if not wait_listening(proc, port, idle_s=idle_s, ceiling_s=ceiling_s):
        code = proc.poll()
        stop_bridge(proc)
        if code is not None:
            why = f"it exited (code {code}) before it listened on port {port}"
        elif time.monotonic() - started > ceiling_s:
            why = f"it did not listen on port {port} within {ceiling_s:g} s"
        else:
            why = f"it sat idle for {idle_s:g} s without listening on port {port}"
        raise UsageError(f"--via {bridge.name}: {why}")
    return f"http://127.0.0.1:{port}/mcp", proc


def stop_bridge(proc: subprocess.Popen[bytes]) -> None:
    """End the bridge and every server process it started."""
    end(proc)
    if proc.stdin is not None:
        proc.stdin.close()


@contextmanager
def bridge_running(bridge: NamedBridge, command: Sequence[str], *, idle_s: float = 5.0,
                   ceiling_s: float = 600.0) -> Iterator[str]:
    """``bridge`` started in front of ``command`` (:func:`start_bridge`) for the ``with``
    block, which gets its URL; ended with every server process it started
    (:func:`stop_bridge`) when the block is left, however."""
    url, proc = start_bridge(bridge, command, idle_s=idle_s, ceiling_s=ceiling_s)
    try:
        yield url
    finally:
        stop_bridge(proc)

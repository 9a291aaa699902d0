"""One simulated server for a client's own test: its stdio command or its loopback URL, and
the observation of what the client did (the pytest plugin's ``mcp_skew_server`` fixture).

:func:`simulated_server` gives a :class:`SimulatedServer` of a peer spec:

- ``transport="stdio"``: :attr:`SimulatedServer.command` is the words of a command that
  joins the client to the simulated server on stdio (the relay ``probe-client`` puts in
  place of ``{server}``: the server is served in this process, ready before the client
  starts, each spawn a fresh server); the client under test spawns it, once or several
  times;
- ``transport="http"``: :attr:`SimulatedServer.url` is a simulated Streamable HTTP server
  already served on loopback (port 0), in a thread of this process.

Either way the wire goes to one log, and :meth:`SimulatedServer.observation` reads it by
the client rules probe-client uses (:func:`~._observe.observe`): the revision and era
reached, the path, the probe's fate, the request the client failed on.
:meth:`SimulatedServer.close` ends the HTTP server, and every stdio relay the client left
running (found by the socket path in its command line) and the server it reached, so
nothing outlives the test.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Final, Literal

from ..serve import ServedForClient
from ..simulator import PeerSpec
from ..versions import Registry
from ._launch import SETTLE_S
from ._observe import Observation, observe

__all__ = ["SimulatedServer", "simulated_server"]

ServedTransport = Literal["stdio", "http"]
#: After SIGTERM, how long a leftover server process is given before SIGKILL.
TERM_GRACE_S: Final = 1.0


def _holding(log: Path) -> list[int]:
    """Running processes whose command line names ``log`` (the relays to one server)."""
    needle = os.fsencode(str(log))
    found = []
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[:1]
        except OSError:
            continue
        if needle in words and state != ["Z"]:
            found.append(int(entry.name))
    return found


def _wait_gone(log: Path, seconds: float) -> list[int]:
    give_up = time.monotonic() + seconds
    left = _holding(log)
    while left and time.monotonic() < give_up:
        time.sleep(0.05)
        left = _holding(log)
    return left


def _signal(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            continue


class SimulatedServer:
    """A simulated server of ``spec`` for one test (see the module)."""

    def __init__(self, spec: str, peer: PeerSpec, transport: ServedTransport, workdir: Path,
                 registry: Registry) -> None:
        self.spec, self.peer, self.transport, self.registry = spec, peer, transport, registry
        workdir.mkdir(parents=True, exist_ok=True)
        self.log = workdir / "wire.jsonl"
        self._serving: ServedForClient | None = ServedForClient(peer, self.log, transport)
        #: the stdio command's words (``transport="stdio"``), else empty
        self.command: list[str] = list(self._serving.words)
        #: the server's URL (``transport="http"``), else None
        self.url: str | None = self._serving.url if transport == "http" else None
        self._socket = Path(self._serving.path)  #: over stdio: the relays name it

    def _settle(self) -> None:
        """Give the stdio servers the client left a moment to see their input close and log it."""
        if self.transport == "stdio":
            _wait_gone(self._socket, SETTLE_S)

    def observation(self, exit_code: int | None = 0, *, timed_out: bool = False) -> Observation:
        """What the client did so far, read off the wire by the client rules. ``exit_code``
        is the client's (0: it finished well, the default for a client run in-process); the
        outcome is ``works`` only for 0."""
        self._settle()
        entries = ServedForClient.read_back(self.log)
        stamps = self._serving.stamps if self._serving is not None else []
        return observe(self.spec, entries, stamps, exit_code, timed_out,
                       registry=self.registry)

    def close(self) -> None:
        """End the HTTP server and every stdio server process still running (idempotent)."""
        if self._serving is None:
            return
        if self.transport == "stdio":
            left = _wait_gone(self._socket, 0.0)
            _signal(left, signal.SIGTERM)
            left = _wait_gone(self._socket, TERM_GRACE_S)
            _signal(left, signal.SIGKILL)
            _wait_gone(self._socket, TERM_GRACE_S)
        self._serving.stop()
        self._serving = None

    def __enter__(self) -> SimulatedServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def simulated_server(peer: PeerSpec, workdir: Path, *, transport: str = "stdio",
                     registry: Registry, label: str | None = None) -> SimulatedServer:
    """A :class:`SimulatedServer` of the server ``peer``, logging under ``workdir``;
    ``label`` names it in the observation (default: the peer's notation). A transport other
    than ``stdio`` or ``http`` is a one-line :class:`~mcp_skew.errors.UsageError`."""
    from ..errors import UsageError  # noqa: PLC0415

    if transport not in ("stdio", "http"):
        raise UsageError(f"transport {transport!r}: expected 'stdio' or 'http'")
    return SimulatedServer(label or peer.notation, peer, "http" if transport == "http" else "stdio",
                           workdir, registry)

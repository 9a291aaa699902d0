"""What the probe needs from a link, and a simulated server behind that interface.

:class:`ProbeLink` is the :class:`~mcp_skew.simulator.Link` protocol plus what
the probe reads to classify an outcome (timeouts, exits, a flood, stderr).
The real links (:mod:`mcp_skew.wire`) have all of it.
:class:`SimulatedLink` puts a simulated server behind the same interface, on
the simulated clock, so the probe can be run against any peer spec in memory:
that is how the tests check that what the probe infers behaves like what it
probed.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..simulator import MemoryLink, PeerSpec, SimServer
from ..simulator.machine import Closed, Event, Timeout
from ..transcript import Transcript

__all__ = ["ProbeLink", "SimulatedLink"]


class ProbeLink(Protocol):
    """A link the probe can run a client over and then judge."""

    transcript: Transcript
    timeouts: int
    closed_seen: int
    deadline_hit: bool
    flooded: str | None
    exits: list[str]
    first_message_ms: int | None
    startup_allowance_ms: int

    @property
    def stderr_tail(self) -> str: ...
    def now_ms(self) -> int: ...
    def request(self, message: dict[str, Any], timeout_ms: int) -> Event: ...
    def notify(self, message: dict[str, Any]) -> None: ...
    def restart(self) -> bool: ...
    def close(self) -> None: ...


class SimulatedLink(MemoryLink):
    """A simulated server (a peer spec) with the bookkeeping of a real link."""

    def __init__(self, spec: PeerSpec, latency_ms: int = 5) -> None:
        super().__init__(lambda: SimServer(spec), latency_ms)
        self.timeouts = 0
        self.closed_seen = 0
        self.deadline_hit = False
        self.flooded: str | None = None
        self.exits: list[str] = []
        self.first_message_ms: int | None = None
        self.startup_allowance_ms = 0
        self.stderr_tail = ""

    def request(self, message: dict[str, Any], timeout_ms: int) -> Event:
        event = super().request(message, timeout_ms)
        if isinstance(event, Timeout):
            self.timeouts += 1
        elif isinstance(event, Closed):
            self.closed_seen += 1
            self.exits.append(event.detail)
        elif self.first_message_ms is None:
            self.first_message_ms = self.now_ms()
        return event

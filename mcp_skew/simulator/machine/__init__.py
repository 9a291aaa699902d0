"""Driven machines: a client that says what to send and takes what arrives, sans I/O.

A :class:`Machine` yields actions (send a message and wait, :class:`Notify`,
:class:`Restart`, ...) and takes :data:`Event` values back (:class:`Reply`,
:class:`Timeout`, :class:`Closed`); :func:`drive` and :func:`ask` write one as a
generator, :data:`Steps` is such a generator's type. Every link produces the events,
and the same machine runs against a simulated server, a real process or a recorded log.

Shared with mcp-skew's other packages (internal: importable, no promise between
versions): the probe's own clients are machines.
"""

from __future__ import annotations

from ._events import Closed, Event, Reply, Timeout
from ._machine import Machine, Notify, Restart, Steps, ask, drive

__all__ = ["Closed", "Event", "Machine", "Notify", "Reply", "Restart", "Steps", "Timeout",
           "ask", "drive"]

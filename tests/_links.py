"""A scripted link for driving the simulated client against a server written as a function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_skew.simulator.machine import Event, Reply
from mcp_skew.transcript import Transcript

__all__ = ["ScriptedLink"]


class ScriptedLink:
    """A link whose server is a function: message -> event, 10 ms per answer."""

    def __init__(self, answer: Callable[[dict[str, Any]], Event]) -> None:
        self.answer = answer
        self.transcript = Transcript()
        self.clock = 0

    def now_ms(self) -> int:
        return self.clock

    def request(self, message: dict[str, Any], timeout_ms: int) -> Event:
        self.transcript.add(self.clock, "c2s", message)
        event = self.answer(message)
        if isinstance(event, Reply):
            self.clock += 10
            self.transcript.add(self.clock, "s2c", event.message)
        else:
            self.clock += timeout_ms
        return event

    def notify(self, message: dict[str, Any]) -> None:
        self.transcript.add(self.clock, "c2s", message)

    def restart(self) -> bool:
        return True

    def close(self) -> None:
        pass

"""What reaches a client: the answer to a request, a timeout, or the end of the connection.

These are the events a driven client (:mod:`._machine`) takes; every link and
transport produces them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..versions import Message
from ._path import PathStep

__all__ = ["Closed", "Event", "Reply", "Timeout"]



@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a request: a result or an error."""

    message: Message
    #: path steps the transport took on the way (an HTTP+SSE fallback): the client's path
    #: records them before the answer
    via: tuple[PathStep, ...] = field(default=(), compare=False)

    @property
    def error(self) -> dict[str, Any] | None:
        err = self.message.get("error")
        return err if isinstance(err, dict) else None

    @property
    def result(self) -> dict[str, Any] | None:
        res = self.message.get("result")
        return res if isinstance(res, dict) else None

    @property
    def code(self) -> int | None:
        err = self.error
        code = err.get("code") if err else None
        return code if isinstance(code, int) else None


@dataclass(frozen=True, slots=True)
class Timeout:
    """No answer within the wait."""

    after_ms: int
    via: tuple[PathStep, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Closed:
    """The server process ended (or the connection closed) before answering."""

    detail: str = "the server process exited"
    via: tuple[PathStep, ...] = field(default=(), compare=False)


Event = Reply | Timeout | Closed

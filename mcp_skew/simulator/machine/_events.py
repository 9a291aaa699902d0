"""What reaches a client: the answer to a request, a timeout, or the end of the connection.

These are the events a driven client (:mod:`._machine`) takes; every link and
transport produces them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...versions import Message
from .._path import PathStep

__all__ = ["Closed", "Event", "Reply", "Timeout"]



@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a request: a result or an error."""

    message: Message
    #: path steps the transport took on the way (an HTTP+SSE fallback): the client's path
    #: records them before the answer
    via: tuple[PathStep, ...] = field(default=(), compare=False)
    #: the HTTP status of a response that carried no JSON-RPC answer, which ``message`` was
    #: made from (what a client program would see: :func:`mcp_skew.simulator.http._client.synthesized_error`);
    #: None for an answer a server sent. The client's rules read the status here, never in
    #: the made-up error's ``data``.
    status: int | None = field(default=None, compare=False)
    #: why that status stays the request's failure, where the transport knows more than the
    #: status (over HTTP: the client's authorization found no token, or made no step-up);
    #: the client says it after the error (never appended to the made-up error's message)
    reason: str = field(default="", compare=False)

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

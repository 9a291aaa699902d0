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



@dataclass(frozen=True, slots=True, init=False)
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
    #: the message's ``error`` where it is an object, else None (read once: a run asks often)
    error: dict[str, Any] | None = field(default=None, init=False, compare=False, repr=False)
    #: the message's ``result`` where it is an object, else None
    result: dict[str, Any] | None = field(default=None, init=False, compare=False, repr=False)

    def __init__(self, message: Message, via: tuple[PathStep, ...] = (),
                 status: int | None = None, reason: str = "") -> None:
        # each slot set through its descriptor, once (as transcript records are): a reply is
        # made per answer, and its error and result are read several times each
        _SET_MESSAGE(self, message)
        _SET_VIA(self, via)
        _SET_STATUS(self, status)
        _SET_REASON(self, reason)
        err = message.get("error")
        _SET_ERROR(self, err if isinstance(err, dict) else None)
        res = message.get("result")
        _SET_RESULT(self, res if isinstance(res, dict) else None)

    @property
    def code(self) -> int | None:
        err = self.error
        code = err.get("code") if err else None
        return code if isinstance(code, int) else None


#: The setters of a reply's slots (its frozen ``__setattr__`` refuses every change after).
(_SET_MESSAGE, _SET_VIA, _SET_STATUS, _SET_REASON, _SET_ERROR, _SET_RESULT) = (
    Reply.__dict__[name].__set__ for name in ("message", "via", "status", "reason", "error",
                                              "result"))


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

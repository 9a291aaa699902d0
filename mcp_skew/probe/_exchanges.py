"""Read a transcript back as exchanges: each request, its answer (or its fate), in context.

A real transcript interleaves requests, answers, server notifications, raw
lines and events (timeouts, exits, restarts). :func:`exchanges` pairs every
client request with the server's answer by id and says what became of a
request that got none: the client stopped waiting (``timeout``), the server
process ended first (``exited``), or the conversation simply ended
(``unanswered``). It also keeps the context the findings need: which process
(``generation``) the request went to, whether ``initialize`` had been answered
in that process before it, and the revision in use when it was sent.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ..simulator.messages import VERSION_KEY
from ..transcript import Record, Transcript
from ..versions import Registry

__all__ = ["Exchange", "Fate", "exchanges", "is_restart", "modern_version"]

Fate = Literal["answered", "timeout", "exited", "unanswered"]

_RESTART = ("client restarts the server process", "client starts a new connection")
_EXIT = ("the server process exited", "the server flooded", "the server closed its stdout",
         "the HTTP+SSE stream closed")


@dataclass(slots=True)
class Exchange:
    """One client request and what came of it."""

    index: int  #: the request's position in ``transcript.entries``
    request: dict[str, Any]
    generation: int  #: which server process (0 for the first; +1 per restart)
    after_initialize: str | None  #: the revision initialize agreed on in this process, if any
    answer_index: int | None = None
    answer: dict[str, Any] | None = None
    fate: Fate = "unanswered"
    timed_out: bool = False  #: the client stopped waiting (the answer may still come later)
    next_fate: Fate | None = field(default=None)  #: fate of the next request to this process
    #: the HTTP status the answer came with, where the transcript says it (the answer's
    #: record's ``http``, or the link's note of a bodiless error status just before it)
    status: int | None = None

    @property
    def method(self) -> str:
        return str(self.request.get("method", ""))

    @property
    def params(self) -> dict[str, Any]:
        params = self.request.get("params")
        return params if isinstance(params, dict) else {}

    @property
    def result(self) -> dict[str, Any] | None:
        res = (self.answer or {}).get("result")
        return res if isinstance(res, dict) else None

    @property
    def error(self) -> dict[str, Any] | None:
        err = (self.answer or {}).get("error")
        return err if isinstance(err, dict) else None

    @property
    def code(self) -> int | None:
        code = (self.error or {}).get("code")
        return code if isinstance(code, int) else None

    @property
    def synthesized(self) -> bool:
        """The answer was made up from an HTTP status without a JSON-RPC body."""
        data = (self.error or {}).get("data")
        return isinstance(data, dict) and "mcpSkew" in data


#: how the HTTP link notes an error status whose body is a JSON-RPC error (``wire.http``)
_HTTP_ERROR_BODY: Final = ", with a JSON-RPC error"


def _noted_for(ex: Exchange, noted: tuple[int, str] | None) -> int | None:
    """The status of the link's note ``HTTP 401 Unauthorized to id 1: ...`` when it is about
    ``ex``'s request, else None."""
    if noted is None:
        return None
    status, about = noted
    return status if about.startswith((f"{ex.request.get('id')}:",
                                       f"{ex.request.get('id')},")) else None


def modern_version(request: dict[str, Any]) -> str | None:
    """The revision a modern request names in ``params._meta``, if it names one."""
    params = request.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(VERSION_KEY) if isinstance(meta, dict) else None
    return str(version) if version is not None else None


def is_restart(note: Record) -> bool:
    return note.text.startswith(_RESTART)


def _answers(message: Any) -> list[dict[str, Any]]:
    items = message if isinstance(message, list) else [message]
    return [m for m in items if isinstance(m, dict) and "method" not in m
            and ("result" in m or "error" in m)]


def _agreed(exchange: Exchange, registry: Registry) -> str | None:
    """The revision a successful initialize answer names (when ``registry`` knows it)."""
    version = (exchange.result or {}).get("protocolVersion")
    return str(version) if isinstance(version, str) and version in registry else None


class _Walker:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.out: list[Exchange] = []
        self.pending: dict[Any, Exchange] = {}
        self.generation = 0
        self.agreed: str | None = None
        #: the request whose POST got an HTTP error status with a JSON-RPC error body (as
        #: the link's note or the record's status says): that body answers it, whatever its id
        self.http_error_for: Any = None
        self.last_id: Any = None
        #: the last HTTP error status the link noted, and what its note says after "to id "
        #: (a transcript written before a made-up answer's record carried its status)
        self.noted: tuple[int, str] | None = None

    def entry(self, index: int, entry: Record) -> None:
        message = entry.message
        if entry.dir == "c2s":
            if isinstance(message, dict) and "method" in message and "id" in message:
                sent = Exchange(index, message, self.generation, self.agreed)
                self.out.append(sent)
                self.pending[message["id"]] = sent
                self.last_id = message["id"]
            return
        status = (entry.http or {}).get("status")
        noted, self.noted = self.noted, None
        bound_to = self.http_error_for
        if bound_to is None and isinstance(status, int) and status >= 300:
            bound_to = self.last_id
        self.http_error_for = None
        for answer in _answers(message):
            ex = self.pending.pop(answer.get("id"), None)
            if ex is None and answer.get("id") is None and len(self.pending) == 1:
                ex = self.pending.pop(next(iter(self.pending)))
            if ex is None and "error" in answer and bound_to is not None:
                # Streamable HTTP: an error body in a 4xx/5xx answer to a POST answers that
                # POST, whatever its id (null, the request's, or "server-error" as Python
                # mcp 1.x's streamable_http.py sends)
                ex = next((e for key, e in self.pending.items() if str(key) == str(bound_to)),
                          None)
                if ex is not None:
                    self.pending = {k: v for k, v in self.pending.items() if v is not ex}
            if ex is not None:
                ex.answer, ex.answer_index, ex.fate = answer, index, "answered"
                ex.status = status if isinstance(status, int) else _noted_for(ex, noted)
                if ex.method == "initialize" and _agreed(ex, self.registry):
                    self.agreed = _agreed(ex, self.registry)

    def note(self, note: Record) -> None:
        text = note.text
        http = note.get("http")
        if note.kind == "http" and isinstance(http, dict) and isinstance(http.get("status"), int) \
                and " to id " in text:
            self.noted = (http["status"], text.rsplit(" to id ", 1)[1])
        if text.startswith("HTTP ") and text.endswith(_HTTP_ERROR_BODY) and " to id " in text:
            self.http_error_for = text.rsplit(" to id ", 1)[1].removesuffix(_HTTP_ERROR_BODY)
            return
        if is_restart(note):
            self._close_generation("unanswered")
            self.generation += 1
            self.agreed = None
        elif note.text.startswith("no answer to id "):
            for ex in self.pending.values():
                if note.text.startswith(f"no answer to id {ex.request.get('id')} "):
                    ex.timed_out = True
                    ex.fate = "timeout"
        elif note.text.startswith(_EXIT) or note.text.startswith("write failed"):
            self._close_generation("exited")

    def _close_generation(self, fate: Fate) -> None:
        for ex in list(self.pending.values()):
            if ex.generation == self.generation and ex.fate != "timeout":
                ex.fate = fate
        self.pending = {k: v for k, v in self.pending.items() if v.fate == "timeout"}

    def finish(self) -> list[Exchange]:
        by_generation: dict[int, list[Exchange]] = {}
        for ex in self.out:
            by_generation.setdefault(ex.generation, []).append(ex)
        for group in by_generation.values():
            for before, after in itertools.pairwise(group):
                before.next_fate = after.fate
        return self.out


def exchanges(transcript: Transcript, registry: Registry) -> list[Exchange]:
    """Every request of the transcript, paired with its answer, in order (the revision an
    initialize agreed on counts where ``registry`` knows it)."""
    walker = _Walker(registry)
    index = 0
    for item in transcript.timeline():
        if not item.is_event:
            walker.entry(index, item)
            index += 1
        else:
            walker.note(item)
    return walker.finish()

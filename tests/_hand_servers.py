"""Hand-written servers in this process, probed as stdio servers are (fast tests).

Each is a simulated server of a peer spec with one MUST taken away, the way a hand-written
server leaves it out: ``server/discover`` answered -32601, ``ping`` answered -32601, or an
``initialize`` of a revision it does not serve refused with a plain -32602 whose data names
no versions. :func:`target` gives the probe a :class:`~mcp_skew.probe.Target` whose every
link is a fresh server ("process"), each noting its start as a real link does, so the
probe's ``starts`` counts them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from mcp_skew.probe import Target
from mcp_skew.probe._links import SimulatedLink
from mcp_skew.simulator import PeerSpec, SimServer, parse_peer
from mcp_skew.simulator._server import Reaction

__all__ = ["MISSING", "ODD", "OWN_WORDS", "SEEDS", "HandLink", "seed_target", "target"]

Override = Callable[[dict[str, Any]], Reaction | None]


def _error(message: dict[str, Any], code: int, text: str, data: Any = None) -> Reaction:
    error: dict[str, Any] = {"code": code, "message": text}
    if data is not None:
        error["data"] = data
    return Reaction([{"jsonrpc": "2.0", "id": message["id"], "error": error}])


def _no_discover(message: dict[str, Any]) -> Reaction | None:
    if message.get("method") == "server/discover" and "id" in message:
        return _error(message, -32601, "Method not found")
    return None


def _no_ping(message: dict[str, Any]) -> Reaction | None:
    if message.get("method") == "ping" and "id" in message:
        return _error(message, -32601, "Method not found")
    return None


class _PlainRefusal:
    """``initialize`` of a revision the server does not serve refused with a plain -32602
    (no ``data.supported``); every other message goes to the simulated server."""

    def __init__(self, spec: PeerSpec) -> None:
        self.spec = spec

    def __call__(self, message: dict[str, Any]) -> Reaction | None:
        if message.get("method") != "initialize" or "id" not in message:
            return None
        asked = (message.get("params") or {}).get("protocolVersion")
        legacy = [r for r in self.spec.revisions if self.spec.registry.get(r).era.value == "legacy"]
        if asked in legacy:
            return None
        return _error(message, -32602, "Unsupported protocol version")


#: the MUSTs a hand-written server may leave out, each as the override that leaves it out
MISSING: dict[str, Callable[[PeerSpec], Override]] = {
    "server/discover": lambda _spec: _no_discover,
    "ping": lambda _spec: _no_ping,
    "versions in the initialize error": _PlainRefusal,
}


class _OnceInitialize:
    """A server that answers only the first ``initialize`` of its process; a second one
    gets -32600 "already initialized" (as some SDK servers answer)."""

    def __init__(self, _spec: PeerSpec) -> None:
        self.seen = False

    def __call__(self, message: dict[str, Any]) -> Reaction | None:
        if message.get("method") != "initialize" or "id" not in message:
            return None
        if self.seen:
            return _error(message, -32600, "already initialized")
        self.seen = True
        return None


class _SilentToASecondInitialize(_OnceInitialize):
    """A server that answers the first ``initialize`` of its process and is silent to any
    later one."""

    def __call__(self, message: dict[str, Any]) -> Reaction | None:
        if message.get("method") == "initialize" and "id" in message and self.seen:
            return Reaction()
        return super().__call__(message)


class _DiscoverOnlyLater:
    """``server/discover`` as the first request of a process gets -32601; later in the
    process it is answered (a server that sets its discovery up on its first request)."""

    def __init__(self, _spec: PeerSpec) -> None:
        self.first = True

    def __call__(self, message: dict[str, Any]) -> Reaction | None:
        first, self.first = self.first, False
        if first and message.get("method") == "server/discover" and "id" in message:
            return _error(message, -32601, "Method not found")
        return None


#: behaviours of a process that the probe must observe, not assume (each a fresh object
#: per server process)
ODD: dict[str, Callable[[PeerSpec], Override]] = {
    "one initialize per process": _OnceInitialize,
    "silent to a second initialize": _SilentToASecondInitialize,
    "discover only later": _DiscoverOnlyLater,
}


#: what a hand-written server calls itself and its tools instead of the simulated server's
#: words (``own_words``): a card of it must show these, never the simulated server's
OWN_WORDS: dict[str, str] = {"mcp-skew-server": "weather-server", '"echo"': '"forecast"',
                             '"fail"': '"alerts"'}


# -- the seed servers (../shared/seeds): the behaviour of each, written here anew ---------
def _result(message: dict[str, Any], result: dict[str, Any]) -> Reaction:
    return Reaction([{"jsonrpc": "2.0", "id": message["id"], "result": result}])


def _text(words: str, is_error: bool | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"content": [{"type": "text", "text": words}]}
    if is_error is not None:
        out["isError"] = is_error
    return out


def _schema(**fields: str) -> dict[str, Any]:
    return {"type": "object", "properties": {n: {"type": t} for n, t in fields.items()},
            "required": list(fields)}


class _Seed:
    """A seed's dispatcher: every message is its own, never the simulated server's.

    What the seeds share: a notification is read and never answered; ``initialize`` is
    answered with one fixed revision whatever the client asked (no session is kept, so any
    request is served before or without it); a method it does not know gets -32601."""

    name = ""
    revision = ""
    tools: tuple[dict[str, Any], ...] = ()
    answers_ping = True

    def __call__(self, message: dict[str, Any]) -> Reaction:
        if "id" not in message:
            return Reaction()
        method, params = message.get("method"), message.get("params") or {}
        if method == "initialize":
            return _result(message, {"protocolVersion": self.revision,
                                     "capabilities": {"tools": {}},
                                     "serverInfo": {"name": self.name, "version": "0.1.0"}})
        if method == "ping" and self.answers_ping:
            return _result(message, {})
        if method == "tools/list":
            return _result(message, {"tools": list(self.tools)})
        if method == "tools/call":
            return self.call(message, params.get("name"), params.get("arguments") or {})
        return _error(message, -32601, f"Method not found: {method}")

    def call(self, message: dict[str, Any], tool: Any, args: dict[str, Any]) -> Reaction:
        raise NotImplementedError


class _Adder(_Seed):
    """000: the 100-line server with no SDK. It answers 2025-06-18 to every ``initialize``
    (2025-11-25 included), answers ``ping``, and reports an unknown tool as a tool that ran
    and failed (``isError``)."""

    name, revision = "json-rpc-study", "2025-06-18"
    tools = ({"name": "add", "description": "add two numbers",
              "inputSchema": _schema(a="number", b="number")},)

    def call(self, message: dict[str, Any], tool: Any, args: dict[str, Any]) -> Reaction:
        if tool != "add":
            return _result(message, _text(f"unknown tool: {tool}", True))
        a, b = args.get("a"), args.get("b")
        total = a + b if isinstance(a, int | float) and isinstance(b, int | float) else "NaN"
        return _result(message, _text(f"{a} + {b} = {total}"))


class _Shop(_Seed):
    """004: the lesson's shop server. It answers 2024-11-05 to every ``initialize``, has no
    ``ping`` (-32601, as for any unknown method), answers an unknown tool with the JSON-RPC
    error -32602, and an item it does not sell with ``isError``."""

    name, revision, answers_ping = "shop", "2024-11-05", False
    tools = ({"name": "get_price", "description": "the price of an item, in yen",
              "inputSchema": _schema(item="string")},)
    prices: Final = {"rice ball": 150, "tea": 140}

    def call(self, message: dict[str, Any], tool: Any, args: dict[str, Any]) -> Reaction:
        if tool != "get_price":
            return _error(message, -32602, f"unknown tool: {tool}")
        price = self.prices.get(str(args.get("item")))
        if price is None:
            return _result(message, _text("unknown item", True))
        return _result(message, _text(f"{price} yen", False))


class _Calendar(_Seed):
    """003: the calendar server a dual-era client once sent ``server/discover`` to. It
    answers 2025-11-25 to every ``initialize``, answers ``ping``, and -32601 to
    ``server/discover`` (it knows no such method); its one tool lists a day's events."""

    name, revision = "calendar", "2025-11-25"
    tools = ({"name": "get_events", "description": "the calendar's events of a day",
              "inputSchema": _schema(date="string")},)

    def call(self, message: dict[str, Any], tool: Any, args: dict[str, Any]) -> Reaction:
        events = [{"start": "10:00", "end": "10:30", "title": "weekly meeting"}] \
            if args.get("date") == "2026-10-02" else []
        return _result(message, _text(json.dumps(events), False))


#: the seed servers, by the seed they were written from
SEEDS: dict[str, _Seed] = {"000-adder": _Adder(), "004-shop": _Shop(), "003-calendar": _Calendar()}


def seed_target(seed: str) -> Target:
    """A Target whose links are fresh seed servers: every message goes to the seed's own
    dispatcher (the simulated server behind it is never reached)."""
    server = SEEDS[seed]
    peer = parse_peer(f"legacy:{server.revision}", "server")
    return Target(inprocess=lambda: HandLink(peer, server), name=f"seed:{seed}")


class _HandServer(SimServer):
    """A simulated server whose override answers first."""

    override: Override | None = None
    own_words: bool = False

    def receive(self, message: dict[str, Any]) -> Reaction:
        if not self.dead and "method" in message and self.override is not None:
            found = self.override(message)
            if found is not None:
                return found
        reaction = SimServer.receive(self, message)
        if self.own_words:
            reaction.replies = [_reworded(r) for r in reaction.replies]
        return reaction


def _reworded(reply: dict[str, Any]) -> dict[str, Any]:
    text = json.dumps(reply)
    for theirs, ours in OWN_WORDS.items():
        text = text.replace(theirs, ours)
    reworded: dict[str, Any] = json.loads(text)
    return reworded


class HandLink(SimulatedLink):
    """A link to a fresh hand-written server; its start is noted as a real link's is."""

    def __init__(self, spec: PeerSpec, override: Override | None, *,
                 own_words: bool = False, fresh: Callable[[], Override] | None = None) -> None:
        self._spec, self._override, self._own_words = spec, override, own_words
        self._fresh = fresh  # an override made anew for every process
        super().__init__(spec)

    def _make(self) -> SimServer:
        server = _HandServer(self._spec)
        server.override = self._fresh() if self._fresh is not None else self._override
        server.own_words = self._own_words
        return server

    def _start(self) -> None:
        self._factory = self._make  # every start, the first one too, is a hand-written server
        super()._start()
        self.transcript.note(self._clock, "started an in-process server", "start")


def target(spec: str, missing: str | None = None, *, own_words: bool = False,
           odd: str | None = None) -> Target:
    """A Target whose links are fresh servers of ``spec`` with the MUST ``missing`` left out
    (``own_words``: it names itself and its tools as :data:`OWN_WORDS` says; ``odd``: with
    that behaviour of :data:`ODD`, fresh in every process)."""
    peer = parse_peer(spec, "server")
    if odd is not None:
        return Target(inprocess=lambda: HandLink(peer, None, fresh=lambda: ODD[odd](peer)),
                      name=f"hand:{spec}")
    override = MISSING[missing](peer) if missing else None
    return Target(inprocess=lambda: HandLink(peer, override, own_words=own_words),
                  name=f"hand:{spec}")

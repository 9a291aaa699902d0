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
from typing import Any

from mcp_skew.probe import Target
from mcp_skew.probe._links import SimulatedLink
from mcp_skew.simulator import PeerSpec, SimServer, parse_peer
from mcp_skew.simulator._server import Reaction

__all__ = ["MISSING", "OWN_WORDS", "HandLink", "target"]

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


#: what a hand-written server calls itself and its tools instead of the simulated server's
#: words (``own_words``): a card of it must show these, never the simulated server's
OWN_WORDS: dict[str, str] = {"mcp-skew-server": "weather-server", '"echo"': '"forecast"',
                             '"fail"': '"alerts"'}


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
                 own_words: bool = False) -> None:
        self._spec, self._override, self._own_words = spec, override, own_words
        super().__init__(spec)

    def _make(self) -> SimServer:
        server = _HandServer(self._spec)
        server.override = self._override
        server.own_words = self._own_words
        return server

    def _start(self) -> None:
        self._factory = self._make  # every start, the first one too, is a hand-written server
        super()._start()
        self.transcript.note(self._clock, "started an in-process server", "start")


def target(spec: str, missing: str | None = None, *, own_words: bool = False) -> Target:
    """A Target whose links are fresh servers of ``spec`` with the MUST ``missing`` left out
    (``own_words``: it names itself and its tools as :data:`OWN_WORDS` says)."""
    peer = parse_peer(spec, "server")
    override = MISSING[missing](peer) if missing else None
    return Target(inprocess=lambda: HandLink(peer, override, own_words=own_words),
                  name=f"hand:{spec}")

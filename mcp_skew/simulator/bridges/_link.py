"""A bridge between a simulated client and a simulated server, both legs on one virtual clock.

:class:`BridgeLink` is a :class:`~.._link.Link`: the client talks to it as to a server. Its
transcript keeps the **downstream** leg (client <-> bridge) as messages, as every link
does, and the **upstream** leg (bridge <-> server) as ``upstream`` events, each with its
message (``side`` ``c2s``: bridge to server; ``s2c``: server to bridge), in the order they
happened; the bridge's own doings (a child started, an answer it made itself) are
``bridge`` events. The server runs in :class:`~.._link.MemoryLink` children started at
the bridge's clock, so latency, start-up and timeouts are the same simulated milliseconds.

What the bridge does is read from its :class:`~._spec.BridgeSpec` (its quirks), never
from its name:

- pass-through (no ``exposes``): each message is forwarded; ``child-per-request`` starts a
  new server process for it; ``initialize-at=R`` sends the bridge's own ``initialize``
  (revision R, capabilities {}) and ``notifications/initialized`` to a child nobody has
  initialized before forwarding; ``empty-capabilities`` forwards a client's
  ``initialize`` with ``capabilities: {}``;
- terminating (``exposes``): the bridge's own server answers the client (its admission,
  its lifecycle, its era); what it does not answer itself (lists, calls, reads) it asks
  its one upstream session, which it opened at start with ``initialize-at``; an error
  upstream is the client's error, a result is served in the bridge's own revision;
- ``refuses-modern``, ``modern-empty-capabilities``, ``forwards-version-header``,
  ``refuses-modern-upstream``, ``refuses-server-requests``: :data:`~._spec.BRIDGE_QUIRKS`.

A server process that ends while the bridge waits is, downstream, the bridge's -32603
"MCP server process failed" (supergateway 4.0.0 ``handleChildFailure``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Final

from ...transcript import Transcript
from ...versions import Era, Message
from .._link import MemoryLink
from .._peers import PeerSpec
from .._server import SimServer
from ..machine._events import Closed, Event, Reply, Timeout
from ..messages import _wire
from ..messages._json import cross
from ._spec import BridgeSpec

__all__ = ["BridgeLink", "is_modern"]

#: What a terminating bridge's own server answers itself (the lifecycle); the rest is asked
#: upstream.
OWN_METHODS: Final = frozenset({"initialize", "ping", "server/discover"})
#: The made-up ids of the bridge's own upstream requests.
OWN_ID: Final = "bridge-{n}"


def is_modern(message: Message) -> bool:
    """A request that carries the modern per-request ``_meta`` version (2026-07-28
    ``basic/versioning.mdx``: such a request is served under the modern rules)."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and _wire.VERSION_KEY in meta


@dataclass(slots=True)
class _Served:
    """What the run's verdict reads of "the server": the eras its requests were served in."""

    served_eras: list[Era] = field(default_factory=list)


class BridgeLink:
    """A client -> bridge -> server chain in memory, on a simulated clock."""

    def __init__(self, bridge: BridgeSpec, server: PeerSpec, latency_ms: int = 5) -> None:
        self.bridge = bridge
        self.server_spec = server
        self.latency_ms = latency_ms
        self.transcript = Transcript()
        self._clock = 0
        self._children = 0
        self._child: MemoryLink | None = None
        self._copied = 0  #: records of the current child's transcript already copied
        self._relayed = 0  #: messages of the current child's transcript already looked at
        self._initialized = False  #: the current child has been initialized (by anyone)
        self._own_ids = 0
        self._refused_upstream = ""  #: why the bridge refused its server (a quirk), if it did
        #: a terminating bridge's own server, which the client negotiates with
        self._own: SimServer | None = SimServer(bridge.exposes) if bridge.exposes else None
        self.server = self._own if self._own is not None else _Served()
        self.upstream_revision: str | None = None  #: the revision the bridge's own session got
        #: the upstream leg's path: each request the bridge sent and what it met
        self.upstream_path: list[str] = []
        if self._own is not None:
            self._open_upstream()

    # -- the Link protocol ---------------------------------------------------------------
    def now_ms(self) -> int:
        return self._clock

    def request(self, message: Message, timeout_ms: int) -> Event:
        wire: Message = cross(message)
        sent_at = self._clock
        self.transcript.add(sent_at, "c2s", wire)
        deadline = sent_at + timeout_ms
        self._clock = sent_at + self.latency_ms
        event = self._handle(wire, deadline)
        if isinstance(event, Reply):
            arrives = self._clock + self.latency_ms
            if arrives <= deadline:
                self._clock = arrives
                answer: Message = cross(event.message)
                self.transcript.add(arrives, "s2c", answer)
                return Reply(answer, status=event.status)
        self._clock = max(self._clock, deadline)
        self.transcript.note(self._clock, f"no answer to id {wire['id']} within {timeout_ms} ms",
                             "timeout")
        return Timeout(timeout_ms)

    def notify(self, message: Message) -> None:
        wire: Message = cross(message)
        self.transcript.add(self._clock, "c2s", wire)
        self._clock += self.latency_ms
        if self._own is not None:
            self._own.receive(wire)  # the bridge's own session takes it; nothing goes upstream
            return
        child = self._child_for(wire)
        if (not self._initialized and self.bridge.value("initialize-at") is not None
                and not isinstance(self._auto_initialize(child, self._clock + 60_000), Reply)):
            return
        child.notify(wire)
        self._copy(child)

    def restart(self) -> bool:
        self.transcript.note(self._clock, "the client restarts the bridge", "restart")
        return True

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._copy(self._child)
        self.transcript.note(self._clock, "client closes the connection", "client-eof")

    # -- pass-through ----------------------------------------------------------------------
    def _handle(self, message: Message, deadline: int) -> Event:
        if self._own is not None:
            return self._terminate(message, deadline)
        refused = self._refuse_modern(message)
        if refused is not None:
            return refused
        child = self._child_for(message)
        forward = message
        if is_modern(message):
            if self.bridge.has("modern-empty-capabilities"):
                forward = _with_meta(message, _wire.CAPS_KEY, {})
        elif message.get("method") == "initialize":
            if self.bridge.has("empty-capabilities"):
                forward = _with_params(message, "capabilities", {})
            self._initialized = True
        elif not self._initialized and self.bridge.value("initialize-at") is not None:
            answer = self._auto_initialize(child, deadline)
            if not isinstance(answer, Reply):
                return self._failed(message, answer)
        return self._upstream(child, forward, deadline, reply_id=message["id"])

    def _child_for(self, message: Message) -> MemoryLink:
        if self._child is None or self.bridge.has("child-per-request"):
            if self._child is not None:
                self._child.close()
                self._copy(self._child)
            self._start_child(f"for {message.get('method', 'a message')}")
        assert self._child is not None
        return self._child

    def _start_child(self, why: str) -> None:
        self._children += 1
        server = self.server_spec
        self._child = MemoryLink(lambda: SimServer(server), self.latency_ms, start_ms=self._clock)
        self._copied = 0
        self._relayed = 0
        self._initialized = False
        self.transcript.note(self._clock, f"the bridge starts server process {self._children} "
                             f"({why})", "bridge", child=self._children)

    def _auto_initialize(self, child: MemoryLink, deadline: int) -> Event:
        """The bridge's own ``initialize`` (revision ``initialize-at``, no capabilities),
        then ``notifications/initialized`` when it was answered."""
        revision = self.bridge.value("initialize-at")
        self._own_ids += 1
        init: Message = {"jsonrpc": "2.0", "id": OWN_ID.format(n=self._own_ids),
                         "method": "initialize",
                         "params": {"protocolVersion": revision, "capabilities": {},
                                    "clientInfo": _wire.implementation("bridge")}}
        answer = self._upstream(child, init, deadline, reply_id=init["id"])
        if isinstance(answer, Reply):
            result = answer.result
            if result is not None:
                self.upstream_revision = result.get("protocolVersion")
            child.notify(_wire.notification("notifications/initialized"))
            self._copy(child)
            self._initialized = True
        return answer

    def _upstream(self, child: MemoryLink, message: Message, deadline: int, *,
                  reply_id: Any) -> Event:
        """``message`` to the server; its answer with the id ``reply_id`` (the client's)."""
        child.wait_until(self._clock)
        event = child.request(message, max(deadline - self._clock, 0))
        self._copy(child)
        self._clock = max(self._clock, child.now_ms())
        self._answer_server_requests(child)
        self.upstream_path.append(_step(self._children, message, event))
        if isinstance(event, Reply):
            answer = dict(event.message)
            answer["id"] = reply_id
            return Reply(answer)
        return event

    def _answer_server_requests(self, child: MemoryLink) -> None:
        """The server's requests to the client: passed on downstream, or (quirk
        refuses-server-requests) the bridge's to answer."""
        entries = child.transcript.entries
        asked = [e.message for e in entries[self._relayed:]
                 if e.dir == "s2c" and isinstance(e.message, dict) and "method" in e.message
                 and "id" in e.message]
        self._relayed = len(entries)
        if not self.bridge.has("refuses-server-requests"):
            for request in asked:
                self.transcript.add(self._clock + self.latency_ms, "s2c", request)
            return
        for request in asked:
            if request["method"] == "ping":
                child.notify({"jsonrpc": "2.0", "id": request["id"], "result": {}})
            else:
                child.notify(_wire.error(request["id"], -32601, "Server-to-client requests are "
                                         "not supported in stateless mode"))
            self._copy(child)

    def _copy(self, child: MemoryLink) -> None:
        """The child's new records, as the transcript's upstream leg."""
        records = child.transcript.timeline()
        for item in records[self._copied:]:
            if item.is_event:
                if item.kind == "client-eof":
                    continue
                self.transcript.note(int(item.t_ms), f"upstream: {item.text}", "upstream",
                                     event=item.kind, child=self._children)
                continue
            arrow = "bridge -> server" if item.dir == "c2s" else "server -> bridge"
            self.transcript.note(int(item.t_ms), f"{arrow}  {json.dumps(item.message)}", "upstream",
                                 side=item.dir, message=item.message, child=self._children)
        self._copied = len(records)

    def _failed(self, message: Message, event: Event) -> Event:
        """What the client gets when the server failed the bridge's own step."""
        if isinstance(event, Closed):
            return self._own_answer(_wire.error(message["id"], -32603, "MCP server process failed"))
        return event

    def _own_answer(self, answer: Message, status: int | None = None) -> Reply:
        self.transcript.note(self._clock, f"the bridge answers id {answer.get('id')} itself",
                             "bridge")
        return Reply(answer, status=status)

    def _refuse_modern(self, message: Message) -> Reply | None:
        """Quirk refuses-modern: a modern request, a server of no modern revision."""
        if not (self.bridge.has("refuses-modern") and is_modern(message)
                and not self.server_spec.modern):
            return None
        return self._own_answer(_wire.error(
            message.get("id"), -32000,
            "Unsupported protocol version: the server instance cannot serve the 2026-07-28 "
            "protocol revision"), status=400)

    # -- terminating ----------------------------------------------------------------------
    def _open_upstream(self) -> None:
        """The bridge's one upstream session, opened when it starts (before any client)."""
        self._start_child("its own session")
        assert self._child is not None
        if self.bridge.has("refuses-modern-upstream"):
            registry = self.server_spec.registry
            self._own_ids += 1
            probe = _wire.request(registry.get(registry.of_era(Era.MODERN)[0]), 0,
                                  "server/discover")
            probe["id"] = OWN_ID.format(n=self._own_ids)
            answer = self._upstream(self._child, probe, self._clock + 10_000, reply_id=probe["id"])
            if isinstance(answer, Reply) and answer.result is not None:
                self._refused_upstream = "the bridge refused its server: it answers server/discover"
                self.transcript.note(self._clock, self._refused_upstream, "bridge")
                return
        if self.bridge.value("initialize-at") is not None:
            answer = self._auto_initialize(self._child, self._clock + 10_000)
            if not isinstance(answer, Reply) or answer.error is not None:
                self._refused_upstream = "the bridge's own initialize failed upstream"
                self.transcript.note(self._clock, self._refused_upstream, "bridge")

    def _terminate(self, message: Message, deadline: int) -> Event:
        assert self._own is not None
        refused = self._refuse_modern(message)
        if refused is not None:
            return refused
        reaction = self._own.receive(message)
        own = next((r for r in reaction.replies if r.get("id") == message["id"]), None)
        self._clock += self._own.latency_ms
        if own is None:
            return Timeout(max(deadline - self._clock, 0))
        if message["method"] in OWN_METHODS or "error" in own:
            return Reply(own)
        if self._refused_upstream:
            return self._own_answer(_wire.error(message["id"], -32603, self._refused_upstream))
        assert self._child is not None
        forward = _legacy_copy(message)
        self._own_ids += 1
        forward["id"] = OWN_ID.format(n=self._own_ids)
        header = self._header_refusal(message, forward)
        if header is not None:
            return Reply(_wire.error(message["id"], -32000, header), status=400)
        answer = self._upstream(self._child, forward, deadline, reply_id=message["id"])
        if isinstance(answer, Reply):
            return Reply(own) if answer.error is None else answer
        return self._failed(message, answer)

    def _header_refusal(self, message: Message, forward: Message) -> str | None:
        """Quirk forwards-version-header: the client's revision goes upstream as the
        request's ``MCP-Protocol-Version``; a server whose revision has the header and does
        not support that one answers 400 (2025-06-18 ``basic/transports.mdx`` §Protocol
        Version Header: "If the server receives a request with an invalid or unsupported
        MCP-Protocol-Version, it MUST respond with 400 Bad Request")."""
        if not self.bridge.has("forwards-version-header"):
            return None
        assert self._own is not None
        params = message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        sent = meta.get(_wire.VERSION_KEY) if isinstance(meta, dict) else self._own.legacy_revision
        server = self.server_spec
        negotiated = self.upstream_revision or (server.legacy[0] if server.legacy else None)
        if not isinstance(sent, str) or negotiated is None or sent in server.revisions:
            return None
        if "MCP-Protocol-Version" not in server.profile(negotiated).names("http_headers"):
            return None  # a server of a revision before the header does not check it
        self.transcript.note(self._clock, f"bridge -> server  MCP-Protocol-Version: {sent}  "
                             f"{json.dumps(forward)}", "upstream", side="c2s", message=forward,
                             header=sent, child=self._children)
        text = (f"Bad Request: Unsupported protocol version: {sent}. Supported versions: "
                f"{', '.join(reversed(server.legacy))}")
        self.transcript.note(self._clock + self.latency_ms, f"server -> bridge  HTTP 400  {text}",
                             "upstream", side="s2c", status=400, child=self._children)
        self._clock += 2 * self.latency_ms
        self.upstream_path.append(f"#{self._children} {forward['method']} "
                                  f"(MCP-Protocol-Version: {sent}) -> HTTP 400")
        return text


def _step(child: int, message: Message, event: Event) -> str:
    """``#3 initialize 2024-11-05 (bridge) -> accepted 2025-11-25``: one upstream request."""
    method = message.get("method", "?")
    given = message.get("params")
    params: dict[str, Any] = given if isinstance(given, dict) else {}
    asked = params.get("protocolVersion") if method == "initialize" else None
    if is_modern(message):
        asked = params["_meta"].get(_wire.VERSION_KEY)
    head = f"#{child} {method}" + (f" {asked}" if asked else "")
    if str(message.get("id", "")).startswith("bridge-"):
        head += " (bridge)"
    if isinstance(event, Reply):
        result = event.result
        if event.error is not None:
            return f"{head} -> error {event.code}"
        if method == "initialize" and result is not None:
            return f"{head} -> accepted {result.get('protocolVersion')}"
        return f"{head} -> result"
    return f"{head} -> {'timeout' if isinstance(event, Timeout) else 'server exited'}"


def _with_meta(message: Message, key: str, value: Any) -> Message:
    out = copy.deepcopy(message)
    out["params"]["_meta"][key] = value
    return out


def _with_params(message: Message, key: str, value: Any) -> Message:
    out = copy.deepcopy(message)
    params = out.get("params")
    if isinstance(params, dict):
        params[key] = value
    return out


def _legacy_copy(message: Message) -> Message:
    """What a terminating bridge asks upstream for the client's request: the method and its
    params, without the modern per-request ``_meta`` (its own session is legacy)."""
    out = copy.deepcopy(message)
    params = out.get("params")
    if isinstance(params, dict):
        params.pop("_meta", None)
        if not params:
            out.pop("params")
    return out

"""Bridges: a peer with two sides, between a client and a server (client -> bridge -> server).

A bridge (``supergateway``, ``mcp-proxy``, a gateway) meets the client on its
**downstream** side and the server on its **upstream** side, each with its own
transport, and changes what crosses. A :class:`BridgeSpec` says how, as data:

- ``exposes``: a *terminating* bridge serves the client itself with a server of its own
  (that spec's revisions, era and quirks: the era the client sees is that server's,
  whatever the server behind it speaks: era hiding) and keeps one session of its own
  client upstream; with none, the bridge *passes* each message through to the server;
- its quirks (:data:`BRIDGE_QUIRKS`, each with where it was seen): a child process per
  request, its own ``initialize`` at a fixed revision with empty capabilities, the
  downstream ``MCP-Protocol-Version`` forwarded upstream, modern requests refused,
  modern egress with empty client capabilities, modern upstreams refused.

Notation (the CLI's ``--via``; a named bridge, ``supergateway@4``, is resolved by
:func:`mcp_skew.peers.resolve_bridge`)::

    bridge[:REV[,REV...]][+QUIRK[=VALUE]...]     bridge+child-per-request+initialize-at=2024-11-05

``bridge:REV,...`` is a terminating bridge whose own server speaks those revisions (its
kind from their eras, as a peer spec's); a bare ``bridge`` passes messages through. The
link that plays both legs on the virtual clock is :mod:`._link`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from ...errors import UsageError
from ...versions import REGISTRY, REVISION_CUTOFF, Registry, did_you_mean
from .._peers import PeerSpec, parse_peer
from .._transport import TRANSPORTS, Transport

__all__ = ["BRIDGE_QUIRKS", "BridgeQuirk", "BridgeSpec", "parse_bridge"]

#: The head of a bridge's notation.
HEAD: Final = "bridge"


@dataclass(frozen=True, slots=True)
class BridgeQuirk:
    """One way a bridge changes what crosses it."""

    name: str
    summary: str
    seen_in: str  #: where it was seen: a package's source, or a report (``reported``)
    value: Literal["none", "revision"] = "none"
    reported: bool = False  #: known from a public report only, not read in a package


BRIDGE_QUIRKS: Final[dict[str, BridgeQuirk]] = {q.name: q for q in (
    BridgeQuirk("child-per-request",
                "every downstream message meets a new server process (nothing the server "
                "learnt on one request is there on the next)",
                "supergateway 4.0.0 (npm), stateless stdio->Streamable HTTP: "
                "dist/gateways/stdioToStatelessStreamableHttp.js spawns a child per POST"),
    BridgeQuirk("initialize-at",
                "the bridge initializes the server itself, at this fixed revision, before "
                "it forwards anything that is not an initialize (pass-through: each new "
                "child; terminating: its one upstream session)",
                "supergateway 4.0.0: createInitializeRequest(id, protocolVersion), "
                "--protocolVersion default 2024-11-05; mcp-proxy 0.13.0 (PyPI): "
                "proxy_server.create_proxy_server calls ClientSession.initialize()",
                value="revision"),
    BridgeQuirk("empty-capabilities",
                "the bridge's upstream initialize declares no client capabilities (a "
                "client's own initialize is forwarded with capabilities {}): the server "
                "cannot ask for sampling, elicitation or roots",
                "supergateway 4.0.0: createInitializeRequest has capabilities {}, and a "
                "client's initialize is written with params.capabilities replaced by {}; "
                "npm mcp-proxy 6.7.19: new Client(..., {capabilities: {}})"),
    BridgeQuirk("refuses-server-requests",
                "a request from the server to the client is answered by the bridge "
                "(ping with {}, anything else -32601) and never reaches the client",
                "supergateway 4.0.0 stateless: 'Server-to-client requests are not "
                "supported in stateless mode'"),
    BridgeQuirk("forwards-version-header",
                "the downstream request's MCP-Protocol-Version goes upstream unchanged, "
                "whatever revision the bridge negotiated there: a legacy server that "
                "validates the header answers 400 to every request after initialize",
                "reported: agentgateway issue 2980 (github.com/agentgateway/agentgateway/"
                "issues/2980), 'Bad Request: Unsupported protocol version: 2026-07-28'",
                reported=True),
    BridgeQuirk("refuses-modern",
                "a modern request (per-request _meta) is answered by the bridge with "
                "-32000 'Unsupported protocol version' (HTTP 400) when the server behind "
                "it speaks no modern revision",
                "npm mcp-proxy 6.7.19: dist/startStdioServer-*.mjs createModernLeg, "
                "canServeModernRoute ('... Upgrade the framework that builds it')"),
    BridgeQuirk("modern-empty-capabilities",
                "the bridge's modern upstream requests declare empty clientCapabilities "
                "in _meta: a server that needs elicitation or sampling answers -32021 and "
                "no elicitation path exists",
                "reported: stacklok/toolhive PR 6074 (as issue 39 cites it; not in the "
                "stored corpus); the same gap is IBM/mcp-context-forge issue 6642",
                reported=True),
    BridgeQuirk("refuses-modern-upstream",
                "the bridge probes server/discover first and refuses a server that "
                "answers it (meant for modern-only servers, it refuses dual-era ones too)",
                "reported: IBM/mcp-context-forge issue 6766 (modern-only registration "
                "gate) and its PR 6845 review ('a dual-era server negotiates 2026-07-28 "
                "and the gate rejects it')",
                reported=True),
)}


@dataclass(frozen=True, slots=True)
class BridgeSpec:
    """A bridge: its two sides' transports, its own server (terminating) and its quirks."""

    downstream: Transport = "http"  #: what the client meets
    upstream: Transport = "stdio"  #: what the bridge does to the server
    #: a terminating bridge's own server (what the client negotiates with); None: pass-through
    exposes: PeerSpec | None = None
    quirks: tuple[tuple[str, str | None], ...] = ()  #: (name, value), in spec order
    label: str = ""  #: a named bridge's name (``supergateway@4``); defaults to the notation
    note: str = field(default="", compare=False)  #: where a named bridge was read
    registry: Registry = field(default=REGISTRY, compare=False, repr=False)

    def has(self, quirk: str) -> bool:
        return any(name == quirk for name, _ in self.quirks)

    def value(self, quirk: str) -> str | None:
        return next((v for name, v in self.quirks if name == quirk), None)

    @property
    def terminating(self) -> bool:
        return self.exposes is not None

    @property
    def notation(self) -> str:
        head = HEAD if self.exposes is None else f"{HEAD}:{','.join(self.exposes.revisions)}"
        return head + "".join(f"+{n}" + (f"={v}" if v is not None else "")
                              for n, v in self.quirks)

    @property
    def name(self) -> str:
        return self.label or self.notation

    def hides(self) -> list[str]:
        """What the client cannot see through this bridge, in words (the probe's card and
        the docs say it)."""
        said: list[str] = []
        if self.exposes is not None:
            said.append(f"the server's own era and revisions (the client meets the bridge's "
                        f"{self.exposes.kind} server: {', '.join(self.exposes.revisions)})")
        at = self.value("initialize-at")
        if at is not None:
            said.append(f"the revision the server speaks (the bridge initializes it at {at})")
        if self.has("empty-capabilities") or self.has("modern-empty-capabilities"):
            said.append("the client's capabilities (the server is told of none)")
        if self.has("child-per-request"):
            said.append("the server's state between requests (a new process for each)")
        if self.has("refuses-server-requests"):
            said.append("the server's requests to the client (the bridge answers them)")
        return said

    def __str__(self) -> str:
        return self.name


def _quirk(text: str, spec: str, registry: Registry) -> tuple[str, str | None]:
    name, _, value = text.partition("=")
    quirk = BRIDGE_QUIRKS.get(name)
    if quirk is None:
        raise UsageError(f"bridge spec {spec!r}: unknown bridge quirk {name!r}"
                         f"{did_you_mean(name, BRIDGE_QUIRKS)}; known: {', '.join(BRIDGE_QUIRKS)}")
    if quirk.value == "none":
        if value:
            raise UsageError(f"bridge spec {spec!r}: quirk {name!r} takes no value")
        return name, None
    if not value:
        raise UsageError(f"bridge spec {spec!r}: quirk {name!r} needs a value ({name}=REV)")
    if value not in registry:
        raise UsageError(f"bridge spec {spec!r}: quirk {name!r}: unknown revision {value!r}"
                         f"{did_you_mean(value, registry.revisions(), REVISION_CUTOFF)}")
    return name, value


def parse_bridge(spec: str, registry: Registry = REGISTRY) -> BridgeSpec:
    """Parse ``bridge[:REV,...][+QUIRK[=VALUE]...]``; a wrong spec is one clear line."""
    text = spec.strip()
    head, *quirk_texts = text.split("+")
    base, sep, revisions = head.partition(":")
    if base != HEAD:
        raise UsageError(f"bridge spec {spec!r}: write bridge[:REV,...][+QUIRK...] or a named "
                         "bridge (NAME@VERSION, e.g. supergateway@4)")
    exposes = None
    if sep:
        # the bridge's own server: a peer spec of those revisions (its kind from their eras)
        revs = [r for r in revisions.split(",") if r]
        kind_text = _kind_of(revs, spec, registry)
        exposes = parse_peer(f"{kind_text}:{','.join(revs)}", "server", registry)
    parsed = [_quirk(q, spec, registry) for q in quirk_texts]
    # a quirk given again (a named bridge's, overridden by the user's suffix) keeps the last
    quirks = tuple(q for n, q in enumerate(parsed) if q[0] not in {p[0] for p in parsed[n + 1:]})
    return BridgeSpec(exposes=exposes, quirks=quirks, registry=registry)


def _kind_of(revs: list[str], spec: str, registry: Registry) -> str:
    if not revs:
        raise UsageError(f"bridge spec {spec!r}: no revision after 'bridge:' "
                         "(e.g. bridge:2025-11-25)")
    eras = set()
    for rev in revs:
        if rev not in registry:
            raise UsageError(f"bridge spec {spec!r}: unknown revision {rev!r}"
                             f"{did_you_mean(rev, registry.revisions(), REVISION_CUTOFF)}")
        eras.add(registry.get(rev).era.value)
    return "dual" if len(eras) > 1 else eras.pop()


def check_transports(downstream: str, upstream: str) -> None:
    """Both sides' transports are known ones (a named bridge's table is checked with it)."""
    for side in (downstream, upstream):
        if side not in TRANSPORTS:
            raise ValueError(f"unknown transport {side!r}; known: {', '.join(TRANSPORTS)}")

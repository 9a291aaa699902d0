"""Named bridges (data): ``supergateway@4``, ``mcp-proxy-py@0.13``, ``mcp-proxy-js@6``,
``mcp-remote@0.1``, each a :class:`~mcp_skew.simulator.bridges.BridgeSpec` in the simulator's
bridge notation, with the package it models, how it is started in front of a stdio server
(``probe --via``, the real-peer test) and where each trait was read.

A bridge's notation is the simulator's (``bridge[:REV,...][+QUIRK...]``); a terminating
bridge's own server may instead be a named server model (``exposes``: the SDK its HTTP side
is built on). :func:`resolve_bridge` reads ``NAME@VERSION[+QUIRK...]`` or the notation.
The gateways known from public reports only are bridge quirks with their sources
(:data:`mcp_skew.simulator.bridges._spec.BRIDGE_QUIRKS`), not named bridges: none of them is installed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from ..errors import UsageError
from ..simulator import Transport
from ..simulator.bridges import BridgeSpec, parse_bridge
from ..versions import REGISTRY, Registry, did_you_mean
from ._family import Package
from ._lookup import named_peer

__all__ = ["NAMED_BRIDGES", "NamedBridge", "bridge_names", "named_bridge", "resolve_bridge"]


@dataclass(frozen=True, slots=True)
class NamedBridge:
    """One release line of a real bridge and its model."""

    name: str  #: ``supergateway@4``: the family and the line, as a person writes it
    package: Package  #: what the real-peer test installs
    notation: str  #: the simulator's bridge notation of its behaviour
    evidence: str  #: where each trait was read (source files, a measurement)
    downstream: Transport = "http"
    upstream: Transport = "stdio"
    #: a terminating bridge's own server as a named server model (overrides the notation's)
    exposes: str = ""
    #: how it is started in front of a stdio server: ``{bin}`` its entry, ``{port}``, and
    #: ``{cmd}`` the server command as one string or ``{argv}`` as arguments
    argv: tuple[str, ...] = ()
    checked_by: str = ""  #: the real-peer test that checks the chain's prediction, if any


NAMED_BRIDGES: Final[tuple[NamedBridge, ...]] = (
    NamedBridge(
        "supergateway@4", Package("npm", ("supergateway@4.0.0",), "4.0.0"),
        "bridge+child-per-request+initialize-at=2024-11-05+empty-capabilities"
        "+refuses-server-requests",
        "supergateway 4.0.0 (npm) --outputTransport streamableHttp, stateless (the default): "
        "dist/gateways/stdioToStatelessStreamableHttp.js spawns a child per POST and writes "
        "createInitializeRequest (--protocolVersion, default 2024-11-05 in dist/index.js, "
        "capabilities {}) and notifications/initialized before any message that is not an "
        "initialize; a client's initialize goes with capabilities {}; a child's request to "
        "the client is answered -32601 (ping {}); a modern request (dist/lib/modernHttp.js, "
        "classifyInboundRequest) goes to a child of its own as it is, not initialized",
        argv=("{bin}", "--stdio", "{cmd}", "--outputTransport", "streamableHttp",
              "--port", "{port}", "--logLevel", "none"),
        checked_by="tests/interop/test_bridge_chain_realpeer.py"),
    NamedBridge(
        "mcp-proxy-py@0.13", Package("pypi", ("mcp-proxy==0.13.0", "mcp==1.30.0"), "0.13.0"),
        "bridge:2025-11-25+initialize-at=2025-11-25+empty-capabilities",
        "mcp-proxy 0.13.0 (PyPI) on mcp 1.30.0: mcp_server.py opens one ClientSession to its "
        "child at start and proxy_server.create_proxy_server serves, over the SDK's Streamable "
        "HTTP session manager, a lowlevel Server named as the child; the session's "
        "initialize is mcp 1.30's LATEST_PROTOCOL_VERSION 2025-11-25 with no sampling, "
        "elicitation or roots (no callbacks: client/session.py initialize), so a dual-era "
        "child is met as legacy 2025-11-25 and the client meets the SDK 1.30 server",
        exposes="py-mcp@1.30",
        argv=("{bin}", "--port", "{port}", "--log-level", "WARNING", "--", "{argv}"),
        checked_by="tests/interop/test_bridge_chain_realpeer.py"),
    NamedBridge(
        "mcp-proxy-js@6", Package("npm", ("mcp-proxy@6.7.19",), "6.7.19"),
        "bridge:2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05"
        "+initialize-at=2025-11-25+empty-capabilities+refuses-modern",
        "mcp-proxy 6.7.19 (npm): dist/bin/mcp-proxy.mjs connects one Client ({capabilities: "
        "{}}) to its child and serves createProxyServer over startHTTPServer; a modern request "
        "meets createModernLeg, which answers -32000 (HTTP 400) 'Unsupported protocol "
        "version ... Upgrade the framework' when the server instance is a 1.x SDK one "
        "(canServeModernRoute); read from the source, not yet checked against the package",
        argv=("{bin}", "--port", "{port}", "--", "{argv}")),
    NamedBridge(
        "mcp-remote@0.1", Package("npm", ("mcp-remote@0.1.38",), "0.1.38"),
        "bridge",
        "mcp-remote 0.1.38 (npm): a stdio server to its local client, a Streamable HTTP "
        "client of the remote; the local client's messages are passed through as they are "
        "(src/proxy.ts mcpProxy); before that it connects a test client of its own, on a "
        "session of its own (not modelled); read from the source, not yet checked as a bridge",
        downstream="stdio", upstream="http"),
)


def bridge_names() -> list[str]:
    return [b.name for b in NAMED_BRIDGES]


def named_bridge(head: str) -> NamedBridge | None:
    """The named bridge ``head`` is (``supergateway@4``, or a release of it:
    ``supergateway@4.0.0``), else None."""
    family, _, version = head.partition("@")
    for bridge in NAMED_BRIDGES:
        name, _, line = bridge.name.partition("@")
        if family == name and (version == line or version.startswith(line + ".")):
            return bridge
    return None


def resolve_bridge(spec: str, registry: Registry = REGISTRY) -> BridgeSpec:
    """The bridge ``spec`` names: ``NAME@VERSION[+QUIRK...]`` or the simulator's notation.
    A wrong spec is one clear line (:class:`~mcp_skew.errors.UsageError`)."""
    text = spec.strip()
    head, *quirks = text.split("+")
    if "@" not in head:
        return parse_bridge(text, registry)
    found = named_bridge(head)
    if found is None:
        names = bridge_names()
        family = head.partition("@")[0]
        hint = did_you_mean(head, names) or did_you_mean(
            family, [n.partition("@")[0] for n in names])
        raise UsageError(f"bridge {spec!r}: unknown named bridge {head!r}{hint}; known: "
                         f"{', '.join(names)} (or bridge[:REV,...][+QUIRK...])")
    bridge = parse_bridge("+".join((found.notation, *quirks)), registry)
    exposes = bridge.exposes
    if found.exposes:
        exposes = named_peer(found.exposes, "server")
        if exposes is None:  # the catalogue lost the line: a table error, not the user's
            raise ValueError(f"named bridge {found.name}: no server model {found.exposes}")
        exposes = replace(exposes, registry=registry)
    return replace(bridge, exposes=exposes, downstream=found.downstream, upstream=found.upstream,
                   label=found.name + "".join(f"+{q}" for q in quirks), note=found.evidence)

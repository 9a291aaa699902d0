"""The negotiation simulator: peers, quirks, links, scenarios and runs.

Public API: :func:`parse_peer`, :class:`PeerSpec`, :func:`run` (``run(..., via=bridge)``
with a bridge of :mod:`mcp_skew.simulator.bridges`), :class:`RunRecord`, :data:`SCENARIOS`,
:class:`SimClient`, :class:`SimServer`, :class:`MemoryLink`, the transport rules
(:data:`TRANSPORTS`, :class:`TransportRule`), the trace of a run (:func:`render_trace`,
:func:`summary_line`) and the negotiation rules (:mod:`negotiation`). A run over Streamable
HTTP is ``run(..., transport="http")``.

The simulator's rooms, each with its own face:

- :mod:`mcp_skew.simulator.quirks`: the named quirks (``QUIRKS``) and the policies they set
  (``ClientPolicy``);
- :mod:`mcp_skew.simulator.bridges`: a bridge between a client and a server
  (``BridgeSpec``, ``parse_bridge``, ``BridgeLink``);
- :mod:`mcp_skew.simulator.http`: Streamable HTTP sans I/O (the endpoint, the client
  side, the SSE parser, the in-memory HTTP link), and inside it
  :mod:`mcp_skew.simulator.http.auth`, authorization (the client's flow, the test
  authorization server);
- :mod:`mcp_skew.simulator.findings`: :class:`~mcp_skew.simulator.findings.Finding` and
  every finding code;
- :mod:`mcp_skew.simulator.messages`: the JSON-RPC messages a peer sends, and the
  decoder of a raw line;
- :mod:`mcp_skew.simulator.machine`: the driven machine and the events it takes
  (``Reply``, ``Timeout``, ``Closed``).

Shared with mcp-skew's other packages (internal: importable, no promise between
versions): the path's steps (:class:`PathStep`, :mod:`path_steps`, :func:`event_step`)
for the probe's own clients and the annotation of logs; scenario pieces (:func:`play`,
:class:`Step`, :class:`StepResult`, :data:`LIST_RESOURCES`, :data:`LIST_TOOLS`,
:func:`rule_for`: a transport's rules by its name); :class:`Session`, :func:`check_result`,
:func:`untyped_tools`, :func:`with_quirks`, :class:`StdioServer`, :class:`ClientCache`,
:class:`Link`.

The package is pure: no process, socket, thread or wall clock, and it imports
nothing of mcp-skew but :mod:`mcp_skew.versions`, :mod:`mcp_skew.transcript` (the record
it keeps of a run), :mod:`mcp_skew.errors` and the leaves :mod:`mcp_skew._jsontext`,
:mod:`mcp_skew._memo` and :mod:`mcp_skew._numbers` (``tests/unit/test_layers.py`` checks
it). Real transports live in :mod:`mcp_skew.wire`; named and saved (``@FILE``) peers are
resolved by :func:`mcp_skew.peers.resolve_peer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _negotiation as negotiation
from . import _path as path_steps
from ._client import Session, SimClient, event_step
from ._extensions import ExtensionsSeen, read_extensions
from ._link import Link, MemoryLink, StdioServer
from ._outputs import dialect_of
from ._path import PathStep
from ._peers import PeerSpec, parse_peer, split_notation, with_quirks
from ._result_checks import check_result, untyped_tools
from ._run import RunRecord, run
from ._scenario import LIST_RESOURCES, LIST_TOOLS, SCENARIOS, Scenario, Step, StepResult, play
from ._server import SimServer
from ._trace import render_trace, summary_line
from ._transport import NOT_OVER_STDIO, TRANSPORTS, Transport, TransportRule, rule_for

if TYPE_CHECKING:
    from ._cache import ClientCache

__all__ = [
    "LIST_RESOURCES",
    "LIST_TOOLS",
    "NOT_OVER_STDIO",
    "SCENARIOS",
    "TRANSPORTS",
    "ClientCache",
    "ExtensionsSeen",
    "Link",
    "MemoryLink",
    "PathStep",
    "PeerSpec",
    "RunRecord",
    "Scenario",
    "Session",
    "SimClient",
    "SimServer",
    "StdioServer",
    "Step",
    "StepResult",
    "Transport",
    "TransportRule",
    "check_result",
    "dialect_of",
    "event_step",
    "negotiation",
    "parse_peer",
    "path_steps",
    "play",
    "read_extensions",
    "render_trace",
    "rule_for",
    "run",
    "split_notation",
    "summary_line",
    "untyped_tools",
    "with_quirks",
]

#: The name read on first use (PEP 562), from a module a plain run (the default matrix) does
#: not load: the client's caches (``ClientCache``). The bridges are their own room
#: (:mod:`mcp_skew.simulator.bridges`), imported by whoever needs one.


def __getattr__(name: str) -> Any:
    if name != "ClientCache":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _cache  # noqa: PLC0415 - on first use (see above)

    value: Any = _cache.ClientCache
    globals()[name] = value  # read once
    return value

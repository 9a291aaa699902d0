"""Probe a real MCP server with a simulated client of every revision and era.

``probe(Target(command=(...)))`` (or ``Target(url=...)``) runs every built-in
client, the same client peers that drive simulated servers in the matrix,
against the real server: a fresh process per client on stdio, several at once.
The :class:`ProbeReport` holds each client's run (the same shape as
``mcp-skew simulate --json``, plus the outcome and findings), the findings
inferred from the transcripts, and the server inferred as a peer spec, which
``--save-peer`` writes and ``mcp-skew matrix --servers @FILE`` reads back
(:func:`load_probe_peer`).

Public API: :func:`probe`, :class:`Target`, :class:`ProbeOptions`,
:class:`ProbeReport`, :class:`ClientRun`, :class:`InferredPeer`,
:func:`builtin_clients`, :func:`load_probe_peer`, :func:`save_peer`,
:func:`render`, :data:`FORMATS`.
"""

from __future__ import annotations

from ._clients import BOGUS_REVISION, PROBER, builtin_clients
from ._peer import InferredPeer, load_probe_peer, save_peer
from ._report import FORMATS, render
from ._runner import ClientRun, ProbeOptions, ProbeReport, Target, probe

__all__ = [
    "BOGUS_REVISION",
    "FORMATS",
    "PROBER",
    "ClientRun",
    "InferredPeer",
    "ProbeOptions",
    "ProbeReport",
    "Target",
    "builtin_clients",
    "load_probe_peer",
    "probe",
    "render",
    "save_peer",
]

"""``mcp-skew probe-client``: drive a real client program against simulated servers.

The other way round from :mod:`mcp_skew.probe`: the client is real, the servers are
the simulator's (every revision, era kind and the server quirks that change a
client's path: :func:`default_servers`). Each run's wire is read by the client rules
(:mod:`._observe`, on :func:`mcp_skew.serve.annotate`); the runs give the client's
inferred model as a peer spec (:func:`infer`); the simulator says, per server, what
the spec's client of that kind and the inferred model do (:mod:`._expect`); findings
say where the client departs (:func:`client_findings`).

Public API: :func:`probe_client`, :class:`ProbeClientOptions`, :class:`ClientReport`,
:func:`render`, :func:`save_client_peer`, :func:`default_servers`, :func:`cases`
(:class:`ServerCase`), and the words the command line takes (:data:`SERVER_WORD`,
:data:`URL_WORD`); :func:`simulated_server` (one server for a client's own test: the
pytest plugin's ``mcp_skew_server``).
"""

from __future__ import annotations

from ._launch import SERVER_WORD, URL_WORD
from ._report import render
from ._runner import ClientReport, ProbeClientOptions, cases, probe_client
from ._save import save_client_peer
from ._served import simulated_server
from ._servers import ServerCase, default_servers

__all__ = [
    "SERVER_WORD",
    "URL_WORD",
    "ClientReport",
    "ProbeClientOptions",
    "ServerCase",
    "cases",
    "default_servers",
    "probe_client",
    "render",
    "save_client_peer",
    "simulated_server",
]

"""Real wire I/O around the simulator: serve a simulated server, record, read and replay logs.

- :func:`serve_stdio` and :func:`make_http_server` run a simulated server as a
  real MCP server (``mcp-skew serve``);
- :func:`run_proxy` sits between a client and a stdio server and writes a wire
  log (``mcp-skew record``); :class:`LogWriter` and :func:`read_log` are the log;
- :func:`annotate` and :func:`render_log` read a log the way a person does
  (``mcp-skew show-log``);
- :func:`replay_simulated` and :func:`replay_command` send a log's client side
  again and compare the answers (``mcp-skew replay``).

Several server processes in one log (``record`` of a client that restarts its server):
:func:`split_processes`, :func:`render_processes`, :func:`replay_processes`.

The log format is described in :mod:`mcp_skew.serve._log`.
"""

from __future__ import annotations

from ._annotate import annotate
from ._annotation import Annotation
from ._http import HttpLimits, ServedEndpoint, make_http_server, server_url
from ._log import LINE_CAP, LineSplitter, LogEntry, LogWriter, read_log, split_processes
from ._proxy import run_proxy
from ._replay import render_replay, replay_command, replay_processes, replay_simulated
from ._show import render_log, render_processes
from ._stdio import serve_stdio

__all__ = [
    "LINE_CAP",
    "Annotation",
    "HttpLimits",
    "LineSplitter",
    "LogEntry",
    "LogWriter",
    "ServedEndpoint",
    "annotate",
    "make_http_server",
    "read_log",
    "render_log",
    "render_processes",
    "render_replay",
    "replay_command",
    "replay_processes",
    "replay_simulated",
    "run_proxy",
    "serve_stdio",
    "server_url",
    "split_processes",
]

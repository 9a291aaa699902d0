"""Real wire I/O around the simulator: serve a simulated server, record, read and replay logs.

- :func:`serve_stdio` and :func:`make_http_server` run a simulated server as a
  real MCP server (``mcp-skew serve``);
- :func:`run_proxy` sits between a client and a stdio server and writes a wire
  log (``mcp-skew record``); :class:`LogWriter` and :func:`read_log` are the log;
- :func:`annotate` and :func:`render_log` read a log the way a person does
  (``mcp-skew show-log``);
- :func:`replay_simulated` and :func:`replay_command` send a log's client side
  again and compare the answers (``mcp-skew replay``);
- :class:`ServedForClient` serves a simulated server in this process for a client
  program's run (``probe-client``), over stdio (a relay the client spawns) or HTTP.

Several server processes in one log (``record`` of a client that restarts its server):
:func:`split_processes`, :func:`render_processes`, :func:`replay_processes`.

The log format is described in :mod:`mcp_skew.serve._log`.

Its face lists what the rest of mcp-skew uses: the commands' entry points (:func:`run_serve`,
:func:`run_record`, :func:`run_show_log`, :func:`run_replay`, in :mod:`._command`, read on
first use) and what probe-client runs and reads: one entry point for a served run
(:class:`ServedForClient`, in :mod:`._serving`, read on first use: the server, its log
written, read back and annotated) and the log's entries; the serving, the log's writer and
reader, the annotation, the renderers, the replays and the proxy are imported from their
modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ._log import LogEntry

if TYPE_CHECKING:
    from ._command import run_record, run_replay, run_serve, run_show_log
    from ._serving import ServedForClient

__all__ = [
    "LogEntry",
    "ServedForClient",
    "run_record",
    "run_replay",
    "run_serve",
    "run_show_log",
]

#: Where each name read on first use is defined: the commands' entry points, when one runs;
#: probe-client's served runs (not a ``serve`` process's start: the relay and its sockets).
_HOMES: Final[dict[str, str]] = {
    **dict.fromkeys(("run_record", "run_replay", "run_serve", "run_show_log"), "._command"),
    "ServedForClient": "._serving"}

__getattr__ = first_use(__name__, _HOMES)

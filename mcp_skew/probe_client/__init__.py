"""``mcp-skew probe-client``: drive a real client program against simulated servers.

The other way round from :mod:`mcp_skew.probe`: the client is real, the servers are
the simulator's (every revision, era kind and the server quirks that change a
client's path: :func:`default_servers`). Each run's wire is read by the client rules
(:mod:`._observe`, on :meth:`mcp_skew.serve.ServedForClient.annotate`); the runs give the
client's inferred model as a peer spec (:func:`infer`); the simulator says, per server,
what the spec's client of that kind and the inferred model do (:mod:`._expect`); findings
say where the client departs (:func:`client_findings`).

Its face lists what the rest of mcp-skew uses: :func:`probe_client` and :func:`render`
(the GitHub Action's step), :func:`simulated_server` (one server for a client's own test: the
pytest plugin's ``mcp_skew_server``) and the command's entry point :func:`run_command`
(``mcp-skew probe-client``, in :mod:`._command`, read on first use) with what the Action's
client mode reads of it (:func:`options`, :func:`exit_code`); the options, the report,
the server cases and the command line's words are imported from their modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ._report import render
from ._runner import probe_client
from ._served import simulated_server

if TYPE_CHECKING:
    from ._command import exit_code, options, run_command

__all__ = [
    "exit_code",
    "options",
    "probe_client",
    "render",
    "run_command",
    "simulated_server",
]

#: Where each name read on first use is defined: the command's entry point (the command
#: line's checks and output files) when the command runs.
_HOMES: Final[dict[str, str]] = dict.fromkeys(("exit_code", "options", "run_command"),
                                              "._command")

__getattr__ = first_use(__name__, _HOMES)

"""Probe a real MCP server with a simulated client of every revision and era.

``probe(Target(command=(...)))`` (or ``Target(url=...)``) runs every built-in
client, the same client peers that drive simulated servers in the matrix,
against the real server: a fresh process per client on stdio, several at once.
The :class:`ProbeReport` holds each client's run (the same shape as
``mcp-skew simulate --json``, plus the outcome and findings), the findings
inferred from the transcripts, and the server inferred as a peer spec, which
``--save-peer`` writes and ``mcp-skew matrix --servers @FILE`` reads back
(:func:`mcp_skew.peers.load_probe_peer`).

Public API: :func:`probe`, :class:`Target`, :class:`ProbeOptions`,
:class:`ProbeReport`, :func:`render`, :func:`allowance` (the extra wait a process's first
answer gets once a cold start is known); a report's runs, its inferred peer, the built-in
clients and the formats are imported from their modules. Shared with the command line (internal): the
command's entry point :func:`run_command` (``mcp-skew probe``, in :mod:`._command`, read on
first use) with what the GitHub Action's step reads of it (:func:`options`,
:func:`exit_code`); a command's default label, :func:`command_label` (``probe-client
--save-peer``). The schema check, the saved peer's writer and the server's stderr tail are
imported from their modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use

if TYPE_CHECKING:
    from ._command import exit_code, options, run_command
    from ._report import render
    from ._runner import ProbeOptions, ProbeReport, Target, probe
    from ._startup import allowance
    from ._target import command_label

__all__ = [
    "ProbeOptions",
    "ProbeReport",
    "Target",
    "allowance",
    "command_label",
    "exit_code",
    "options",
    "probe",
    "render",
    "run_command",
]

#: Where each public name is defined. A name is imported when it is first read, so that
#: importing a light part of the package (``_report.FORMATS``, ``_schemas``: what
#: ``mcp-skew --help`` needs) does not import the runner, the wire and pydantic.
_HOMES: Final[dict[str, str]] = {
    **dict.fromkeys(("exit_code", "options", "run_command"), "._command"),
    "render": "._report",
    "ProbeOptions": "._runner",
    "ProbeReport": "._runner",
    "Target": "._runner",
    "probe": "._runner",
    "allowance": "._startup",
    "command_label": "._target",
}

__getattr__ = first_use(__name__, _HOMES)

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
:func:`render`, :data:`FORMATS`, :func:`allowance` (the extra wait a process's first
answer gets once a cold start is known). Shared with the command line (internal): the schema
check's :func:`check_schemas`, :func:`jsonschema_problem` and :data:`INSTALL_HINT`; a
command's default label, :func:`command_label` (``probe-client --save-peer``), and
:func:`stderr_tail` (``probe``'s one-line error).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use

if TYPE_CHECKING:
    from ._card import stderr_tail
    from ._peer import save_peer
    from ._report import render
    from ._runner import ProbeOptions, ProbeReport, Target, probe
    from ._schemas import INSTALL_HINT, check_schemas, jsonschema_problem
    from ._startup import allowance
    from ._target import command_label

__all__ = [
    "INSTALL_HINT",
    "ProbeOptions",
    "ProbeReport",
    "Target",
    "allowance",
    "check_schemas",
    "command_label",
    "jsonschema_problem",
    "probe",
    "render",
    "save_peer",
    "stderr_tail",
]

#: Where each public name is defined. A name is imported when it is first read, so that
#: importing a light part of the package (``_report.FORMATS``, ``_schemas``: what
#: ``mcp-skew --help`` needs) does not import the runner, the wire and pydantic.
_HOMES: Final[dict[str, str]] = {
    "save_peer": "._peer",
    "render": "._report",
    "INSTALL_HINT": "._schemas",
    "check_schemas": "._schemas",
    "jsonschema_problem": "._schemas",
    "ProbeOptions": "._runner",
    "ProbeReport": "._runner",
    "Target": "._runner",
    "probe": "._runner",
    "allowance": "._startup",
    "command_label": "._target",
    "stderr_tail": "._card",
}

__getattr__ = first_use(__name__, _HOMES)

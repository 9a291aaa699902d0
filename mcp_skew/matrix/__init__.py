"""The compatibility matrix: every client against every server, for people and for CI.

Public API: :func:`build_matrix` (run the pairs), :class:`Matrix` (plain data;
``to_dict`` / ``from_dict`` are the JSON format) of :class:`Cell` (one run, typed), :func:`render`;
the built-in peer set is :func:`mcp_skew.peers.builtin_peers` (with the sets themselves and
the short peer labels). Shared with the command line (internal): the command's entry point
:func:`run_command` (``mcp-skew matrix``, in :mod:`._command`, read on first use: the text
view in pieces written as they come, the widths, the colours, the outputs); with the
real-world matrix (``realpeers``): :class:`RealRun`.

Layering: ``_build`` uses the simulator and the registry (the built-in peer set and the
labels live in :mod:`mcp_skew.peers`, below every feature); the
renderers (``_render*``) read only a :class:`Matrix`, so a matrix read back from
JSON renders exactly like a fresh one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ._build import Cell, Matrix, RealRun, build_matrix
from ._render import render

if TYPE_CHECKING:
    from ._command import run_command

__all__ = [
    "Cell",
    "Matrix",
    "RealRun",
    "build_matrix",
    "render",
    "run_command",
]

#: Where each name read on first use is defined: the command's entry point (the terminal's
#: width, the output files, a stop's thread for ``--run-real``) when the command runs.
_HOMES: Final[dict[str, str]] = {"run_command": "._command"}

__getattr__ = first_use(__name__, _HOMES)

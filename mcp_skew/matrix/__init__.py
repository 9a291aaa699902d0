"""The compatibility matrix: every client against every server, for people and for CI.

Public API: :func:`build_matrix` (run the pairs), :class:`Matrix` (plain data;
``to_dict`` / ``from_dict`` are the JSON format) of :class:`Cell` (one run, typed), :func:`render`;
the built-in peer set is :func:`mcp_skew.peers.builtin_peers` (with the sets themselves and
the short peer labels). Shared with the command line (internal):
the text view in pieces (:func:`render_text_pieces`, written as they come),
:func:`cell_text`, :data:`COLOUR_CODES` and :func:`shown`, and :data:`TRANSCRIPT_FORMATS`;
with the real-world matrix (``realpeers``): :class:`RealRun`.

Layering: ``_build`` uses the simulator and the registry (the built-in peer set and the
labels live in :mod:`mcp_skew.peers`, below every feature); the
renderers (``_render*``) read only a :class:`Matrix`, so a matrix read back from
JSON renders exactly like a fresh one.
"""

from __future__ import annotations

from ._build import Cell, Matrix, RealRun, build_matrix
from ._render import TRANSCRIPT_FORMATS, render, shown
from ._render_text import COLOUR_CODES, cell_text, render_text_pieces

__all__ = [
    "COLOUR_CODES",
    "TRANSCRIPT_FORMATS",
    "Cell",
    "Matrix",
    "RealRun",
    "build_matrix",
    "cell_text",
    "render",
    "render_text_pieces",
    "shown",
]

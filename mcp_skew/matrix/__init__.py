"""The compatibility matrix: every client against every server, for people and for CI.

Public API: :func:`build_matrix` (run the pairs), :class:`Matrix` (plain data;
``to_dict`` / ``from_dict`` are the JSON format) of :class:`Cell` (one run, typed), :func:`render` with
:data:`FORMATS` and :data:`VIEWS`, the built-in peer set
(:func:`builtin_peers`, :data:`BUILTIN_CLIENTS`, :data:`BUILTIN_SERVERS`, from :mod:`mcp_skew.peers`),
:func:`label_for` and :func:`short_revision` for short peer labels, and
:func:`sweep_peers` (every subset of revisions in every kind, for benchmarks). Shared
with the command line (internal): the text view's :func:`render_text`, :func:`cell_text`
and :data:`COLOUR_CODES`.

Layering: ``_build`` uses the simulator and the registry (the built-in peer set and the
labels live in :mod:`mcp_skew.peers`, below every feature, and are re-exported here); the
renderers (``_render*``) read only a :class:`Matrix`, so a matrix read back from
JSON renders exactly like a fresh one.
"""

from __future__ import annotations

from ..peers import (
    BUILTIN_CLIENTS,
    BUILTIN_SERVERS,
    builtin_peers,
    label_for,
    labelled,
    short_revision,
    sweep_peers,
)
from ._build import (
    EXTRA_KEYS,
    FORMAT,
    FORMAT_VERSION,
    Axis,
    Cell,
    FailureKind,
    Matrix,
    Outcome,
    RealRun,
    Summary,
    build_matrix,
    failure_kind,
    outcome,
    steps_failed,
    timeline,
)
from ._render import FORMATS, TRANSCRIPT_FORMATS, VIEWS, Format, render, shown
from ._render_text import COLOUR_CODES, cell_text, render_text

__all__ = [
    "BUILTIN_CLIENTS",
    "BUILTIN_SERVERS",
    "COLOUR_CODES",
    "EXTRA_KEYS",
    "FORMAT",
    "FORMATS",
    "FORMAT_VERSION",
    "TRANSCRIPT_FORMATS",
    "VIEWS",
    "Axis",
    "Cell",
    "FailureKind",
    "Format",
    "Matrix",
    "Outcome",
    "RealRun",
    "Summary",
    "build_matrix",
    "builtin_peers",
    "cell_text",
    "failure_kind",
    "label_for",
    "labelled",
    "outcome",
    "render",
    "render_text",
    "short_revision",
    "shown",
    "steps_failed",
    "sweep_peers",
    "timeline",
]

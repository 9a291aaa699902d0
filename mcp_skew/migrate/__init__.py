"""Migration guides between any two revisions, generated from the profiles and real runs.

Public API: :func:`build_guide` (a ``Guide``: every change from one revision
to another, seen from a role) and :func:`render` (markdown, json, html). Shared with the
probe's card (internal): :func:`guide_page` (where a pair's generated guide is) and
:func:`serve_both_eras` (the serve-both-eras checklist and the changes a server's guide
labels required for new clients). The rest (the guide's types, the generated pages, the illustrations table,
the serve-both-eras and talk-to-both-eras proofs) is private, in the modules below.

Theory of operation
-------------------
Nothing in a guide is written by hand. The changes are
:func:`~mcp_skew.versions.changes_between` of the two profiles, in that order
(so a guide and ``mcp-skew diff`` list the same rule ids); each carries its
summary, citation and steps from the profile. Severity for each role is the
change's stored binding (MUST, SHOULD, with the quoted rule) and what its impact
and table edits say (:mod:`._severity` explains the rules). Breaking changes
with an entry in :data:`ILLUSTRATIONS` are shown twice, by simulator runs at
FROM and at TO. A guide opens with a summary: what breaks for whom, then each
role's ordered checklist. A guide from the legacy era to the modern one carries,
right after it, the serve-both-eras checklist for servers (:mod:`._eras`) and
the talk-to-both-eras one for clients (:mod:`._talk`), each with the simulator's
proof.

Layers: ``_severity``, ``_illustrate``, ``_eras`` and ``_talk`` feed ``_guide`` (data);
``_format`` renders a guide; ``_pages`` writes ``docs/migrations``.
"""

from __future__ import annotations

from ._format import render
from ._guide import build_guide, serve_both_eras
from ._pages import guide_page

__all__ = [
    "build_guide",
    "guide_page",
    "render",
    "serve_both_eras",
]

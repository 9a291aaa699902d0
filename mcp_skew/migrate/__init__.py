"""Migration guides between any two revisions, generated from the profiles and real runs.

Public API: :func:`build_guide` (a :class:`Guide`: every change from one revision
to another, seen from a role), :func:`render` with :data:`FORMATS` (markdown,
json, html), :func:`guide_to_dict`, the generated pages (:func:`pages`,
:func:`write_pages`, :data:`REGENERATE`), the illustrations table
(:data:`ILLUSTRATIONS`), the serve-both-eras pieces (:func:`both_eras`,
:func:`builtin_clients`) and the talk-to-both-eras ones (:func:`client_proof`,
:func:`talk_expected`).

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

from ._eras import BothEras, both_eras, builtin_clients, checklist, client_set
from ._format import FORMATS, Format, guide_to_dict, render, render_html, render_json, render_markdown
from ._guide import CHOICES, Guide, GuideChange, RoleChoice, build_guide, steps_for
from ._illustrate import ILLUSTRATIONS, Illustration
from ._pages import REGENERATE, guide_pairs, page_name, pages, write_pages
from ._severity import ROLES, SIDES_WITHOUT_EDITS, Effects, Label, Role, RoleSeverity
from ._talk import client_proof, talk_expected

__all__ = [
    "CHOICES",
    "FORMATS",
    "ILLUSTRATIONS",
    "REGENERATE",
    "ROLES",
    "SIDES_WITHOUT_EDITS",
    "BothEras",
    "Effects",
    "Format",
    "Guide",
    "GuideChange",
    "Illustration",
    "Label",
    "Role",
    "RoleChoice",
    "RoleSeverity",
    "both_eras",
    "build_guide",
    "builtin_clients",
    "checklist",
    "client_proof",
    "client_set",
    "guide_pairs",
    "guide_to_dict",
    "page_name",
    "pages",
    "render",
    "render_html",
    "render_json",
    "render_markdown",
    "steps_for",
    "talk_expected",
    "write_pages",
]

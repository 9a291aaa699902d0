"""Profiles of every MCP revision, as checked deltas, with an ordered registry.

Public API: :data:`REGISTRY`, :func:`profile_for`, :data:`REVISIONS`, :data:`LATEST`,
the profile types in ``_profile``, :func:`changes_between` and :func:`table_delta`,
and the plugin loaders :func:`load_profile_file` and :func:`load_entry_points`.
"""

from __future__ import annotations

from typing import Final

from ._auth import LAYOUTS, plain_layout, rule_values
from ._diff import Step, TableDelta, changes_between, table_delta
from ._http_headers import HTTP_HEADERS, LOGGED_ALSO, RECORDED_ALSO, HttpHeader, header_named
from ._plugins import (
    ENTRY_POINT_GROUP,
    ProfileFileError,
    load_entry_points,
    load_profile_file,
    with_profile_files,
)
from ._profile import (
    Binding,
    Change,
    Cite,
    Deprecation,
    Direction,
    Era,
    ErrorCode,
    Impact,
    Invalidation,
    Kind,
    Method,
    Obligation,
    Profile,
    ProfileDefinitionError,
    create,
)
from ._registry import BUILTIN, LATEST, REGISTRY, Registry, UnknownRevision, registry_for
from ._unknown_fields import unknown_fields
from ._words import Message, PeerKind, Role, WireDirection

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "HTTP_HEADERS",
    "LATEST",
    "LAYOUTS",
    "LOGGED_ALSO",
    "RECORDED_ALSO",
    "REGISTRY",
    "REVISIONS",
    "Binding",
    "Change",
    "Cite",
    "Deprecation",
    "Direction",
    "Era",
    "ErrorCode",
    "HttpHeader",
    "Impact",
    "Invalidation",
    "Kind",
    "Message",
    "Method",
    "Obligation",
    "PeerKind",
    "Profile",
    "ProfileDefinitionError",
    "ProfileFileError",
    "Registry",
    "Role",
    "Step",
    "TableDelta",
    "UnknownRevision",
    "WireDirection",
    "changes_between",
    "create",
    "header_named",
    "load_entry_points",
    "load_profile_file",
    "plain_layout",
    "profile_for",
    "registry_for",
    "rule_values",
    "table_delta",
    "unknown_fields",
    "with_profile_files",
]

#: The built-in revisions, oldest first.
REVISIONS: Final[tuple[str, ...]] = tuple(p.revision for p in BUILTIN)


def profile_for(revision: str, registry: Registry = REGISTRY) -> Profile:
    """The profile of ``revision`` in ``registry``; raises :class:`UnknownRevision`."""
    return registry.get(revision)

"""The words every layer shares, defined once (DESIGN.md "The words").

- :data:`Message`: a JSON-RPC message as parsed JSON (request, notification,
  response); messages are plain dicts so a transcript serialises the same way
  every time.
- :data:`Role`: which side a peer plays.
- :data:`PeerKind`: a peer's era kind: ``legacy`` (``initialize`` only),
  ``modern`` (per-request ``_meta`` only) or ``dual`` (both).
- :data:`WireDirection`: which way a message crossed.
- :func:`did_you_mean`: the suggestion after a mistyped name (a revision, a quirk, a
  named peer, a mode), as the command line gives one after a mistyped option.

The era of a revision is :class:`~mcp_skew.versions.Era`, the kind of a method
(request or notification) :class:`~mcp_skew.versions.Kind`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypeAlias

__all__ = ["REVISION_CUTOFF", "Message", "PeerKind", "Role", "WireDirection", "did_you_mean"]

Message: TypeAlias = dict[str, Any]
Role: TypeAlias = Literal["client", "server"]
PeerKind: TypeAlias = Literal["legacy", "modern", "dual"]
WireDirection: TypeAlias = Literal["c2s", "s2c"]


#: How close a mistyped revision must be to one suggested: every two dates share their
#: dashes and century, so the names' cutoff (0.6) would answer ``2099-01-01`` with
#: ``2025-06-18``; a swapped or a missing digit (``2025-11-52``, ``2025-11-2``) is 0.9.
REVISION_CUTOFF = 0.8


#: How close a mistyped name must be to one suggested: a little above the 0.6 the command
#: line uses for options, as the names are short (0.6 answers ``nope`` with ``scoped``); a
#: swapped, missing or doubled letter (``slient``, ``lgacy``, ``py-mcpp``) is above 0.8.
NAME_CUTOFF = 0.7


def did_you_mean(word: str, known: Iterable[str], cutoff: float = NAME_CUTOFF) -> str:
    """`` (did you mean X?)`` for the known name closest to a mistyped ``word``, or ``""``
    when none is close (:func:`difflib.get_close_matches`, :data:`NAME_CUTOFF`, and
    :data:`REVISION_CUTOFF` for revisions); ``word`` itself is never suggested."""
    import difflib  # noqa: PLC0415 - only a mistyped name needs it, not a start-up

    names = [name for name in dict.fromkeys(known) if name != word]
    found = difflib.get_close_matches(word[:200], names, n=1, cutoff=cutoff)
    return f" (did you mean {found[0]}?)" if found else ""

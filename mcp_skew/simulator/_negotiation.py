"""The rules of version negotiation as pure functions, on plain values.

One place for what the simulated client decides, what the annotation of a
recorded log (``mcp-skew show-log``) reads, and what the probe infers from a
real server's answers:

- which error codes say "this server is modern" (:func:`modern_codes` of a
  profile, :func:`modern_codes_of` every modern profile of a registry) and
  :func:`is_modern_error`; the profile's ``modern_error_codes`` names them
  (2026-07-28 ``basic/versioning.mdx``);
- the revisions two sides have in common, in the chooser's order of preference
  (:func:`common`), and the one it picks (:func:`choose_version`): a modern
  client takes its newest revision a DiscoverResult's ``supportedVersions`` or a
  -32022's ``data.supported`` names (2026-07-28 ``basic/versioning.mdx``);
- the revision a legacy server answers ``initialize`` with: the one asked if it
  supports it, else its latest (2025-11-25 ``basic/lifecycle.mdx`` §Version
  Negotiation): :func:`answer_version`;
- the retry after an ``UnsupportedProtocolVersion`` error (-32022 in
  2026-07-28, ``schema.ts`` ``UnsupportedProtocolVersionError``): what a client
  does when its first modern request is refused with a modern error
  (:func:`after_modern_error`: retry once, fall back, or fail), and the revision to
  retry a later request with (:func:`retry_revision`);
- how a negotiation got where it did, in one word (:func:`mark`).

Nothing here sends, waits or keeps state: the arguments are profiles, codes,
lists of revisions and flags, so the rules are tested with plain tuples
(``tests/unit/test_negotiation_rules.py``).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from typing import Any, Literal

from .._memo import by_identity
from ..versions import Era, Profile, Registry

__all__ = ["UNSUPPORTED", "Mark", "ModernRefusal", "after_modern_error", "answer_version",
           "choose_version", "common", "is_modern_error", "mark", "modern_codes",
           "modern_codes_of", "retry_revision", "supported_of", "unsupported_code",
           "unsupported_codes_of"]

Mark = Literal["direct", "downgraded", "era-fallback", "re-probe", "retry-32022", "failed"]
#: The profile's name of the error a modern server answers an unsupported revision with.
UNSUPPORTED = "UnsupportedProtocolVersion"


@by_identity
def modern_codes(profile: Profile) -> frozenset[int]:
    """The error codes a client of ``profile`` reads as "this server is modern"."""
    return frozenset(profile.error(n).code for n in profile.names("modern_error_codes"))


def modern_codes_of(registry: Registry) -> frozenset[int]:
    """The codes that mark a modern server under any modern profile of ``registry``."""
    codes: set[int] = set()
    for revision in registry.of_era(Era.MODERN):
        codes |= modern_codes(registry.get(revision))
    return frozenset(codes)


def is_modern_error(profile: Profile, code: Any) -> bool:
    """Whether an error with ``code`` keeps a client of ``profile`` modern."""
    return code in modern_codes(profile)


def unsupported_code(profile: Profile) -> int | None:
    """The code of ``profile``'s UnsupportedProtocolVersion error (None: it has none)."""
    return profile.error(UNSUPPORTED).code if UNSUPPORTED in profile.errors else None


def unsupported_codes_of(registry: Registry) -> frozenset[int]:
    """The UnsupportedProtocolVersion codes of the modern profiles of ``registry``."""
    codes = (unsupported_code(registry.get(r)) for r in registry.of_era(Era.MODERN))
    return frozenset(code for code in codes if code is not None)


def supported_of(error: Any) -> list[Any] | None:
    """``data.supported`` of an error object, where it is a list."""
    data = error.get("data") if isinstance(error, dict) else None
    supported = data.get("supported") if isinstance(data, dict) else None
    return supported if isinstance(supported, list) else None


def common(mine: Iterable[str], theirs: Container[Any]) -> list[str]:
    """The revisions of ``mine`` (in its order: the chooser's preference) that ``theirs`` has."""
    return [revision for revision in mine if revision in theirs]


def choose_version(mine: Iterable[str], theirs: Container[Any]) -> str | None:
    """The revision the chooser picks: its first one the other side has (None: none)."""
    both = common(mine, theirs)
    return both[0] if both else None


def answer_version(asked: Any, supported: Sequence[str], *, reject: bool = False) -> str | None:
    """The revision a legacy server answers ``initialize`` with: ``asked`` if it is one of
    ``supported`` (newest first), else its latest (None with ``reject``: it refuses)
    (2025-11-25 ``basic/lifecycle.mdx`` §Version Negotiation)."""
    if asked in supported:
        return str(asked)
    return None if reject else supported[0]


#: What a client does when its first modern request gets a modern error: ``retry`` once
#: with the revision given, ``fall back`` to ``initialize``, or ``fail``.
ModernRefusal = Literal["retry", "fall back", "fail"]


def after_modern_error(profile: Profile, mine: Sequence[str], current: str, code: Any,
                       error: Any, *, first: bool, denylist: bool = False,
                       legacy: Container[Any] = ()) -> tuple[ModernRefusal, str | None]:
    """What a client of ``mine`` (its modern revisions, newest first) does when a modern
    request at ``current`` got a modern error (``code``, ``error``); ``first``: it has not
    retried yet.

    It retries once with its first revision the error's ``data.supported`` names, when that
    is not ``current`` (2026-07-28 ``basic/versioning.mdx``: "the client retries with a
    supported version rather than falling back"); else it fails, whatever the code. A
    ``fallback-denylist`` client (``denylist``) falls back on any error but
    ``profile``'s UnsupportedProtocolVersion; on that one it retries once with the revision
    named (even ``current``), and falls back when ``data.supported`` is not a list or names
    one of its ``legacy`` revisions.
    """
    data = error.get("data") if isinstance(error, dict) else None
    named = data.get("supported") if isinstance(data, dict) else None
    # a list, or a string read as the client's `in` reads it; anything else names nothing
    shared = common(mine, named if isinstance(named, (list, str)) else [])
    unsupported = code == unsupported_code(profile)
    if denylist:
        if not unsupported:
            return "fall back", None
        if first and shared:
            return "retry", shared[0]  # once, even at the same revision
        if not isinstance(named, list) or any(r in legacy for r in named):
            return "fall back", None  # unreadable, or names a handshake revision
    if first and shared and shared[0] != current:
        return "retry", shared[0]
    return "fail", None


def retry_revision(profile: Profile, mine: Iterable[str], code: Any, error: Any) -> str | None:
    """The revision to retry a refused modern request with: after ``profile``'s
    UnsupportedProtocolVersion error, the chooser's first revision its ``data.supported``
    names (None: another error, no list, or no revision in common)."""
    wanted = unsupported_code(profile)
    if wanted is None or code != wanted:
        return None
    supported = supported_of(error)
    return None if supported is None else choose_version(mine, supported)


def mark(ok: bool, *, fell_back: bool = False, reprobed: bool = False, retried: bool = False,
         downgraded: bool = False) -> Mark:
    """How a negotiation got where it did: ``failed`` unless ``ok``; else the first of an
    era fallback, a re-probe, a retry after -32022 and a downgrade that happened, or
    ``direct``."""
    if not ok:
        return "failed"
    if fell_back:
        return "era-fallback"
    if reprobed:
        return "re-probe"
    if retried:
        return "retry-32022"
    return "downgraded" if downgraded else "direct"

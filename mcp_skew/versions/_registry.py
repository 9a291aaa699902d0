"""The ordered registry of revisions: built-ins first, then third-party profiles.

Order questions are answered only by position here, never by comparing the
strings (a peer may name a revision we have never heard of).

A :class:`Registry` is an immutable value: adding a third-party profile
(:meth:`Registry.with_profile`) gives a new registry, which the caller passes to
what needs it (``parse_peer(..., registry=...)``, the commands' ``args.registry``).
:data:`REGISTRY` holds the built-in revisions and never changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from . import r2024_11_05, r2025_03_26, r2025_06_18, r2025_11_25, r2026_07_28
from ._needs import check_needs
from ._profile import Era, Profile
from ._words import REVISION_CUTOFF, did_you_mean

__all__ = [
    "BUILTIN",
    "LATEST",
    "REGISTRY",
    "Registry",
    "UnknownRevision",
    "registry_for",
]

BUILTIN: Final[tuple[Profile, ...]] = (
    r2024_11_05.PROFILE,
    r2025_03_26.PROFILE,
    r2025_06_18.PROFILE,
    r2025_11_25.PROFILE,
    r2026_07_28.PROFILE,
)
LATEST: Final[Profile] = BUILTIN[-1]


class UnknownRevision(LookupError):
    """A revision string that no registered profile has."""

    def __init__(self, revision: str, known: tuple[str, ...]) -> None:
        self.revision = revision
        self.known = known
        super().__init__(f"unknown revision {revision!r}{did_you_mean(revision, known, REVISION_CUTOFF)}; "
                         f"known revisions: {', '.join(known)}")


class Registry:
    """Profiles by revision, in release order (third-party ones after their base); immutable."""

    __slots__ = ("_index", "_profiles")

    def __init__(self, profiles: tuple[Profile, ...] = BUILTIN) -> None:
        self._profiles: dict[str, Profile] = {}
        for profile in profiles:
            self._profiles = self._checked(profile)
        self._index: dict[str, int] = {}

    def _checked(self, profile: Profile) -> dict[str, Profile]:
        """The profiles with ``profile`` added, after checking it fits (its base is here,
        it holds what its era needs: :mod:`._needs`)."""
        if profile.revision in self._profiles:
            raise ValueError(f"revision {profile.revision!r} is already registered")
        base = profile.previous
        if base is not None and base.revision not in self._profiles:
            raise UnknownRevision(base.revision, self.revisions())
        check_needs(profile)  # what the simulator reads from every profile of its era
        return {**self._profiles, profile.revision: profile}

    def with_profile(self, profile: Profile) -> Registry:
        """A new registry holding these profiles and ``profile`` (its base must be here)."""
        return Registry((*self._profiles.values(), profile))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Registry) and self._profiles == other._profiles

    def __hash__(self) -> int:
        return hash(tuple(self._profiles))

    def __repr__(self) -> str:
        return f"Registry({', '.join(self._profiles)})"

    def __iter__(self) -> Iterator[Profile]:
        return iter(self._profiles.values())

    def __contains__(self, revision: object) -> bool:
        return revision in self._profiles

    def revisions(self) -> tuple[str, ...]:
        return tuple(self._profiles)

    def get(self, revision: str) -> Profile:
        try:
            return self._profiles[revision]
        except KeyError:
            raise UnknownRevision(revision, self.revisions()) from None

    def index(self, revision: str) -> int:
        """Release position; a third-party revision sorts just after its base."""
        found = self._index.get(revision)
        if found is None:
            found = self._index[revision] = self._position(revision)
        return found

    def _position(self, revision: str) -> int:
        profile = self.get(revision)
        position = [p.revision for p in BUILTIN]
        if revision in position:
            return position.index(revision) * 1000
        depth = 0
        node: Profile | None = profile
        while node is not None and node.revision not in position:
            node = node.previous
            depth += 1
        return (position.index(node.revision) * 1000 if node else -1000) + depth

    def newest(self, revisions: tuple[str, ...] | list[str] | frozenset[str]) -> str:
        """The newest of ``revisions``, by release position."""
        return max(revisions, key=self.index)

    def ordered(self, revisions: tuple[str, ...] | list[str] | frozenset[str]) -> tuple[str, ...]:
        """``revisions`` sorted newest first."""
        return tuple(sorted(set(revisions), key=self.index, reverse=True))

    def of_era(self, era: Era) -> tuple[str, ...]:
        return tuple(p.revision for p in self if p.era is era)


#: The built-in revisions; a registry with third-party ones is a new value made from it.
REGISTRY: Final = Registry()


def registry_for(*profiles: Profile, base: Registry = REGISTRY) -> Registry:
    """``base`` with each of ``profiles`` (and the revisions it extends) that it lacks, oldest first.

    For code handed profiles rather than a registry (a migration guide to a draft):
    the peers it simulates need a registry that holds them.
    """
    registry = base
    for profile in profiles:
        lineage: list[Profile] = []
        node: Profile | None = profile
        while node is not None and node.revision not in registry:
            lineage.append(node)
            node = node.previous
        for missing in reversed(lineage):
            registry = registry.with_profile(missing)
    return registry

"""Built-in peer sets: the matrix's built-in set, the probe's clients, short labels, and the
benchmark sweep.

Every set is derived from the built-in revisions (``versions.BUILTIN``, the profiles of
``versions.REGISTRY``) by era, by one rule (the shapes below over "every legacy
revision", "the newest of each era", ...), never kept by hand as dates; the matrix, the
probe, the migration guide's proofs, the drift checks and the census read them here.

The matrix's built-in set (what ``mcp-skew matrix`` runs with no arguments) covers, for
each role: one single-revision peer per revision, the common multi-revision
legacy peers, a modern-only peer, a dual-era peer; for servers the legacy
quirks that change outcomes (-32601, -32602, silence, silence then exit,
lenient); for clients a modern client that probes with ``server/discover`` and
the two dual-era client behaviours that decide the quirk columns (falling back
only on -32601, restarting a server that died during the probe). The probe's clients
(:data:`PROBE_CLIENTS`) are each legacy revision alone, a legacy client of all of them,
a modern-only client, a dual-era client, and the client quirks a server meets differently.

Labels are short and read without the docs: a single-revision legacy peer is
its date (``2025-06-18``); others are the kind and the revisions, abbreviated
(``legacy 25-06+25-03``, ``modern 2026``, ``dual 2026+25-11``), then the
quirks (``legacy 25-11 silent``). :func:`short_revision` is the abbreviation.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final

from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer
from ..versions import BUILTIN, REGISTRY, Era, Profile, Registry, Role

__all__ = [
    "BUILTIN_CLIENTS",
    "BUILTIN_SERVERS",
    "PROBE_CLIENTS",
    "QUIRK_LABELS",
    "builtin_peers",
    "label_for",
    "labelled",
    "loaded_specs",
    "probe_clients",
    "short_revision",
    "sweep_peers",
]

# -- The built-in set ------------------------------------------------------------------
# Every built-in set is made by one rule: from the built-in revisions (``versions.BUILTIN``,
# the profiles of ``versions.REGISTRY``), by era, never from a hand-kept list of dates; a
# new built-in revision joins every set it belongs in.
def _newest_first(era: Era) -> tuple[str, ...]:
    """The built-in revisions of ``era``, newest first (``BUILTIN`` is oldest first)."""
    return tuple(p.revision for p in reversed(BUILTIN) if p.era is era)


_LEGACY: Final = _newest_first(Era.LEGACY)
_MODERN: Final = _newest_first(Era.MODERN)
#: Every legacy revision (``L``), every modern one (``M``), the newest of each era as a
#: dual-era pair (``pair``), every revision (``every``), and a legacy peer a revision
#: behind: the two before the newest (``behind``); newest first, as a peer spec lists them.
_L, _M = ",".join(_LEGACY), ",".join(_MODERN)
_PAIR, _EVERY, _BEHIND = f"{_MODERN[0]},{_LEGACY[0]}", f"{_M},{_L}", ",".join(_LEGACY[1:3])


def _alone(profile: Profile) -> str:
    """A single-revision peer: a legacy one is its date, a modern one says its kind."""
    return profile.revision if profile.era is Era.LEGACY else f"modern:{profile.revision}"


#: Rows of the default matrix, as peer specs (the simulator's notation).
BUILTIN_CLIENTS: Final[tuple[str, ...]] = (
    # one single-revision client per revision (a modern one is the modern-only client)
    *(_alone(p) for p in BUILTIN),
    # a modern client that probes first, as basic/transports/stdio.mdx RECOMMENDS
    f"modern:{_M}+discover",
    # common multi-revision legacy clients
    f"legacy:{_BEHIND}",
    f"legacy:{_L}",
    # dual-era clients: spec behaviour, then the two behaviours the quirk columns test
    f"dual:{_PAIR}",
    f"dual:{_EVERY}",
    f"dual:{_PAIR}+fallback-32601",
    f"dual:{_PAIR}+restart",
)

#: Columns of the default matrix.
BUILTIN_SERVERS: Final[tuple[str, ...]] = (
    *(_alone(p) for p in BUILTIN if p.era is Era.LEGACY),
    f"legacy:{_BEHIND}",
    f"legacy:{_L}",
    f"modern:{_M}",
    f"dual:{_PAIR}",
    # how a legacy server answers an unknown or early request (server/discover, _meta)
    *(f"legacy:{_LEGACY[0]}+{quirk}" for quirk in
      ("unknown-32601", "unknown-32602", "silent", "silent-exit", "lenient")),
)

#: The clients a probe runs: each legacy revision alone, a legacy client of all of them, a
#: modern-only client, a dual-era client, and the dual-era and legacy clients with the
#: client quirks that change how a server is met (``fallback-32601``, ``strict``, ``exact``).
PROBE_CLIENTS: Final[tuple[str, ...]] = (
    *(f"legacy:{r}" for r in reversed(_LEGACY)),
    f"legacy:{_L}",
    f"modern:{_M}",
    f"dual:{_EVERY}",
    f"dual:{_EVERY}+fallback-32601",
    f"dual:{_EVERY}+strict",
    f"legacy:{_L}+exact",
)


# -- Labels ----------------------------------------------------------------------------
#: How a quirk reads in a label (the rest read as their own name).
QUIRK_LABELS: Final[dict[str, str]] = {
    "unknown-32601": "-32601",
    "unknown-32602": "-32602",
    "fallback-32601": "-32601 only",
}

_DATE = re.compile(r"(\d{4})-(\d{2})-\d{2}")


def short_revision(revision: str, era: Era | str | None = None,
                   context: Iterable[str] | None = None) -> str:
    """``2025-11-25`` -> ``25-11``; a modern revision alone in its year -> ``2026``.

    ``context`` is the set of revisions the abbreviation must keep apart (the
    built-in revisions by default); a revision whose short form would collide, or that is
    not a date, stays whole.
    """
    match = _DATE.fullmatch(revision)
    if match is None:
        return revision
    known = [p.revision for p in BUILTIN] if context is None else context
    others = [r for r in known if r != revision]
    year, month = match.groups()
    era_name = era.value if isinstance(era, Era) else era
    if era_name == Era.MODERN.value and not any(r.startswith(year + "-") for r in others):
        return year
    short = f"{year[2:]}-{month}"
    if any(r.startswith(f"{year}-{month}-") for r in others):
        return revision
    return short


def _revisions_text(revisions: Sequence[str], era: Era, registry: Registry) -> str:
    """Newest first, joined with ``+``; a run of three or more as ``newest..oldest``."""
    shorts = [short_revision(r, era, registry.revisions()) for r in revisions]
    of_era = list(registry.of_era(era))
    positions = [of_era.index(r) for r in revisions if r in of_era]
    contiguous = len(positions) == len(revisions) and all(
        a - b == 1 for a, b in itertools.pairwise(positions))
    if len(revisions) >= 3 and contiguous:
        return f"{shorts[0]}..{shorts[-1]}"
    return "+".join(shorts)


def label_for(peer: PeerSpec) -> str:
    """A short, self-explaining label for ``peer`` (see the module docstring)."""
    quirks = " ".join(
        QUIRK_LABELS.get(name, name)
        + (f"={_quirk_value(value, peer.registry)}" if value is not None else "")
        for name, value in peer.quirks)
    if peer.kind == "legacy" and len(peer.revisions) == 1 and not quirks:
        return peer.revisions[0]
    revisions = [_revisions_text(revs, era, peer.registry) for revs, era in
                 ((peer.modern, Era.MODERN), (peer.legacy, Era.LEGACY)) if revs]
    parts = [peer.kind, "+".join(revisions)]
    if quirks:
        parts.append(quirks)
    return " ".join(parts)


def _quirk_value(value: str, registry: Registry) -> str:
    return short_revision(value, context=registry.revisions()) if value in registry else value


def labelled(peer: PeerSpec) -> PeerSpec:
    """``peer`` with its label set (a named real peer keeps the label it has)."""
    return peer if peer.label else replace(peer, label=label_for(peer))


def loaded_specs(registry: Registry) -> tuple[str, ...]:
    """Peers of each revision loaded beside the built-in ones (``--profile``, entry points).

    Each such revision gets a single-revision peer of its era and a dual-era peer
    with the newest revision of the other era, so a draft is seen against every
    built-in peer without being named.
    """
    builtin = {p.revision for p in BUILTIN}
    specs: list[str] = []
    for revision in registry.revisions():
        if revision in builtin:
            continue
        era = registry.get(revision).era
        other = registry.of_era(Era.LEGACY if era is Era.MODERN else Era.MODERN)
        specs.append(f"{era.value}:{revision}")
        if other:
            newest = registry.newest(other)
            pair = (revision, newest) if era is Era.MODERN else (newest, revision)
            specs.append(f"dual:{pair[0]},{pair[1]}")
    return tuple(specs)


def builtin_peers(role: Role, registry: Registry = REGISTRY) -> tuple[PeerSpec, ...]:
    """The built-in rows (``client``) or columns (``server``), labelled, then those of the
    revisions ``registry`` holds beside the built-in ones."""
    specs = (BUILTIN_CLIENTS if role == "client" else BUILTIN_SERVERS) + loaded_specs(registry)
    return tuple(labelled(parse_peer(spec, role, registry)) for spec in specs)


def probe_clients(registry: Registry = REGISTRY) -> tuple[PeerSpec, ...]:
    """The probe's clients (:data:`PROBE_CLIENTS`), then one client of each revision
    ``registry`` holds beside the built-in ones (a draft); a modern draft that puts another
    revision's string on the wire (``next``: 2026-07-28) also as a dual-era client with the
    newest legacy revision, as the SDKs that follow a draft ship it."""
    builtin = {p.revision for p in BUILTIN}
    loaded = [f"{registry.get(r).era.value}:{r}" for r in registry.revisions() if r not in builtin]
    legacy = registry.of_era(Era.LEGACY)
    loaded += [f"dual:{r},{legacy[-1]}" for r in registry.revisions()
               if r not in builtin and registry.get(r).wire and legacy
               and registry.get(r).era is Era.MODERN]
    return tuple(parse_peer(spec, "client", registry) for spec in (*PROBE_CLIENTS, *loaded))


# -- The benchmark sweep ---------------------------------------------------------------
def _subsets(revisions: Sequence[str]) -> list[tuple[str, ...]]:
    return [c for n in range(1, len(revisions) + 1)
            for c in itertools.combinations(revisions, n)]


def sweep_peers(role: Role, quirks: Sequence[str] = (),
                registry: Registry = REGISTRY) -> tuple[PeerSpec, ...]:
    """A peer for every non-empty subset of revisions, in every valid kind.

    Each peer comes once plainly and once per quirk in ``quirks`` that applies to
    its kind (``parse_peer`` decides, so the sweep never builds an invalid peer).
    """
    legacy = _subsets(registry.of_era(Era.LEGACY))
    modern = _subsets(registry.of_era(Era.MODERN))
    heads = [f"legacy:{','.join(s)}" for s in legacy]
    heads += [f"modern:{','.join(s)}" for s in modern]
    heads += [f"dual:{','.join(m + s)}" for m in modern for s in legacy]
    peers: list[PeerSpec] = []
    for head in heads:
        for suffix in ("", *(f"+{q}" for q in quirks)):
            try:
                peers.append(labelled(parse_peer(head + suffix, role, registry)))
            except UsageError:  # the quirk does not apply to this kind
                continue
    return tuple(peers)

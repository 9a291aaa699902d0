"""Which clients a probe runs for real, and which the simulator predicts from the inferred peer.

Theory of operation
-------------------
Today's probe starts a server per client (about a dozen starts). Most of those
runs ask what the others already showed: once a server's model is known, the
simulator says what every other client does against it (and the probe already
checks that the simulator agrees with each real run). So, for the default
client set on stdio, the probe runs for real one client per distinct first
exchange a built-in client makes, each in a fresh process (a budget of 4 starts):

- the client of every legacy revision (it opens as the newest legacy revision's plain
  client does, with ``initialize`` of that revision, and accepts a counter-offer: which
  revision the server answers, and a session's lists and ``ping`` wherever the server
  serves any legacy revision; the plain client when its revision is ``--require``-d),
- the plain client of the newest modern revision (the modern client's first request
  without ``server/discover``: which modern revisions it names, how a legacy server
  answers a modern request),
- the plain dual-era client (``server/discover`` as the first request of a process, the
  modern client's first request with it, and the fallback from it),
- the plain client of the oldest legacy revision (the other end of the legacy
  range: accepted, or counter-offered); its process is then asked ``initialize`` of each
  revision between, and of the newest again as a control (:func:`reinitialize`): when
  the control gets what a fresh process got, those answers stand for their clients'
  first exchanges,

plus the plain client of each ``--require``-d revision (the gate judges real runs
only). Legacy servers support a range of revisions (every SDK does); when both
ends of what the server accepts are known, the revisions between them are taken
as supported (:func:`fill_range`, noted in the evidence). When the oldest was not
accepted and the control failed, the legacy clients between it and the oldest known
one cannot be decided by the model (:func:`unknown_legacy`): run for real while the
budget lasts, else not checked. Then every other client is predicted; when a real
run departs from the simulator's prediction, no more servers are started: the clients
of that run's kind are replayed from the observed processes (:mod:`._replay`), or not
checked (``--thorough`` runs every client for real).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..simulator import PeerSpec
from ..versions import Era, Registry
from ._peer import Evidence

__all__ = ["fill_range", "first_clients", "reinitialize", "unknown_legacy"]


def _plain(specs: Sequence[PeerSpec], kind: str, revision: str) -> int | None:
    return next((i for i, s in enumerate(specs) if s.kind == kind and not s.quirks
                 and s.revisions == (revision,)), None)


def first_clients(specs: Sequence[PeerSpec], registry: Registry,
                  required: Sequence[str] = ()) -> list[int] | None:
    """Indexes of the clients run for real first (see the module); None when the set lacks
    one of the three (a set the caller chose: then every client runs for real)."""
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    modern = registry.ordered(registry.of_era(Era.MODERN))
    # the client of every legacy revision opens with the newest's initialize (the plain
    # newest client's first exchange) and accepts a counter-offer: its session (lists,
    # ping) is observed whenever the server serves any legacy revision
    every = next((i for i, s in enumerate(specs) if s.kind == "legacy" and not s.quirks
                  and s.revisions == tuple(legacy)), None)
    newest = every if every is not None and legacy[0] not in required \
        else _plain(specs, "legacy", legacy[0])
    # the dual-era client opens a fresh process with server/discover (the modern client's
    # first request with it; the plain modern client's is without) and falls back from it
    dual = next((i for i, s in enumerate(specs) if s.kind == "dual" and not s.quirks), None)
    picks = [newest, _plain(specs, "modern", modern[0]), dual,
             _plain(specs, "legacy", legacy[-1])]
    if any(p is None for p in picks):
        return None
    out = [p for p in picks if p is not None]
    for rev in required:
        found = _plain(specs, registry.get(rev).era.value, rev)
        if found is not None and found not in out:
            out.append(found)
    return out


def _known(ev: Evidence, registry: Registry) -> list[str]:
    """Legacy revisions the server is known to support, newest first: accepted when asked,
    or answered as a counter-offer (a legacy server answers its latest)."""
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    return [r for r in legacy if r in ev.legacy or r in ev.answered]


def fill_range(ev: Evidence, registry: Registry) -> list[str]:
    """Take the legacy revisions between the newest and the oldest known supported ones as
    supported (added to ``ev.legacy``, with a note); the revisions added."""
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    known = _known(ev, registry)
    if not known:
        return []
    hi, lo = legacy.index(known[0]), legacy.index(known[-1])
    added = [r for r in legacy[hi:lo + 1] if r not in ev.legacy]
    ev.legacy |= set(added)
    if added:
        ev.notes.append(f"legacy revisions {', '.join(added)} taken as supported: between "
                        f"{known[0]} and {known[-1]}, which the server serves (their clients "
                        "were predicted, not run)")
    return added


def unknown_legacy(specs: Sequence[PeerSpec], ev: Evidence, registry: Registry,
                   ran: set[int]) -> list[int]:
    """Plain legacy clients the model cannot decide: below the oldest known supported
    revision and above an asked one the server did not accept."""
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    known = _known(ev, registry)
    refused = [r for r in legacy if r in ev.asked and r not in ev.legacy]
    if not known or not refused:
        return []
    lo = legacy.index(known[-1])
    below = legacy.index(refused[-1])
    out = []
    for rev in legacy[lo + 1:below]:
        if rev in ev.asked:  # its initialize was answered (a refusal: not supported)
            continue
        found = _plain(specs, "legacy", rev)
        if found is not None and found not in ran:
            out.append(found)
    return out


def reinitialize(registry: Registry) -> list[str]:
    """What the oldest legacy client's process is asked once its own first exchange is done:
    ``initialize`` of each legacy revision between the newest and the oldest (their clients'
    first exchanges, with no start of their own in the budget of 4), then, last, the control:
    ``initialize`` of the newest again, whose answer in a fresh process the newest client's
    run observed. Only when the control gets the answer a fresh process gave are the others
    read as first exchanges (:func:`mcp_skew.probe._peer.gather`); else their clients are not
    checked."""
    legacy = registry.ordered(registry.of_era(Era.LEGACY))
    return [*legacy[1:-1], legacy[0]] if len(legacy) > 2 else []

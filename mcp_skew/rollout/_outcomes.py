"""What one request of a rollout meets, read off the simulator's own runs.

A request ends in exactly one category (:data:`CATEGORIES`): ``ok``,
``retried`` (a -32022 retry, a lost session renewed, a failed assumption
re-probed), ``fell_back`` (a dual-era client fell back to ``initialize``) or
``failed``, with a cause (:data:`Classify`; the commands pass the matrix's
``failure_kind``, or ``request`` when the pair negotiated and the call failed).
What it meets depends on what the client holds (:mod:`._timeline` says which
case applies):

- **no era decision** (:meth:`Outcomes.fresh`): it negotiates with the serving
  instance, then sends the request: :func:`~mcp_skew.simulator.run` of the
  client's spec against the instance's spec gives both (its negotiation and its
  ``call a tool`` step);
- **a legacy session** on the serving instance, same generation
  (:meth:`Outcomes.session`): the request continues the session (the step's
  result in that same run);
- **a legacy session elsewhere**, or on a replaced instance
  (:meth:`Outcomes.lost`): the session is lost (one wasted round trip, a 404 on
  HTTP: 2025-03-26 ``basic/transports.mdx`` §Session Management), and the client
  initializes again with the serving instance (retried);
- **a modern decision** at revision R, still fresh (:meth:`Outcomes.cached`, a
  cache hit): it sends the request at R straight away (:func:`_call`: the
  simulator's client and server, no negotiation); if that fails, or a legacy
  server ran it under legacy rules, the cached assumption failed: the client
  forgets it and negotiates again with the instance (2026-07-28
  ``basic/versioning.mdx``, on caching the era: re-probe "if the cached
  assumption later fails").

So every outcome is read off the simulator's own runs, never a second model of
the protocol. The runs are memoized per (client spec, instance spec, what the
client held), so a rollout of 100,000 requests runs a few dozen simulations.
Pure: no I/O; it imports the simulator's face and the profiles only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..simulator import (
    SCENARIOS,
    MemoryLink,
    PeerSpec,
    Scenario,
    Session,
    SimClient,
    SimServer,
    play,
    rule_for,
    run,
)
from ..simulator.bridges import BridgeLink, BridgeSpec
from ..simulator.quirks import QUIRKS
from ..versions import Era, PeerKind

__all__ = ["CATEGORIES", "Category", "Classify", "Outcome", "Outcomes"]

Category = Literal["ok", "retried", "fell_back", "failed"]
#: The categories of a request, each request in exactly one.
CATEGORIES: Final[tuple[Category, ...]] = ("ok", "retried", "fell_back", "failed")
#: Why a failed pair fails (the commands pass :func:`mcp_skew._verdicts.failure_kind`).
Classify = Callable[[PeerSpec, PeerSpec], str]
#: The request every client sends: ``call a tool`` of the ``default`` scenario.
REQUEST_STEP: Final = 1
_CALL: Final = Scenario("rollout-call", "one tool call",
                        (SCENARIOS["default"].steps[REQUEST_STEP],))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one request met (memoized: shared by every request that met the same)."""

    category: Category
    cause: str | None  #: for ``failed``
    extra: int  #: round trips beyond the request itself
    era: Era | None  #: the era decision afterwards (None: nothing to remember)
    revision: str | None
    discover: dict[str, Any] | None  #: the ``server/discover`` result, to cache
    path: tuple[str, ...]  #: what happened, as path steps

    def renewed(self, category: Category, extra: int, before: tuple[str, ...]) -> Outcome:
        """This outcome after something failed first (``before``), at ``extra`` more cost."""
        cat = self.category if self.category in ("failed", "fell_back") else category
        return replace(self, category=cat, extra=self.extra + extra, path=before + self.path)


def _derived(client: PeerSpec, kind: PeerKind, revisions: tuple[str, ...]) -> PeerSpec:
    """The client as it speaks once it decided on an era: ``kind`` at ``revisions``, with its
    quirks that fit that kind, but not ``discover`` (the decision is made)."""
    quirks = tuple(q for q in client.quirks if kind in QUIRKS[q[0]].kinds and q[0] != "discover")
    return PeerSpec(kind, revisions, quirks, registry=client.registry)


class Outcomes:
    """The memo of outcomes, derived from the simulator's runs (module docstring)."""

    def __init__(self, classify: Classify, via: BridgeSpec | None = None) -> None:
        self.classify = classify
        #: the bridge every request goes through (client -> bridge -> server), if any
        self.via = via
        self._fresh: dict[tuple[PeerSpec, PeerSpec], Outcome] = {}
        self._cached: dict[tuple[PeerSpec, PeerSpec, str], Outcome] = {}
        self.runs = 0  #: simulations run (for the benchmark)

    def fresh(self, client: PeerSpec, server: PeerSpec) -> Outcome:
        """Negotiate with ``server``, then send the request."""
        key = (client, server)
        hit = self._fresh.get(key)
        if hit is None:
            hit = self._fresh[key] = self._derive_fresh(client, server)
        return hit

    def _derive_fresh(self, client: PeerSpec, server: PeerSpec) -> Outcome:
        self.runs += 1
        record = run(client, server, "default", via=self.via)
        session = record.session
        path = tuple(session.path)
        opener = session.path[0] if session.path else None
        extra = session.round_trips - (1 if opener is not None and opener.method == "tools/list"
                                       else 0)
        if session.status != "ok":
            return Outcome("failed", self.classify(client, server), extra, None, None, None,
                           path)
        step = record.steps[REQUEST_STEP]
        discover = _discover_result(record.transcript.entries) if session.era is Era.MODERN \
            else None
        category: Category = ("fell_back" if session.fell_back or session.reprobed
                              else "retried" if session.retried else "ok")
        if not step.ok:
            return Outcome("failed", "request", extra, None, None, None,
                           (*path, f"call a tool: {step.got}"))
        return Outcome(category, None, extra, session.era, session.revision, discover, path)

    def cached(self, client: PeerSpec, server: PeerSpec, revision: str) -> Outcome:
        """Send the request at a cached modern ``revision``; renegotiate if that fails."""
        key = (client, server, revision)
        hit = self._cached.get(key)
        if hit is None:
            hit = self._cached[key] = self._derive_cached(client, server, revision)
        return hit

    def _derive_cached(self, client: PeerSpec, server: PeerSpec, revision: str) -> Outcome:
        self.runs += 1
        ok, got, session = _call(_derived(client, "modern", client.modern), server, revision,
                                 self.via)
        cached = f"cached {revision}"
        if ok and session.revision != revision:  # a -32022 named another revision: retried
            return Outcome("retried", None, 1, Era.MODERN, session.revision, None,
                           (cached, *session.path))
        if ok:
            return Outcome("ok", None, 0, Era.MODERN, revision, None, (cached,))
        before = (cached, *session.path, f"call a tool: {got}", "re-probe")
        return self.fresh(client, server).renewed("retried", 1 + int(session.retried), before)

    @staticmethod
    @functools.cache
    def session(revision: str) -> Outcome:
        """A request in a legacy session the client holds at ``revision`` on the serving
        instance: answered as the run that opened the session answered it (a session is
        only held after an outcome that was not failed, so its step was answered right)."""
        return Outcome("ok", None, 0, Era.LEGACY, revision, None, (f"session {revision}",))

    def lost(self, client: PeerSpec, server: PeerSpec) -> Outcome:
        """The legacy session is gone (404): initialize again with ``server``.

        A dual-era client keeps its era decision for the origin (2026-07-28
        ``basic/versioning.mdx``, on caching the era), so it initializes at once,
        without probing; only if that fails does it re-probe.
        """
        key = (client, server, "lost")
        hit = self._cached.get(key)
        if hit is None:
            again = self.fresh(_derived(client, "legacy", client.legacy), server) \
                if client.kind == "dual" else self.fresh(client, server)
            if again.category == "failed" and client.kind == "dual":
                again = self.fresh(client, server).renewed(
                    "retried", again.extra + 1, (*again.path, "re-probe"))
            hit = self._cached[key] = again.renewed("retried", 1, ("session lost (404)",))
        return hit


def _discover_result(entries: Sequence[Any]) -> dict[str, Any] | None:
    """The result that answered the run's ``server/discover``, if it had one."""
    ids = {e.message.get("id") for e in entries
           if e.dir == "c2s" and isinstance(e.message, dict)
           and e.message.get("method") == "server/discover"}
    for entry in entries:
        message = entry.message
        if (entry.dir == "s2c" and isinstance(message, dict) and message.get("id") in ids
                and isinstance(message.get("result"), dict)):
            result: dict[str, Any] = message["result"]
            return result
    return None


def _call(client: PeerSpec, server: PeerSpec, revision: str,
          via: BridgeSpec | None = None) -> tuple[bool, str, Session]:
    """One request at ``revision`` with no negotiation (the simulator's client, server and
    scenario step, which retries a -32022 with a revision from ``data.supported``); a modern
    request a legacy server ran under legacy rules fails (the era table's Modern/Legacy row,
    as :func:`~mcp_skew.simulator.run` judges it). Returns whether it was answered right, what it got,
    and the session (its revision after a retry, and the path of the retry). ``via``: the
    request goes through that bridge."""
    link: MemoryLink | BridgeLink = (MemoryLink(lambda: SimServer(server)) if via is None
                                     else BridgeLink(via, server))
    session = Session(status="ok", revision=revision, era=Era.MODERN, registry=client.registry)
    sim = SimClient(client) if via is None else SimClient(client,
                                                          transport=rule_for(via.downstream))
    steps, _, _ = play(_CALL, sim, link, session)
    served = link.server.served_eras
    if served and served[-1] is Era.LEGACY:
        return False, "served under legacy rules", session
    return steps[0].ok, steps[0].got, session

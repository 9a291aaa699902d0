"""A client's caches, sans I/O: results by their caching hints, and the era of each server.

Theory of operation
-------------------
A 2026-07-28 server puts two caching hints on the results of the methods its
profile lists in ``cacheable_results`` (``server/discover``, the list methods,
``resources/read``): ``ttlMs`` and ``cacheScope`` (2026-07-28 schema
``CacheableResult``; ``server/utilities/caching.mdx``). A :class:`ClientCache`
keeps such a result under ``(server, method, params key, scope)`` and serves it
while it is fresh:

- fresh means ``now < t_received + ttlMs`` (§Freshness Calculation); a result
  whose ``ttlMs`` is ``0``, negative, not an integer or **absent** (an older
  server: "This should only occur in older server versions") is stale at once
  and is not kept (§Time-to-Live (TTL) Field);
- ``cacheScope: "public"`` may be served to any caller; ``"private"`` only within
  the authorization context it was fetched in (§Cache Scope Field; schema
  ``CacheableResult.cacheScope``): the scope part of the key is ``public`` or
  ``private:<context>``; an absent or unknown scope is kept as ``private``, the
  narrower reading;
- MRTR retries (params carrying ``inputResponses`` or ``requestState``) and
  ``input_required`` results are never cached (2026-07-28
  ``basic/patterns/mrtr.mdx``; such results carry no hints);
- a server notification drops the entries its profile row in
  ``cache_invalidations`` names (§Interaction with Notifications), e.g.
  ``notifications/tools/list_changed`` drops every cached ``tools/list`` of that
  server, ``notifications/resources/updated`` only the ``resources/read`` of its
  ``uri``. On 2026-07-28 these arrive on a ``subscriptions/listen`` stream
  (:func:`listen_filter` builds the opt-in filter from the same rows).

Which methods are cacheable and which notification invalidates what are read
from the :class:`~mcp_skew.versions.Profile` handed in, never from revision
comparisons. The params key leaves out ``_meta`` (per-request version,
capabilities and identity are not "relevant params" of the result).

A dual-era client also caches its **era decision** per server (2026-07-28
``basic/versioning.mdx``, after the stdio and HTTP detection rules: "The era
determination is a property of the server, not of an individual request. Clients
SHOULD cache the result for the lifetime of the server process (stdio) or origin
(HTTP), and MAY persist it across restarts of the same server configuration,
re-probing if the cached assumption later fails"). :meth:`ClientCache.remember_era`,
:meth:`ClientCache.era_for` and :meth:`ClientCache.forget_era` hold it.

Everything is keyed by the strings the caller gives (a server's identity is
its peer name, an instance id, an origin: the caller's choice) and the simulated
clock the caller passes in; the cache keeps no clock of its own and does no I/O.
The interface (:class:`ClientCache`, :class:`Lookup`, :class:`Stored`,
:class:`EraDecision`, :func:`params_key`, :func:`listen_filter`) is stable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ..versions import Era, Invalidation, Message, Profile

__all__ = [
    "MRTR_PARAMS",
    "CacheKey",
    "ClientCache",
    "EraDecision",
    "Lookup",
    "Stored",
    "invalidations",
    "listen_filter",
    "params_key",
]

#: Params that mark an MRTR retry, whose result MUST NOT be cached (2026-07-28
#: ``server/utilities/caching.mdx``; ``basic/patterns/mrtr.mdx``).
MRTR_PARAMS: Final = ("inputResponses", "requestState")
#: The scopes of 2026-07-28 schema ``CacheableResult.cacheScope``.
SCOPES: Final = ("public", "private")

#: ``(server, method, params key, scope)``; scope is ``public`` or ``private:<context>``.
CacheKey = tuple[str, str, str, str]


def params_key(params: Mapping[str, Any] | None) -> str:
    """The request params that select a result, as canonical JSON (``_meta`` left out)."""
    relevant = {k: v for k, v in (params or {}).items() if k != "_meta"}
    return json.dumps(relevant, sort_keys=True, separators=(",", ":"))


def _ttl(result: Mapping[str, Any]) -> tuple[int, str]:
    """The result's freshness in ms, and why when it is 0 (caching.mdx §Time-to-Live)."""
    if "ttlMs" not in result:
        return 0, "no ttlMs (an older server): stale at once"
    raw = result["ttlMs"]
    if isinstance(raw, bool) or not isinstance(raw, int):
        return 0, f"ttlMs {raw!r} is not an integer: read as 0, stale at once"
    if raw <= 0:
        return 0, f"ttlMs {raw}: stale at once"
    return raw, ""


@dataclass(frozen=True, slots=True)
class Stored:
    """What :meth:`ClientCache.put` did with a result."""

    key: CacheKey | None  #: None: not kept
    stored_at_ms: int
    ttl_ms: int
    scope: str  #: ``public``, ``private``, or what the result said (kept as private)
    why: str = ""  #: why it was not kept, when it was not

    @property
    def kept(self) -> bool:
        return self.key is not None

    @property
    def expires_at_ms(self) -> int:
        return self.stored_at_ms + self.ttl_ms


@dataclass(frozen=True, slots=True)
class _Entry:
    result: dict[str, Any]
    stored_at_ms: int
    ttl_ms: int
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Lookup:
    """What :meth:`ClientCache.get` found: a fresh result (a hit), or why not (a miss)."""

    status: Literal["hit", "miss", "expired", "uncacheable"]
    result: dict[str, Any] | None = None
    stored_at_ms: int | None = None
    expires_at_ms: int | None = None

    @property
    def hit(self) -> bool:
        return self.status == "hit"


@dataclass(frozen=True, slots=True)
class EraDecision:
    """A dual-era client's cached answer to "which era does this server speak?"."""

    era: Era
    revision: str
    decided_at_ms: int


def invalidations(profile: Profile) -> Mapping[str, Invalidation]:
    """The profile's ``cache_invalidations`` rows: notification -> what it makes stale."""
    rows = profile.tables["cache_invalidations"]
    assert not isinstance(rows, frozenset)
    return {name: row for name, row in rows.items() if isinstance(row, Invalidation)}


def listen_filter(profile: Profile, methods: tuple[str, ...],
                  uris: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ``subscriptions/listen`` filter (2026-07-28 schema ``SubscriptionFilter``) that opts
    in to every notification invalidating one of ``methods``; a row matched by ``uri`` takes
    the list of ``uris`` (none: left out)."""
    wanted: dict[str, Any] = {}
    for row in invalidations(profile).values():
        if row.listen is None or not set(row.methods) & set(methods):
            continue
        if row.match is None:
            wanted[row.listen] = True
        elif uris:
            wanted[row.listen] = list(uris)
    return dict(sorted(wanted.items()))


@dataclass(slots=True)
class ClientCache:
    """One client's result cache and era decisions (see the module docstring).

    ``context`` is the authorization context ``private`` results are kept under.
    """

    context: str = "default"
    _entries: dict[CacheKey, _Entry] = field(default_factory=dict, repr=False)
    _eras: dict[str, EraDecision] = field(default_factory=dict, repr=False)

    # -- results ----------------------------------------------------------------------
    def _scope_key(self, scope: str) -> str:
        return "public" if scope == "public" else f"private:{self.context}"

    def put(self, now_ms: int, method: str, params: Mapping[str, Any] | None,
            result: Mapping[str, Any], *, profile: Profile, server: str) -> Stored:
        """Keep ``result`` (received at ``now_ms``) if ``profile`` says ``method`` is cacheable
        and its hints make it fresh for a while; say what was done."""
        raw_scope = result.get("cacheScope")
        scope = raw_scope if isinstance(raw_scope, str) else "private"
        if method not in profile.names("cacheable_results"):
            return Stored(None, now_ms, 0, scope, f"{method} results carry no caching hints "
                                                  f"in {profile.revision}")
        if any(k in (params or {}) for k in MRTR_PARAMS):
            return Stored(None, now_ms, 0, scope, "an MRTR retry is never cached")
        if result.get("resultType") == "input_required":
            return Stored(None, now_ms, 0, scope, "an input_required result is never cached")
        ttl, why = _ttl(result)
        key: CacheKey = (server, method, params_key(params), self._scope_key(scope))
        if ttl == 0:
            self._entries.pop(key, None)  # a newer answer, stale at once: the old one goes too
            return Stored(None, now_ms, 0, scope, why)
        self._entries[key] = _Entry(dict(result), now_ms, ttl, dict(params or {}))
        return Stored(key, now_ms, ttl, scope)

    def get(self, now_ms: int, method: str, params: Mapping[str, Any] | None, *,
            profile: Profile, server: str) -> Lookup:
        """A fresh cached result for this request (``now_ms < stored_at + ttlMs``), or a miss.

        An expired entry is dropped and reported as ``expired``.
        """
        if method not in profile.names("cacheable_results") or any(
                k in (params or {}) for k in MRTR_PARAMS):
            return Lookup("uncacheable")
        pkey = params_key(params)
        expired: _Entry | None = None
        for scope in SCOPES:
            key: CacheKey = (server, method, pkey, self._scope_key(scope))
            entry = self._entries.get(key)
            if entry is None:
                continue
            until = entry.stored_at_ms + entry.ttl_ms
            if now_ms < until:
                return Lookup("hit", dict(entry.result), entry.stored_at_ms, until)
            del self._entries[key]
            expired = entry
        if expired is not None:
            return Lookup("expired", None, expired.stored_at_ms,
                          expired.stored_at_ms + expired.ttl_ms)
        return Lookup("miss")

    def invalidate(self, notification: Message, *, profile: Profile,
                   server: str) -> list[CacheKey]:
        """Drop what ``notification`` (from ``server``) makes stale under ``profile``; the keys
        dropped, in the order they were stored."""
        row = invalidations(profile).get(str(notification.get("method")))
        if row is None:
            return []
        params = notification.get("params") or {}
        dropped = []
        for key, entry in list(self._entries.items()):
            if key[0] != server or key[1] not in row.methods:
                continue
            if row.match is not None and entry.params.get(row.match) != params.get(row.match):
                continue
            del self._entries[key]
            dropped.append(key)
        return dropped

    def forget_server(self, server: str) -> list[CacheKey]:
        """Drop every result of ``server`` (its process or origin is gone)."""
        dropped = [key for key in self._entries if key[0] == server]
        for key in dropped:
            del self._entries[key]
        return dropped

    def keys(self) -> list[CacheKey]:
        """The keys held, in the order they were stored (for tests and traces)."""
        return list(self._entries)

    def entry_expiry(self, key: CacheKey) -> int | None:
        """When the entry under ``key`` goes stale (simulated ms), if it is held."""
        entry = self._entries.get(key)
        return None if entry is None else entry.stored_at_ms + entry.ttl_ms

    # -- era decisions ----------------------------------------------------------------
    def remember_era(self, now_ms: int, server: str, era: Era, revision: str) -> EraDecision:
        """Cache the era (and revision) negotiated with ``server``."""
        decision = self._eras[server] = EraDecision(era, revision, now_ms)
        return decision

    def era_for(self, server: str) -> EraDecision | None:
        """The cached era decision for ``server``, if any."""
        return self._eras.get(server)

    def forget_era(self, server: str) -> EraDecision | None:
        """Drop the era decision for ``server`` (it failed: re-probe); the one dropped."""
        return self._eras.pop(server, None)

"""Values derived from frozen data, computed once per object: the simulator's caches.

The simulator asks a profile the same questions on every message (which
capabilities a client of this revision declares, which ``_meta`` keys a request
carries, which error codes read as modern). The answers depend only on the
profile, which is frozen, so they are computed once per profile object.

A :class:`~mcp_skew.versions.Profile` cannot be hashed (its tables are
mappings), so the caches key on the objects' identity and keep the objects
alive beside their value: an ``id`` is never reused while its entry is here. A
cache that grows past :data:`LIMIT` entries starts again (profiles are few; a
test that makes many does not make a cache grow without bound).

Values are shared: callers never mutate them (the message builders copy what
goes into a message, :mod:`mcp_skew.simulator.messages._wire`).

Also here, for what lives long once made (a command's modules, a matrix's cells):
:func:`collector_paused`, the cyclic garbage collector paused while they are made.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator
from typing import Final, TypeVar

__all__ = ["LIMIT", "by_identity", "by_identity2", "collector_paused", "remember"]

A = TypeVar("A")
B = TypeVar("B")
V = TypeVar("V")
K = TypeVar("K")

#: Entries a cache holds before it starts again.
LIMIT: Final = 4096


def remember(cache: dict[K, V], key: K, value: V) -> V:
    """Keep ``value`` under ``key`` in ``cache``, a cache of the simulator's own that starts
    again past :data:`LIMIT` entries (as the memos below do); ``value``, for the caller."""
    if len(cache) >= LIMIT:
        cache.clear()
    cache[key] = value
    return value


def by_identity(derive: Callable[[A], V]) -> Callable[[A], V]:
    """``derive``, computed once per argument object (see the module docstring)."""
    cache: dict[int, tuple[A, V]] = {}

    @functools.wraps(derive)
    def cached(arg: A) -> V:
        hit = cache.get(id(arg))
        if hit is None or hit[0] is not arg:
            hit = remember(cache, id(arg), (arg, derive(arg)))
        return hit[1]

    return cached


def by_identity2(derive: Callable[[A, B], V]) -> Callable[[A, B], V]:
    """``derive`` of two arguments, computed once per pair of objects."""
    cache: dict[tuple[int, int], tuple[A, B, V]] = {}

    @functools.wraps(derive)
    def cached(first: A, second: B) -> V:
        key = (id(first), id(second))
        hit = cache.get(key)
        if hit is None or hit[0] is not first or hit[1] is not second:
            hit = remember(cache, key, (first, second, derive(first, second)))
        return hit[2]

    return cached


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while the block makes objects that live on, then
    as it was. Its passes would walk them all to find nothing to free; once made, what
    survived goes straight to the oldest generation (``gc.freeze()`` then ``gc.unfreeze()``,
    which only move lists), so no young pass walks it after. Nothing is left frozen, and the
    move is skipped when someone else froze objects."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()

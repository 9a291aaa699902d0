"""What a scenario's client with a cache reads from it between and before its requests (see
:mod:`._scenario`'s docstring, "Caches"): the notifications that arrived, which drop what
they invalidate, and a fresh cached result that stands for a request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..versions import Message
from ._client import Session, SimClient
from .machine._events import Reply
from .machine._machine import Observer, Remark, Steps

if TYPE_CHECKING:
    from ._scenario import Step

__all__ = ["absorb", "from_cache"]


def absorb(client: SimClient, session: Session, obs: Observer) -> Steps[None]:
    """Read the notifications that arrived; drop what they invalidate from the cache."""
    notices = getattr(obs, "notices", None)
    if notices is None or client.cache is None or session.status != "ok":
        return
    for at_ms, note in notices():
        yield from _invalidate(client, session, at_ms, note)


def _invalidate(client: SimClient, session: Session, at_ms: int,
                note: Message) -> Steps[None]:
    """Drop what ``note`` invalidates. The client reads it when it next needs the cache; the
    remark says when it arrived (the entry was stale from then on)."""
    assert client.cache is not None
    dropped = client.cache.invalidate(note, profile=session.profile, server=client.server_id)
    if dropped:
        what = ", ".join(sorted({key[1] for key in dropped}))
        yield Remark(f"cache: {note.get('method')} (arrived at {at_ms} ms) invalidates {what}")


def from_cache(client: SimClient, session: Session, step: Step,
                obs: Observer) -> Steps[Reply | None]:
    """A fresh cached result for the step's request, as the reply it stands for; or None
    (and a remark: a miss, an expired entry) when the request must go on the wire."""
    if not client.caches_results:
        return None
    assert client.cache is not None
    now = obs.now_ms()
    found = client.cache.get(now, step.method, step.params, profile=session.profile,
                             server=client.server_id)
    if found.status == "uncacheable":
        return None
    if found.hit:
        yield Remark(f"cache hit: {step.method} (kept at {found.stored_at_ms} ms, fresh until "
                     f"{found.expires_at_ms} ms): no request")
        return Reply({"jsonrpc": "2.0", "id": None, "result": found.result})
    if found.status == "expired":
        yield Remark(f"cache: {step.method} expired at {found.expires_at_ms} ms (kept at "
                     f"{found.stored_at_ms} ms): ask again")
    else:
        yield Remark(f"cache miss: {step.method}: ask the server")
    return None

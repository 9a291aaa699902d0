"""A scenario step's request on the wire: sent, then retried where the rules say so.

See :mod:`._scenario`'s docstring: a modern request answered with -32022 is retried once
with the client's newest revision in ``data.supported`` (2026-07-28
``basic/versioning.mdx``), an ``input_required`` result is answered and the request
retried (``basic/patterns/mrtr.mdx``), and a dual-era client with a cache probes the
server again when a request fails under its cached era decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..versions import Era, Profile
from . import _negotiation as negotiation
from . import _path as path_steps
from ._client import Session, SimClient
from ._feature_calls import answer_request
from .machine._events import Event, Reply, Timeout
from .machine._machine import Observer, Remark, Steps

if TYPE_CHECKING:
    from ._scenario import Step

__all__ = ["MAX_INPUT_ROUNDS", "follow_up", "needs_follow_up"]

#: How many ``input_required`` rounds a client answers for one request before it gives up.
MAX_INPUT_ROUNDS: Final = 3


def needs_follow_up(client: SimClient, session: Session, event: Event,
                    retry_code: int | None = None) -> bool:
    """Whether :func:`follow_up` may do anything after the answer ``event`` to a step's
    request: a client with a cache, a -32022 in the modern era (``retry_code``: the
    session's profile's UnsupportedProtocolVersion code, where the caller has it), an
    ``input_required`` result. Most answers need none: the scenario asks this first."""
    if client.cache is not None:
        return True
    if type(event) is not Reply and not isinstance(event, Reply):
        return False
    if event.error is not None and session.era is Era.MODERN:
        if retry_code is None and session.status == "ok":
            retry_code = negotiation.unsupported_code(session.profile)
        if retry_code is not None and event.code == retry_code:
            return True  # (any other error: no retry, no input rounds)
    result = event.result
    return result is not None and result.get("resultType") == "input_required"


def follow_up(client: SimClient, session: Session, step: Step, obs: Observer, *,
              params: dict[str, Any], profile: Profile, event: Event) -> Steps[Event]:
    """After the answer ``event`` to the step's request (``params``, sent under
    ``profile``): retry it after a -32022, answer ``input_required`` rounds, or probe again
    and retry when it failed under the cached era decision (see the module docstring)."""
    revision = _retry_revision(client, session, event) if session.era is Era.MODERN else None
    if revision is not None:
        session.path += [path_steps.error(-32022), path_steps.retry(revision)]
        session.revision, session.retried = revision, True
        if client.cache is not None:  # the server's supported revisions changed: note it
            client.cache.remember_era(obs.now_ms(), client.server_id, Era.MODERN, revision)
        yield Remark(f"-32022 on {step.method}: retry with {revision} from data.supported",
                     "note")
        again = yield client.call(session, step.method, params, constant=not step.app)
        assert again is not None
        return again
    if "mrtr" in profile.names("features"):
        event = yield from _input_rounds(client, session, step, event)
    if client.cache is not None and _era_failed(client, session, step, event):
        era = session.era.value if session.era else "?"
        yield Remark(f"cache: the era decision ({era}) failed on {step.method} "
                     f"({_what(event)}): probe the server again")
        session.path.append(path_steps.era_stale(era, step.method))
        yield from client.renegotiation(obs, session)
        if session.status != "ok":
            return event
        again = yield client.call(session, step.method, params)
        assert again is not None
        return again
    return event


def _input_rounds(client: SimClient, session: Session, step: Step,
                  event: Event) -> Steps[Event]:
    """Answer an ``input_required`` result and retry the request, as a 2026-07-28 client
    MUST (``basic/patterns/mrtr.mdx`` §Client Requirements): the inputs first, then the
    original request with a new id, ``inputResponses`` under the same keys and
    ``requestState`` echoed exactly (none where none came)."""
    for _ in range(MAX_INPUT_ROUNDS):
        result = event.result if isinstance(event, Reply) else None
        if result is None or result.get("resultType") != "input_required":
            break
        asks = result.get("inputRequests")
        params = dict(step.params)
        said = "no input requests"
        if isinstance(asks, dict) and asks:
            params["inputResponses"] = {key: answer_request(ask) or {}
                                        for key, ask in asks.items()}
            said = "answer " + ", ".join(f"{key} ({_method_of(ask)})" for key, ask in asks.items())
        if "requestState" in result:
            params["requestState"] = result["requestState"]
            said += ", echo requestState"
        yield Remark(f"input_required on {step.method}: {said}; retry with a new id", "mrtr")
        answer = yield client.call(session, step.method, params)
        assert answer is not None
        event = answer
    return event


def _method_of(ask: Any) -> str:
    method = ask.get("method") if isinstance(ask, dict) else None
    return str(method) if method is not None else "?"


def _what(event: Event) -> str:
    if isinstance(event, Reply):
        return f"error {event.code}"
    return "timeout" if isinstance(event, Timeout) else "server exited"


def _retry_revision(client: SimClient, session: Session, event: Event) -> str | None:
    """The revision to retry a modern request with after a -32022: the client's newest one
    in ``data.supported`` (None: not a -32022, or no revision in common)."""
    if session.era is not Era.MODERN or not isinstance(event, Reply) or event.error is None:
        return None
    return negotiation.retry_revision(session.profile, client.spec.modern, event.code,
                                      event.error if negotiation.supported_of(event.error) is None
                                      else {"data": {"supported": client.spec.heard(
                                          negotiation.supported_of(event.error))}})


def _era_failed(client: SimClient, session: Session, step: Step, event: Event) -> bool:
    """Whether a request that should have worked failed the way a server of the other era
    answers (an error that is not a recognised modern one, no answer, an exit), while a
    dual-era client holds a cached era decision for the server."""
    if client.cache is None or client.spec.kind != "dual" or step.expect != "result":
        return False
    if client.cache.era_for(client.server_id) is None:
        return False
    if isinstance(event, Reply):
        if event.error is None:
            return False
        return not negotiation.is_modern_error(session.profile, event.code)
    return True

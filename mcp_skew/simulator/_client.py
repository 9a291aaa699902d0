"""Simulated clients: legacy, modern and dual-era negotiation over a :class:`Link`.

Theory of operation
-------------------
``SimClient.negotiate(link)`` returns a :class:`Session`: the revision both
sides will speak, the era, the readable path of steps, and a mark for how it got
there (direct, downgraded, era fallback, re-probe, retry after -32022).

- legacy: ``initialize`` with the newest revision; accept the server's answer if
  supported (``basic/lifecycle.mdx`` §Version Negotiation), else disconnect.
- modern: send requests with ``_meta``; on -32022 retry once with a revision
  from ``data.supported`` (2026-07-28 ``basic/versioning.mdx``); optionally
  ``server/discover`` first.
- dual-era: probe ``server/discover``; a DiscoverResult or a recognised modern
  error keeps it modern; any other error, or no answer in time, falls back to
  ``initialize`` (2026-07-28 ``basic/transports/stdio.mdx`` §Backward
  Compatibility). If the fallback then fails on an answer from a server that
  timed out the probe, it probes once more (``basic/versioning.mdx``: re-probe
  "if the cached assumption later fails"). Over Streamable HTTP the transport's
  rule (:mod:`._transport`) falls back only on an answer: a timeout is an error
  there (2026-07-28 ``basic/transports/streamable-http.mdx`` §Backward
  Compatibility), and the path records the rule.

Rule: the client asks the profiles which error codes are "recognised modern",
which result fields are required, and how requests carry their version.

The client is driven (:mod:`.machine._machine`): :meth:`SimClient.negotiation` is a
machine that yields what to send and takes what arrived; :meth:`SimClient.negotiate`
drives it over a blocking :class:`~._link.Link`, for callers that have one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..versions import Era, Message, Profile
from . import _negotiation as negotiation
from . import _path as steps
from ._extensions import advertise, app_resource
from ._link import Link, LinkObserver
from ._negotiation import Mark
from ._path import PathStep
from ._peers import PeerSpec
from ._result_checks import check_result
from ._session import Session
from ._transport import STDIO, TransportRule, http_status
from .machine._events import Closed, Event, Reply, Timeout
from .machine._machine import Machine, Notify, Observer, Remark, Restart, Send, Steps, drive
from .messages import _wire

if TYPE_CHECKING:
    from ._cache import ClientCache

__all__ = ["Mark", "Session", "SimClient", "event_step"]

#: How a modern client learns what a server supports, where its revision has it.
DISCOVER = "server/discover"
#: What a modern client without ``server/discover`` opens with.
FIRST_REQUEST = "tools/list"


@dataclass(eq=False, frozen=True, slots=True)
class LegacyAdvert:
    """A DiscoverResult that names no modern revision the dual-era client has, read as
    "speak ``revision`` through ``initialize``" (see :meth:`SimClient._legacy_advert`), or
    one this client refused as incomplete (client quirk ``strict-discover``: ``why``)."""

    revision: str
    why: PathStep | None = None


def event_step(event: Event) -> PathStep:
    """The path step an event is: ``result``, ``error CODE``, ``timeout after N ms``, ``server exited``."""
    if isinstance(event, Reply):
        return steps.error(event.code) if event.error is not None else steps.result()
    if isinstance(event, Timeout):
        return steps.timeout(event.after_ms)
    return steps.exited()


def _error_text(reply: Reply) -> str:
    """The error's code and message, and the transport's reason for it (:attr:`Reply.reason`)."""
    err = reply.error or {}
    text = f"{err.get('code')} {err.get('message', '')}".strip()
    return f"{text}: {reply.reason}" if reply.reason else text


class SimClient:
    """One simulated client; ``negotiate`` then ``call``."""

    def __init__(self, spec: PeerSpec, *, request_timeout_ms: int = 10_000,
                 transport: TransportRule = STDIO, cache: ClientCache | None = None,
                 server_id: str = "server") -> None:
        self.spec = spec
        self.request_timeout_ms = request_timeout_ms
        #: the transport's rule for reading a probe that did not keep the client modern
        self.transport = transport
        self.policy = spec.client_policy
        if self.policy.request_timeout_ms is not None:  # quirk request-timeout
            self.request_timeout_ms = self.policy.request_timeout_ms
        self.probe_timeout_ms = self.policy.probe_timeout_ms
        #: while connecting under a connect timeout: the clock, and when the connect ends
        self._connect: tuple[Observer, int] | None = None
        self._next_id = 0
        #: the client's caches (results and era decisions), in scenarios that keep them;
        #: None: nothing is cached (every built-in run but those scenarios)
        self.cache = cache
        #: the server the caches key on: its process (stdio) or origin (HTTP)
        self.server_id = server_id
        #: the ``ui://`` resource the last ``tools/list`` pointed at (MCP Apps, ``+ext=ui``)
        self.listed_app: str | None = None

    @property
    def caches_results(self) -> bool:
        """Whether results are served from the cache (a cache, and no ``no-cache`` quirk)."""
        return self.cache is not None and self.policy.cache

    def keep(self, now_ms: int, profile: Profile, method: str, params: dict[str, Any],
             result: dict[str, Any]) -> Steps[None]:
        """Put a result in the cache (where results are cached) and say so in the transcript."""
        if method == "tools/list" and self.spec.extensions:  # MCP Apps: the app it points at
            self.listed_app = app_resource(result)
        if self.cache is None or not self.policy.cache:
            return
        stored = self.cache.put(now_ms, method, params, result, profile=profile,
                                server=self.server_id)
        if stored.kept:
            yield Remark(f"cache: keep {method} ({stored.scope}, ttlMs {stored.ttl_ms}): "
                         f"fresh until {stored.expires_at_ms} ms")
        elif method in profile.names("cacheable_results"):
            yield Remark(f"cache: not kept: {method}: {stored.why}")

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- after negotiation ------------------------------------------------------------
    def call(self, session: Session, method: str, params: dict[str, Any], *,
             constant: bool = False, profile: Profile | None = None,
             sealer: _wire.Sealer | None = None) -> Send:
        """One request under the negotiated revision, as an action to perform. ``constant``:
        ``params`` are the same object at every call (a scenario step's), so the request's
        text is made once (:func:`_wire.sealed_request`). ``profile``: the session's, where
        the caller has it already (a scenario, at every step); ``sealer``: the request's
        :class:`~.messages._wire.Sealer` under it, where the caller keeps one (a step's
        plan)."""
        self._next_id = msg_id = self._next_id + 1  # next_id, inline: a call less per request
        if profile is None:
            profile = session.profile
        if self.spec.extensions:  # +ext=...: declared in each request's _meta where it rides
            message = advertise(_wire.request(profile, msg_id, method, params), self.spec)
        elif sealer is not None:
            message = sealer(msg_id)
        elif constant:
            message = _wire.sealed_request(profile, msg_id, method, params)
        else:
            message = _wire.request(profile, msg_id, method, params)
        return Send(message, self.request_timeout_ms)

    def strict(self) -> bool:
        return self.policy.strict

    # -- negotiation ------------------------------------------------------------------
    def negotiate(self, link: Link) -> Session:
        """Drive :meth:`negotiation` over a blocking link."""
        return drive(self.negotiation(LinkObserver(link)), link)

    def negotiation(self, observer: Observer) -> Machine[Session]:
        """The negotiation as a driven machine; its verdict is the :class:`Session`."""
        return Machine(self._negotiation(observer))

    def _negotiation(self, obs: Observer, session: Session | None = None) -> Steps[Session]:
        """Negotiate; with ``session`` (a re-probe in the middle of a scenario) its path and
        counts go on, and its outcome is overwritten."""
        session = session or Session(registry=self.spec.registry)
        bound = self.policy.connect_timeout_ms
        self._connect = None if bound is None else (obs, obs.now_ms() + bound)
        try:
            session = yield from self._negotiate_kind(obs, session)
            if session.status == "ok" and (self.policy.legacy_set_level or (
                    self.policy.era_set_level and session.era is Era.LEGACY)):
                session = yield from self._set_level(session)
        finally:
            self._connect = None
        if self.cache is not None and session.status == "ok" and session.era is not None:
            assert session.revision is not None
            self.cache.remember_era(obs.now_ms(), self.server_id, session.era, session.revision)
            yield Remark(f"cache: era decision for this server: {session.era.value}, "
                         f"{session.revision}")
        return session

    def _kept_legacy(self) -> str | None:
        """Quirk ``keeps-era``: the legacy revision of the era decision held for this server
        (kept from an earlier process or session), if any."""
        if not self.policy.keeps_era or self.cache is None or self.spec.kind != "dual":
            return None
        held = self.cache.era_for(self.server_id)
        if held is None or held.era is not Era.LEGACY or held.revision not in self.spec.legacy:
            return None
        return held.revision

    def _kept(self, obs: Observer, session: Session, revision: str) -> Steps[Session]:
        """Initialize at the kept legacy revision; when that fails the assumption failed:
        forget it and negotiate as a dual-era client does (2026-07-28 basic/versioning.mdx:
        re-probe "if the cached assumption later fails")."""
        assert self.cache is not None
        yield Remark(f"cache: the era decision kept for this server: legacy, {revision}: "
                     "initialize without a probe (quirk keeps-era)")
        session = yield from self._legacy(session, revision)
        if session.status == "ok":
            return session
        self.cache.forget_era(self.server_id)
        yield Remark(f"cache: the kept era decision failed ({session.reason}): probe the server")
        session.reason = ""
        return (yield from self._dual(obs, session))

    def _negotiate_kind(self, obs: Observer, session: Session) -> Steps[Session]:
        """The negotiation this client's kind runs (a plain call that hands back the
        negotiation itself: one generator less between the driver and each request)."""
        if self.spec.kind == "legacy":
            return self._legacy(session)
        kept = self._kept_legacy()
        if kept is not None:
            return self._kept(obs, session, kept)
        if self.spec.kind == "modern":
            return self._modern_only(obs, session)
        return self._dual(obs, session)

    def _modern_only(self, obs: Observer, session: Session) -> Steps[Session]:
        method = self._probe_method() if self.policy.discover_first else FIRST_REQUEST
        session, event = yield from self._modern(obs, session, method, self.request_timeout_ms)
        assert not isinstance(event, LegacyAdvert)  # only a dual-era client reads one
        if event is not None and self._connect_spent(event):
            return self._connect_failed(session, method)
        return session if event is None else self._not_modern(session, method, event)

    def _set_level(self, session: Session) -> Steps[Session]:
        """Quirk ``legacy-set-level``: ``logging/setLevel`` once connected, where the server
        declares ``logging``; a revision without the method (2026-07-28 removed it) fails the
        connect, as the client's SDK refuses the request. Quirk ``era-set-level`` comes here
        in the legacy era only."""
        if "logging" not in session.server_capabilities:
            return session
        profile = session.profile
        method = "logging/setLevel"
        if method not in profile.methods:
            return session.fail(f"{method} is not a method of {profile.revision} (removed from "
                                "the modern era); this client sends it once connected, and the "
                                "connect fails")
        session.path.append(steps.request(method, profile.revision))
        event = self._took(session, (yield self._send(
            session, _wire.request(profile, self.next_id(), method, {"level": "debug"}),
            self.request_timeout_ms)))
        session.path.append(event_step(event))
        return session

    def renegotiation(self, obs: Observer, session: Session) -> Steps[Session]:
        """Probe again after the cached era decision failed (2026-07-28
        ``basic/versioning.mdx``: re-probe "if the cached assumption later fails")."""
        if self.cache is not None:
            if self._kept_legacy() is None:  # quirk keeps-era: a legacy decision is kept
                self.cache.forget_era(self.server_id)
            self.cache.forget_server(self.server_id)  # what it said belongs to another server
        session.fell_back = session.downgraded = session.retried = session.reprobed = False
        return (yield from self._negotiation(obs, session))

    def _wait(self, timeout_ms: int) -> int:
        """How long a request may wait: its own timeout, cut to what is left of the connect
        timeout while connecting (client quirk ``connect-timeout``: one deadline spans the
        probe, the fallback ``initialize`` and any re-probe)."""
        if self._connect is None:
            return timeout_ms
        obs, deadline = self._connect
        return max(0, min(timeout_ms, deadline - obs.now_ms()))

    def _connect_spent(self, event: Event) -> bool:
        """``event`` is a timeout, and the connect timeout has run out."""
        if self._connect is None or not isinstance(event, Timeout):
            return False
        obs, deadline = self._connect
        return obs.now_ms() >= deadline

    def _connect_failed(self, session: Session, during: str) -> Session:
        return session.fail(f"the connect timed out after {self.policy.connect_timeout_ms} ms, "
                            f"during {during} (this client's connect timeout)")

    def _send(self, session: Session, message: Message, timeout_ms: int) -> Send:
        """The action that sends a negotiation request; the caller yields it and hands what
        ended the wait to :meth:`_took` (:func:`ask` as two plain calls: no generator per
        request, and none between the driver and the negotiation's body)."""
        session.round_trips += 1
        if self.spec.extensions:  # +ext=...: in initialize, or in the request's _meta
            message = advertise(message, self.spec)
        return Send(message, timeout_ms if self._connect is None else self._wait(timeout_ms))

    @staticmethod
    def _took(session: Session, event: Event | None) -> Event:
        """What ended the wait of a :meth:`_send`, with what the transport did on the way."""
        if event is None:  # Machine.send refuses this; here for the type checker
            raise RuntimeError("a Send was answered with None")
        if event.via:
            session.path += event.via  # what the transport did on the way (HTTP+SSE), typed steps
        return event

    def _legacy(self, session: Session, asked: str | None = None) -> Steps[Session]:
        revisions = self.spec.legacy
        asked = asked or revisions[0]
        profile = self.spec.registry.get(asked)
        session.path.append(steps.request("initialize", asked))
        msg_id = self.next_id()
        if self.spec.extensions:  # advertised in it (_send): a message changed before it crosses
            params = {"protocolVersion": asked, "capabilities": _wire.client_capabilities(profile),
                      "clientInfo": _wire.implementation(_wire.CLIENT_NAME)}
            message = _wire.request(profile, msg_id, "initialize", params)
        else:  # sent as made: its text made once (_wire.sealed_initialize)
            message = _wire.sealed_initialize(profile, msg_id)
        event = self._took(session, (yield self._send(session, message, self.request_timeout_ms)))
        if not isinstance(event, Reply):
            session.path.append(event_step(event))
            if self._connect_spent(event):
                return self._connect_failed(session, f"initialize {asked}")
            return session.fail(f"initialize {asked}: {event_step(event)}")
        if event.error is not None:
            session.path.append(event_step(event))
            return session.fail(f"initialize {asked} rejected: {_error_text(event)}")
        result = event.result or {}
        answered = result.get("protocolVersion")
        if answered != asked:
            session.path.append(steps.counter_offer(answered))
            if answered not in revisions or self.policy.exact:
                session.path.append(steps.disconnect())
                why = ("this client demands the exact revision it asked for"
                       if answered in revisions else "which this client does not support")
                return session.fail(f"server answered {answered}, {why}")
            session.downgraded = True
        session.server_capabilities = dict(result.get("capabilities") or {})
        yield Notify(_wire.notification("notifications/initialized"))
        return session.accept(str(answered), Era.LEGACY)

    def _modern(self, obs: Observer, session: Session, method: str,
                timeout_ms: int) -> Steps[tuple[Session, Event | LegacyAdvert | None]]:
        """Modern negotiation.

        Returns ``(session, None)`` once decided, or ``(session, event)`` when the
        answer says the server is not modern, for the caller to decide (a
        :class:`LegacyAdvert`: a DiscoverResult that sends a dual-era client to
        ``initialize``).
        """
        revisions = self.spec.modern
        rev = revisions[0]
        for attempt in range(2):
            profile = self.spec.registry.get(rev)
            session.path.append(steps.request(method, rev))
            index = obs.position()
            # sent as made where the client advertises no extension (_send adds them): its
            # text made once (_wire.sealed_request)
            make = _wire.request if self.spec.extensions else _wire.sealed_request
            event = self._took(session, (yield self._send(
                session, make(profile, self.next_id(), method), timeout_ms)))
            if isinstance(event, Reply) and event.result is not None:
                missing = self._incomplete(method, rev, event.result)
                if missing and self.spec.kind == "dual" and self.spec.legacy:
                    return session, LegacyAdvert(self.spec.legacy[0], steps.incomplete(missing))
                if missing:
                    session.path.append(steps.incomplete(missing, fall_back=False))
                    return session.fail(f"{method} {rev}: the result lacks "
                                        f"{', '.join(missing)}, which the schema requires; this "
                                        "client reads it as a failed probe"), None
                advert = self._legacy_advert(method, event.result)
                if advert is not None:
                    return session, advert
                session = self._modern_result(session, profile, method, event.result, index + 1)
                if session.status == "ok" and (self.cache is not None or self.spec.extensions):
                    yield from self.keep(obs.now_ms(), profile, method, {}, event.result)
                return session, None
            session.path.append(event_step(event))
            if not isinstance(event, Reply) or not negotiation.is_modern_error(profile, event.code):
                return session, event
            action, again = negotiation.after_modern_error(
                profile, revisions, rev, event.code, self._heard_error(event.error),
                first=attempt == 0,
                denylist=self.policy.fallback_denylist, legacy=self.spec.legacy)
            if action == "fall back":
                return session, event  # the caller falls back to initialize
            if action == "retry" and again is not None:
                session.path.append(steps.retry(again))
                rev, session.retried = again, True
                continue
            supported = negotiation.supported_of(event.error) or []
            if event.code != negotiation.unsupported_code(profile):
                return session.fail(f"{method} {rev}: the server is modern but refused the "
                                    f"request: {_error_text(event)}"), None
            named = ", ".join(map(str, supported)) or "nothing it named"
            return session.fail(f"no revision in common: the server supports {named}"
                                + self._handshake_note(supported)), None
        raise AssertionError("unreachable: the loop returns on its second attempt")

    def _not_modern(self, session: Session, method: str, event: Event,
                    why: str = "a modern-only client cannot talk to a server that is not modern",
                    ) -> Session:
        what = _error_text(event) if isinstance(event, Reply) else event_step(event)
        if self.transport.outcome(event) == "auth":  # over HTTP: 401/403, not an era answer
            why = f"HTTP {http_status(event)} is an authorization failure, not an era answer"
        return session.fail(f"{method}: {what}; {why}")

    def _modern_result(self, session: Session, profile: Profile, method: str,
                       result: dict[str, Any], index: int) -> Session:
        session.findings += check_result(profile, method, result, index)
        if self.strict() and session.findings:
            return session.fail(f"strict client: {session.findings[0].message}")
        revision = profile.revision
        if method == "server/discover":
            offered = result.get("supportedVersions") or []
            common = negotiation.common(self.spec.modern, self.spec.heard(offered))
            if not common:
                return session.fail(f"server/discover offers {offered}; no revision in common")
            if common[0] != revision:
                session.path.append(steps.choose(common[0]))
                session.downgraded = True
                revision = common[0]
            session.server_capabilities = dict(result.get("capabilities") or {})
        return session.accept(revision, Era.MODERN)

    def _heard_error(self, error: Any) -> Any:
        """``error`` with a ``data.supported`` list read as this client's revisions (the wire
        strings it names, each as the revisions of this client that put it on the wire,
        beside the strings that are none of them)."""
        named = negotiation.supported_of(error)
        if named is None or all(self.spec.identity(v, self.spec.revisions) == v for v in named):
            return error
        heard = self.spec.heard(named)
        rest = [v for v in named if self.spec.identity(v, self.spec.revisions) is None]
        return {**error, "data": {**error["data"], "supported": heard + rest}}

    def _handshake_note(self, supported: list[Any]) -> str:
        """Why a -32022 listing handshake-era revisions ends it: a modern-only client does not
        speak them; a dual-era one does not fall back on a recognised modern error, which
        identifies a modern server (2026-07-28 ``basic/versioning.mdx``: "the client
        retries with a supported version rather than falling back")."""
        eras = {p.revision: p.era for p in self.spec.registry}
        handshake = [str(r) for r in supported if eras.get(str(r)) is Era.LEGACY]
        if not handshake:
            return ""
        shared = [r for r in handshake if r in self.spec.legacy]
        if not shared:
            return (f" ({', '.join(handshake)}: handshake era, not a revision this client "
                    "supports; it does not retry)")
        return (f" ({', '.join(shared)}: handshake era; a -32022 identifies a modern server, "
                "so this client does not fall back to initialize: 2026-07-28 "
                "basic/versioning.mdx)")

    def _legacy_advert(self, method: str, result: dict[str, Any]) -> LegacyAdvert | None:
        """Where a dual-era client's DiscoverResult names no modern revision it has, the
        legacy revision to ``initialize`` with; None: read the result as modern.

        The spec's rule (2026-07-28 ``basic/versioning.mdx``: the client "SHOULD select a
        mutually supported version from the ``supported`` list", "or surface an error to
        the user if no compatible version exists"): the newest of its legacy revisions the
        result lists; none listed, it fails. Quirk ``discover-fallback`` (the TypeScript,
        Python and Go SDK clients) reads any such result as a legacy advertisement and
        falls back to ``initialize`` with its newest revision, whatever it lists.
        """
        if method != DISCOVER or self.spec.kind != "dual" or not self.spec.legacy:
            return None
        offered = result.get("supportedVersions")
        offered = offered if isinstance(offered, list) else []
        if self.spec.heard(offered, self.spec.modern):
            return None
        if self.policy.discover_fallback:
            return LegacyAdvert(self.spec.legacy[0])
        common = [r for r in self.spec.legacy if r in offered]
        return LegacyAdvert(common[0]) if common else None

    def _incomplete(self, method: str, revision: str, result: dict[str, Any]) -> list[str]:
        """Client quirk ``strict-discover``: the fields the revision's schema requires on a
        DiscoverResult that ``result`` lacks (the envelope fields every result or cacheable
        result carries are left to the SDKs' defaults); [] when complete or not checked."""
        if method != DISCOVER or not self.policy.strict_discover:
            return []
        from ..versions import required_fields  # noqa: PLC0415 - the schemas' table, on first use

        profile = self.spec.profile(revision)
        defaulted = profile.names("result_fields_required") | profile.names("cache_fields")
        return sorted(f for f in required_fields(revision, method) - defaulted
                      if f not in result)

    def _probe_method(self) -> str:
        """``server/discover`` where the newest modern revision has it, else the first request."""
        profile = self.spec.registry.get(self.spec.modern[0])
        return DISCOVER if DISCOVER in profile.methods else FIRST_REQUEST

    def _init_after_discover(self, session: Session) -> Steps[Session]:
        """Client quirk ``init-after-discover``: the probe succeeded, yet the client sends
        ``initialize`` with its newest legacy revision on the same connection and keeps what
        that answer says. The spec's client stays modern (2026-07-28 ``basic/versioning.mdx``:
        a DiscoverResult listing a revision both support selects it), and a server that fixed
        the modern era on the probe (``sticky-era``) or speaks no legacy revision refuses
        the handshake, as github/copilot-cli issues 4525 and 4888 and anthropics/claude-code
        issue 96183 report (-32022)."""
        session.fell_back = True
        session = yield from self._legacy(session)
        if session.status == "failed":
            session.reason += ("; it sent initialize after a successful server/discover "
                               "(quirk init-after-discover)")
        return session

    def _dual(self, obs: Observer, session: Session) -> Steps[Session]:
        probe_method = self._probe_method()
        session, probe = yield from self._modern(obs, session, probe_method, self.probe_timeout_ms)
        if probe is None and session.status == "ok" and self.policy.init_after_discover:
            return (yield from self._init_after_discover(session))
        if probe is None:
            return session
        if isinstance(probe, LegacyAdvert):
            session.path.append(probe.why or (steps.legacy_advert() if self.policy.discover_fallback
                                              else steps.choose(probe.revision)))
            session.fell_back = True
            return (yield from self._legacy(session, probe.revision))
        if self._connect_spent(probe):
            return self._connect_failed(session, f"the {probe_method} probe")
        rule = self.transport
        any_status = self.policy.http_fallback_any_status
        if rule.recorded:  # over HTTP the path says which rule read the probe
            outcome = rule.outcome(probe)
            quirk = "auth-fallback" if any_status and outcome not in rule.legacy_signs \
                and rule.falls_back(probe, any_status=True) else None
            modern = probe.code if isinstance(probe, Reply) and negotiation.is_modern_error(
                self.spec.profile(self.spec.modern[0]), probe.code) else None
            if modern is not None and self.policy.fallback_denylist:  # only it comes here so
                quirk = "fallback-denylist"
            session.path.append(steps.rule(rule.name, outcome, http_status(probe), quirk=quirk,
                                           modern_code=modern))
        if not rule.falls_back(probe, any_status=any_status):
            return session.fail(f"{probe_method}: {event_step(probe)}; over {rule.title} that is "
                                f"an error, not a sign of a legacy server ({rule.cite})")
        if isinstance(probe, Closed) and not self.policy.restart:
            return session.fail("the server exited during the server/discover probe; "
                                "this client gives up")
        if self.policy.fallback_only_32601 and not (isinstance(probe, Reply) and probe.code == -32601):
            return session.fail(f"probe got {event_step(probe)}; this client falls back only on -32601")
        if isinstance(probe, Closed | Timeout) and self.policy.restart:
            # the probe ran in a process that may be dead or wedged: fall back on a fresh one
            yield Restart()
            session.path.append(steps.restart())
        session.fell_back = True
        session = yield from self._legacy(session)
        if (session.status == "failed" and self.policy.restart_after_exit
                and session.path[-1].kind == "exited"):
            # the fallback went to the process that kept the probe; it died: a fresh one
            yield Restart()
            session.path.append(steps.restart())
            session = yield from self._legacy(session)
        if session.status == "failed" and isinstance(probe, Timeout) and session.path[-1].kind == "error":
            if self.policy.no_reprobe:
                session.reason += ("; this client does not probe again after its fallback "
                                   "failed (quirk no-reprobe)")
                return session
            session.path.append(steps.re_probe())
            session.fell_back, session.reprobed = False, True
            session, again = yield from self._modern(obs, session, probe_method,
                                                     self.request_timeout_ms)
            if isinstance(again, LegacyAdvert):  # the server changed its mind: give up
                return session.fail(f"{probe_method}: the server offers no modern revision "
                                    "on the re-probe")
            if again is not None:
                return self._not_modern(session, probe_method, again,
                                        "the server answered neither era")
        return session

"""One run: a client, a server, a scenario, in memory on a simulated clock.

``run(client, server)`` negotiates, plays the scenario, and returns a
:class:`RunRecord`: the transcript, the path, and the outcome. The verdict uses
what the simulator knows and a real client would not: if the client believes it
speaks the modern era while the server served it under legacy rules (an
era-ambiguous request processed by a lenient legacy server), the run failed,
as the spec's era table says (2026-07-28 ``basic/versioning.mdx``
§Compatibility Matrix, row Modern/Legacy).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .._memo import by_identity, by_identity2
from ..transcript import run_document
from ..versions import Era, Profile
from ._client import Mark, Session, SimClient
from ._feature_calls import response_to
from ._link import MemoryLink, ServerChange, Transcript
from ._path import served_legacy
from ._peers import PeerSpec
from ._scenario import SCENARIOS, Scenario, ServerEvent, StepResult, play
from ._server import SimServer
from ._transport import NOT_OVER_STDIO, Transport, rule_for
from .findings._finding import Finding

if TYPE_CHECKING:
    from ._cache import ClientCache
    from .bridges import BridgeLink, BridgeSpec
    from .http._link import HttpMemoryLink

__all__ = ["NEEDS_RESULT", "RunRecord", "mark_era_mismatch", "run"]

#: A step's ``expected`` when it needs a result (a list, a read, a call): failing one after
#: negotiating is "connects, then fails".
NEEDS_RESULT: Final = "result"


@dataclass(eq=False, slots=True)
class RunRecord:
    """Everything one run produced."""

    client: PeerSpec
    server: PeerSpec
    scenario: str
    session: Session
    transcript: Transcript
    steps: list[StepResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    features_lost: list[str] = field(default_factory=list)
    t_first_useful_ms: int | None = None
    transport: Transport = "stdio"  #: ``stdio``, or ``http`` (Streamable HTTP)
    #: the client's authorizations (scenario auth): path, hops, outcome; empty otherwise
    auth: list[dict[str, Any]] = field(default_factory=list)
    #: the bridge between them (client -> bridge -> server), None for a direct pair
    via: BridgeSpec | None = None
    #: behind a bridge: the upstream leg's path (each request the bridge sent, what it met)
    upstream_path: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """``ok``, or ``failed``: negotiation failed, or the pair connected and then a list
        or call the scenario needs did not get its result (:attr:`failed_step`)."""
        return "failed" if self.session.status != "ok" or self.failed_step else "ok"

    @property
    def failed_step(self) -> str | None:
        """The first scenario step that needed a result (a list, a read, a call) and did
        not get one, on a pair that negotiated: "connects, then fails"; None otherwise."""
        step = self._broken()
        return step.name if step is not None else None

    def _broken(self) -> StepResult | None:
        if self.session.status != "ok":
            return None
        return next((s for s in self.steps if not s.ok and s.expected == NEEDS_RESULT), None)

    @property
    def reason(self) -> str:
        """Why it failed: the negotiation's reason, or the step that failed after it."""
        step = self._broken()
        if step is None:
            return self.session.reason
        # an event of VERDICT_EVENTS (a Tally, the transcript of a run that keeps no records,
        # keeps only those)
        refused = next((n.text for n in reversed(self.transcript.notes)
                        if n.kind == "auth" and dict(n.fields).get("refused")), None)
        return f"connected, then {step.name} failed: {step.got}" + (
            f" ({refused})" if refused else "")

    @property
    def revision(self) -> str | None:
        return self.session.revision

    @property
    def mark(self) -> Mark:
        return self.session.mark

    def to_dict(self, *, transcript: bool = True) -> dict[str, Any]:
        """The JSON shape shared by ``simulate --json``, the matrix and the probe."""
        out: dict[str, Any] = {
            "client": self.client.name,
            "server": self.server.name,
            "status": self.status,
            "revision": self.session.revision,
            "era": self.session.era.value if self.session.era else None,
            "path": list(self.session.path),
            "mark": self.session.mark,
            "reason": self.reason,
            "scenario": self.scenario,
            "round_trips": self.session.round_trips,
            "t_first_useful_ms": self.t_first_useful_ms,
            "steps": [s.to_dict() for s in self.steps],
            "features_lost": list(self.features_lost),
            "findings": [f.to_dict() for f in (*self.session.findings, *self.findings)],
        }
        if self.transport != "stdio":  # a stdio run's JSON is as it always was
            out["transport"] = self.transport
        if self.via is not None:  # only a chain's run has one
            out["via"] = self.via.name
            out["upstream_path"] = list(self.upstream_path)
        if self.auth:  # only a protected server's run has one
            out["auth"] = self.auth
        if self.failed_step is not None:  # only where it connected and then failed
            out["failed_step"] = self.failed_step
        if transcript:
            out["transcript"] = self.transcript.records()
        return out

    def to_document(self) -> dict[str, Any]:
        """What ``simulate --json`` prints: :meth:`to_dict` under its format and version."""
        return run_document(self.to_dict())


def _features_lost(client: PeerSpec, session: Session) -> list[str]:
    if session.revision is None:
        return []
    return list(_lost(client.profile(), session.profile))


@by_identity2
def _lost(best: Profile, negotiated: Profile) -> tuple[str, ...]:
    """The features of ``best`` that ``negotiated`` lacks, sorted (once per pair of profiles)."""
    return tuple(sorted(best.names("features") - negotiated.names("features")))


def mark_era_mismatch(session: Session) -> None:
    """Fail a modern session that a legacy server served under legacy rules (the spec's era
    table says such a pair fails)."""
    session.findings.append(Finding(
        "era-mismatch", "error",
        "the server served a modern request under legacy rules", None,
        "2026-07-28: basic/versioning.mdx §Compatibility Matrix"))
    session.path.append(served_legacy())
    session.fail("era mismatch: the legacy server ran the request under legacy rules "
                 "(a modern-only client cannot detect this; probe with server/discover)")


def run(client: PeerSpec, server: PeerSpec, scenario: str | Scenario = "default", *,
        latency_ms: int = 5, request_timeout_ms: int = 10_000,
        transport: Transport = "stdio",
        server_changes: Sequence[tuple[int, PeerSpec]] = (),
        cache: ClientCache | None = None, server_id: str | None = None,
        via: BridgeSpec | None = None, keep_transcript: bool = True) -> RunRecord:
    """Negotiate ``client`` with ``server``, then play ``scenario``, over ``transport``
    (``stdio``, or ``http``: Streamable HTTP, :mod:`.http._link`).

    ``scenario`` is a name in :data:`SCENARIOS` or a :class:`Scenario` of the caller's.
    ``server_changes``: at each ``(ms, spec)`` the server is replaced by a server of
    ``spec`` (simulated time on the run's clock; stdio only): an upgrade or a downgrade
    under a client that is not told. A scenario that keeps a cache shows what its cached
    era decision and results do then.
    ``cache``: the client's caches as an earlier run left them (a client that outlives a
    restart of its server: results, era decisions), used whatever the scenario;
    ``server_id``: the key they hold the server under (default: the server's name; give the
    same to two runs for a server that was restarted as another spec, an upgrade).
    ``via``: a bridge between them (:mod:`.bridges._link`): the client meets its downstream
    side (its transport, not ``transport``) and the bridge plays the upstream leg.
    ``keep_transcript=False``: the record's transcript only counts the messages and keeps the
    events its verdict reads (a :class:`._link.Tally`: no timeline, no records), for a caller
    that reads none (a matrix cell without a transcript); the run is the same. Over stdio
    only: the other links keep their records whatever it says.
    """
    plan = scenario if isinstance(scenario, Scenario) else SCENARIOS[scenario]
    link: MemoryLink | HttpMemoryLink | BridgeLink
    http: HttpMemoryLink | None = None
    bridge: BridgeLink | None = None
    if via is not None:
        if server_changes:
            raise ValueError("server changes over time are not simulated behind a bridge")
        # the bridges load on the first run through one: a direct run imports none
        from .bridges import BridgeLink  # noqa: PLC0415

        link = bridge = BridgeLink(via, server, latency_ms)
        transport = via.downstream
    elif transport == "stdio":
        link = MemoryLink(functools.partial(SimServer, server), latency_ms,
                          stalls_on_server_request=client.client_policy.stalls_on_server_request,
                          records=keep_transcript)
        _schedule(link, plan, server_changes)
        if plan.answers:
            link.answers = response_to
        if plan.protected:  # the commands refuse it; a library caller gets it said
            link.transcript.note(0, f"{NOT_OVER_STDIO}: the server is not protected here")
    else:
        if server_changes:
            raise ValueError("server changes over time are simulated over stdio only")
        # HTTP and authorization load on the first HTTP run: a stdio run imports neither
        from .http._link import http_link  # noqa: PLC0415

        link = http = http_link(client, server, protected=plan.protected, latency_ms=latency_ms)
        if plan.answers:
            http.answers = response_to
        for event in _server_events(plan):
            link.transcript.note(0, f"not simulated over Streamable HTTP: {event.name}")
    if cache is None and plan.keeps_cache:
        from ._cache import ClientCache  # noqa: PLC0415 - the caches load for the scenarios that keep them

        cache = ClientCache()
    sim = SimClient(client, request_timeout_ms=request_timeout_ms, transport=rule_for(transport),
                    cache=cache, server_id=server.name if server_id is None else server_id)
    session = sim.negotiate(link)
    served = link.server.served_eras
    if session.era is Era.MODERN and served and served[-1] is Era.LEGACY:
        mark_era_mismatch(session)
    record = RunRecord(client, server, plan.name, session, link.transcript, transport=transport,
                       via=via)
    if session.status == "ok":
        record.steps, record.findings, record.t_first_useful_ms = play(plan, sim, link, session)
        if session.status == "ok":
            record.features_lost = _features_lost(client, session)
    if bridge is not None:
        record.upstream_path = bridge.upstream_path
    if http is not None and http.auth is not None:  # step-ups come in play
        record.auth = http.auth.to_list()
    link.close()
    return record


def _schedule(link: MemoryLink, plan: Scenario,
              server_changes: Sequence[tuple[int, PeerSpec]]) -> None:
    """Put the scenario's server events and the run's server changes on the link's clock."""
    for at_ms, spec in server_changes:
        link.schedule(at_ms, ServerChange(server=spec))
    for event in _server_events(plan):
        link.schedule(event.at_ms, ServerChange(emit=event.emit, params=event.params))


@by_identity
def _server_events(plan: Scenario) -> tuple[ServerEvent, ...]:
    """``plan.server_events``, once a scenario (the property looks through its steps on every
    read, and every run reads it)."""
    return plan.server_events

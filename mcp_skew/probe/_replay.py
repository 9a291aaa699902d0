"""A client the model cannot predict, replayed against what the real runs observed.

When a real run departs from the inferred peer, the simulator's word is no longer
evidence for the clients that open as that run's client did, and the default probe
has spent its budget of server starts. Such a client is *replayed*: its machine is
driven over a :class:`ReplayLink` that answers each request with the answer the
server really gave to the same request at the same place of a process a real run
opened (the same method, the same revision asked). The moment the client asks
something no process was asked there, the replay stops: the client is not checked.

A replayed client whose negotiation failed has its verdict from observed answers
alone. One that negotiated is covered only when it took exactly the path of the run
it replays (its lists and ``ping`` are then that run's requests too), and, where it reads
results strictly, that run found nothing in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..simulator import PeerSpec, RunRecord, Session, SimClient
from ..simulator.machine import Closed, Event, Reply, Timeout
from ..transcript import Transcript
from ..versions import Registry
from ._exchanges import Exchange, exchanges, modern_version
from ._steps import server_placeholder
from ._target import ProbeOptions, Target

if TYPE_CHECKING:
    from ._runner import ClientRun

__all__ = ["ReplayLink", "Replayed", "replay", "replayed_run"]


def _key(message: dict[str, Any]) -> tuple[str, str | None]:
    """What makes two requests the same request here: the method and the revision asked."""
    params = message.get("params")
    asked = params.get("protocolVersion") if isinstance(params, dict) else None
    return str(message.get("method", "")), str(asked) if asked is not None else \
        modern_version(message)


class ReplayLink:
    """Answers a client's requests from one observed process, in order; a request that
    process was not asked at that place ends the replay (``diverged``)."""

    def __init__(self, observed: Sequence[Exchange]) -> None:
        self.transcript = Transcript()
        self._observed = list(observed)
        self._next = 0
        self.diverged: str | None = None
        self.used = 0

    def now_ms(self) -> int:
        return 0

    def request(self, message: dict[str, Any], timeout_ms: int) -> Event:
        if self.diverged is None and self._next < len(self._observed):
            ex = self._observed[self._next]
            if _key(ex.request) == _key(message):
                self._next += 1
                self.used = self._next
                if ex.fate == "answered" and ex.answer is not None:
                    return Reply({**ex.answer, "id": message.get("id")})
                if ex.fate == "timeout":
                    return Timeout(timeout_ms)
                return Closed()
        if self.diverged is None:
            method, asked = _key(message)
            self.diverged = f"{method} {asked or ''}".strip()
        return Closed("not observed")

    def notify(self, message: dict[str, Any]) -> None:
        return None

    def restart(self) -> bool:
        if self.diverged is None:
            self.diverged = "a fresh process"
        return False

    def close(self) -> None:
        return None


@dataclass(slots=True)
class Replayed:
    """A replay that stayed within what was observed: the client's session and the run
    it rests on."""

    session: Session
    source: int  #: the real run's index
    outcome: str


def _processes(run: ClientRun, registry: Registry, reinit_ok: bool) -> list[list[Exchange]]:
    """The observed processes of a real run: each process's requests from its first, and,
    where the control vouched for them (``_peer._reinit_trusted``), each extra initialize
    as the first exchange of a process of its own."""
    groups: dict[int, list[Exchange]] = {}
    extra: list[list[Exchange]] = []
    for ex in exchanges(run.record.transcript, registry):
        if str(ex.request.get("id", "")).startswith("mcp-skew-reinit-"):
            if reinit_ok:
                extra.append([ex])
            continue
        groups.setdefault(ex.generation, []).append(ex)
    return [*groups.values(), *extra]


def _outcome(session: Session, event_kinds: set[str]) -> str:
    if "timeout" in event_kinds:
        return "timeout"
    return "exited" if "exited" in event_kinds else "incompatible"


def replay(spec: PeerSpec, real: Sequence[ClientRun], opts: ProbeOptions, *,
           reinit_ok: bool) -> Replayed | None:
    """``spec`` replayed against the real runs' processes (see the module); None when no
    process covers its conversation."""
    for run_ in real:
        if not run_.real or run_.prober:
            continue
        for process in _processes(run_, opts.registry, reinit_ok):
            link = ReplayLink(process)
            client = SimClient(spec, request_timeout_ms=opts.timeout_ms)
            if not spec.has("probe-timeout"):
                client.probe_timeout_ms = opts.probe_timeout_ms
            session = client.negotiate(link)
            if link.diverged is not None:
                continue
            used = process[:link.used]
            kinds: set[str] = {ex.fate for ex in used}
            if session.status != "ok":
                return Replayed(session, run_.index, _outcome(session, kinds))
            same = [str(s) for s in session.path] == [str(s) for s in run_.record.session.path]
            # a strict client fails where the replayed one only noted a finding
            stricter = spec.has("strict") and not run_.record.client.has("strict") and bool(
                run_.record.session.findings or run_.record.findings)
            if same and not stricter and process[0].generation == 0 and \
                    run_.record.session.status == "ok":
                return Replayed(session, run_.index, run_.outcome)
    return None


def replayed_run(index: int, spec: PeerSpec, found: Replayed, *, real: Sequence[ClientRun],
                 target: Target, make: type[ClientRun]) -> ClientRun:
    """The row of a replayed client: its own session, and, where it negotiated, the steps
    of the run it replays (the same requests)."""
    source = next(r for r in real if r.index == found.source)
    record = RunRecord(spec, server_placeholder(target), "lists", found.session, Transcript())
    if found.session.status == "ok":
        record.steps = list(source.record.steps)
    made = make(index, record, False, found.outcome, real=False)
    made.derived_from = [found.source]
    made.replayed = True
    return made

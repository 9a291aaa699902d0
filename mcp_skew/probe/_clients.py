"""The clients a probe runs: every built-in client peer, and one prober with a bogus revision.

The built-in set is the peers' probe set (:func:`mcp_skew.peers.probe_clients`, read
from the registry like every built-in set): one legacy client per legacy revision, a
legacy client of all of them, a modern-only client, a dual-era client, and the dual-era
and legacy clients with the client quirks (``fallback-32601``, ``strict``, ``exact``).

The prober is not a client peer: it asks for revision ``1999-01-01``, which no
server supports, to see a counter-offer, an echo or a refusal; sends an
unknown method once initialized; then, in a fresh process, a modern request for
the same bogus revision (a modern server answers -32022 naming what it
supports) followed by ``initialize`` in the same process (is the era sticky? does
the server survive an unknown request?).
"""

from __future__ import annotations

from typing import Any, Final

from ..peers import probe_clients
from ..simulator import Link, PeerSpec, Session, event_step
from ..simulator import path_steps as steps
from ..simulator.machine import Machine, Notify, Reply, Restart, Steps, ask, drive
from ..simulator.messages import CAPS_KEY, CLIENT_INFO_KEY, VERSION_KEY, notification
from ..versions import BUILTIN, REGISTRY, Era, Registry

__all__ = [
    "BOGUS_REVISION",
    "MISSING_URI",
    "PROBER",
    "REINIT_CONTROL",
    "UNKNOWN_METHOD",
    "builtin_clients",
    "run_prober",
]

BOGUS_REVISION: Final = "1999-01-01"
UNKNOWN_METHOD: Final = "mcp-skew/no-such-method"
#: The id of the control among the fast probe's extra initializes (``_fast.reinitialize``).
REINIT_CONTROL: Final = "mcp-skew-reinit-control"
#: The URI the error probes read; no server has it.
MISSING_URI: Final = "mcp-skew-probe://no-such-resource"
#: The prober's entry in a report (not a peer the simulator can run).
PROBER: Final = PeerSpec(kind="legacy", revisions=(BOGUS_REVISION,), label=f"bogus:{BOGUS_REVISION}")
_INFO = {"name": "mcp-skew-probe", "version": "0.1.0"}


def builtin_clients(registry: Registry = REGISTRY) -> tuple[PeerSpec, ...]:
    """Every built-in client: each legacy revision, all of them, modern, dual, the quirks;
    then one client of each revision loaded beside the built-in ones (a draft)
    (:func:`mcp_skew.peers.probe_clients`)."""
    return probe_clients(registry)


def _initialize(revision: str, msg_id: int) -> dict[str, Any]:
    params = {"protocolVersion": revision, "capabilities": {}, "clientInfo": dict(_INFO)}
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize", "params": params}


def _modern_request(msg_id: int, method: str, revision: str) -> dict[str, Any]:
    meta = {VERSION_KEY: revision, CAPS_KEY: {}, CLIENT_INFO_KEY: dict(_INFO)}
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {"_meta": meta}}


def _legacy_part(session: Session, timeout_ms: int) -> Steps[None]:
    session.path.append(steps.request("initialize", BOGUS_REVISION))
    event = yield from ask(_initialize(BOGUS_REVISION, 1), timeout_ms)
    session.round_trips += 1
    if not (isinstance(event, Reply) and event.result is not None):
        session.path.append(event_step(event))
        return
    session.path.append(steps.answered(event.result.get("protocolVersion")))
    yield Notify(notification("notifications/initialized"))
    session.path.append(steps.PathStep(UNKNOWN_METHOD, "request", method=UNKNOWN_METHOD))
    unknown = {"jsonrpc": "2.0", "id": 2, "method": UNKNOWN_METHOD, "params": {}}
    session.path.append(event_step((yield from ask(unknown, timeout_ms))))
    session.round_trips += 1


def _modern_part(session: Session, timeout_ms: int) -> Steps[None]:
    session.path.append(steps.request("server/discover", BOGUS_REVISION))
    event = yield from ask(_modern_request(3, "server/discover", BOGUS_REVISION), timeout_ms)
    session.round_trips += 1
    session.path.append(event_step(event))
    newest = [p.revision for p in BUILTIN if p.era is Era.LEGACY][-1]  # BUILTIN: oldest first
    session.path.append(steps.request("initialize", newest))
    again = yield from ask(_initialize(newest, 4), timeout_ms)
    session.round_trips += 1
    session.path.append(event_step(again))


def prober(timeout_ms: int) -> Machine[Session]:
    """The prober as a driven machine (:mod:`mcp_skew.simulator.machine._machine`)."""
    return Machine(_prober(timeout_ms))


def _prober(timeout_ms: int) -> Steps[Session]:
    session = Session()
    yield from _legacy_part(session, timeout_ms)
    session.path.append(steps.restart())
    if (yield Restart()) is not None:
        return session.fail("could not start a fresh server process")
    yield from _modern_part(session, timeout_ms)
    session.status = "ok"
    session.reason = "probed with a revision no server supports"
    return session


def run_prober(link: Link, timeout_ms: int) -> Session:
    """The prober's exchanges over ``link``; what they mean is read from the transcript afterwards."""
    return drive(prober(timeout_ms), link)

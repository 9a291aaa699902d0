"""Races of time: a cell whose outcome depends on how fast the server answers.

Theory of operation
-------------------
A server with a cold start (quirk ``slow=MS``: its first answer comes that long after
the process starts, the value ``mcp-skew probe`` measures and ``--save-peer`` keeps)
races the client's waits: its ``server/discover`` probe wait, its connect timeout, its
request timeout (quirks ``probe-timeout``, ``connect-timeout``, ``request-timeout``).
For such a cell, :func:`race_of` asks the simulator the same pair with the server
answering just inside each of those waits, shortest first: where one of them gives
another outcome, the cell is a race, and its sentence says so: "works (2026-07-28) if
the server answers within 1 s; its cold start is 2 s: fails". Where none does, the
first wait longer than the cold start, when it is within twice the cold start (what a
busy machine adds), is tried just outside: "works if the server answers within 15 s
(the client's connect timeout), as with its cold start of 12 s; later: fails".

Everything is decided on the simulator's virtual clock, deterministically: nothing
sleeps, and the same pair gives the same sentence.
"""

from __future__ import annotations

from dataclasses import replace

from ..simulator import PeerSpec, RunRecord, Transport, run

__all__ = ["MARK", "client_waits", "may_race", "race_of"]

#: The mark of a cell that is a race (after its revision or its failure word).
MARK = "⏱"
#: How much earlier than a wait the server's first answer comes in the "answers within"
#: run (the link's delay each way, and a margin).
_INSIDE_MS = 20
#: A wait longer than the cold start is at risk when it is within this factor of it: what a
#: busy machine adds to a start (``mcp-skew probe``'s startup allowance doubles it too).
_AT_RISK = 2
#: The request timeout a run gives a client without quirk ``request-timeout``.
_RUN_REQUEST_TIMEOUT_MS = 10_000


def client_waits(client: PeerSpec) -> list[tuple[int, str]]:
    """The client's waits a first answer races, shortest first: ``(ms, what)``."""
    policy = client.client_policy
    waits: dict[int, str] = {}
    request = policy.request_timeout_ms or _RUN_REQUEST_TIMEOUT_MS
    waits.setdefault(request, "request timeout")
    if policy.connect_timeout_ms is not None:
        waits[policy.connect_timeout_ms] = "connect timeout"
    if client.kind == "dual":
        waits[policy.probe_timeout_ms] = "server/discover wait"
    return sorted(waits.items())


def _outcome(record: RunRecord) -> tuple[str, str | None, str]:
    return record.status, record.revision, record.session.mark


def _words(record: RunRecord) -> str:
    if record.status != "ok":
        return "fails"
    how = "" if record.session.mark == "direct" else f", {record.session.mark}"
    return f"works ({record.revision}{how})"


def _seconds(ms: int) -> str:
    return f"{ms / 1000:g} s"


def _with_start(server: PeerSpec, ms: int) -> PeerSpec:
    """``server`` starting in ``ms`` instead of its own cold start."""
    quirks = tuple((n, v) for n, v in server.quirks if n != "slow")
    if ms > 0:
        quirks += (("slow", str(ms)),)
    return replace(server, quirks=quirks)


def may_race(server: PeerSpec) -> bool:
    """Whether ``server`` has a cold start a client's wait may race (else :func:`race_of` is
    None whatever the client: a sweep asks it once a server)."""
    return server.server_policy.startup_ms > 0


def race_of(client: PeerSpec, server: PeerSpec, record: RunRecord, scenario: str,
            transport: Transport) -> str | None:
    """The race sentence of a pair whose server has a cold start; None when no wait of the
    client's makes the outcome depend on it."""
    if not may_race(server):
        return None
    cold = server.server_policy.startup_ms
    seen = _outcome(record)
    waits = client_waits(client)
    for wait, what in waits:  # shortest first: the first a faster answer gets inside
        inside = wait - _INSIDE_MS
        if inside >= cold or inside < 0:
            continue
        faster = run(client, _with_start(server, inside), scenario, transport=transport,
                     keep_transcript=False)
        if _outcome(faster) != seen:
            return (f"{_words(faster)} if the server answers within {_seconds(wait)} (the "
                    f"client's {what}); its cold start is {_seconds(cold)}: {_words(record)}")
    later = next(((w, what) for w, what in waits if w - _INSIDE_MS >= cold), None)
    if later is None or later[0] > _AT_RISK * cold:
        return None
    wait, what = later
    slower = run(client, _with_start(server, wait + _INSIDE_MS), scenario, transport=transport,
                 keep_transcript=False)
    if _outcome(slower) == seen:
        return None
    return (f"{_words(record)} if the server answers within {_seconds(wait)} (the client's "
            f"{what}), as with its cold start of {_seconds(cold)}; later: {_words(slower)}")

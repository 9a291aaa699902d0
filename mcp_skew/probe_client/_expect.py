"""What the spec and the inferred model say a client does against a server: the simulator's runs.

Two predictions per server, each a run of the simulator's own client (the same
negotiation rules the matrix and the probe run), connecting and then listing the
tools, as the client programs this command drives are expected to:

- **spec**: the plain client of the inferred era kind and revisions, no quirks: what
  the spec's lifecycle and transport pages make of the pair. For a server without
  quirks it is also the row of the spec's era table (2026-07-28
  ``basic/versioning.mdx`` §Compatibility Matrix, :data:`ERA_TABLE`), given a revision
  both sides support;
- **model**: the inferred client, quirks and all: whether the model predicts the real
  run (a disagreement is a gap in what the inference can see).

For an upgrade case the prediction is the second of two runs under one server key,
sharing the client's caches (what a client that keeps them across a restart holds:
quirk ``keeps-era``), the first against the server before the upgrade.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..simulator import LIST_TOOLS, ClientCache, PeerSpec, Scenario, run
from ..simulator.messages import request_text
from ..simulator.quirks import ClientPolicy
from ._observe import Outcome

__all__ = ["CONNECT", "ERA_TABLE", "RESULT", "UPGRADED", "Prediction", "era_table_says", "plain", "predict",
           "same_model"]

#: What a client program is expected to do once connected: list the tools.
CONNECT: Final = Scenario("connect", "connect, then list the tools", (LIST_TOOLS,))

#: 2026-07-28 basic/versioning.mdx §Compatibility Matrix: (client kind, server kind) -> works.
#: A dual-era server against a modern or dual-era client serves the modern request ("A
#: request carrying modern _meta is served statelessly", same page, Dual-era server).
ERA_TABLE: Final[dict[tuple[str, str], bool]] = {
    ("modern", "modern"): True,
    ("modern", "legacy"): False,
    ("dual", "modern"): True,
    ("dual", "legacy"): True,
    ("legacy", "modern"): False,
    ("legacy", "dual"): True,
    ("legacy", "legacy"): True,
    ("modern", "dual"): True,
    ("dual", "dual"): True,
}


@dataclass(frozen=True, slots=True)
class Prediction:
    """A simulated run's outcome."""

    outcome: Outcome
    revision: str | None
    era: str | None
    path: tuple[str, ...]
    requests: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "revision": self.revision, "era": self.era,
                "path": list(self.path), "requests": list(self.requests)}


#: A step's answer that is the result (served from the cache the upgrade case keeps, too).
RESULT: Final = ("result", "result (cached)")
#: The key an upgraded server is held under by the client's caches, in both runs.
UPGRADED: Final = "the upgraded server"


def predict(client: PeerSpec, server: PeerSpec, transport: str = "stdio", *,
            before: PeerSpec | None = None) -> Prediction:
    """The simulated client ``client`` against ``server``: connect, then list the tools
    (after a first run against ``before``, for an upgrade case)."""
    over: Literal["stdio", "http"] = "http" if transport == "http" else "stdio"
    cache, key = None, None
    if before is not None:
        cache, key = ClientCache(), UPGRADED
        run(client, before, CONNECT, transport=over, cache=cache, server_id=key)
    record = run(client, server, CONNECT, transport=over, cache=cache, server_id=key)
    s = record.session
    outcome: Outcome = "fails"
    if s.status == "ok":
        outcome = "works" if all(r.got in RESULT for r in record.steps) else \
            "connects, then fails"
    requests = tuple(request_text(e.message) for e in record.transcript.entries
                     if e.dir == "c2s" and isinstance(e.message, dict) and "method" in e.message
                     and "id" in e.message)
    ok = s.status == "ok"
    return Prediction(outcome, s.revision if ok else None,
                      s.era.value if ok and s.era else None, tuple(map(str, s.path)), requests)


def plain(client: PeerSpec) -> PeerSpec:
    """The client without its quirks: what the spec asks of its kind and revisions."""
    return replace(client, quirks=(), label="", note="")


def era_table_says(client: PeerSpec, server: PeerSpec) -> bool:
    """The era table's row for the pair, given a revision of a shared era both support."""
    shared = set(client.revisions) & set(server.revisions)
    return ERA_TABLE[(client.kind, server.kind)] and bool(shared)


def _seen(policy: ClientPolicy) -> ClientPolicy:
    """The policy without what a client does with a tool call's result (the call quirks of
    docs/calls.md: the dialects its validator accepts, structured content required or
    checked): probe-client's served servers give the client under test no such result, so
    it cannot see these, and :func:`same_model` leaves them out of the comparison."""
    return replace(policy, output_dialects=None, needs_structured_content=False,
                   checks_structured_content=False)


def same_model(a: PeerSpec, b: PeerSpec) -> bool:
    """Whether two client specs behave the same where probe-client can see it: kind,
    revisions and policy (but what :func:`_seen` leaves out)."""
    return (a.kind == b.kind and set(a.revisions) == set(b.revisions)
            and _seen(a.client_policy) == _seen(b.client_policy))

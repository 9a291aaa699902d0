"""Serve both eras: what a dual-era server must do, and the simulator's proof that it works.

Theory of operation
-------------------
A guide from a legacy revision to a modern one gets a checklist for a server
that keeps its legacy clients while it adds modern ones (:func:`checklist`):
answer ``server/discover``, keep answering ``initialize``, pick the era per
connection from how the client opens, never mix the eras. Each item cites the
spec: the modern items cite the revision that made the era modern (found in the
target's lineage, so a third-party modern revision cites its built-in base), the
legacy items cite the guide's own FROM revision.

The proof (:func:`proof`) runs four servers against every client of the built-in
client set, with the default scenario: FROM only, TO only, the dual-era server
``dual:TO,FROM``, and a dual-era server with every registered revision. A cell
*works* when negotiation succeeds and every scenario step gets the answer the
negotiated revision prescribes. It is *as expected* when it works exactly where
the spec says it should (:func:`expected`): where client and server share a
revision (the era table of ``basic/versioning.mdx`` §Compatibility Matrix:
legacy/dual-era and dual-era/legacy work, legacy/modern and modern/legacy
fail), except that two modern-capable peers with no modern revision in common
fail on -32022 even when they share a legacy one. The single-era columns show
what is lost without a dual-era server; the dual-era columns must work for
every client the spec says they can serve.

The client set (:func:`builtin_clients`) is the matrix's built-in clients
(``mcp_skew.peers.BUILTIN_CLIENTS``) plus one client for each client quirk
that set leaves out, so every quirk meets the dual-era server. :func:`client_set`
is a smaller set of the same kind: each built-in revision alone, a legacy client
of every legacy revision, modern-only and dual-era clients, and every quirk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..peers import BUILTIN_CLIENTS
from ..simulator import PeerSpec, Transport, parse_peer
from ..simulator.quirks import QUIRKS
from ..versions import BUILTIN, Cite, Era, Profile, Registry, Role, registry_for
from ._illustrate import simulate

__all__ = [
    "SCENARIO",
    "BothEras",
    "Item",
    "Judge",
    "ProofCell",
    "ProofRow",
    "both_eras",
    "builtin_clients",
    "cell",
    "checklist",
    "client_set",
    "expected",
    "modern_base",
    "proof",
    "proof_servers",
]


#: What each client does in the proof (list tools, call one, errors): see ``mcp_skew.simulator``.
SCENARIO: Final = "default"


@dataclass(frozen=True, slots=True)
class Item:
    """One thing a dual-era server must do, with where the spec says so."""

    title: str
    text: str
    cites: tuple[Cite, ...]
    transport: str = "any"  #: as :attr:`~mcp_skew.versions.Change.transport`


@dataclass(frozen=True, slots=True)
class ProofCell:
    """One run: the row's peer against one column's peer."""

    column: str  #: the column's peer spec
    expected: bool  #: whether the spec says this pair works (see :func:`expected`)
    works: bool  #: negotiated, and every scenario step answered as expected
    text: str

    @property
    def as_expected(self) -> bool:
        return self.works == self.expected


@dataclass(frozen=True, slots=True)
class ProofRow:
    """One row of a proof: a client (server guide) or a server (client guide), on a transport."""

    peer: str
    cells: tuple[ProofCell, ...]
    transport: Transport = "stdio"


@dataclass(frozen=True, slots=True)
class BothEras:
    """The checklist and its proof for one legacy-to-modern guide, for one role.

    ``role`` is whose guide it is: a server guide's columns are servers and its rows
    clients ("Serve both eras"); a client guide's columns are clients and its rows
    servers ("Talk to both eras").
    """

    checklist: tuple[Item, ...]
    columns: tuple[tuple[str, str], ...]  #: (column label, peer spec)
    dual: tuple[str, ...]  #: the specs of the dual-era columns
    rows: tuple[ProofRow, ...]
    scenario: str
    cites: tuple[Cite, ...]  #: where the expectations come from
    role: Role = "server"
    title: str = "Serve both eras"

    @property
    def row_role(self) -> Role:
        return "client" if self.role == "server" else "server"

    @property
    def ok(self) -> bool:
        """Every cell as expected: so every dual-era cell works where the revisions meet."""
        return all(cell.as_expected for row in self.rows for cell in row.cells)


# -- the checklist --------------------------------------------------------------------


def modern_base(profile: Profile) -> str:
    """The revision in ``profile``'s lineage whose change made the era modern."""
    for node in profile.lineage():
        if any(change.settings.get("era") is Era.MODERN for change in node.changes):
            return node.revision
    return profile.revision


def checklist(source: Profile, target: Profile) -> tuple[Item, ...]:
    """What a server must do to serve ``source`` (legacy) and ``target`` (modern) clients."""
    modern, legacy = modern_base(target), source.revision
    versioning = Cite(modern, "basic/versioning.mdx")
    negotiation = Cite(legacy, "basic/lifecycle.mdx", "Version Negotiation")
    return (
        Item(
            "Answer server/discover",
            "Return supportedVersions (your modern revisions), capabilities, resultType, "
            "ttlMs and cacheScope. Servers MUST implement it, and a dual-era client on stdio "
            "probes with it before anything else.",
            (Cite(modern, "server/discover.mdx"),
             Cite(modern, "basic/transports/stdio.mdx", "Backward Compatibility")),
        ),
        Item(
            "Keep answering initialize",
            f"Answer it as {legacy} does: the requested revision if you support it, else your "
            "latest legacy revision, then expect notifications/initialized. A legacy client "
            "cannot fall forward to the modern era; without this it fails.",
            (negotiation, Cite(modern, "basic/versioning.mdx", "Compatibility Matrix")),
        ),
        Item(
            "Pick the era per connection",
            "Decide from how the client opens: a request whose params._meta carries "
            "io.modelcontextprotocol/protocolVersion is served statelessly under modern rules; "
            "an initialize request selects legacy rules, for the process on stdio and for the "
            "session on Streamable HTTP.",
            (versioning,),
        ),
        Item(
            "Never mix the eras",
            "Serve each request under one era's rules only: never carry a legacy session's "
            "revision or capabilities into a modern request (modern requests never rely on "
            "earlier ones), give modern results resultType and their caching hints, and reject "
            "a request that carries neither _meta nor a prior initialize with -32602 instead of "
            "running it under legacy rules.",
            (Cite(modern, "basic/index.mdx", "Statelessness"),
             Cite(modern, "basic/index.mdx", "_meta")),
        ),
        Item(
            "Refuse versions the era's way",
            "A modern request for a revision you do not serve gets -32022 with data.supported "
            "and data.requested, never a counter-offer; initialize for a revision you do not "
            "serve gets a counter-offer (your latest legacy revision), never -32022.",
            (versioning, negotiation),
        ),
        Item(
            "On Streamable HTTP, read the version header per era",
            "A modern POST's MCP-Protocol-Version must equal its _meta version (else 400 with "
            "-32020); a POST without the header may be read as 2025-03-26 only because you "
            "still serve clients older than 2025-06-18.",
            (Cite(modern, "basic/transports/streamable-http.mdx", "Protocol Version Header"),),
            "http",
        ),
    )


# -- the proof ------------------------------------------------------------------------


def client_set() -> tuple[str, ...]:
    """Client peer specs covering every built-in revision, era kind and client quirk."""
    revisions = [p.revision for p in BUILTIN]
    legacy = [p.revision for p in BUILTIN if p.era is Era.LEGACY]
    modern = [p.revision for p in BUILTIN if p.era is Era.MODERN]
    pair = f"{modern[-1]},{legacy[-1]}"
    base = (
        *revisions,
        f"legacy:{','.join(reversed(legacy))}",
        f"modern:{','.join(reversed(modern))}+discover",
        f"dual:{pair}",
        f"dual:{','.join(reversed(revisions))}",
    )
    return (*base, *_quirk_clients(base))


def _quirk_clients(covered: Sequence[str] = ()) -> tuple[str, ...]:
    """One client per client quirk that none of ``covered`` exercises."""
    legacy = [p.revision for p in BUILTIN if p.era is Era.LEGACY]
    modern = [p.revision for p in BUILTIN if p.era is Era.MODERN]
    used = {name for spec in covered for name, _ in parse_peer(spec, "client").quirks}
    specs: list[str] = []
    for name, quirk in QUIRKS.items():
        if quirk.role != "client" or name in used or "stdio" not in quirk.transports:
            continue  # (these runs are over stdio, where an HTTP-only quirk does nothing)
        if quirk.caching_only or quirk.extensions_only:
            continue  # (nor do these runs keep a cache, nor are their peers' extensions set)
        if quirk.against_spec:
            continue  # (a released client's bug: the proofs show what the spec promises)
        kind = next(k for k in ("dual", "modern", "legacy") if k in quirk.kinds)
        revs = {"dual": f"{modern[-1]},{legacy[-1]}", "modern": modern[-1],
                "legacy": legacy[-1]}[kind]
        value = {"none": "", "ms": "=500", "count": "=1",
                 "revision": f"={legacy[-1]}"}[quirk.value]
        specs.append(f"{kind}:{revs}+{name}{value}")
    return tuple(specs)


def builtin_clients() -> tuple[str, ...]:
    """The matrix's built-in clients plus one per client quirk they leave out."""
    return (*BUILTIN_CLIENTS, *_quirk_clients(BUILTIN_CLIENTS))


def proof_servers(source: Profile, target: Profile) -> tuple[tuple[str, str], ...]:
    """(label, peer spec) of the four servers of the proof."""
    everything = ",".join(p.revision for p in reversed(BUILTIN))  # newest first
    return (
        (f"{source.revision} only", source.revision),
        (f"{target.revision} only", target.revision),
        (f"dual {target.revision} + {source.revision}", f"dual:{target.revision},{source.revision}"),
        ("dual, every revision", f"dual:{everything}"),
    )


def expected(client: PeerSpec, server: PeerSpec) -> tuple[bool, str]:
    """Whether the spec says ``client`` and ``server`` can talk, and if not, why.

    They can when they share a revision, with one exception: when both speak the
    modern era but share no modern revision, the server answers the client's
    modern request with -32022, a recognised modern error, and the client must not
    fall back to ``initialize`` even if a legacy revision is shared (2026-07-28
    ``basic/transports/stdio.mdx`` §Backward Compatibility).
    """
    if not set(client.revisions) & set(server.revisions):
        return False, "no common revision"
    if client.modern and server.modern and not set(client.modern) & set(server.modern):
        return False, "no common modern revision (-32022 keeps the client modern)"
    return True, ""


Judge = Callable[[PeerSpec, PeerSpec, Transport], tuple[bool, str]]


def _expected_any(client: PeerSpec, server: PeerSpec, transport: Transport) -> tuple[bool, str]:
    return expected(client, server)


def cell(client: str, server: str, registry: Registry, *, column: str,
         transport: Transport = "stdio", judge: Judge = _expected_any) -> ProofCell:
    """Run ``client`` against ``server`` and judge the run against ``judge``'s expectation."""
    record = simulate(client, server, SCENARIO, registry, transport)
    ok, why = judge(parse_peer(client, "client", registry), parse_peer(server, "server", registry),
                    transport)
    session = record.session
    works = session.status == "ok" and all(step.ok for step in record.steps)
    if works:
        text = f"works: {session.revision} ({session.mark})"
    elif session.status == "ok":
        failed = [step.name for step in record.steps if not step.ok]
        text = f"steps fail: {', '.join(failed)}"
    else:
        text = f"fails: {why}" if not ok else f"fails: {session.reason}"
    if works != ok:
        text = f"unexpected: {text}" + ("" if ok else f" despite {why}")
    return ProofCell(column, ok, works, text)


def proof(
    servers: Sequence[tuple[str, str]], clients: Sequence[str], registry: Registry
) -> tuple[ProofRow, ...]:
    """Every client against every server (their revisions from ``registry``)."""
    return tuple(
        ProofRow(client, tuple(cell(client, spec, registry, column=spec) for _, spec in servers))
        for client in clients
    )


def both_eras(source: Profile, target: Profile) -> BothEras | None:
    """The checklist and proof when ``source`` is legacy and ``target`` modern, else None."""
    if source.era is not Era.LEGACY or target.era is not Era.MODERN:
        return None
    servers = proof_servers(source, target)
    return BothEras(
        checklist=checklist(source, target),
        columns=servers,
        dual=tuple(spec for _, spec in servers[2:]),
        rows=proof(servers, builtin_clients(), registry_for(source, target)),
        scenario=SCENARIO,
        cites=(Cite(modern_base(target), "basic/versioning.mdx", "Compatibility Matrix"),
               Cite(modern_base(target), "basic/transports/stdio.mdx", "Backward Compatibility")),
    )

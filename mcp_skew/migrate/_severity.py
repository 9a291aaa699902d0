"""Who breaks when a change is made: severity for each role, derived from the profile data.

Theory of operation
-------------------
A :class:`~mcp_skew.versions.Change` says what it does to the tables (methods,
result fields, headers, errors, settings) and carries one :class:`Impact` for
the change as a whole. A migration guide needs more: *which side* an incompatible
change breaks. This module reads that off the change's table delta, in the
direction travelled (upgrading applies the edits; downgrading undoes them, so the
same rules answer both ways). "Old" is a peer that stays where the guide starts
(FROM); "new" is a peer of where it ends (TO).

Only the part of a change that survives between FROM and TO counts
(:func:`net_deltas`): a row the change adds that TO lacks, or a setting whose
value FROM and TO share, was undone by another change on the way. A change
whose edits all cancel out that way is labelled *cancelled out* (e.g. JSON-RPC
batching, added in 2025-03-26 and removed in 2025-06-18, on the way from
2024-11-05 to 2026-07-28).

**Breaks old clients**: a client of the old revision fails against a server that
follows the new rule. A change does this when it

- removes a method the client sends (client->server, or both ways): the new
  server answers -32601 or ignores it;
- adds a request the server sends unasked (server->client, not behind a
  capability): the old client cannot answer it;
- requires new ``_meta`` keys on requests (the new server rejects requests
  without them), or reads HTTP request headers the old client does not send;
- adds error codes or content block types: the old client cannot read them;
- changes the error a server sends for an unknown resource to one the old
  revision's clients do not accept as "not found";
- drops a required result field (an old strict client demands it);
- turns batching off, changes whether sessions exist, or changes what a server
  does when the version header is absent;
- changes the era or the HTTP transport (both sides break).

**Breaks old servers**: a server of the old revision fails a client that follows
the new rule. Mirror rules: a request the client sends that is not behind a
capability is added (``server/discover``); a method the server sends is removed;
a required result field or caching hint is added (a strict new client rejects
old results); required ``_meta`` keys or HTTP headers are dropped (an old server
that requires the session header refuses); error codes or content types are
removed; batching is turned on; the not-found error of the old revision is not
accepted by new clients.

An added request behind a capability breaks no one: a peer only sends it when
the other side declared the capability. A removed method always counts: the
peer that sent it loses it.

The rules apply to :attr:`Impact.BREAKING` changes only. Additive changes,
deprecations, clarifications and behaviour changes (same names, different
semantics) keep their own label. A breaking change whose edits name no side
(it changes prose-level behaviour only) is looked up in :data:`SIDES_WITHOUT_EDITS`,
a short table of rule ids with the reason; a third-party change missing from it
is reported as breaking both sides.

**Stored per role.** How strongly the spec binds each role is not in the edits (a
new error code is additive to the tables, yet servers MUST send it), so a change
may store it (:attr:`~mcp_skew.versions.Change.severity`: a level, MUST, SHOULD,
MAY or none, and the spec's words). A MUST or SHOULD leads the role's labels,
with the quoted rule; the derived labels follow (for a breaking change) or are
replaced (for the others). A role the change stores as not bound, and that no
derived rule names, reads *not on this side*. Stored levels apply to the
upgrade only: on a downgrade TO does not have the rule.

**Per role.** For a server author, old clients breaking reads *breaks old
clients* ("once my server follows TO here, clients still on FROM fail: keep the
old behaviour for them") and old servers breaking reads *required for new
clients* ("a server still on FROM fails clients of TO until it changes"). For a
client author it is the mirror: *breaks old servers* and *required for new
servers*.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ..versions import (
    Change,
    Deprecation,
    Direction,
    Impact,
    Kind,
    Method,
    Obligation,
    Profile,
    Role,
    TableDelta,
)

__all__ = [
    "ROLES",
    "SIDES_WITHOUT_EDITS",
    "Effects",
    "Label",
    "Role",
    "RoleSeverity",
    "effects_of",
    "net_deltas",
    "role_severity",
]

ROLES: Final[tuple[Role, ...]] = ("server", "client")


class Label(enum.Enum):
    """A severity label, as a guide prints it."""

    MUST = "MUST"  #: the spec binds the role with MUST / MUST NOT
    SHOULD = "SHOULD"  #: the spec binds the role with SHOULD / SHOULD NOT
    BREAKS_OLD_CLIENTS = "breaks old clients"
    BREAKS_OLD_SERVERS = "breaks old servers"
    REQUIRED_FOR_NEW_CLIENTS = "required for new clients"
    REQUIRED_FOR_NEW_SERVERS = "required for new servers"
    BEHAVIOUR = "behaviour change"
    BEHAVIOUR_REVERTED = "behaviour reverted"
    ADDITIVE = "additive"
    LOST = "lost"
    DEPRECATED = "deprecated"
    UNDEPRECATED = "deprecation lifted"
    CLARIFICATION = "clarification"
    CANCELLED = "cancelled out"
    NOT_BOUND = "not on this side"


#: Breaking changes whose table edits cannot say which side breaks: the side that
#: breaks on the upgrade, the reason on the upgrade, and the reason on the downgrade
#: (where the other side breaks). Each reason restates the change's own citation.
SIDES_WITHOUT_EDITS: Final[Mapping[str, tuple[str, str, str]]] = {
    "resumability-removed": (
        "clients",
        "servers ignore Last-Event-ID, so clients that resume a broken stream lose the request",
        "old servers ignore Last-Event-ID, so new clients that resume a broken stream lose "
        "the request",
    ),
    "oauth-resource-server": (
        "clients",
        "servers accept only tokens issued for them; clients that send no resource indicator "
        "get tokens the server refuses",
        "old servers accept only tokens issued for them; new clients send no resource "
        "indicator and get tokens the server refuses",
    ),
}


@dataclass(frozen=True, slots=True)
class Effects:
    """Why old clients and old servers break, one reason per rule that fired."""

    old_clients: tuple[str, ...] = ()
    old_servers: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.old_clients or self.old_servers)


@dataclass(frozen=True, slots=True)
class RoleSeverity:
    """What a change means for one role: labels and one sentence each."""

    labels: tuple[Label, ...]
    notes: tuple[str, ...]  #: one explanation per label
    detail: str = ""  #: a short qualifier for tables, e.g. a deprecation's removal window

    @property
    def text(self) -> str:
        text = ", ".join(label.value for label in self.labels)
        return f"{text} ({self.detail})" if self.detail else text


# -- effects ---------------------------------------------------------------------


def _method(profiles: tuple[Profile, Profile], name: str) -> Method | None:
    for profile in profiles:
        if name in profile.methods:
            return profile.methods[name]
    return None


def _sends(method: Method, side: Direction) -> bool:
    return method.direction in (side, Direction.BOTH)


def _not_found_accepted(profile: Profile) -> frozenset[int]:
    """Codes a client of ``profile`` reads as "resource not found" (as the scenarios judge)."""
    codes = {profile.error(str(profile.settings["resource_not_found"])).code}
    if "ResourceNotFound" in profile.errors:
        codes.add(profile.error("ResourceNotFound").code)
    return frozenset(codes)


def _not_found_sent(profile: Profile) -> int:
    return profile.error(str(profile.settings["resource_not_found"])).code


def _text(value: object) -> str:
    """A setting value as prose: enums by value, booleans as yes/no."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


class _Collector:
    def __init__(self) -> None:
        self.clients: list[str] = []
        self.servers: list[str] = []

    def add(self, side: str, reason: str) -> None:
        target = self.clients if side == "clients" else self.servers
        if reason not in target:
            target.append(reason)

    def effects(self) -> Effects:
        return Effects(tuple(self.clients), tuple(self.servers))


def _methods(out: _Collector, delta: TableDelta, profiles: tuple[Profile, Profile]) -> None:
    gone: dict[Direction, list[str]] = {Direction.C2S: [], Direction.S2C: []}
    new: dict[Direction, list[str]] = {Direction.C2S: [], Direction.S2C: []}
    for name in delta.removed:
        method = _method(profiles, name)
        for side in (Direction.C2S, Direction.S2C):
            if method is not None and _sends(method, side):
                gone[side].append(name)
    for name in delta.added:
        method = _method(profiles, name)
        if method is None or method.kind is not Kind.REQUEST or method.capability is not None:
            continue
        for side in (Direction.C2S, Direction.S2C):
            if _sends(method, side):
                new[side].append(name)
    if gone[Direction.C2S]:
        names = ", ".join(gone[Direction.C2S])
        out.add("clients", f"old clients send {names}, which new servers no longer have "
                "(they answer it as an unknown method)")
    if gone[Direction.S2C]:
        names = ", ".join(gone[Direction.S2C])
        out.add("servers", f"old servers send {names}, which new clients no longer have (they "
                "leave it unanswered or answer it as an unknown method)")
    if new[Direction.C2S]:
        out.add("servers", f"adds {', '.join(new[Direction.C2S])} (sent by clients without a "
                "capability check)")
    if new[Direction.S2C]:
        out.add("clients", f"adds {', '.join(new[Direction.S2C])} (sent by servers without a "
                "capability check)")


def _tables(out: _Collector, delta: TableDelta) -> None:
    added, removed = ", ".join(delta.added), ", ".join(delta.removed)
    if delta.name == "request_meta_required":
        if added:
            out.add("clients", f"requests must carry _meta {added}")
        if removed:
            out.add("servers", f"requests no longer carry _meta {removed}")
    elif delta.name == "http_headers":
        if added:
            out.add("clients", f"servers read HTTP header {added}, which old clients do not send")
        if removed:
            out.add("servers", f"new clients stop sending HTTP header {removed}")
    elif delta.name == "errors":
        if added:
            out.add("clients", f"servers may send error {added}")
        if removed:
            out.add("servers", f"clients no longer know error {removed}")
    elif delta.name in ("result_fields_required", "cache_fields"):
        if added:
            out.add("servers", f"strict clients require result field {added}")
        if removed:
            out.add("clients", f"servers stop sending result field {removed}")
    elif delta.name in ("content_types", "sampling_content_types"):
        if added:
            out.add("clients", f"peers may send content {added}")
        if removed:
            out.add("servers", f"peers no longer accept content {removed}")


def _auth(out: _Collector, delta: TableDelta) -> None:
    """An authorization rule of one role that changes leaves the other role's old peers
    looking in the wrong place: a ``server.*`` rule breaks old clients, a ``client.*``
    rule old servers."""
    for name in (*delta.added, *delta.removed, *delta.changed):
        if name.startswith("server."):
            out.add("clients", f"servers follow a new authorization rule {name}, which old "
                    "clients do not")
        else:
            out.add("servers", f"clients follow a new authorization rule {name}, which old "
                    "servers do not serve")


def _settings(out: _Collector, delta: TableDelta, profiles: tuple[Profile, Profile]) -> None:
    old, new = profiles
    change = f"{delta.name}: {_text(delta.before)} -> {_text(delta.after)}"
    if delta.name in ("era", "http_transport"):
        out.add("clients", change)
        out.add("servers", change)
    elif delta.name == "batching" and delta.before and not delta.after:
        out.add("clients", "servers refuse JSON-RPC batches")
    elif delta.name == "batching" and delta.after and not delta.before:
        out.add("servers", "clients may send JSON-RPC batches")
    elif delta.name == "sessions":  # the Mcp-Session-Id header row says what old servers miss
        out.add("clients", change)
    elif delta.name == "version_header_absent":
        out.add("clients", "when MCP-Protocol-Version is absent, a server now goes by: "
                f"{_text(delta.after)} (was: {_text(delta.before)})")
    elif delta.name == "resource_not_found":
        if _not_found_sent(new) not in _not_found_accepted(old):
            out.add("clients", f"an unknown resource is {_not_found_sent(new)}, which old "
                    "clients do not read as not found")
        if _not_found_sent(old) not in _not_found_accepted(new):
            out.add("servers", f"old servers answer an unknown resource with "
                    f"{_not_found_sent(old)}, which new clients do not read as not found")


def net_deltas(
    deltas: Iterable[TableDelta], source: Profile, target: Profile
) -> tuple[TableDelta, ...]:
    """The part of a change's travelled edits that ``source`` and ``target`` still differ in."""
    out: list[TableDelta] = []
    for d in deltas:
        if d.name in source.settings:
            if source.settings[d.name] != target.settings[d.name]:
                out.append(d)
            continue
        old, new = source.names(d.name), target.names(d.name)
        added = tuple(n for n in d.added if n in new and n not in old)
        removed = tuple(n for n in d.removed if n in old and n not in new)
        rows_old, rows_new = source.tables[d.name], target.tables[d.name]
        changed = tuple(  # a row rewritten on the way: it counts if TO has it, differently
            n for n in d.changed
            if n in new and (n not in old or (
                not isinstance(rows_old, frozenset) and not isinstance(rows_new, frozenset)
                and rows_old[n] != rows_new[n]))
        )
        if added or removed or changed:
            out.append(TableDelta(d.name, added, removed, changed))
    return tuple(out)


def effects_of(
    change: Change, undo: bool, deltas: Iterable[TableDelta], profiles: tuple[Profile, Profile]
) -> Effects:
    """Who breaks, for a breaking change travelled in one direction.

    ``deltas`` are the change's net edits in the direction travelled
    (:func:`net_deltas` of :func:`mcp_skew.versions.deltas_between`'s steps);
    ``profiles`` are (old, new): the guide's FROM and TO.
    """
    if change.impact is not Impact.BREAKING:
        return Effects()
    out = _Collector()
    for delta in deltas:
        if delta.name == "methods":
            _methods(out, delta, profiles)
        elif delta.name == "auth":
            _auth(out, delta)
        elif delta.added or delta.removed:
            _tables(out, delta)
        elif delta.before is not None or delta.after is not None:
            _settings(out, delta, profiles)
    found = out.effects()
    if found:
        return found
    known = SIDES_WITHOUT_EDITS.get(change.id)
    if known is None:
        unknown = "the profile's edits do not say which side"
        return Effects((unknown,), (unknown,))
    side, upgrade, downgrade = known
    if undo:
        side = "servers" if side == "clients" else "clients"
    reason = downgrade if undo else upgrade
    return Effects((reason,), ()) if side == "clients" else Effects((), (reason,))


# -- per role ----------------------------------------------------------------------


def _breaking(role: Role, effects: Effects, source: str, target: str) -> RoleSeverity:
    labels: list[Label] = []
    notes: list[str] = []
    mine, theirs = (
        (effects.old_clients, effects.old_servers) if role == "server"
        else (effects.old_servers, effects.old_clients)
    )
    other = "clients" if role == "server" else "servers"
    if mine:
        labels.append(Label.BREAKS_OLD_CLIENTS if role == "server" else Label.BREAKS_OLD_SERVERS)
        notes.append(f"once a {role} follows {target} here, it fails with {other} still on "
                     f"{source}: "
                     f"{'; '.join(mine)}. Keep the {source} behaviour for them while they remain")
    if theirs:
        labels.append(
            Label.REQUIRED_FOR_NEW_CLIENTS if role == "server" else Label.REQUIRED_FOR_NEW_SERVERS
        )
        notes.append(f"a {role} still on {source} fails with {other} of {target}: "
                     f"{'; '.join(theirs)}. Make this change to work with them")
    return RoleSeverity(tuple(labels), tuple(notes))


def _removal_windows(rows: Iterable[tuple[str, Deprecation]]) -> str:
    windows = dict.fromkeys(dep.removal for _, dep in rows)
    return f"removal: {'; '.join(windows)}" if windows else ""


_STORED: Final = {Obligation.MUST: Label.MUST, Obligation.SHOULD: Label.SHOULD}


def _stored(role: Role, change: Change, target: str) -> RoleSeverity | None:
    """The stored MUST or SHOULD of ``role``, with the quoted rule and where it is written."""
    binding = change.binding(role)
    if binding is None or binding.level not in _STORED:
        return None
    cite = binding.cite or change.cite
    note = f'{target} binds {role}s: "{binding.rule}" ({cite})'
    return RoleSeverity((_STORED[binding.level],), (note,))


def _not_bound(role: Role, change: Change) -> bool:
    binding = change.binding(role)
    return binding is not None and binding.level is Obligation.NONE


def role_severity(
    role: Role,
    change: Change,
    *,
    undo: bool,
    effects: Effects,
    deprecations: tuple[tuple[str, Deprecation], ...],
    source: str,
    target: str,
    cancelled: bool = False,
) -> RoleSeverity:
    """The severity of ``change`` for ``role`` on the way from ``source`` to ``target``."""
    if cancelled:
        return RoleSeverity((Label.CANCELLED,), (f"another change on the way undoes its edits, "
                                                 f"so {source} and {target} agree here",))
    derived = _derived(role, change, undo=undo, effects=effects, deprecations=deprecations,
                       source=source, target=target)
    stored = None if undo else _stored(role, change, target)
    if stored is not None:
        keep = derived if change.impact is Impact.BREAKING else RoleSeverity((), ())
        return RoleSeverity(stored.labels + keep.labels, stored.notes + keep.notes,
                            derived.detail)
    if not undo and _not_bound(role, change) and change.impact is not Impact.BREAKING:
        other = "clients" if role == "server" else "servers"
        return RoleSeverity((Label.NOT_BOUND,), (f"the rule binds {other} only",))
    return derived


def _derived(
    role: Role,
    change: Change,
    *,
    undo: bool,
    effects: Effects,
    deprecations: tuple[tuple[str, Deprecation], ...],
    source: str,
    target: str,
) -> RoleSeverity:
    """The severity read off the impact and the edits (:func:`role_severity` without storage)."""
    impact = change.impact
    if impact is Impact.BREAKING:
        return _breaking(role, effects, source, target)
    if impact is Impact.ADDITIVE:
        if undo:
            return RoleSeverity((Label.LOST,), (f"{target} does not have it",))
        return RoleSeverity((Label.ADDITIVE,), (f"optional; peers still on {source} are "
                                                "unaffected",))
    if impact is Impact.DEPRECATION:
        if undo:
            return RoleSeverity((Label.UNDEPRECATED,), (f"{target} does not deprecate it",))
        names = ", ".join(name for name, _ in deprecations) or "it"
        return RoleSeverity(
            (Label.DEPRECATED,),
            (f"{names} still work{'s' if len(deprecations) < 2 else ''} in {target}; "
             "the removal window and the way off are listed below",),
            detail=_removal_windows(deprecations),
        )
    if impact is Impact.BEHAVIOUR:
        if undo:
            return RoleSeverity((Label.BEHAVIOUR_REVERTED,), (f"{target} has the older "
                                                               "semantics",))
        return RoleSeverity((Label.BEHAVIOUR,), ("same names, different semantics: peers on "
                                                 "either side may misread each other",))
    return RoleSeverity((Label.CLARIFICATION,), ("wording only; no wire change",))

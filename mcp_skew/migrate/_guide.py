"""A migration guide as data: every change between two revisions, seen from one role.

:func:`build_guide` walks the steps of ``changes_between`` (through
:func:`~mcp_skew.versions.deltas_between`, which pairs each step with its table
delta in the direction travelled, and gives the whole way's), so a guide lists exactly
the rule ids of ``mcp-skew diff`` in the same order. For each change it adds who breaks
(:mod:`._severity`), the steps for the chosen role(s), the deprecation windows
the change sets, and an illustration from two simulator runs when one is
defined (:mod:`._illustrate`). A legacy-to-modern guide also gets the
serve-both-eras checklist and its proof (:mod:`._eras`).

Steps come from the change's ``steps``. A step whose text starts with a short
role lead before a colon ("Servers: ...", "Clients: ...", "HTTP clients with
authorization: ...", "Servers that keep legacy clients: ...") is for that role;
any other step is for both. On a downgrade the upgrade steps do not apply, so
the steps are derived from the delta: what to stop relying on, what to bring
back, which settings revert.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..versions import (
    Change,
    Cite,
    Deprecation,
    Era,
    Impact,
    Profile,
    TableDelta,
    deltas_between,
)
from ._eras import BothEras, Item, both_eras, checklist
from ._illustrate import Shown, illustrate
from ._severity import (
    ROLES,
    Effects,
    Label,
    Role,
    RoleSeverity,
    effects_of,
    net_deltas,
    role_severity,
)
from ._talk import client_proof

__all__ = [
    "CHOICES",
    "GROUPS",
    "TRANSPORTS",
    "Guide",
    "GuideChange",
    "GuideTransport",
    "Lost",
    "RoleChoice",
    "ServeBoth",
    "applies",
    "build_guide",
    "for_transport",
    "roles_of",
    "serve_both_eras",
    "steps_for",
]

RoleChoice = Literal["server", "client", "both"]
CHOICES: Final[tuple[RoleChoice, ...]] = ("server", "client", "both")

#: A guide for one transport (``migrate --transport``) keeps the changes, checklist items and
#: proof rows of that transport and of every transport (``Change.transport == "any"``).
GuideTransport = Literal["stdio", "http"]
TRANSPORTS: Final[tuple[GuideTransport, ...]] = ("stdio", "http")

#: Impact -> section title, in the order a guide shows them.
GROUPS: Final[Mapping[Impact, str]] = {
    Impact.BREAKING: "Breaking changes",
    Impact.BEHAVIOUR: "Behaviour changes",
    Impact.DEPRECATION: "Deprecations",
    Impact.ADDITIVE: "Additive changes",
    Impact.CLARIFICATION: "Clarifications",
}

#: How a table reads in a sentence.
NOUNS: Final[Mapping[str, str]] = {
    "methods": "methods",
    "client_capabilities": "client capabilities",
    "server_capabilities": "server capabilities",
    "content_types": "content types",
    "sampling_content_types": "sampling content types",
    "tool_fields": "Tool fields",
    "call_tool_result_fields": "CallToolResult fields",
    "request_meta_required": "required request _meta keys",
    "request_meta_optional": "optional request _meta keys",
    "result_meta_optional": "result _meta keys",
    "result_fields_required": "required result fields",
    "cacheable_results": "results with caching hints",
    "cache_fields": "caching hints",
    "http_headers": "HTTP headers",
    "modern_error_codes": "modern error codes",
    "unbatched_methods": "requests a batch must not carry",
    "errors": "error codes",
    "deprecations": "deprecation entries",
    "cache_invalidations": "cache-invalidating notifications",
    "features": "features",
}

#: Tables left out of derived steps and of "what is lost": they restate other tables
#: (a modern error code is also an error; a deprecation going away loses nothing; a
#: cache-invalidating notification goes with the caching hints it serves; the requests a
#: batch must not carry go with the batches).
_QUIET: Final = frozenset({"modern_error_codes", "deprecations", "cache_invalidations",
                           "unbatched_methods"})


def roles_of(choice: RoleChoice) -> tuple[Role, ...]:
    return ROLES if choice == "both" else (choice,)


@dataclass(frozen=True, slots=True)
class GuideChange:
    """One change on the way, as the guide shows it."""

    change: Change
    undo: bool
    deltas: tuple[TableDelta, ...]
    effects: Effects
    severity: Mapping[Role, RoleSeverity]
    steps: Mapping[Role, tuple[str, ...]]
    deprecations: tuple[tuple[str, Deprecation], ...]
    illustration: Shown | None
    cancelled: bool = False  #: every edit is undone by another change between FROM and TO

    @property
    def id(self) -> str:
        return self.change.id

    @property
    def cite(self) -> Cite:
        return self.change.cite


@dataclass(frozen=True, slots=True)
class Lost:
    """A row of a table that ``source`` has and ``target`` does not, and the change why."""

    table: str
    name: str
    rule: str
    cite: Cite


@dataclass(frozen=True, slots=True)
class Guide:
    """Everything a guide says, before rendering."""

    source: Profile
    target: Profile
    role: RoleChoice
    direction: str  #: "upgrade", "downgrade", "sideways" or "same"
    changes: tuple[GuideChange, ...]
    lost: tuple[Lost, ...]
    both_eras: BothEras | None  #: "Serve both eras", for servers
    talk_eras: BothEras | None = None  #: "Talk to both eras", for clients
    transport: GuideTransport | None = None  #: None: every transport
    #: The changes on the way left out because they apply only to another transport.
    left_out: tuple[Change, ...] = ()

    @property
    def eras(self) -> tuple[BothEras, ...]:
        """The both-eras sections of this guide, servers first."""
        return tuple(b for b in (self.both_eras, self.talk_eras) if b is not None)

    @property
    def roles(self) -> tuple[Role, ...]:
        return roles_of(self.role)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.changes)

    def group(self, impact: Impact | None) -> tuple[GuideChange, ...]:
        """The changes of one impact that take effect; ``None``: those that cancel out."""
        if impact is None:
            return tuple(c for c in self.changes if c.cancelled)
        return tuple(c for c in self.changes if c.change.impact is impact and not c.cancelled)

    @property
    def command(self) -> str:
        command = f"mcp-skew migrate {self.source.revision} {self.target.revision} --role {self.role}"
        return command if self.transport is None else f"{command} --transport {self.transport}"


# -- steps ----------------------------------------------------------------------------

_LEAD = re.compile(r"^(?P<lead>[^:`]{1,60}):\s+(?P<rest>.*)$", re.DOTALL)


def _step_role(step: str) -> tuple[frozenset[Role], str]:
    """Which roles a step is for, and its text without a bare one-word lead."""
    match = _LEAD.match(step)
    if match is None:
        return frozenset(ROLES), step
    words = match["lead"].lower().split()
    if len(words) > 6:
        return frozenset(ROLES), step
    head = words[1] if words[0] in ("http", "stdio") and len(words) > 1 else words[0]
    if {"servers", "clients"} <= set(words) and words[1:2] == ["and"]:  # "Servers and clients:"
        rest = match["rest"]
        return frozenset(ROLES), (rest[:1].upper() + rest[1:] if len(words) == 3 else step)
    if head in ("server", "servers"):
        roles: frozenset[Role] = frozenset({"server"})
    elif head in ("client", "clients"):
        roles = frozenset({"client"})
    else:
        return frozenset(ROLES), step
    rest = match["rest"]
    if len(words) == 1:  # "Servers: do x" -> "Do x" under "Steps for servers"
        return roles, rest[:1].upper() + rest[1:]
    return roles, step


def steps_for(change: Change, role: Role) -> tuple[str, ...]:
    """The change's own steps that apply to ``role``."""
    out: list[str] = []
    for step in change.steps:
        roles, text = _step_role(step)
        if role in roles:
            out.append(text)
    return tuple(out)


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def _undo_steps(deltas: tuple[TableDelta, ...], target: str) -> tuple[str, ...]:
    out: list[str] = []
    for d in deltas:
        if d.name in _QUIET or d.name == "features":
            continue
        noun = NOUNS.get(d.name, d.name)
        if d.removed:
            out.append(f"Stop relying on {noun} {', '.join(d.removed)}: {target} does not "
                       "have them.")
        if d.added:
            out.append(f"Support {noun} {', '.join(d.added)} again: {target} has them.")
        if d.changed:
            out.append(f"Use the {target} form of {noun} {', '.join(d.changed)}.")
        if not (d.added or d.removed or d.changed) and d.name not in NOUNS:
            out.append(f"Go back to the {target} setting of {d.name}: {_value(d.after)} "
                       f"(instead of: {_value(d.before)}).")
    return tuple(out)


def _fallback_steps(change: Change, undo: bool, role: Role,
                    deprecations: tuple[tuple[str, Deprecation], ...], target: str, *,
                    severity: RoleSeverity) -> tuple[str, ...]:
    """What a guide says for a role the change gives no step for.

    It never says "the change is on the other side" of a change that binds the
    role: one with a stored MUST or SHOULD for it, or a breaking one whose
    severity for the role names a side (a draft profile may carry no steps).
    """
    impact = change.impact
    binds = {Label.MUST, Label.SHOULD, Label.BREAKS_OLD_CLIENTS, Label.BREAKS_OLD_SERVERS,
             Label.REQUIRED_FOR_NEW_CLIENTS, Label.REQUIRED_FOR_NEW_SERVERS}
    if not undo and binds & set(severity.labels):
        return (f"The profile gives no {role}-side steps, yet the change binds {role}s "
                f"({severity.text}): follow its summary and citation.",)
    if Label.NOT_BOUND in severity.labels:
        other = "clients" if role == "server" else "servers"
        return (f"No {role}-side steps: the rule binds {other} only.",)
    if impact is Impact.DEPRECATION and not undo and deprecations:
        return tuple(f"Plan to move off {name}: {dep.migration} (removal: {dep.removal})."
                     for name, dep in deprecations)
    if impact is Impact.DEPRECATION:
        return (f"Nothing to change: it still works in {target}.",)
    if impact is Impact.CLARIFICATION:
        return ("Nothing to change on the wire.",)
    if impact is Impact.ADDITIVE:
        return ((f"Stop relying on it: {target} does not have it.",) if undo
                else ("Nothing required; adopt it when you need it.",))
    if undo:
        return (f"Go back to the {target} behaviour: this rule does not apply there.",)
    return (f"No {role}-side steps: the change is on the other side.",)


def _role_steps(change: Change, role: Role, *, undo: bool, deltas: tuple[TableDelta, ...],
                deprecations: tuple[tuple[str, Deprecation], ...], target: str,
                severity: RoleSeverity) -> tuple[str, ...]:
    steps = _undo_steps(deltas, target) if undo else steps_for(change, role)
    return steps or _fallback_steps(change, undo, role, deprecations, target, severity=severity)


def _deprecations(change: Change) -> tuple[tuple[str, Deprecation], ...]:
    rows: dict[str, Deprecation] = {}
    for edits in (change.add, change.replace):
        table = edits.get("deprecations")
        if isinstance(table, Mapping):
            rows.update({str(k): v for k, v in table.items() if isinstance(v, Deprecation)})
    return tuple(sorted(rows.items()))


# -- building ---------------------------------------------------------------------------


def _direction(undos: list[bool]) -> str:
    if not undos:
        return "same"
    if all(undos):
        return "downgrade"
    return "upgrade" if not any(undos) else "sideways"


def _lost(way: tuple[TableDelta, ...], changes: tuple[GuideChange, ...]) -> tuple[Lost, ...]:
    net = {d.name: set(d.removed) for d in way}
    found: dict[tuple[str, str], Lost] = {}
    for item in changes:
        for d in item.deltas:
            if d.name in _QUIET:
                continue
            for name in d.removed:
                if name in net.get(d.name, ()):
                    found[(d.name, name)] = Lost(d.name, name, item.id, item.cite)
    order = {name: i for i, name in enumerate(NOUNS)}
    return tuple(sorted(found.values(), key=lambda x: (order.get(x.table, 99), x.name)))


def applies(change_transport: str, transport: GuideTransport | None) -> bool:
    """Whether a change (or checklist item) of ``change_transport`` belongs in a guide for
    ``transport`` (None: a guide for every transport)."""
    return transport is None or change_transport in ("any", transport)


def build_guide(source: Profile, target: Profile, role: RoleChoice = "both", *,
                proof: bool = True, transport: GuideTransport | None = None) -> Guide:
    """The guide from ``source`` to ``target`` (either may be the older) for ``role``.

    ``proof=False`` leaves out the both-eras sections (serve both eras for
    servers, talk to both eras for clients), for callers that only need the changes.
    ``transport`` keeps only what applies on that transport; the changes left out are
    named in :attr:`Guide.left_out`.
    """
    roles = roles_of(role)
    items: list[GuideChange] = []
    left_out: list[Change] = []
    way = deltas_between(source, target)
    for step, deltas in way.steps:
        change = step.change
        if not applies(change.transport, transport):
            left_out.append(change)
            continue
        net = net_deltas(deltas, source, target)
        cancelled = bool(deltas) and not net
        effects = Effects() if cancelled else effects_of(change, step.undo, net, (source, target))
        deprecations = _deprecations(change)
        severity = {
            r: role_severity(r, change, undo=step.undo, effects=effects,
                             deprecations=deprecations, source=source.revision,
                             target=target.revision, cancelled=cancelled)
            for r in roles
        }
        items.append(GuideChange(
            change=change,
            undo=step.undo,
            deltas=deltas,
            effects=effects,
            severity=severity,
            steps={
                r: (f"Nothing to do: {source.revision} and {target.revision} agree here.",)
                if cancelled else
                _role_steps(change, r, undo=step.undo, deltas=deltas,
                            deprecations=deprecations, target=target.revision,
                            severity=severity[r])
                for r in roles
            },
            deprecations=deprecations,
            illustration=None if cancelled else illustrate(change.id, source, target),
            cancelled=cancelled,
        ))
    changes = tuple(items)
    return Guide(
        source=source,
        target=target,
        role=role,
        direction=_direction([c.undo for c in changes]),
        changes=changes,
        lost=_lost(way.net, changes),
        both_eras=(for_transport(both_eras(source, target), transport)
                   if proof and "server" in roles else None),
        talk_eras=(for_transport(_talk(source, target), transport)
                   if proof and "client" in roles else None),
        transport=transport,
        left_out=tuple(left_out),
    )


def for_transport(both: BothEras | None, transport: GuideTransport | None) -> BothEras | None:
    """A both-eras section cut to one transport: its checklist items, and its proof rows
    where the proof runs on more than one transport (a proof over stdio alone shows the
    era logic, which no transport changes, and stays whole)."""
    if both is None or transport is None:
        return both
    rows = tuple(r for r in both.rows if r.transport == transport)
    return replace(both,
                   checklist=tuple(i for i in both.checklist if applies(i.transport, transport)),
                   rows=rows or both.rows)


def _talk(source: Profile, target: Profile) -> BothEras | None:
    if source.era is not Era.LEGACY or target.era is not Era.MODERN:
        return None
    return client_proof(source, target)


@dataclass(frozen=True, slots=True)
class ServeBoth:
    """What a server that serves ``source`` (legacy) clients does to serve ``target`` (modern)
    ones too: the guide's serve-both-eras checklist, then the changes the server's guide
    labels required for new clients."""

    checklist: tuple[Item, ...]
    required: tuple[GuideChange, ...]


def serve_both_eras(source: Profile, target: Profile) -> ServeBoth:
    """The :class:`ServeBoth` of ``source`` and ``target`` (the probe's card advises it)."""
    guide = build_guide(source, target, "server")
    required = tuple(c for c in guide.changes if not c.cancelled and "server" in c.severity
                     and Label.REQUIRED_FOR_NEW_CLIENTS in c.severity["server"].labels)
    return ServeBoth(checklist(source, target), required)

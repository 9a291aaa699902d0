"""Named peers: a name of a real MCP implementation resolved to its simulator model.

Notation: ``FAMILY@VERSION[:MODE]``, usable wherever a peer spec is accepted
(``mcp-skew simulate --client py-mcp@2.3 --server py-mcp@1.0``), optionally
followed by quirks that are added or overridden (``py-mcp@2.3+probe-timeout=3000``).

- ``VERSION`` with a major only (``@1``, ``@4``) is the newest release line of
  that major, as ``npm install pkg@1`` would pick; ``@1.10`` or ``@1.12.3`` is
  the line that contains that version (missing parts are zero, so ``@1.9`` is
  1.9.0, whose line ends at 1.9.3, and ``@1.9.4`` is the next line).
- ``MODE`` picks a set-up where one package has several (``py-mcp@2.3:legacy``,
  ``ts-server@2.4:modern``); without it the package's default is modelled.

Every model says where it was measured (:attr:`Model.measured`), which version
the drift checks install (:attr:`ReleaseLine.installs`), and what the model knowingly
leaves out (:attr:`Model.gaps`). The behaviour comes from ``docs/real-peers.md``
(measured by ``benchmarks/measure_real_peers.py``) and from this module's own
measurements, which the drift tests repeat (``tests/interop/test_drift_servers.py``,
``tests/interop/test_drift_clients.py``, ``mcp-skew verify-peer NAME``).

:func:`named_peer` is the built-in resolver: :data:`mcp_skew.peers.NAMED_RESOLVERS`
lists it, and :func:`mcp_skew.peers.resolve_peer` consults it for a head with ``@``
(the simulator's own ``parse_peer`` knows no names). The names it resolves are those
of the catalogue (:mod:`._catalogue`).
"""


from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Final

from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer
from ..versions import Role, did_you_mean
from ._catalogue import DEFAULT_LABEL, DEFAULT_MODE, FAMILIES
from ._family import Family, Model, ReleaseLine, Version

__all__ = [
    "CLIENT_TESTS",
    "ROLES",
    "SERVER_TESTS",
    "Named",
    "Resolved",
    "builtin_peer",
    "iter_models",
    "known_names",
    "model_names",
    "named_peer",
    "resolve",
    "split_name",
]

ROLES: Final[tuple[Role, Role]] = ("server", "client")
SERVER_TESTS: Final = "tests/interop/test_drift_servers.py"
CLIENT_TESTS: Final = "tests/interop/test_drift_clients.py"


@dataclass(frozen=True, slots=True)
class Resolved:
    """A named peer, resolved: the family, the line, the mode and the model."""

    name: str  #: as written, without quirks (``py-mcp@1.12.3``)
    family: Family
    line: ReleaseLine
    role: Role
    mode: str  #: the mode's key ('' = the default set-up)
    model: Model

    @property
    def default_mode(self) -> str:
        return DEFAULT_LABEL[self.role].get(self.family.name, "")

    @property
    def canonical(self) -> str:
        """``family@first-of-line[:mode]``: the name of the line itself."""
        return f"{self.family.name}@{self.line.first_text}" + (f":{self.mode}" if self.mode else "")

    def note(self) -> str:
        """Where the behaviour was measured: package, version, and the test that measures it."""
        installs = self.line.installs
        test = self.model.checked_by or (SERVER_TESTS if self.role == "server" else CLIENT_TESTS)
        how = "" if self.model.checked_by else f" (mcp-skew verify-peer {self.canonical})"
        measured = (f"drift-checked on {installs.text} by {test}{how}" if installs
                    else "not installable; model from sources")
        if self.model.reported:
            measured = f"reported, not measured: {', '.join(self.model.reported)}"
        mode = f", {self.mode or self.default_mode or 'default'} set-up" if (
            self.mode or self.default_mode) else ""
        return (f"{self.family.package} {self.line.span} {self.role}{mode}: "
                f"{self.model.evidence}; {measured}")

    def peer(self) -> PeerSpec:
        spec = parse_peer(self.model.notation, self.role)
        label = f"{self.name} (reported)" if self.model.reported else self.name
        return replace(spec, label=label, note=self.note())


_NAME = re.compile(r"(?P<family>[a-z][a-z0-9-]*)@(?P<version>[^:]*)(?::(?P<mode>.*))?")
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


@dataclass(frozen=True, slots=True)
class Named:
    """A name split into its parts."""

    family: str
    version: str
    mode: str | None


def split_name(head: str) -> Named | None:
    match = _NAME.fullmatch(head.strip())
    if match is None:
        return None
    return Named(match["family"], match["version"], match["mode"])


def _modes(family: Family, line: ReleaseLine, role: Role) -> set[str]:
    """The modes a person writes for this line and role (none when it has one set-up)."""
    models = line.models(role)
    if len(models) <= 1 and "" in models:
        return set()
    return {m or DEFAULT_LABEL[role].get(family.name, "") for m in models} - {""}


def _line_names(family: Family, role: Role) -> str:
    out = []
    for line in family.lines:
        if not line.models(role):
            continue
        modes = "|".join(sorted(_modes(family, line, role)))
        out.append(f"{family.name}@{line.first_text}" + (f"[:{modes}]" if modes else "") + f" ({line.span})")
    return ", ".join(out)


def known_names(role: Role | None = None) -> list[str]:
    """``family@LINE[:modes]`` for every line with a model (for ``role``, or either)."""
    names: list[str] = []
    for family in FAMILIES.values():
        for line in family.lines:
            if role is not None and not line.models(role):
                continue
            if role is None and not (line.servers or line.clients):
                continue
            modes = sorted(set().union(*(_modes(family, line, r) for r in ROLES
                                         if role is None or r == role)))
            names.append(f"{family.name}@{line.first_text}" + (f"[:{'|'.join(modes)}]" if modes else ""))
    return names


def _pick_line(family: Family, version: str, spec: str, role: Role) -> ReleaseLine:
    match = _VERSION.fullmatch(version)
    if match is None:
        raise UsageError(f"peer spec {spec!r}: {version!r} is not a version (e.g. "
                         f"{family.name}@{family.lines[-1].first[0]} or "
                         f"{family.name}@{family.lines[-1].first[0]}.{family.lines[-1].first[1]})")
    parts = [int(p) for p in match.groups() if p is not None]
    with_role = [line for line in family.lines if line.models(role)]
    if len(parts) == 1:
        of_major = [line for line in with_role if line.first[0] == parts[0]]
        if of_major:
            return of_major[-1]
    else:
        wanted: Version = (parts[0], parts[1], parts[2] if len(parts) > 2 else 0)
        below = [line for line in with_role if line.first <= wanted and line.first[0] == wanted[0]]
        if below:
            return below[-1]
    raise UsageError(f"peer spec {spec!r}: no {role} model for {family.name} {version}; "
                     f"known: {_line_names(family, role) or 'none'}")


def resolve(head: str, role: Role, spec: str | None = None) -> Resolved | None:
    """The named peer ``head`` for ``role``; None when the family is not a known one."""
    spec = head if spec is None else spec
    named = split_name(head)
    if named is None or named.family not in FAMILIES:
        return None
    family = FAMILIES[named.family]
    if not any(line.models(role) for line in family.lines):
        others = ", ".join(known_names(role))
        raise UsageError(f"peer spec {spec!r}: {family.name} has no {role} model; known "
                         f"{role}s: {others}")
    line = _pick_line(family, named.version, spec, role)
    models = line.models(role)
    mode = named.mode if named.mode is not None else DEFAULT_MODE[role].get(family.name, "")
    default = DEFAULT_LABEL[role].get(family.name)
    key = "" if mode == default and "" in models and len(models) > 1 else mode
    if key not in models or (named.mode is not None and named.mode not in _modes(family, line,
                                                                               role)):
        modes = ", ".join(sorted(_modes(family, line, role))) or "none (one set-up)"
        raise UsageError(f"peer spec {spec!r}: {family.name} {line.span} has no {role} mode "
                         f"{mode!r}{did_you_mean(mode, _modes(family, line, role))}; "
                         f"modes: {modes}")
    name = f"{family.name}@{named.version}" + (f":{named.mode}" if named.mode is not None else "")
    return Resolved(name, family, line, role, key, models[key])


def named_peer(head: str, role: Role) -> PeerSpec | None:
    """The resolver: a :class:`PeerSpec` labelled with the name and noted with its evidence
    (``None`` for a family this catalogue does not know)."""
    resolved = resolve(head, role)
    return None if resolved is None else resolved.peer()


def builtin_peer(head: str, role: Role) -> PeerSpec:
    """A named peer of this catalogue (what the real-world sets name); ``UsageError`` otherwise."""
    peer = named_peer(head, role)
    if peer is None:
        raise UsageError(f"peer spec {head!r}: not a named peer of the built-in catalogue; "
                         f"known: {', '.join(known_names(role))}")
    return peer


def model_names(role: Role) -> list[str]:
    """One name per model of ``role`` (``family@line[:mode]``), in catalogue order."""
    names = []
    for family, line, r, mode, _ in iter_models():
        if r != role:
            continue
        label = mode or (DEFAULT_LABEL[role].get(family.name, "") if len(line.models(role)) > 1
                         else "")
        names.append(f"{family.name}@{line.first_text}" + (f":{label}" if label else ""))
    return names


def iter_models() -> Iterator[tuple[Family, ReleaseLine, Role, str, Model]]:
    """Every model of the catalogue."""
    for family in FAMILIES.values():
        for line in family.lines:
            for role in ROLES:
                for mode, model in line.models(role).items():
                    yield family, line, role, mode, model

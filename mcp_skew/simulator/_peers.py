"""Peer specs: which revisions a simulated client or server supports, its era kind, its quirks.

Notation (the CLI and the library share it)::

    KIND:REV[,REV...][+QUIRK[=VALUE]...]     legacy:2025-06-18,2025-03-26+unknown-32602
    REV[+QUIRK...]                           2025-06-18 (a single-revision peer of its era)

``KIND`` is ``legacy`` (``initialize`` only), ``modern`` (per-request ``_meta``
only) or ``dual`` (both). ``+ext=NAME[,NAME...]`` is not a quirk but the second axis:
the extensions the peer supports (a server offers them, a client advertises them), by
short name or id from :data:`~mcp_skew.versions.EXTENSIONS` (``+ext=ui,tasks``).
A wrong spec raises :class:`~mcp_skew.errors.UsageError`
with one line saying what is wrong.

A head with ``@`` names a real implementation (``py-mcp@1.10``,
``ts-client@2.4:auto``, optionally followed by ``+QUIRK``), and ``@FILE`` is a
server saved by ``mcp-skew probe --save-peer FILE``. Neither is resolved here (the
simulator imports nothing above :mod:`mcp_skew.versions`): :func:`parse_peer`
rejects them with a :class:`~mcp_skew.errors.UsageError` that says so, and
:func:`mcp_skew.peers.resolve_peer` resolves them through its explicit list of
resolvers, adding a named peer's ``+QUIRK`` suffixes with :func:`with_quirks`.

:func:`split_notation` is the one reader of the notation's shape (head, kind,
revisions, quirks), with no registry and no checks: :func:`parse_peer` checks its
parts, and the matrix's renderers (a matrix read back from JSON has no peers, only
notations) and the migration guide read them with it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from .._numbers import check_quirk_value
from ..errors import UsageError
from ..versions import (
    EXTENSIONS,
    LAYOUTS,
    REGISTRY,
    REVISION_CUTOFF,
    Era,
    PeerKind,
    Profile,
    Registry,
    Role,
    did_you_mean,
)
from .quirks._policy import ClientPolicy, ServerPolicy
from .quirks._table import QUIRKS, client_policy, server_policy

__all__ = ["EXT", "KINDS", "Notation", "PeerSpec", "ext_suffix", "parse_peer", "split_notation",
           "with_quirks"]

KINDS: Final[tuple[PeerKind, ...]] = ("legacy", "modern", "dual")
#: Where named (``NAME@VERSION``) and saved (``@FILE``) peers are resolved, for the error.
RESOLVED_ABOVE: Final = "mcp_skew.peers.resolve_peer"
#: The notation's word for the extensions a peer supports (``+ext=ui,tasks``).
EXT: Final = "ext"


@dataclass(frozen=True, slots=True)
class PeerSpec:
    """A simulated peer: what it supports and how it behaves."""

    kind: PeerKind
    revisions: tuple[str, ...]  #: newest first
    quirks: tuple[tuple[str, str | None], ...] = ()  #: (name, value), in spec order
    label: str = ""  #: a short name for tables; defaults to the notation
    note: str = field(default="", compare=False)  #: where a named peer's behaviour was measured
    #: the revisions its profiles come from (a draft loaded with ``--profile`` is in it)
    registry: Registry = field(default=REGISTRY, compare=False, repr=False)
    #: the extensions it supports, by id (``+ext=...``): a server offers them, a client
    #: advertises them (:data:`~mcp_skew.versions.EXTENSIONS`)
    extensions: tuple[str, ...] = ()
    #: its legacy and its modern revisions, derived on first use (:meth:`of_era`)
    _eras: tuple[tuple[str, ...], tuple[str, ...]] | None = field(
        default=None, init=False, compare=False, repr=False)
    #: its modern revisions by wire string (the newest of those sharing one), on first use
    _modern_wires: dict[str, str] | None = field(default=None, init=False, compare=False,
                                                 repr=False)
    #: the wire string of each of its revisions, on first use (a client reads the versions a
    #: server names through it)
    _wire_of: dict[str, str] | None = field(default=None, init=False, compare=False, repr=False)

    # -- reading -----------------------------------------------------------------
    def has(self, quirk: str) -> bool:
        return any(name == quirk for name, _ in self.quirks)

    def value(self, quirk: str) -> str | None:
        return next((v for name, v in self.quirks if name == quirk), None)

    def ms(self, quirk: str, default: int) -> int:
        raw = self.value(quirk)
        return int(raw) if raw is not None else default

    @property
    def server_policy(self) -> ServerPolicy:
        """What this peer does as a server, from its quirks (:mod:`.quirks._policy`)."""
        return server_policy(self.quirks)

    @property
    def client_policy(self) -> ClientPolicy:
        """What this peer does as a client, from its quirks (:mod:`.quirks._policy`)."""
        return client_policy(self.quirks)

    def of_era(self, era: Era) -> tuple[str, ...]:
        """Supported revisions of one era, newest first."""
        if era is Era.LEGACY:
            return self.legacy
        if era is Era.MODERN:
            return self.modern
        return _of_era(self.registry, self.revisions, era)

    def _by_era(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``(legacy, modern)``, derived once: the simulator asks on every message."""
        eras = self._eras
        if eras is None:
            eras = (_of_era(self.registry, self.revisions, Era.LEGACY),
                    _of_era(self.registry, self.revisions, Era.MODERN))
            object.__setattr__(self, "_eras", eras)  # frozen: a cache of its own fields
        return eras

    @property
    def legacy(self) -> tuple[str, ...]:
        eras = self._eras  # derived already but on a peer's first question
        return (self._by_era() if eras is None else eras)[0]

    @property
    def modern(self) -> tuple[str, ...]:
        eras = self._eras
        return (self._by_era() if eras is None else eras)[1]

    def profile(self, revision: str | None = None) -> Profile:
        return self.registry.get(revision or self.revisions[0])

    def wire(self, revision: str) -> str:
        """The version string ``revision`` puts on the wire (a draft's may be its base's)."""
        found = self._wires().get(revision)
        return self.registry.get(revision).wire_version if found is None else found

    def _wires(self) -> dict[str, str]:
        """Its revisions' wire strings (:meth:`wire`), made once."""
        table = self._wire_of
        if table is None:
            table = {r: self.registry.get(r).wire_version for r in self.revisions}
            object.__setattr__(self, "_wire_of", table)  # frozen: a cache of its fields
        return table

    def wires(self, revisions: Sequence[str]) -> list[str]:
        """The wire strings of ``revisions``, in order, each once."""
        return list(dict.fromkeys(self.wire(r) for r in revisions))

    def heard(self, versions: object, among: Sequence[str] | None = None) -> list[str]:
        """The revisions of ``among`` (default: all of this peer's, newest first) whose wire
        string ``versions`` (a list read from the wire) names."""
        if not isinstance(versions, (list, tuple, str)):
            return []
        table = self._wires()  # (a revision not its own is looked up: wire)
        return [r for r in (self.revisions if among is None else among)
                if (table.get(r) or self.wire(r)) in versions]

    def identity(self, version: object, among: Sequence[str]) -> str | None:
        """The revision of ``among`` (newest first) a version string read from the wire
        stands for: the newest whose wire string it is (two revisions of one peer that share
        a wire string cannot be told apart on the wire: it serves its newest)."""
        table = self._wires()
        return next((r for r in among if (table.get(r) or self.wire(r)) == version), None)

    def modern_identity(self, version: object) -> str | None:
        """:meth:`identity` among its modern revisions, from a table made once (a server
        asks at every modern request)."""
        table = self._modern_wires
        if table is None:
            table = {}
            for revision in self.modern:  # newest first: the first of a wire string stays
                table.setdefault(self.wire(revision), revision)
            object.__setattr__(self, "_modern_wires", table)  # frozen: a cache of its fields
        return table.get(version) if isinstance(version, str) else None

    @property
    def notation(self) -> str:
        quirks = "".join(f"+{n}" + (f"={v}" if v is not None else "") for n, v in self.quirks)
        return f"{self.kind}:{','.join(self.revisions)}{quirks}{ext_suffix(self.extensions)}"

    @property
    def name(self) -> str:
        return self.label or self.notation

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False, frozen=True, slots=True)
class Notation:
    """A peer spec's text split into its parts as written (nothing checked, no registry)."""

    head: str  #: what comes before the first ``+``: ``KIND:REV,...``, ``REV`` or ``NAME@...``
    kind: str  #: ``legacy``, ``modern``, ``dual`` as written; "" for a bare revision
    revisions: tuple[str, ...]  #: as written, empty parts dropped
    quirks: tuple[str, ...]  #: each ``QUIRK[=VALUE]`` as written

    @property
    def quirk_names(self) -> tuple[str, ...]:
        """``silent``, ``fixed`` of ``+silent+fixed=2025-03-26``."""
        return tuple(q.partition("=")[0] for q in self.quirks)

    @property
    def text(self) -> str:
        """The notation written back: ``KIND:REV,...+QUIRK...`` (``REV,...`` without a kind)."""
        revisions = ",".join(self.revisions)
        head = f"{self.kind}:{revisions}" if self.kind else revisions
        return head + "".join(f"+{q}" for q in self.quirks)


def split_notation(spec: str, joined: Sequence[str] = ()) -> Notation:
    """``dual:2026-07-28,2025-11-25+restart`` -> its kind, revisions and quirks, as written.

    ``joined``: revision names that hold a ``+`` themselves (a composed draft,
    ``next+sep-3279``), read as one revision where they stand whole, not as a quirk."""
    for name in sorted(joined, key=len, reverse=True):
        spec = re.sub(rf"(?<=[:,=])({re.escape(name)})(?=[,+]|$)|^({re.escape(name)})(?=[,+]|$)",
                      lambda m: m.group(0).replace("+", _JOIN), spec)
    head, *quirks = spec.split("+")
    head, quirks = head.replace(_JOIN, "+"), [q.replace(_JOIN, "+") for q in quirks]
    kind, sep, revisions = head.partition(":")
    if not sep:
        kind, revisions = "", head
    return Notation(head, kind, tuple(r for r in revisions.split(",") if r), tuple(quirks))


#: What stands for the ``+`` inside a joined revision name while a notation is split.
_JOIN: Final = "\x00"


@functools.cache
def _of_era(registry: Registry, revisions: tuple[str, ...], era: Era) -> tuple[str, ...]:
    return tuple(r for r in revisions if registry.get(r).era is era)


def _revisions(texts: Sequence[str], spec: str, registry: Registry) -> tuple[str, ...]:
    revs = [r.strip() for r in texts if r.strip()]
    if not revs:
        raise UsageError(f"peer spec {spec!r}: no revision given (e.g. legacy:2025-06-18)")
    for rev in revs:
        if rev not in registry:
            known = ", ".join(registry.revisions())
            raise UsageError(f"peer spec {spec!r}: unknown revision {rev!r}"
                             f"{did_you_mean(rev, registry.revisions(), REVISION_CUTOFF)}; known: {known}")
    if len(set(revs)) != len(revs):
        raise UsageError(f"peer spec {spec!r}: a revision is listed twice")
    return registry.ordered(revs)


def _check_kind(kind: PeerKind, revs: tuple[str, ...], spec: str, registry: Registry) -> None:
    eras = {registry.get(r).era for r in revs}
    if kind == "legacy" and eras != {Era.LEGACY}:
        raise UsageError(f"peer spec {spec!r}: a legacy peer takes legacy revisions only "
                         f"({', '.join(registry.of_era(Era.LEGACY))})")
    if kind == "modern" and eras != {Era.MODERN}:
        raise UsageError(f"peer spec {spec!r}: a modern peer takes modern revisions only "
                         f"({', '.join(registry.of_era(Era.MODERN))})")
    if kind == "dual" and eras != {Era.LEGACY, Era.MODERN}:
        raise UsageError(f"peer spec {spec!r}: a dual-era peer needs at least one legacy and "
                         "one modern revision")


def _quirk(text: str, role: Role, kind: PeerKind, spec: str,
           registry: Registry) -> tuple[str, str | None]:
    name, _, value = text.partition("=")
    quirk = QUIRKS.get(name)
    if quirk is None or quirk.role != role:
        mine = [q.name for q in QUIRKS.values() if q.role == role]
        raise UsageError(f"peer spec {spec!r}: unknown {role} quirk {name!r}"
                         f"{did_you_mean(name, mine)}; known: {', '.join(mine)}")
    if kind not in quirk.kinds:
        raise UsageError(f"peer spec {spec!r}: quirk {name!r} applies to "
                         f"{'/'.join(quirk.kinds)} {role}s, not {kind}")
    if quirk.value == "none":
        if value:
            raise UsageError(f"peer spec {spec!r}: quirk {name!r} takes no value")
        return name, None
    if not value:
        raise UsageError(f"peer spec {spec!r}: quirk {name!r} needs a value ({name}=...)")
    problem = check_quirk_value(quirk.value, value)
    if problem is not None:
        raise UsageError(f"peer spec {spec!r}: quirk {name!r} {problem}")
    if quirk.value == "revision" and value not in registry:
        raise UsageError(f"peer spec {spec!r}: quirk {name!r}: unknown revision {value!r}"
                         f"{did_you_mean(value, registry.revisions(), REVISION_CUTOFF)}")
    if quirk.value == "layout" and value not in LAYOUTS:
        raise UsageError(f"peer spec {spec!r}: quirk {name!r}: unknown layout {value!r}"
                         f"{did_you_mean(value, LAYOUTS)}; "
                         f"known: {', '.join(LAYOUTS)}")
    return name, value


def ext_suffix(extensions: Sequence[str]) -> str:
    """``+ext=ui,tasks`` for these extension ids ("" for none): short names where known."""
    if not extensions:
        return ""
    names = [row.short if (row := EXTENSIONS.get(e)) is not None else e for e in extensions]
    return f"+{EXT}={','.join(names)}"


def _split_ext(quirk_texts: Sequence[str], spec: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(quirk texts, extension ids)``: the ``+ext=...`` suffixes are the second axis."""
    quirks: list[str] = []
    found: list[str] = []
    for text in quirk_texts:
        name, _, value = text.partition("=")
        if name != EXT:
            quirks.append(text)
            continue
        if not value:
            raise UsageError(f"peer spec {spec!r}: {EXT} needs the extensions it supports "
                             f"({EXT}={','.join(EXTENSIONS.names())})")
        for part in value.split(","):
            row = EXTENSIONS.named(part.strip())
            if row is None:
                raise UsageError(f"peer spec {spec!r}: unknown extension {part.strip()!r}"
                                 f"{did_you_mean(part.strip(), EXTENSIONS.names())}; known: "
                                 f"{', '.join(EXTENSIONS.names())}")
            if row.id not in found:
                found.append(row.id)
    return tuple(quirks), tuple(found)


def with_quirks(peer: PeerSpec, quirk_texts: Sequence[str], role: Role, spec: str) -> PeerSpec:
    """``peer`` (a named one, resolved above the simulator) with the quirks of ``spec``'s
    ``+QUIRK[=VALUE]`` suffixes added or overridden, checked as :func:`parse_peer` checks them
    (``+ext=...`` sets its extensions)."""
    if not quirk_texts:
        return peer
    suffix = "".join(f"+{q}" for q in quirk_texts)
    quirk_texts, extensions = _split_ext(quirk_texts, spec)
    if extensions:
        peer = replace(peer, extensions=extensions)
    if not quirk_texts:
        return replace(peer, label=peer.name + suffix)
    added = [_quirk(q, role, peer.kind, spec, peer.registry) for q in quirk_texts]
    names = {name for name, _ in added}
    quirks = tuple(q for q in peer.quirks if q[0] not in names) + tuple(added)
    return replace(peer, quirks=quirks, label=peer.name + suffix)


def parse_peer(spec: str, role: Role, registry: Registry = REGISTRY) -> PeerSpec:
    """Parse a peer spec for ``role`` (``client`` or ``server``), its revisions from ``registry``."""
    text = spec.strip()
    if not text:
        raise UsageError("empty peer spec (e.g. legacy:2025-06-18 or dual:2026-07-28,2025-11-25)")
    if text.startswith("@"):
        raise UsageError(f"peer spec {spec!r}: a saved peer (@FILE) is resolved by {RESOLVED_ABOVE}, "
                         "not by the simulator's parse_peer")
    notation = split_notation(text, tuple(r for r in registry.revisions() if "+" in r))
    head, quirk_texts, kind_text = notation.head, notation.quirks, notation.kind
    if "@" in head:
        raise UsageError(f"peer spec {spec!r}: a named peer (NAME@VERSION) is resolved by "
                         f"{RESOLVED_ABOVE}, not by the simulator's parse_peer")
    if not kind_text and head in KINDS:  # ``legacy`` alone: a kind, not a revision
        raise UsageError(f"peer spec {spec!r}: no revision given (e.g. {head}:REV)")
    if kind_text and kind_text not in KINDS:
        raise UsageError(f"peer spec {spec!r}: unknown kind {kind_text!r}"
                         f"{did_you_mean(kind_text, KINDS)}; use legacy, modern "
                         "or dual (or a bare revision)")
    revs = _revisions(notation.revisions, spec, registry)
    if kind_text:
        kind: PeerKind = kind_text
    else:
        if len(revs) != 1:
            raise UsageError(f"peer spec {spec!r}: name the kind for several revisions "
                             "(legacy:..., modern:... or dual:...)")
        kind = "modern" if registry.get(revs[0]).era is Era.MODERN else "legacy"
    _check_kind(kind, revs, spec, registry)
    quirk_texts, extensions = _split_ext(quirk_texts, spec)
    quirks = tuple(_quirk(q, role, kind, spec, registry) for q in quirk_texts)
    return PeerSpec(kind=kind, revisions=revs, quirks=quirks, extensions=extensions,
                    registry=registry)


"""Profiles: everything mcp-skew knows about one MCP revision, as frozen data.

Theory of operation
-------------------
A :class:`Profile` is a set of named *tables* (methods, capability keys, content
types, error codes, ``_meta`` keys, result fields, HTTP headers, deprecations,
features) plus a few scalar *settings* (era, batching, HTTP transport, ...).

The first revision is built with :func:`create` from a full table. Every later
revision is ``previous.evolve(revision=..., changes=(Change(...), ...))``: each
:class:`Change` is one entry of the changelog (a stable rule id, a summary, a
citation, an impact) and carries the table edits that make it true. ``evolve``
applies the edits and checks them, so a revision module reads like its changelog
and the full table is derived, never kept by hand:

- ``add`` names must be new to the table,
- ``remove`` and ``replace`` names must already be in it,
- ``settings`` must name a known setting and change its value.

Any violation raises :class:`ProfileDefinitionError` when the module is imported.

Rule: nothing outside this package compares revision strings. Order is the
position in the registry (see ``mcp_skew.versions``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

if TYPE_CHECKING:
    from ._auth import AuthRule

__all__ = [
    "CHANGE_TRANSPORTS",
    "MAPPING_TABLES",
    "SETTINGS",
    "SET_TABLES",
    "TABLES",
    "Binding",
    "Change",
    "Cite",
    "Deprecation",
    "Direction",
    "Era",
    "ErrorCode",
    "Impact",
    "Invalidation",
    "Kind",
    "Method",
    "Obligation",
    "Profile",
    "ProfileDefinitionError",
    "create",
]


class ProfileDefinitionError(TypeError):
    """A profile or a delta contradicts the revision it builds on."""


#: The transports a change may be about (:attr:`Change.transport`).
CHANGE_TRANSPORTS: Final = ("any", "http", "stdio")


class Era(enum.Enum):
    """How a revision agrees on a version: a handshake, or per request."""

    LEGACY = "legacy"  #: ``initialize`` handshake, 2024-11-05 .. 2025-11-25
    MODERN = "modern"  #: per-request ``_meta``, 2026-07-28 on


class Direction(enum.Enum):
    """Who sends a method."""

    C2S = "client->server"
    S2C = "server->client"
    BOTH = "both"


class Kind(enum.Enum):
    """A request expects a response; a notification does not."""

    REQUEST = "request"
    NOTIFICATION = "notification"


class Impact(enum.Enum):
    """What a change does to peers of the revision before it."""

    BREAKING = "breaking"  #: a peer of the old revision fails against the new one
    ADDITIVE = "additive"  #: new and optional; old peers are unaffected
    BEHAVIOUR = "behaviour"  #: same names, different semantics
    DEPRECATION = "deprecation"  #: still works, scheduled for removal
    CLARIFICATION = "clarification"  #: wording only; no wire change


@dataclass(frozen=True, slots=True)
class Cite:
    """Where a fact comes from: a revision and a spec page or schema definition."""

    revision: str
    source: str  #: e.g. ``basic/lifecycle.mdx`` or ``schema.json#/$defs/DiscoverResult``
    section: str = ""

    def __str__(self) -> str:
        where = f"{self.source} §{self.section}" if self.section else self.source
        return f"{self.revision}: {where}"

    def url(self) -> str:
        """A link to the public text of the spec (schema links point at the schema file)."""
        base = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main"
        if self.source.startswith(("https://", "http://")):  # a draft's or vendor's own text
            return self.source
        if self.source.startswith("schema"):
            return f"{base}/schema/{self.revision}/schema.json"
        if self.source.startswith(("docs/", "learn/")):
            return f"{base}/{self.source}"
        return f"{base}/docs/specification/{self.revision}/{self.source}"

    def to_dict(self) -> dict[str, str]:
        """As plain data (the JSON views of profiles and diffs, the migration guides')."""
        return {
            "revision": self.revision,
            "source": self.source,
            "section": self.section,
            "text": str(self),
            "url": self.url(),
        }


class Obligation(enum.Enum):
    """How strongly the spec binds one role to a change (RFC 2119 keywords)."""

    MUST = "MUST"  #: MUST, MUST NOT, REQUIRED: the role has to act, or it is not conformant
    SHOULD = "SHOULD"  #: SHOULD, SHOULD NOT, RECOMMENDED
    MAY = "MAY"  #: optional
    NONE = "none"  #: the change does not bind this role


@dataclass(frozen=True, slots=True)
class Binding:
    """What a change asks of one role: how strongly, and the spec's words for it.

    ``rule`` is a short phrase quoted (or closely paraphrased) from the spec with
    its RFC 2119 keyword, e.g. ``servers MUST implement this RPC``; ``cite`` is
    where it is written when that is not the change's own citation.
    """

    level: Obligation
    rule: str = ""
    cite: Cite | None = None


@dataclass(frozen=True, slots=True)
class Method:
    """One JSON-RPC method or notification of a revision."""

    kind: Kind
    direction: Direction
    capability: str | None = None  #: capability that gates it, e.g. ``tools`` or ``elicitation``
    #: The result body a simulated server answers this request with, where the simulator
    #: has no handler of its own for it (a method a draft or vendor profile adds); ``None``:
    #: the simulated server does not serve it. The fields every result of the revision
    #: must carry (``resultType``, caching hints) are added to it.
    answer: Mapping[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """A JSON-RPC error a revision defines: its number and the keys of its ``data``."""

    code: int
    message: str
    data: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class Deprecation:
    """A feature that still works but is scheduled for removal."""

    since: str
    removal: str
    migration: str
    cite: Cite


@dataclass(frozen=True, slots=True)
class Invalidation:
    """What a server notification makes stale in a client's result cache.

    A cached result of one of ``methods`` is dropped when the notification arrives
    (2026-07-28 ``server/utilities/caching.mdx`` §Interaction with Notifications: "the
    notification **invalidates** the cached response"). With ``match``, only entries
    whose request params hold the notification's value of that param are dropped
    (``notifications/resources/updated`` names one ``uri``). ``listen`` is the key of
    the ``subscriptions/listen`` filter that opts in to the notification where the
    revision delivers it only on a listen stream (2026-07-28 schema
    ``SubscriptionFilter``); None where it arrives unasked.
    """

    methods: tuple[str, ...]
    match: str | None = None
    listen: str | None = None


Value: TypeAlias = "Method | ErrorCode | Deprecation | Invalidation | AuthRule | str"

#: Tables whose rows are plain names.
SET_TABLES: Final = (
    "client_capabilities",  # dotted keys, e.g. ``roots.listChanged``
    "server_capabilities",
    "content_types",  # blocks in CallToolResult.content and PromptMessage.content
    "sampling_content_types",  # blocks in SamplingMessage.content
    "tool_fields",
    "call_tool_result_fields",
    "request_meta_required",  # keys of ``params._meta`` every request must carry
    "request_meta_optional",
    "result_meta_optional",
    "result_fields_required",  # fields every result must carry
    "cacheable_results",  # methods whose results carry the caching hints
    "cache_fields",  # the caching hints themselves
    "http_headers",  # request headers the Streamable HTTP transport defines
    "modern_error_codes",  # error names a dual-era client reads as "this server is modern"
    "unbatched_methods",  # requests a JSON-RPC batch must not carry (where batches exist)
    "features",  # user-facing features, for the features view of the matrix
)
#: Tables whose rows are name -> value.
#: ``auth``: authorization rules (:class:`~._auth.AuthRule`, read by the HTTP simulator)
MAPPING_TABLES: Final = ("methods", "errors", "deprecations", "cache_invalidations", "auth")
TABLES: Final = SET_TABLES + MAPPING_TABLES
#: Scalar settings a change may set.
SETTINGS: Final = (
    "era",
    "batching",  # JSON-RPC batches allowed
    "http_transport",  # "http+sse" | "streamable-http" | "streamable-http (POST only)"
    "sessions",  # Mcp-Session-Id sessions exist
    "version_header_absent",  # what an HTTP server assumes when MCP-Protocol-Version is absent
    "stdio_framing",
    "resource_not_found",  # the error name a server uses for an unknown resource
    "tool_input_errors",  # "protocol error" | "tool execution error (isError)"
    # the JSON Schema dialect of a tool schema without ``$schema`` (None: the revision names
    # none); ``basic/index.mdx`` §JSON Schema Usage from 2025-11-25
    "tool_schema_dialect",
    # what CallToolResult.structuredContent may be (None: the revision has no structured
    # output): "object" (2025-06-18 schema) or "any JSON value" (2026-07-28 schema)
    "structured_content",
)


@dataclass(frozen=True, slots=True)
class Change:
    """One changelog entry, with the table edits that make it true.

    ``id`` is stable across releases of mcp-skew: migration guides, findings
    and tests refer to it.
    """

    id: str
    summary: str
    cite: Cite
    impact: Impact
    add: Mapping[str, Any] = field(default_factory=dict)
    remove: Mapping[str, Iterable[str]] = field(default_factory=dict)
    replace: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    steps: tuple[str, ...] = ()  #: what to do about it, for the migration guide
    #: How strongly the spec binds each role (``"server"``, ``"client"``), stored because
    #: the table edits cannot say it (a new error code is "additive" to the tables, yet
    #: servers MUST send it). A role absent here: the guide derives its severity from
    #: the impact and the edits.
    severity: Mapping[str, Binding] = field(default_factory=dict)
    #: The transport the change is about: ``"any"``, or only ``"http"`` (Streamable HTTP and
    #: HTTP+SSE, including authorization, which is defined for HTTP transports only:
    #: 2025-03-26 basic/authorization.mdx §Protocol Requirements) or only ``"stdio"``. A
    #: guide for one transport (``migrate --transport``) leaves out the others' changes.
    transport: str = "any"
    revision: str = ""  #: filled in by ``evolve``

    def __post_init__(self) -> None:
        if self.transport not in CHANGE_TRANSPORTS:
            raise ProfileDefinitionError(
                f"change {self.id!r}: transport is one of {', '.join(CHANGE_TRANSPORTS)}, "
                f"not {self.transport!r}"
            )
        unknown = sorted(set(self.severity) - {"server", "client"})
        if unknown:
            raise ProfileDefinitionError(
                f"change {self.id!r}: severity is per role (server, client), not {unknown}"
            )
        for role, binding in self.severity.items():
            if binding.level is not Obligation.NONE and not binding.rule:
                raise ProfileDefinitionError(
                    f"change {self.id!r}: the {role} binding needs the rule it quotes"
                )

    def binding(self, role: str) -> Binding | None:
        """The stored binding of ``role``, or None when the profile leaves it to derivation."""
        return self.severity.get(role)

    def touches(self) -> tuple[str, ...]:
        """The tables and settings this change edits, sorted."""
        names = {*self.add, *self.remove, *self.replace, *self.settings}
        return tuple(sorted(names))


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything known about one revision; derived, frozen, comparable."""

    revision: str
    tables: Mapping[str, frozenset[str] | Mapping[str, Value]]
    settings: Mapping[str, Any]
    changes: tuple[Change, ...] = ()  #: the changes from ``previous``
    previous: Profile | None = None
    title: str = ""
    #: The version string it puts on the wire, where that is not its name: a draft's
    #: identity (``next``) and its wire string (the spec repository's draft declares its
    #: base's ``LATEST_PROTOCOL_VERSION``, 2026-07-28) are two values. Empty: the name.
    wire: str = ""

    @property
    def wire_version(self) -> str:
        """The version string this revision sends and recognises on the wire."""
        return self.wire or self.revision

    # -- reading -------------------------------------------------------------
    @property
    def era(self) -> Era:
        era = self.settings["era"]
        assert isinstance(era, Era)
        return era

    def names(self, table: str) -> frozenset[str]:
        """The row names of a table, whatever its kind."""
        rows = self.tables[table]
        return rows if isinstance(rows, frozenset) else frozenset(rows)

    @property
    def methods(self) -> Mapping[str, Method]:
        return self.tables["methods"]  # type: ignore[return-value]

    @property
    def errors(self) -> Mapping[str, ErrorCode]:
        return self.tables["errors"]  # type: ignore[return-value]

    @property
    def deprecations(self) -> Mapping[str, Deprecation]:
        return self.tables["deprecations"]  # type: ignore[return-value]

    def supports(self, method: str) -> bool:
        return method in self.methods

    def has(self, table: str, name: str) -> bool:
        return name in self.names(table)

    def error(self, name: str) -> ErrorCode:
        return self.errors[name]

    def method_names(self, kind: Kind, direction: Direction) -> frozenset[str]:
        """Names of methods of ``kind`` a peer may send in ``direction``."""
        return frozenset(
            name
            for name, spec in self.methods.items()
            if spec.kind is kind and spec.direction in (direction, Direction.BOTH)
        )

    def lineage(self) -> tuple[Profile, ...]:
        """This profile and every one before it, oldest first."""
        chain: list[Profile] = []
        node: Profile | None = self
        while node is not None:
            chain.append(node)
            node = node.previous
        return tuple(reversed(chain))

    def introduced_in(self, table: str, name: str) -> str | None:
        """The revision that added ``name`` to ``table`` most recently, by walking back."""
        found: str | None = None
        for node in self.lineage():
            if node.has(table, name) and (node.previous is None or not node.previous.has(table, name)):
                found = node.revision
        return found if self.has(table, name) else None

    # -- deriving ------------------------------------------------------------
    def evolve(self, *, revision: str, changes: Iterable[Change], title: str = "",
               wire: str = "") -> Profile:
        """A new revision: this one with ``changes`` applied, checked; ``wire``: the version
        string it puts on the wire where that is not ``revision`` (a draft's)."""
        tables = {name: _thaw(rows) for name, rows in self.tables.items()}
        settings = dict(self.settings)
        stamped = tuple(replace(change, revision=revision) for change in changes)
        _check_ids(revision, stamped, self)
        for change in stamped:
            _apply(revision, change, tables, settings)
        return Profile(
            revision=revision,
            tables=_freeze(tables),
            settings=MappingProxyType(settings),
            changes=stamped,
            previous=self,
            title=title,
            wire="" if wire == revision else wire,
        )


def create(
    *,
    revision: str,
    tables: Mapping[str, Any],
    settings: Mapping[str, Any],
    title: str = "",
) -> Profile:
    """The base revision, from its full table."""
    missing = [name for name in (*TABLES, *SETTINGS) if name not in {*tables, *settings}]
    unknown = [name for name in {*tables, *settings} if name not in {*TABLES, *SETTINGS}]
    if missing or unknown:
        raise ProfileDefinitionError(
            f"{revision}: base profile must define every table and setting; "
            f"missing {sorted(missing)}, unknown {sorted(unknown)}"
        )
    thawed = {name: _thaw_input(name, rows) for name, rows in tables.items()}
    return Profile(
        revision=revision,
        tables=_freeze(thawed),
        settings=MappingProxyType(dict(settings)),
        title=title,
    )


# -- applying a change ---------------------------------------------------------

_Rows: TypeAlias = "dict[str, Value | None]"


def _thaw(rows: frozenset[str] | Mapping[str, Value]) -> _Rows:
    if isinstance(rows, frozenset):
        return dict.fromkeys(sorted(rows))
    return dict(rows)


def _thaw_input(table: str, rows: Any) -> _Rows:
    if table in SET_TABLES:
        if isinstance(rows, Mapping | str):
            raise ProfileDefinitionError(f"table {table!r} takes a list of names")
        return dict.fromkeys(rows)
    if not isinstance(rows, Mapping):
        raise ProfileDefinitionError(f"table {table!r} takes a mapping of name to value")
    return dict(rows)


def _freeze(tables: Mapping[str, _Rows]) -> Mapping[str, frozenset[str] | Mapping[str, Value]]:
    frozen: dict[str, frozenset[str] | Mapping[str, Value]] = {}
    for name, rows in tables.items():
        if name in SET_TABLES:
            frozen[name] = frozenset(rows)
        else:
            frozen[name] = MappingProxyType({k: v for k, v in sorted(rows.items()) if v is not None})
    return MappingProxyType(frozen)


def _check_ids(revision: str, changes: tuple[Change, ...], base: Profile) -> None:
    """Rule ids are unique across the whole lineage, not just within one revision."""
    seen = {c.id: node.revision for node in base.lineage() for c in node.changes}
    for change in changes:
        if change.id in seen:
            where = "twice" if seen[change.id] == revision else f"already by {seen[change.id]}"
            raise ProfileDefinitionError(
                f"{revision}, change {change.id!r}: rule id {change.id!r} is used {where}"
            )
        seen[change.id] = revision


def _where(revision: str, change: Change, table: str) -> str:
    return f"{revision}, change {change.id!r}, table {table!r}"


def _apply(revision: str, change: Change, tables: dict[str, _Rows], settings: dict[str, Any]) -> None:
    for table in (*change.add, *change.remove, *change.replace):
        if table not in TABLES:
            raise ProfileDefinitionError(f"{_where(revision, change, table)}: no such table")
    for table, rows in change.add.items():
        try:
            thawed = _thaw_input(table, rows)
        except ProfileDefinitionError as exc:
            raise ProfileDefinitionError(f"{_where(revision, change, table)}: {exc}") from None
        for name, value in thawed.items():
            if name in tables[table]:
                raise ProfileDefinitionError(
                    f"{_where(revision, change, table)}: cannot add {name!r}, it already exists"
                )
            tables[table][name] = value
    for table, names in change.remove.items():
        for name in ([names] if isinstance(names, str) else names):
            if name not in tables[table]:
                raise ProfileDefinitionError(
                    f"{_where(revision, change, table)}: cannot remove {name!r}, it does not exist"
                )
            del tables[table][name]
    for table, rows in change.replace.items():
        if table in SET_TABLES:
            raise ProfileDefinitionError(
                f"{_where(revision, change, table)}: names in a set table cannot be replaced; "
                "remove the old one and add the new one"
            )
        for name, value in rows.items():
            if name not in tables[table]:
                raise ProfileDefinitionError(
                    f"{_where(revision, change, table)}: cannot replace {name!r}, it does not exist"
                )
            if tables[table][name] == value:
                raise ProfileDefinitionError(
                    f"{_where(revision, change, table)}: replacing {name!r} changes nothing"
                )
            tables[table][name] = value
    _apply_settings(revision, change, settings)


def _apply_settings(revision: str, change: Change, settings: dict[str, Any]) -> None:
    for name, value in change.settings.items():
        if name not in SETTINGS:
            raise ProfileDefinitionError(f"{_where(revision, change, name)}: no such setting")
        if settings[name] == value:
            raise ProfileDefinitionError(
                f"{_where(revision, change, name)}: setting {name!r} is already {value!r}"
            )
        settings[name] = value

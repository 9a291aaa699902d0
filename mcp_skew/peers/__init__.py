"""Peer specs as a person writes them, resolved above the simulator, and the catalogue of
named real implementations (data), below every feature.

A spec is one of

- ``@FILE``: a server saved by ``mcp-skew probe --save-peer FILE``, read by
  :func:`load_probe_peer` (``_saved``);
- ``NAME@VERSION[:MODE][+QUIRK...]``: a named real implementation, resolved by the
  first of the resolvers that knows the name (:data:`NAMED_RESOLVERS`; the built-in
  one is :func:`named_peer`, in :mod:`._lookup`, over the catalogue in
  :mod:`._catalogue`), with the spec's quirks added or overridden
  (:func:`mcp_skew.simulator.with_quirks`);
- anything else: the simulator's own notation (:func:`mcp_skew.simulator.parse_peer`).

A bridge (``--via``) is resolved by :func:`resolve_bridge`: a named one from
``_bridges.NAMED_BRIDGES``, else the simulator's bridge notation.

Everything that takes a peer spec from a person (the commands, the pytest plugin)
calls :func:`resolve_peer`; code that writes its own notation strings may call
``parse_peer``, which knows no names and no files. The resolvers are an explicit
tuple, not a registry: a caller with resolvers of its own passes
``resolvers=(*NAMED_RESOLVERS, mine)``.

The catalogue (:mod:`._catalogue`, data: each real implementation's release lines and
the simulator model of each: the family tables in :mod:`._python_sdk`,
:mod:`._typescript_sdk` and :mod:`._typescript_apps`, of the shape :mod:`._family`
says; the lookup of a name in :mod:`._lookup`) is exported here too: :data:`FAMILIES`,
:data:`REAL_CLIENTS`, :data:`REAL_SERVERS`, :func:`resolve` (a name's
:class:`Resolved` line and model, or None), :func:`named_peer`, :func:`builtin_peer`,
:func:`known_names`, :func:`model_names`, :func:`iter_models`. Installing those
implementations and checking the models against them (drift) is
:mod:`mcp_skew.realpeers`, a feature above this layer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from .._lazy import first_use
from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer, split_notation, with_quirks
from ..versions import REGISTRY, Registry, Role, did_you_mean
from ._sets import (
    BUILTIN_CLIENTS,
    BUILTIN_SERVERS,
    QUIRK_LABELS,
    builtin_peers,
    label_for,
    labelled,
    probe_clients,
    short_revision,
)

if TYPE_CHECKING:
    from ._bridges import NamedBridge, named_bridge, resolve_bridge
    from ._catalogue import FAMILIES, REAL_CLIENTS, REAL_SERVERS
    from ._family import Family, Model, Package, ReleaseLine
    from ._lookup import ROLES, Resolved, builtin_peer, known_names, model_names, named_peer, resolve
    from ._saved import PEER_FILE_FORMAT, load_probe_peer

__all__ = [
    "BUILTIN_CLIENTS",
    "BUILTIN_SERVERS",
    "FAMILIES",
    "PEER_FILE_FORMAT",
    "QUIRK_LABELS",
    "REAL_CLIENTS",
    "REAL_SERVERS",
    "ROLES",
    "Family",
    "Model",
    "NamedBridge",
    "Package",
    "ReleaseLine",
    "Resolved",
    "app_peers",
    "builtin_peer",
    "builtin_peers",
    "known_names",
    "label_for",
    "labelled",
    "load_probe_peer",
    "model_names",
    "named_bridge",
    "named_peer",
    "named_suggestion",
    "probe_clients",
    "resolve",
    "resolve_bridge",
    "resolve_peer",
    "short_revision",
]


@dataclass(frozen=True, slots=True)
class NamedResolver:
    """A source of named peers (``NAME@VERSION[:MODE]``).

    ``resolve(head, role)`` returns the :class:`~mcp_skew.simulator.PeerSpec` it knows,
    ``None`` for a name that is not its own, or raises :class:`~mcp_skew.errors.UsageError`
    for its own name with a version, mode or role it has no model for. ``names()``
    lists the names it knows as a person writes them (for the error on an unknown name).
    """

    resolve: Callable[[str, Role], PeerSpec | None]
    names: Callable[[], Sequence[str]]


def _named_peer(head: str, role: Role) -> PeerSpec | None:
    from ._lookup import named_peer  # noqa: PLC0415 - the catalogue loads on a first name

    return named_peer(head, role)


def _known_names() -> list[str]:
    from ._lookup import known_names  # noqa: PLC0415 - the catalogue loads on a first name

    return known_names()


#: The catalogue of real implementations in :mod:`._catalogue` (:func:`named_peer`,
#: :func:`known_names`), read on first use.
BUILTIN_RESOLVER: Final = NamedResolver(_named_peer, _known_names)
#: The resolvers :func:`resolve_peer` consults, in order.
NAMED_RESOLVERS: Final[tuple[NamedResolver, ...]] = (BUILTIN_RESOLVER,)


def named_peer_names(resolvers: Sequence[NamedResolver] = NAMED_RESOLVERS) -> list[str]:
    """Every name the resolvers know, in their order."""
    return [name for resolver in resolvers for name in resolver.names()]


def resolve_peer(spec: str, role: Role, registry: Registry = REGISTRY, *,
                 resolvers: Sequence[NamedResolver] = NAMED_RESOLVERS) -> PeerSpec:
    """The peer ``spec`` names for ``role`` (``client`` or ``server``), in any notation.

    A wrong spec raises :class:`~mcp_skew.errors.UsageError` with one line saying
    what is wrong (an unknown name lists the known ones).
    """
    text = spec.strip()
    if text.startswith("@"):
        from ._saved import load_probe_peer  # noqa: PLC0415 - only for @FILE

        return load_probe_peer(text[1:], role, registry)
    notation = split_notation(text)
    if "@" not in notation.head:
        return parse_peer(spec, role, registry)
    head = notation.head.strip()
    for resolver in resolvers:
        peer = resolver.resolve(head, role)
        if peer is not None:
            return with_quirks(replace(peer, registry=registry), notation.quirks, role, spec)
    names = named_peer_names(resolvers)
    known = ", ".join(names) or "none"
    raise UsageError(f"peer spec {spec!r}: unknown named peer {head!r}"
                     f"{named_suggestion(head, names)}; known: {known}")


def named_suggestion(head: str, names: Sequence[str]) -> str:
    """`` (did you mean py-mcp@2.3?)`` for ``py-mcpp@2.3``: the family closest to the one
    typed, with the version and mode as typed; else the closest whole name."""
    family, at, rest = head.partition("@")
    families = [name.partition("@")[0] for name in names]
    if at and family not in families:
        close = did_you_mean(family, families)
        if close:
            return close.replace("?)", f"@{rest}?)")
    return did_you_mean(head, [name.partition("[")[0] for name in names])


def app_peers(role: Role, registry: Registry) -> tuple[PeerSpec, ...]:
    """The apps matrix (``matrix --set apps``): the AI apps' named peers as rows (``client``);
    as columns (``server``) the built-in server kinds and :data:`APP_SERVERS`, labelled."""
    from ._catalogue import APP_CLIENTS, APP_SERVERS  # noqa: PLC0415 - the catalogue, on first use
    from ._lookup import builtin_peer  # noqa: PLC0415

    if role == "client":
        return tuple(builtin_peer(name, "client") for name in APP_CLIENTS)
    return (*builtin_peers("server", registry),
            *(labelled(replace(parse_peer(spec, "server"), registry=registry))
              for spec in APP_SERVERS))


#: The names read on first use (PEP 562): the catalogue of real implementations, the named
#: bridges and the saved peers, which the built-in peer sets (the default matrix) do not need.
_HOMES: Final[dict[str, str]] = {
    **dict.fromkeys(("NamedBridge", "named_bridge", "resolve_bridge"), "._bridges"),
    **dict.fromkeys(("FAMILIES", "REAL_CLIENTS", "REAL_SERVERS"), "._catalogue"),
    **dict.fromkeys(("Family", "Model", "Package", "ReleaseLine"), "._family"),
    **dict.fromkeys(("ROLES", "Resolved", "builtin_peer", "known_names", "model_names",
                     "named_peer", "resolve"), "._lookup"),
    **dict.fromkeys(("PEER_FILE_FORMAT", "load_probe_peer"), "._saved"),
}

__getattr__ = first_use(__name__, _HOMES)

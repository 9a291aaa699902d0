"""``mcp-skew matrix``: every client against every server, as a table.

The command's work is :func:`mcp_skew.matrix.run_command`'s, in the matrix's room. The
command line gives it what the matrix may not import, the features built on it: the rows
and columns (:func:`_peers`: the built-in or the apps' set, the servers a census database
holds, ``@census.sqlite``, or the specs given); the real-world matrix (``--set real``, the
named real implementations, or ``--run-real``, each pair run with the real packages) is
:func:`mcp_skew.realpeers.run_matrix`'s, the same work given the named peers and the real
runs.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..matrix import run_command
from ..peers import builtin_peers, labelled, resolve_peer
from ..simulator import PeerSpec
from ..versions import Registry, Role

__all__ = ["REGENERATE"]

#: The command that regenerates docs/matrix.md (quoted by its golden test).
REGENERATE = "mcp-skew matrix --format markdown --out docs/matrix.md"


def _peers(specs: list[str] | None, role: Role, registry: Registry, peer_set: str = "builtin"
           ) -> tuple[PeerSpec, ...]:
    """The rows or columns the specs give, else the set ``--set`` names (the real-world set's
    are :mod:`mcp_skew.realpeers`', which gives them before asking here)."""
    if not specs:
        if peer_set == "apps":  # the AI apps' named peers (docs/apps.md)
            from ..peers import app_peers  # noqa: PLC0415

            return app_peers(role, registry)
        return builtin_peers(role, registry)
    return tuple(peer for spec in specs for peer in _expand(spec, role, registry))


def _expand(spec: str, role: Role, registry: Registry) -> tuple[PeerSpec, ...]:
    """One spec's peers: every server a census inferred for ``@census.sqlite``."""
    if spec.strip().startswith("@"):
        from ..census import census_peers  # noqa: PLC0415 - only for @FILE

        found = census_peers(spec.strip()[1:], role)  # None: no census database
        if found is not None:
            return tuple(replace(p, registry=registry) for p in found)
    return (labelled(resolve_peer(spec, role, registry)),)


def _main(args: argparse.Namespace) -> int:
    if getattr(args, "peer_set", "builtin") == "real" or getattr(args, "run_real", False):
        from ..realpeers import run_matrix  # noqa: PLC0415 - named real peers only

        return run_matrix(args, _peers)
    return run_command(args, _peers)

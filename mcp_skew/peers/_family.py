"""The shape of the named-peer catalogue: a family of packages, its release lines, and
each line's simulator models with their evidence and what a drift check installs.

Also the shorthands the family tables share (revision lists, the 1.x SDKs' OAuth
quirks). The tables themselves are in :mod:`._python_sdk`, :mod:`._typescript_sdk`
and :mod:`._typescript_apps`; :mod:`._catalogue` gathers them, :mod:`._lookup`
resolves a name. Data only: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..versions import Role

__all__ = [
    "ALL_LEGACY",
    "AUTH_1X",
    "AUTH_1X_NOTE",
    "DUAL_ALL",
    "TO_0326",
    "TO_0618",
    "Ecosystem",
    "Family",
    "Model",
    "Package",
    "ReleaseLine",
    "Version",
]

Version = tuple[int, int, int]
Ecosystem = Literal["pypi", "npm"]

#: Every legacy revision the registry knows, newest first (what SDKs list as supported).
ALL_LEGACY = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
TO_0618 = "2025-06-18,2025-03-26,2024-11-05"
TO_0326 = "2025-03-26,2024-11-05"
DUAL_ALL = f"dual:2026-07-28,{ALL_LEGACY}"
#: How the Python 1.x and TypeScript 1.x OAuth clients authorize (scenario auth), read from
#: mcp/client/auth/oauth2.py and dist/esm/client/auth.js and checked by
#: tests/interop/test_auth_realpeer.py: without protected resource metadata the MCP origin
#: and the 2025-03-26 default endpoints; dynamic registration only; resource only once
#: protected resource metadata was found.
AUTH_1X = "+auth-origin-fallback+dcr-only+resource-with-prm-only+default-endpoints"
AUTH_1X_NOTE = ("; its OAuthClientProvider authorizes by 2025-11-25's discovery with the "
                "2025-03-26 fallbacks, registers dynamically only, sends resource only "
                "with protected resource metadata (tests/interop/test_auth_realpeer.py)")


@dataclass(frozen=True, slots=True)
class Package:
    """What a drift check installs to run the real thing."""

    ecosystem: Ecosystem
    requirements: tuple[str, ...]  #: pip requirements or npm package specs
    version: str  #: the version of the family's package that this installs

    @property
    def text(self) -> str:
        return " ".join(self.requirements)


@dataclass(frozen=True, slots=True)
class Model:
    """One role and set-up of a release line: its simulator notation and its evidence."""

    notation: str  #: the simulator peer spec this set-up behaves like
    evidence: str  #: where the behaviour was measured or read
    #: arguments for the runner script: the server script's (after the interpreter or
    #: ``node_modules``), or the client driver's mode flags
    args: tuple[str, ...] = ()
    #: what the model knowingly leaves out (each a sentence; the docs list them)
    gaps: tuple[str, ...] = ()
    #: a shorter probe wait the drift check gives the real client (and the model) when
    #: the real default would make a check slow (TypeScript v2: 60 s)
    drift_probe_ms: int | None = None
    #: (clients) simulated servers the drift check adds to the common set, for a decision
    #: point of this client's own (a result it refuses)
    drift_servers: tuple[str, ...] = ()
    #: (servers) the scenario a drift check plays after negotiation: ``drift`` (the default
    #: scenario's protocol-level steps, against the project's test server) or ``protocol``
    #: (list the tools, read a missing resource: for a server with its own tools)
    drift_scenario: str = "drift"
    #: (servers) the runner script's arguments for its Streamable HTTP set-up (the check adds
    #: ``--port N``); empty: the model is checked over stdio only
    http_args: tuple[str, ...] = ()
    #: the drift test that checks this model, where the stdio drift check cannot (a client
    #: that speaks only Streamable HTTP upstream: its authorization against serve --http)
    checked_by: str = ""
    #: public reports this model is built from (links), where the release cannot be run here
    #: (an account needed, or the behaviour behind a flag the vendor sets): the model is
    #: marked ``reported`` wherever it shows, never as measured
    reported: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReleaseLine:
    """A release line: versions ``first`` up to the next line's first, and its models."""

    first: Version
    span: str  #: the versions it covers, as a person reads them (``1.10.0-1.13.x``)
    installs: Package | None  #: the package the drift checks install (None: none exists)
    servers: dict[str, Model] = field(default_factory=dict)  #: mode -> model ('' = default)
    clients: dict[str, Model] = field(default_factory=dict)

    def models(self, role: Role) -> dict[str, Model]:
        return self.servers if role == "server" else self.clients

    @property
    def first_text(self) -> str:
        """``first`` as names write it: ``1.10``, or ``1.9.4`` where the patch is not 0."""
        return ".".join(map(str, self.first if self.first[2] else self.first[:2]))


@dataclass(frozen=True, slots=True)
class Family:
    """One package (or package pair) and its release lines, oldest first."""

    name: str  #: the notation's name (``py-mcp``)
    package: str  #: the package, as its registry names it
    lines: tuple[ReleaseLine, ...]
    #: the server / client script that runs it (in ``mcp_skew/realpeers/servers/``)
    server_script: str = ""
    client_script: str = ""

    def majors(self) -> list[int]:
        return sorted({line.first[0] for line in self.lines})

"""What to probe and how: the server (a command, a URL, or a simulated peer) and the bounds."""

from __future__ import annotations

import shlex
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..simulator import PeerSpec
from ..versions import REGISTRY, Registry
from ..wire import HttpLink, JsonlRecorder, Limits, StdioLink
from ._links import ProbeLink, SimulatedLink

__all__ = ["ProbeOptions", "Target"]


@dataclass(frozen=True, slots=True)
class Target:
    """The real server: a command for stdio, or a URL for Streamable HTTP."""

    command: tuple[str, ...] = ()
    url: str | None = None
    sse_url: str | None = None  #: where a 2024-11-05 client GETs its SSE stream (default: url)
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    headers: Mapping[str, str] | None = None
    #: a simulated server instead (in memory, on a simulated clock): the probe's self-test
    simulated: PeerSpec | None = None

    @property
    def transport(self) -> str:
        return "memory" if self.simulated else "http" if self.url else "stdio"

    def describe(self) -> str:
        if self.simulated is not None:
            return f"simulated {self.simulated.name}"
        return self.url or shlex.join(self.command)

    def label(self) -> str:
        """A short name for tables: the script (or program) name, or the host."""
        if self.simulated is not None:
            return f"probe:{self.simulated.name}"
        if self.url:
            return "probe:" + (urllib.parse.urlsplit(self.url).netloc or self.url)
        scripts = [c for c in self.command[1:] if not c.startswith("-")]
        return "probe:" + Path(scripts[0] if scripts else self.command[0]).name

    def open(self, *, deadline_ms: int, recorder: JsonlRecorder | None, limits: Limits,
             close_grace_ms: int, registry: Registry, timeout_ms: int = 5_000) -> ProbeLink:
        """The link to the server; ``timeout_ms`` (``--timeout``) bounds, in all, each HTTP
        exchange no request's own wait bounds (a notification's POST, an HTTP+SSE GET)."""
        if self.simulated is not None:
            return SimulatedLink(self.simulated)
        if self.url:
            link = HttpLink(self.url, sse_url=self.sse_url, headers=self.headers,
                            deadline_ms=deadline_ms, recorder=recorder, limits=limits,
                            registry=registry, timeout_ms=timeout_ms)
            link.check_listening()  # nothing listening: TransportError, like a missing command
            return link
        return StdioLink(self.command, cwd=self.cwd, env=self.env, deadline_ms=deadline_ms,
                         recorder=recorder, limits=limits, close_grace_ms=close_grace_ms)


@dataclass(frozen=True, slots=True)
class ProbeOptions:
    """How to probe. Times are milliseconds."""

    timeout_ms: int = 5_000  #: one request
    probe_timeout_ms: int = 3_000  #: a dual-era client's server/discover probe
    client_timeout_ms: int = 60_000  #: one client's whole conversation
    #: a server's first answer after it starts (its cold start), a bound of its own
    startup_timeout_ms: int = 60_000
    close_grace_ms: int = 1_000  #: after closing stdin, before SIGTERM
    jobs: int = 4
    tool: str | None = None  #: a tool safe to call
    tool_args: Mapping[str, Any] = field(default_factory=dict)
    error_probes: bool = False  #: also read a missing resource and call a missing tool
    record_dir: Path | None = None
    schemas: str | Path | None = None  #: the official schemas (else $MCP_SKEW_SCHEMAS)
    clients: tuple[PeerSpec, ...] | None = None  #: None: every built-in client
    #: where revisions are looked up; its third-party revisions add clients to the built-in set
    registry: Registry = REGISTRY
    prober: bool = True
    limits: Limits = field(default_factory=Limits)
    #: revisions whose client must negotiate them (``--require``); each one's client is run
    #: even when ``clients`` leaves it out, so the verdict does not depend on the set
    required: tuple[str, ...] = ()
    #: every client run for real, a server each (else, with the default set on stdio, the
    #: clients the model needs run for real and the others are predicted)
    thorough: bool = False
    #: named clients (with their own discovery waits) the cold start is compared with
    named_clients: tuple[PeerSpec, ...] = ()

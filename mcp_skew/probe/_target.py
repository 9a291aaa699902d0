"""What to probe and how: the server (a command, a URL, or a simulated peer) and the bounds."""

from __future__ import annotations

import json
import shlex
import tomllib
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..simulator import PeerSpec
from ..simulator.bridges import BridgeSpec
from ..versions import REGISTRY, Registry
from ..wire import HttpLink, JsonlRecorder, Limits, StdioLink
from ._links import ProbeLink, SimulatedLink

__all__ = ["ProbeOptions", "Target", "command_label"]


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
    #: a server written in Python, in this process, probed as a stdio server is (each call
    #: opens a link to a fresh server): hand-written servers in fast tests
    inprocess: Callable[[], ProbeLink] | None = field(default=None, compare=False)
    #: the name in tables, saved peers and reports (``--label``); else from the command
    name: str | None = None

    @property
    def transport(self) -> str:
        return "memory" if self.simulated else "http" if self.url else "stdio"

    def describe(self) -> str:
        if self.simulated is not None:
            return f"simulated {self.simulated.name}"
        if self.inprocess is not None and not self.command:
            return "in-process server"
        return self.url or shlex.join(self.command)

    def label(self) -> str:
        """A short name for tables, saved peers and reports: ``--label`` when given, else
        ``probe:`` and the package the command runs (a ``package.json`` or
        ``pyproject.toml`` name above its script, a ``-m`` module, an ``npx``/``uvx``
        package), else the script's parent folder and name, or the host of a URL."""
        if self.name:
            return self.name
        if self.simulated is not None:
            return f"probe:{self.simulated.name}"
        if self.url:
            return "probe:" + (urllib.parse.urlsplit(self.url).netloc or self.url)
        if not self.command:
            return "probe:in-process"
        return "probe:" + command_label(self.command, self.cwd)

    def open(self, *, deadline_ms: int, recorder: JsonlRecorder | None, limits: Limits,
             close_grace_ms: int, registry: Registry, timeout_ms: int = 5_000) -> ProbeLink:
        """The link to the server; ``timeout_ms`` (``--timeout``) bounds, in all, each HTTP
        exchange no request's own wait bounds (a notification's POST, an HTTP+SSE GET)."""
        if self.simulated is not None:
            return SimulatedLink(self.simulated)
        if self.inprocess is not None:
            return self.inprocess()
        if self.url:
            link = HttpLink(self.url, sse_url=self.sse_url, headers=self.headers,
                            deadline_ms=deadline_ms, recorder=recorder, limits=limits,
                            registry=registry, timeout_ms=timeout_ms)
            link.check_listening()  # nothing listening: TransportError, like a missing command
            return link
        return StdioLink(self.command, cwd=self.cwd, env=self.env, deadline_ms=deadline_ms,
                         recorder=recorder, limits=limits, close_grace_ms=close_grace_ms)


#: programs that run the command after them (their own options and ``K=V`` skipped)
_WRAPPERS: Final = frozenset({"env", "npx", "uvx", "uv", "pipx", "node", "deno", "bun", "python",
                              "python3", "exec", "nice", "timeout", "run", "tool", "--"})
#: programs whose next word is a package name, not a file
_RUNNERS: Final = frozenset({"npx", "uvx", "pipx", "bunx", "pnpx"})


#: folders a package keeps its runnable code in: a manifest above them names the script's package
_CODE_FOLDERS: Final = frozenset({"dist", "build", "lib", "src", "bin", "out", "esm", "cjs"})


def _package_name(start: Path) -> str | None:
    """The name in the ``package.json`` or ``pyproject.toml`` of the package a script is in:
    at ``start``, or above it through folders that hold a package's code (``dist``, ``src``,
    ...; at most 4 up), so a test script in a repository's ``tests/`` is not named after the
    repository; None when none is found or it names nothing."""
    folders = [start]
    while len(folders) < 4 and folders[-1].parent != folders[-1] and (
            folders[-1].name in _CODE_FOLDERS or folders[-1].parent.name in _CODE_FOLDERS):
        folders.append(folders[-1].parent)
    for folder in folders:
        try:
            pkg = folder / "package.json"
            if pkg.is_file() and pkg.stat().st_size < 1_000_000:
                name = json.loads(pkg.read_text(encoding="utf-8")).get("name")
                if isinstance(name, str) and name:
                    return name
            project = folder / "pyproject.toml"
            if project.is_file() and project.stat().st_size < 1_000_000:
                name = tomllib.loads(project.read_text(encoding="utf-8")).get(
                    "project", {}).get("name")
                if isinstance(name, str) and name:
                    return name
        except (OSError, ValueError, AttributeError):
            continue  # unreadable or not what it says: look further up
    return None


def command_label(command: tuple[str, ...], cwd: str | None = None) -> str:
    """The default label of a server command (see :meth:`Target.label`)."""
    words = list(command)
    runner = False
    while words:
        word = words[0]
        base = Path(word).name
        if base in _RUNNERS:
            runner = True
        if ("=" in word and not word.startswith("-")) or (word.startswith("-") and word != "-m"):
            words.pop(0)
            continue
        if word == "-m" and len(words) > 1:
            return words[1]
        if base in _WRAPPERS or base in _RUNNERS or base.startswith("python3."):
            words.pop(0)
            continue
        break
    if not words:
        return Path(command[0]).name
    first = words[0]
    if runner:
        return first
    path = Path(first)
    if not path.is_absolute() and cwd:
        path = Path(cwd) / path
    if path.suffix or "/" in first:  # a script: its package, else its folder and name
        found = _package_name(path.resolve().parent) if path.exists() else None
        if found:
            return found
        folder = path.resolve().parent.name if path.exists() else path.parent.name
        return f"{folder}/{path.name}" if folder else path.name
    return path.name


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
    #: the bridge the probe started in front of the server (``probe --via``), its model
    via: BridgeSpec | None = None

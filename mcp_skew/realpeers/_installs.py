"""Installs for the drift checks: a named peer's real package in a cached environment, and
the commands that start its server script, its client driver, or a simulated server.

The driver scripts live in ``servers/`` beside this module; :func:`prepare` installs
several packages at once (the real-world matrix and the drift checks share the cache).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .._stopping import gather
from ..peers import (
    Family,
    Model,
    Package,
)
from ._envs import EnvironmentUnavailable, ensure_npm_env, ensure_python_env

__all__ = [
    "SERVERS_DIR",
    "Install",
    "client_command",
    "install",
    "prepare",
    "serve_command",
    "server_command",
]

SERVERS_DIR: Final = Path(__file__).resolve().parent / "servers"


@dataclass(frozen=True, slots=True)
class Install:
    """A ready environment for one package."""

    package: Package
    root: Path  #: the venv, or the npm prefix's node_modules
    seconds: float
    cached: bool

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"


def install(package: Package) -> Install:
    """Build (or reuse) the environment; raises :class:`EnvironmentUnavailable`."""
    if package.ecosystem == "pypi":
        env = ensure_python_env(package.requirements)
        return Install(package, env.root, env.install_seconds, env.cached)
    npm = ensure_npm_env(package.requirements)
    return Install(package, npm.node_modules, npm.install_seconds, npm.cached)


def prepare(packages: Sequence[Package], jobs: int = 2) -> dict[Package, Install | str]:
    """Install several packages in parallel; each maps to its environment or the reason it
    could not be built (so a test can skip with it)."""
    unique = list(dict.fromkeys(packages))

    def one(package: Package) -> Install | str:
        try:
            return install(package)
        except EnvironmentUnavailable as exc:
            return str(exc)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return dict(zip(unique, gather([pool.submit(one, p) for p in unique]), strict=True))


def server_command(family: Family, model: Model, env: Install) -> list[str]:
    """The command that starts the real server of ``model``."""
    script = str(SERVERS_DIR / family.server_script)
    if env.package.ecosystem == "pypi":
        return [str(env.python), script, *model.args]
    return ["node", script, str(env.root), *model.args]


def client_command(family: Family, model: Model, env: Install, server: Sequence[str],
                   probe_ms: int | None = None) -> list[str]:
    """The command that runs the real client of ``model`` against ``server``."""
    script = str(SERVERS_DIR / family.client_script)
    if env.package.ecosystem == "pypi":
        extra = ["--probe-timeout", f"{probe_ms / 1000:g}"] if probe_ms else []
        return [str(env.python), script, *model.args, *extra, "--", *server]
    extra = ["--probe-timeout", str(probe_ms)] if probe_ms else []
    return ["node", script, str(env.root), *model.args, *extra, "--", *server]


def serve_command(spec: str, log: Path) -> list[str]:
    """``mcp-skew serve SPEC`` as a child process, writing its wire log to ``log``."""
    return [sys.executable, "-m", "mcp_skew", "serve", spec, "--record", str(log), "-q"]

"""From a listing's package to a server command: configuration, install, the isolated argv.

The fields read here are those of the registry's ``server.json`` (modelcontextprotocol/
registry ``docs/reference/server-json/generic-server-json.md`` and the ``Package``,
``Input``, ``PositionalArgument``, ``NamedArgument``, ``KeyValueInput`` schemas of
``docs/reference/api/openapi.yaml``):

- an input (argument, environment variable, header) takes its ``value``, else its
  ``default``; ``{name}`` in a value is replaced from its ``variables`` the same way;
- an input that ``isRequired`` with neither (an API key, a path to a user's data)
  needs configuration a census cannot invent: the entry is ``needs-config``;
- a positional argument is its value; a named one is ``--flag=value``
  (``NamedArgument``: "A command-line ``--flag={value}``"), or the bare flag without a value;
- ``npm`` packages install with ``npm install`` and run their ``bin`` with node;
  ``pypi`` packages install with pip and run their console script (registry
  ``docs/modelcontextprotocol-io/package-types.mdx``), each in the real-peer
  environment cache (:mod:`mcp_skew.realpeers._envs`), keyed by the pinned version.

The argument list is never given to a shell: the registry's ``Argument`` schema warns
that arguments may carry injection attempts, and suggests exactly that.
"""

from __future__ import annotations

import configparser
import functools
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..realpeers import EnvironmentUnavailable, ensure_npm_env, ensure_python_env
from ._bytecode import compile_venv_apart
from ._listing import Job

__all__ = ["InstalledPackage", "LaunchPlan", "NeedsConfig", "Unsupported", "install", "limits_argv",
           "resolve_config", "sandbox_argv", "sandbox_tool"]

#: Package registries the census installs from (registry ``Package.registryType`` examples).
SUPPORTED: Final = ("npm", "pypi")
_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
LIMITS_SCRIPT: Final = Path(__file__).with_name("_limits.py")


class NeedsConfig(Exception):
    """An input is required and has neither a value nor a default."""


class Unsupported(Exception):
    """A package the census cannot install or start (another registry, a non-stdio transport)."""


@dataclass(frozen=True, slots=True)
class LaunchPlan:
    """The resolved configuration: arguments and environment, before any install."""

    runtime_args: tuple[str, ...]
    package_args: tuple[str, ...]
    env: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class InstalledPackage:
    """An installed package: the command that starts it and what is known of its SDK."""

    command: tuple[str, ...]
    seconds: float
    cached: bool
    dependencies: Mapping[str, str]  #: installed MCP SDK packages and their versions
    root: Path | None = None  #: the environment (kept visible when a sandbox hides HOME)


# -- configuration -------------------------------------------------------------------------------
def _value(item: Mapping[str, Any], label: str) -> str | None:
    """An input's value (``{var}`` replaced), its default, or None; NeedsConfig if required."""
    value = item.get("value")
    if value is None:
        value = item.get("default")
    if value is None:
        if item.get("isRequired"):
            raise NeedsConfig(f"{label} is required and has no default")
        return None
    variables = item.get("variables") or {}

    def substitute(match: re.Match[str]) -> str:
        var = variables.get(match.group(1))
        if var is None:
            return match.group(0)  # left unchanged (schema Input.value)
        got = _value(var, f"{label} variable {match.group(1)}")
        return match.group(0) if got is None else got

    return _VAR.sub(substitute, str(value))


def _arguments(items: Sequence[Mapping[str, Any]], where: str) -> tuple[str, ...]:
    out: list[str] = []
    for i, item in enumerate(items):
        label = f"{where}[{i}] {item.get('name') or item.get('valueHint') or ''}".strip()
        value = _value(item, label)
        if item.get("type") == "named":
            out.append(str(item["name"]) if value is None else f"{item['name']}={value}")
        elif value is not None:
            out.append(value)
    return tuple(out)


def resolve_config(job: Job) -> LaunchPlan:
    """Arguments and environment of a package (or headers of a remote); NeedsConfig if missing."""
    spec = job.spec
    if job.kind == "remote":
        headers = {h["name"]: v for h in spec.get("headers") or []
                   if (v := _value(h, f"header {h['name']}")) is not None}
        return LaunchPlan((), (), headers)
    env = {e["name"]: v for e in spec.get("environmentVariables") or []
           if (v := _value(e, f"environment variable {e['name']}")) is not None}
    return LaunchPlan(_arguments(spec.get("runtimeArguments") or [], "runtimeArguments"),
                  _arguments(spec.get("packageArguments") or [], "packageArguments"), env)


# -- install -----------------------------------------------------------------------------------
def _npm_bin(node_modules: Path, identifier: str) -> Path:
    """The script a package's ``bin`` names (the one named like the package, else the first)."""
    manifest = node_modules / identifier / "package.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EnvironmentUnavailable(f"cannot read {manifest}: {exc}") from exc
    bins = data.get("bin")
    if isinstance(bins, str):
        return node_modules / identifier / bins
    if isinstance(bins, dict) and bins:
        short = identifier.rsplit("/", 1)[-1]
        name = short if short in bins else sorted(bins)[0]
        return node_modules / identifier / str(bins[name])
    raise EnvironmentUnavailable(f"npm package {identifier} has no bin to run")


def _npm_sdk(node_modules: Path) -> dict[str, str]:
    sdk = node_modules / "@modelcontextprotocol" / "sdk" / "package.json"
    try:
        return {"@modelcontextprotocol/sdk": str(json.loads(sdk.read_text())["version"])}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _dists(root: Path) -> dict[str, Path]:
    """Installed distributions of a venv: normalised name -> its ``.dist-info`` folder."""
    out = {}
    for info in sorted(root.glob("lib/python*/site-packages/*.dist-info")):
        out[_normalise(info.name.removesuffix(".dist-info").rsplit("-", 1)[0])] = info
    return out


def _py_sdk(dists: Mapping[str, Path]) -> dict[str, str]:
    """The installed MCP SDKs (``mcp``, ``fastmcp``) and their versions."""
    return {name: info.name.removesuffix(".dist-info").rsplit("-", 1)[1]
            for name, info in dists.items() if name in ("mcp", "fastmcp")}


def _console_script(root: Path, identifier: str, dists: Mapping[str, Path]) -> Path:
    """The package's console script named like it, else its first one."""
    bindir = root / "bin"
    info = dists.get(_normalise(identifier))
    scripts: list[str] = []
    if info is not None and (info / "entry_points.txt").is_file():
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(info / "entry_points.txt", encoding="utf-8")
        if parser.has_section("console_scripts"):
            scripts = sorted(parser.options("console_scripts"))
    for name in (identifier, *scripts):
        if (bindir / name).is_file():
            return bindir / name
    raise EnvironmentUnavailable(f"pypi package {identifier} has no console script to run")


def install(job: Job, *, cache_dir: Path | None, local_root: Path | None,
            timeout: float) -> InstalledPackage:
    """Install the job's package at its pinned version (cached); EnvironmentUnavailable if not."""
    spec = job.spec
    kind, ident, version = spec["registryType"], spec["identifier"], spec.get("version")
    if kind == "local" and local_root is not None:  # test hook: a script under --local-root
        script = (local_root / ident).resolve()
        if not script.is_file() or not script.is_relative_to(local_root.resolve()):
            raise EnvironmentUnavailable(f"no local package {ident!r} under {local_root}")
        return InstalledPackage((sys.executable, str(script)), 0.0, True, {})
    if kind not in SUPPORTED:
        raise Unsupported(f"registryType {kind!r}: the census installs from "
                          + " and ".join(SUPPORTED))
    if not version:
        raise Unsupported("the package has no pinned version")
    if kind == "npm":
        node = shutil.which("node")
        if node is None:
            raise EnvironmentUnavailable("node is not installed")
        env = ensure_npm_env([f"{ident}@{version}"], cache_dir=cache_dir, timeout=timeout)
        return InstalledPackage((node, str(_npm_bin(env.node_modules, ident))), env.install_seconds,
                       env.cached, _npm_sdk(env.node_modules), env.root)
    # uv's files are hard links of its cache: each shared file is compiled once (._bytecode),
    # in a child process, so that venvs installed side by side compile on every CPU
    py = ensure_python_env([f"{ident}=={version}"], cache_dir=cache_dir, timeout=timeout,
                           compile_bytecode=functools.partial(compile_venv_apart,
                                                              timeout=timeout))
    dists = _dists(py.root)
    return InstalledPackage((str(_console_script(py.root, ident, dists)),), py.install_seconds,
                   py.cached, _py_sdk(dists), py.root)


# -- isolation -----------------------------------------------------------------------------------
def limits_argv(cpu_s: int, mem_mb: int, nproc: int, fsize_mb: int) -> tuple[str, ...]:
    """The wrapper that sets the resource limits and execs the server (``_limits.py``)."""
    return (sys.executable, "-I", "-S", str(LIMITS_SCRIPT), str(cpu_s), str(mem_mb),
            str(nproc), str(fsize_mb), "--")


@functools.cache
def _sandbox_works(path: str) -> bool:
    """Whether the tool can make a sandbox here (bwrap needs user namespaces, which a
    container may not give); asked once per process."""
    probe = ((path, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "true")
             if Path(path).name != "firejail" else (path, "--quiet", "--noprofile", "--", "true"))
    try:
        return subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def sandbox_tool(name: str) -> str | None:
    """The sandbox to use: ``auto`` finds a working bwrap, then firejail, else none;
    ``none`` uses none; a tool named outright must work (Unsupported if not)."""
    if name == "none":
        return None
    for tool in ("bwrap", "firejail") if name == "auto" else (name,):
        path = shutil.which(tool)
        if path is not None and _sandbox_works(path):
            return path
    if name != "auto":
        raise Unsupported(f"--sandbox {name}: not installed, or it cannot make a sandbox here")
    return None


def visible(installed: InstalledPackage) -> tuple[Path, ...]:
    """What a registry package needs to see when the sandbox hides HOME: its environment, the
    installation of each program it starts (``prefix/bin/prog``: node's, the venv's base
    Python) and the Python that built its venv."""
    prefixes = {Path(part).resolve().parents[1] for part in installed.command[:1]
                if Path(part).is_absolute()}
    roots = {installed.root} if installed.root is not None else set()
    return tuple(sorted(roots | prefixes | {Path(sys.base_prefix).resolve()}))


def sandbox_argv(tool: str, scratch: Path, network: bool, *, hide: Path | None = None,
                 keep: Sequence[Path] = ()) -> tuple[str, ...]:
    """A read-only view of the machine with only ``scratch`` writable, and no network unless
    asked. bwrap also puts an empty folder over ``hide`` (the census user's home, with its
    keys and tokens) and shows each of ``keep`` that is inside it again, read-only."""
    if Path(tool).name == "firejail":
        return (tool, "--quiet", "--noprofile", f"--whitelist={scratch}", "--read-only=/",
                f"--read-write={scratch}", *(() if network else ("--net=none",)), "--")
    over: tuple[str, ...] = ()
    if hide is not None and not scratch.is_relative_to(hide):
        over = ("--tmpfs", str(hide))
        for path in keep:
            if path.is_relative_to(hide):
                over += ("--ro-bind", str(path), str(path))
    return (tool, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *over,
            "--bind", str(scratch), str(scratch), "--unshare-all",
            *(("--share-net",) if network else ()), "--die-with-parent", "--")

"""Isolated, cached environments for real MCP implementations.

A real peer (the official Python SDK ``mcp`` at some release, ``fastmcp``, the
TypeScript SDK) is installed once into its own directory under the cache root
and reused afterwards.  The directory name is a hash of the requirement list,
so the same list always maps to the same environment.

Cache layout::

    $MCP_SKEW_CACHE/envs/py-<hash>/      (a venv; ``bin/python``)
    $MCP_SKEW_CACHE/envs/npm-<hash>/     (``npm install --prefix``; ``node_modules/``)

``$MCP_SKEW_CACHE`` defaults to ``~/.cache/mcp-skew``.  Each environment holds
a marker file, ``.mcp-skew-ready.json``, written only after the install
succeeded; a directory without it is a leftover of an interrupted install and
is removed and built again.  A lock file beside the directory serialises
concurrent builders of the same environment.

Python environments are filled by ``uv`` when it can run here (the ``uv`` package's binary,
a dependency of the ``test`` and ``uv`` extras, else a ``uv`` on PATH), by ``pip`` otherwise;
``MCP_SKEW_INSTALLER=pip`` (or ``uv``) chooses outright (:func:`installer`). Both install
the same requirement list into the same directory, under the same key: an environment built
by one is reused by the other. ``uv`` keeps its download cache beside the environments,
``$MCP_SKEW_CACHE/uv`` (unless ``UV_CACHE_DIR`` says where), so that its files are hard
linked into each venv (one copy on disk; uv copies where it cannot link, never symlinks,
so a census sandbox that shows only the venv shows whole files) and a CI cache of
``$MCP_SKEW_CACHE`` keeps it between runs. The venv itself is made by ``python -m venv``
either way, ``--without-pip`` for uv, which needs no pip inside it.

Every failure to build (registry unreachable, no such version, resolver
conflict, missing ``npm``) raises :class:`EnvironmentUnavailable`, whose
message ends with the installer's last output lines, so a test can
``pytest.skip(str(exc))``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MARKER_NAME",
    "EnvironmentUnavailable",
    "NpmEnv",
    "PythonEnv",
    "cache_root",
    "ensure_npm_env",
    "ensure_python_env",
    "env_key",
    "find_uv",
    "install_command",
    "installer",
    "npm_env",
    "python_env",
]

MARKER_NAME = ".mcp-skew-ready.json"
_TAIL_LINES = 15
_DEFAULT_TIMEOUT = 900.0
#: ``MCP_SKEW_INSTALLER``: ``auto`` (uv when it can run here, else pip), ``uv`` or ``pip``.
INSTALLERS = ("auto", "uv", "pip")


class EnvironmentUnavailable(RuntimeError):
    """A real-peer environment could not be built (network, registry, resolver, tool)."""


class _CannotRun(EnvironmentUnavailable):
    """The installer itself could not be started (not there, not executable here)."""


@dataclass(frozen=True)
class PythonEnv:
    """A ready venv holding a requirement list."""

    root: Path
    python: Path
    requirements: tuple[str, ...]
    install_seconds: float
    """Wall time of the install that built the env (read back from the marker when cached)."""
    cached: bool
    """True when this call found the env already built."""
    installer: str = ""
    """``uv`` or ``pip``: what filled the env (``""``: a cached env built before this was kept)."""


@dataclass(frozen=True)
class NpmEnv:
    """A ready ``npm install --prefix`` directory holding a package set."""

    root: Path
    node_modules: Path
    packages: tuple[str, ...]
    install_seconds: float
    cached: bool


def cache_root() -> Path:
    """``$MCP_SKEW_CACHE`` if set and non-empty, else ``~/.cache/mcp-skew``."""
    configured = os.environ.get("MCP_SKEW_CACHE", "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "mcp-skew"


def env_key(kind: str, specs: Sequence[str], *, salt: str = "") -> str:
    """Stable directory name for a spec list: order and duplicates do not matter."""
    normalised = sorted({s.strip() for s in specs if s.strip()})
    payload = json.dumps({"kind": kind, "specs": normalised, "salt": salt}, sort_keys=True)
    digest = hashlib.sha256(payload.encode()).hexdigest()[:16]
    return f"{kind}-{digest}"


def _tail(text: str, lines: int = _TAIL_LINES) -> str:
    kept = [ln for ln in text.strip().splitlines() if ln.strip()][-lines:]
    return "\n".join(kept)


def _run(cmd: Sequence[str], what: str, *, timeout: float, cwd: Path | None = None) -> None:
    """Run an installer as a family of ours (:mod:`..wire._procs`): whatever stops mcp-skew,
    a signal or SIGKILL, stops it and what it started too."""
    from ..wire import end, spawn  # noqa: PLC0415 - the wire loads pydantic: on use only

    try:
        proc = spawn(list(cmd), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT)
    except FileNotFoundError as exc:
        raise _CannotRun(f"{what}: executable not found: {cmd[0]}") from exc
    except OSError as exc:
        raise _CannotRun(f"{what}: cannot run {cmd[0]}: {exc.strerror or exc}"
                                     ) from exc
    try:
        raw, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        end(proc, term=False)
        raw, _ = proc.communicate()
        out = raw.decode("utf-8", "replace") if raw else ""
        raise EnvironmentUnavailable(f"{what}: timed out after {timeout:.0f} s\n{_tail(out)}") from exc
    finally:
        end(proc, term=False)
    if proc.returncode != 0:
        out = raw.decode("utf-8", "replace") if raw else ""
        raise EnvironmentUnavailable(f"{what}: exit code {proc.returncode}\n{_tail(out)}")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _read_marker(root: Path) -> dict[str, object] | None:
    marker = root / MARKER_NAME
    try:
        data = json.loads(marker.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_marker(root: Path, specs: Sequence[str], seconds: float, installer: str = "") -> None:
    payload: dict[str, object] = {"specs": list(specs), "install_seconds": round(seconds, 2),
                                  "created": time.time()}
    if installer:
        payload["installer"] = installer
    tmp = root / (MARKER_NAME + ".tmp")
    tmp.write_text(json.dumps(payload, indent=2))
    tmp.replace(root / MARKER_NAME)


def _seconds_from(marker: dict[str, object]) -> float:
    value = marker.get("install_seconds")
    return float(value) if isinstance(value, int | float) else 0.0


def _venv_python(root: Path) -> Path:
    if os.name == "nt":  # pragma: no cover - the project runs on POSIX
        return root / "Scripts" / "python.exe"
    return root / "bin" / "python"


def find_uv() -> str | None:
    """The ``uv`` binary: the ``uv`` package's (the version the extras pin), else one on PATH;
    None when there is neither."""
    try:
        module = importlib.import_module("uv")
        found = module.find_uv_bin()
    except (ImportError, AttributeError, OSError):  # not installed, or its binary is missing
        found = None
    if isinstance(found, str | os.PathLike) and Path(found).is_file():
        return os.fspath(found)
    return shutil.which("uv")


def _wanted() -> str:
    return os.environ.get("MCP_SKEW_INSTALLER", "").strip().lower() or "auto"


def installer() -> tuple[str, str | None]:
    """What fills a Python environment: ``("uv", path)`` or ``("pip", None)``.

    ``MCP_SKEW_INSTALLER`` chooses: ``auto`` (or unset) is uv when :func:`find_uv` finds
    it, else pip; ``pip`` is pip; ``uv`` is uv or :class:`EnvironmentUnavailable`."""
    wanted = _wanted()
    if wanted not in INSTALLERS:
        raise EnvironmentUnavailable(
            f"MCP_SKEW_INSTALLER={wanted[:40]!r}: expected one of {', '.join(INSTALLERS)}")
    if wanted == "pip":
        return "pip", None
    uv = find_uv()
    if uv is None and wanted == "uv":
        raise EnvironmentUnavailable("MCP_SKEW_INSTALLER=uv: no uv here (pip install uv, "
                                     "or put uv on PATH)")
    return ("uv", uv) if uv is not None else ("pip", None)


def install_command(tool: tuple[str, str | None], python: Path, requirements: Sequence[str],
                    cache: Path, *, compile_bytecode: bool = True) -> list[str]:
    """The command that installs ``requirements`` into the venv of ``python``.

    uv: ``uv pip install --python PY``, its download cache ``cache/uv`` (``UV_CACHE_DIR``
    wins when set), no progress bars, and the modules compiled to bytecode as pip does: a
    server whose venv has no ``.pyc`` compiles what it imports at every start when it cannot
    write them (a census sandbox shows the venv read-only; ``PYTHONDONTWRITEBYTECODE``), which
    would slow each cold start the census and the probes measure (``compile_bytecode=False``:
    not compiled here, for a caller that compiles them itself). pip: the venv's own
    ``python -m pip install``. The requirements are given as they are, pins and all."""
    name, uv = tool
    if name == "uv" and uv is not None:
        cache_args = [] if os.environ.get("UV_CACHE_DIR") else ["--cache-dir", str(cache / "uv")]
        return [uv, "pip", "install", "--python", str(python), *cache_args, "--no-progress",
                *(["--compile-bytecode"] if compile_bytecode else []), *requirements]
    return [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
            "--progress-bar", "off", *requirements]


def _build_venv(base: str, root: Path, reqs: Sequence[str], tool: tuple[str, str | None], *,
                cache: Path, timeout: float,
                compile_bytecode: Callable[[Path], object] | None = None) -> None:
    """A venv at ``root`` made by ``base`` (with pip only when pip fills it), then filled
    (and compiled by ``compile_bytecode`` when uv filled it and it is given)."""
    python = _venv_python(root)
    venv = [base, "-m", "venv", *(["--without-pip"] if tool[0] == "uv" else []), str(root)]
    _run(venv, "venv creation", timeout=timeout)
    _run(install_command(tool, python, reqs, cache, compile_bytecode=compile_bytecode is None),
         f"{tool[0]} install {' '.join(reqs)}", timeout=timeout)
    if compile_bytecode is not None and tool[0] == "uv":
        compile_bytecode(root)


def ensure_python_env(
    requirements: Sequence[str],
    *,
    cache_dir: Path | None = None,
    base_python: str | None = None,
    timeout: float = _DEFAULT_TIMEOUT,
    compile_bytecode: Callable[[Path], object] | None = None,
) -> PythonEnv:
    """Build (or reuse) a venv with ``requirements`` installed; return its description.

    ``base_python`` is the interpreter that creates the venv (default: the
    running one).  Raises :class:`EnvironmentUnavailable` if the install fails.
    ``compile_bytecode(root)``, when given, compiles a venv uv filled (uv then does not),
    before the venv is marked ready (pip compiles its own).
    """
    reqs = tuple(requirements)
    if not reqs:
        raise ValueError("requirements must not be empty")
    base = base_python or sys.executable
    cache = cache_dir or cache_root()
    envs = cache / "envs"
    root = envs / env_key("py", reqs, salt=f"{base}|{sys.version_info[:2]}")
    python = _venv_python(root)
    with _locked(envs / f"{root.name}.lock"):
        marker = _read_marker(root)
        if marker is not None and python.exists():
            built_by = marker.get("installer")
            return PythonEnv(root, python, reqs, _seconds_from(marker), cached=True,
                             installer=built_by if isinstance(built_by, str) else "")
        if root.exists():
            shutil.rmtree(root)
        tool = installer()
        started = time.monotonic()
        try:
            try:
                _build_venv(base, root, reqs, tool, cache=cache, timeout=timeout,
                            compile_bytecode=compile_bytecode)
            except _CannotRun:
                if tool[0] != "uv" or _wanted() == "uv":
                    raise
                tool = ("pip", None)  # a uv that cannot run here: pip, as without uv
                shutil.rmtree(root, ignore_errors=True)
                _build_venv(base, root, reqs, tool, cache=cache, timeout=timeout)
        except EnvironmentUnavailable:
            shutil.rmtree(root, ignore_errors=True)
            raise
        seconds = time.monotonic() - started
        _write_marker(root, reqs, seconds, tool[0])
        return PythonEnv(root, python, reqs, seconds, cached=False, installer=tool[0])


def python_env(
    requirements: Sequence[str],
    *,
    cache_dir: Path | None = None,
    base_python: str | None = None,
    timeout: float = _DEFAULT_TIMEOUT,
) -> Path:
    """Interpreter path of a cached venv holding ``requirements`` (built if needed)."""
    return ensure_python_env(
        requirements, cache_dir=cache_dir, base_python=base_python, timeout=timeout
    ).python


def ensure_npm_env(
    packages: Sequence[str],
    *,
    cache_dir: Path | None = None,
    npm: str = "npm",
    timeout: float = _DEFAULT_TIMEOUT,
) -> NpmEnv:
    """``npm install --prefix <dir> pkg@ver ...`` once; return its description."""
    pkgs = tuple(packages)
    if not pkgs:
        raise ValueError("packages must not be empty")
    envs = (cache_dir or cache_root()) / "envs"
    root = envs / env_key("npm", pkgs)
    node_modules = root / "node_modules"
    with _locked(envs / f"{root.name}.lock"):
        marker = _read_marker(root)
        if marker is not None and node_modules.is_dir():
            return NpmEnv(root, node_modules, pkgs, _seconds_from(marker), cached=True)
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        # A package.json of our own keeps npm from walking up to a parent project.
        (root / "package.json").write_text(
            json.dumps({"name": root.name, "private": True, "type": "module"}) + "\n"
        )
        started = time.monotonic()
        try:
            _run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(root),
                    "--no-audit",
                    "--no-fund",
                    "--no-update-notifier",
                    "--loglevel",
                    "error",
                    *pkgs,
                ],
                f"npm install {' '.join(pkgs)}",
                timeout=timeout,
                cwd=root,
            )
        except EnvironmentUnavailable:
            shutil.rmtree(root, ignore_errors=True)
            raise
        seconds = time.monotonic() - started
        _write_marker(root, pkgs, seconds)
        return NpmEnv(root, node_modules, pkgs, seconds, cached=False)


def npm_env(
    packages: Sequence[str],
    *,
    cache_dir: Path | None = None,
    npm: str = "npm",
    timeout: float = _DEFAULT_TIMEOUT,
) -> Path:
    """``node_modules`` directory of a cached npm prefix holding ``packages``."""
    return ensure_npm_env(packages, cache_dir=cache_dir, npm=npm, timeout=timeout).node_modules

"""A census venv's bytecode, each shared source file compiled once for the whole census.

A census builds a venv per PyPI package, and most of them hold the same dependencies (the
MCP SDK, pydantic, starlette, httpx, ...): measured on benchmarks/census-listing.json, 8
venvs held 10,009 ``.py`` files but 3,805 distinct ones. uv hard links each installed file
from its download cache (:mod:`mcp_skew.realpeers._envs`), so the same file of two venvs is
one inode; ``uv pip install --compile-bytecode`` compiles it again in every venv, and that
compiling was most of a cold uv install's CPU (about 5 of 6 CPU-seconds a venv).

So the census installs without it and :func:`compile_venv` compiles the venv itself, as
``compileall`` does (a timestamp ``.pyc`` in each ``__pycache__``, optimisation level 0,
the files that do not compile left without one), and keeps a hard link of each ``.pyc``
in a store beside the environments (``$MCP_SKEW_CACHE/pyc``), named by what the ``.pyc``
records of its source (mtime in seconds, size) and a hash of the source's bytes: the next
venv holding the same file (the same bytes, mtime and size: a hard link of the same file
of uv's cache is all three) gets a link to it, not a compile. Where no link can be made
(another file system), each venv compiles its own, as before. The name holds the source's
hash, not its inode, so a file that takes the inode of one uv pruned from its cache never
gets that file's code. The store may be deleted at any time (it is built again).

A ``.pyc`` is taken as fresh when the mtime and size it records are its source's, which
holds for the linked one, and the import system sets the code's file name to the path it
imported it from (``importlib._bootstrap_external._compile_bytecode``, which calls
``_imp._fix_co_filename``): a traceback names the venv's own file. Nothing writes into an
existing ``.pyc``: an import that finds one stale writes a new file over its name
(``_write_atomic``), leaving the store's untouched.

The census compiles in a child process (:func:`compile_venv_apart`, this file run as a
script): its install threads share one interpreter lock, so compiling there made the venvs
being installed ahead compile one at a time on one core, while the first probes waited.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import py_compile
import subprocess
import sys
from pathlib import Path
from typing import Final

__all__ = ["compile_venv", "compile_venv_apart"]

_TAG: Final = sys.implementation.cache_tag


def _site_packages(root: Path) -> Path | None:
    """The venv's site-packages for the running interpreter's version, None if it has none
    (a venv of another Python, whose bytecode this interpreter cannot write)."""
    found = root / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    return found if found.is_dir() else None


def _stored(store: Path, path: str, source: os.stat_result) -> Path | None:
    """The store's name for the ``.pyc`` of ``path``: what the ``.pyc`` records of its source
    (its mtime in seconds and its size) and a hash of the source's bytes; None when it cannot
    be read."""
    try:
        with open(path, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()[:40]
    except OSError:
        return None
    return store / f"{digest}-{int(source.st_mtime) & 0xFFFFFFFF:x}-{source.st_size:x}.{_TAG}.pyc"


def _keep(compiled: str, kept: Path) -> None:
    """A hard link of ``compiled`` in the store (as ``kept``); nothing when it cannot be."""
    temporary = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        os.link(compiled, temporary)
        os.replace(temporary, kept)
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def _one(path: str, store: Path) -> str:
    """Give ``path`` its ``.pyc``: ``linked`` from the store, ``compiled``, or ``skipped`` (it
    has one, or it does not compile)."""
    cfile = importlib.util.cache_from_source(path)
    if os.path.exists(cfile):
        return "skipped"
    try:
        source = os.stat(path)
    except OSError:
        return "skipped"
    kept = _stored(store, path, source)
    if kept is not None:
        with contextlib.suppress(OSError):
            os.makedirs(os.path.dirname(cfile), exist_ok=True)
            os.link(kept, cfile)
            return "linked"
    try:
        py_compile.compile(path, cfile=cfile, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    except (py_compile.PyCompileError, OSError, ValueError, SyntaxError):
        return "skipped"  # as compileall: a file that does not compile has no .pyc
    if kept is not None:
        _keep(cfile, kept)
    return "compiled"


def compile_venv(root: Path, store: Path | None = None) -> dict[str, int]:
    """Compile the ``.py`` files of the venv at ``root`` (its site-packages), linking the
    ``.pyc`` of a file compiled before from ``store`` (default: ``pyc`` in the cache that
    holds the venv, ``$MCP_SKEW_CACHE/envs/py-*``: beside ``envs`` and uv's download cache,
    on the same file system); how many were ``compiled``,
    ``linked`` and ``skipped``. A venv of another Python (the census makes none: its venvs
    are made by the interpreter it runs on) is left as it is."""
    site = _site_packages(root)
    counts = {"compiled": 0, "linked": 0, "skipped": 0}
    if site is None:
        return counts
    store = store if store is not None else root.parent.parent / "pyc"
    store.mkdir(parents=True, exist_ok=True)
    for folder, dirs, files in os.walk(site):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                counts[_one(os.path.join(folder, name), store)] += 1
    return counts


def compile_venv_apart(root: Path, store: Path | None = None, *,
                       timeout: float = 600.0) -> dict[str, int]:
    """:func:`compile_venv` in a child process of its own (a family of ours, ended with
    whatever ends mcp-skew): venvs installed side by side compile on every CPU. A child that
    fails or outlasts ``timeout`` seconds makes the venv unavailable, as a failed install does
    (:class:`~mcp_skew.realpeers.EnvironmentUnavailable`: the venv is removed, the row says
    why)."""
    # imported here: run as a script (the child), this module imports the standard library only
    from ..realpeers import EnvironmentUnavailable  # noqa: PLC0415
    from ..wire import end, spawn  # noqa: PLC0415 - processes only when compiling

    argv = [sys.executable, "-I", str(Path(__file__).resolve()), str(root),
            *([str(store)] if store is not None else [])]
    proc = spawn(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise EnvironmentUnavailable(
            f"bytecode compile of {root}: timed out after {timeout:.0f} s") from exc
    finally:
        end(proc, term=False)
    if proc.returncode != 0:
        said = (err or b"").decode("utf-8", "replace").strip().splitlines()
        raise EnvironmentUnavailable(f"bytecode compile of {root}: exit code {proc.returncode}"
                                     + (f": {said[-1]}" if said else ""))
    counts: dict[str, int] = json.loads(out)
    return counts


if __name__ == "__main__":  # compile_venv_apart's child: ROOT [STORE]; the counts as JSON
    _store = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    print(json.dumps(compile_venv(Path(sys.argv[1]), _store)))

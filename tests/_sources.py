"""The package's modules, read and parsed once a test session, for the static checks.

The checks that read ``mcp_skew``'s source (the layers and their import circles, the
simulator's I/O, the module sizes, the registry's reads, the findings the source emits, the
policies the simulator reads) each read every module: each parsed the ~190 modules again, a
second or more apiece. Here a module of the package is read, parsed and walked the first
time a check asks for it and kept for the rest of the session (the source does not change
under a test run), so the fast run parses the package once.

The trees are shared between the checks: a check reads them and never changes them. What
a check derives from one module alone (its imports, say) can be kept with it
(:meth:`Source.once`), for the checks that ask again.

A file anywhere else (the checks' self-tests write synthetic packages into ``tmp_path``) is
read and parsed afresh at every call, so such a test sees what it has just written.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar, cast

from _paths import ROOT

__all__ = ["PACKAGE", "Source", "modules", "source"]

#: the package the session's cache holds
PACKAGE: Final = ROOT / "mcp_skew"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Source:
    """One module: its text, its tree and every node of the tree."""

    path: Path
    text: str
    tree: ast.Module
    #: every node of :attr:`tree`, in :func:`ast.walk`'s order (a walk costs as much as a parse)
    nodes: tuple[ast.AST, ...]
    _kept: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False, compare=False)

    def once(self, compute: Callable[..., T], *args: Hashable) -> T:
        """``compute(self, *args)``, worked out the first time and kept as long as this source
        is: for a module of ``mcp_skew`` the session, for any other file this call only. For
        what a check derives from a module alone (its imports, say), not from others."""
        key = (compute, *args)
        if key not in self._kept:
            self._kept[key] = compute(self, *args)
        return cast(T, self._kept[key])


def _read(path: Path) -> Source:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    return Source(path, text, tree, tuple(ast.walk(tree)))


@functools.cache
def _package_source(path: Path) -> Source:
    return _read(path)


@functools.cache
def _package_modules() -> tuple[Path, ...]:
    return tuple(sorted(PACKAGE.rglob("*.py")))


def source(path: Path) -> Source:
    """The module at ``path``: from the session's cache for a module of ``mcp_skew``, read
    now for any other file."""
    return _package_source(path) if path.is_relative_to(PACKAGE) else _read(path)


def modules(folder: Path = PACKAGE) -> tuple[Path, ...]:
    """Every ``.py`` file under ``folder``, sorted: listed once a session for ``mcp_skew``,
    now for any other folder."""
    return _package_modules() if folder == PACKAGE else tuple(sorted(folder.rglob("*.py")))

"""Write or check a directory of generated pages: the ``--write DIR`` / ``--check DIR`` mains.

The profile reference pages (``python -m mcp_skew.commands.versions``) and the
migration guides (``python -m mcp_skew.migrate``) are regenerated, never edited;
both compare what is on disk with what they would write, and their tests run the
``--check`` side, naming the command that regenerates the pages when one differs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

__all__ = ["PageWriter", "pages_main", "sync_pages"]


class PageWriter(Protocol):
    """Writes (or, with ``check``, compares) a directory's pages; returns the names that differ."""

    def __call__(self, directory: Path, *, check: bool = False) -> list[str]: ...


def sync_pages(
    directory: Path, pages: Mapping[str, str], *, check: bool = False, prune: bool = False
) -> list[str]:
    """Write (or, with ``check``, compare) ``pages`` (file name -> text); returns the names that differ.

    With ``prune``, a markdown file in ``directory`` that is no longer generated
    counts as different too, and writing removes it.
    """
    stale = [
        name
        for name, text in pages.items()
        if not (directory / name).is_file() or (directory / name).read_text(encoding="utf-8") != text
    ]
    extra = (
        sorted(p.name for p in directory.glob("*.md") if p.name not in pages)
        if prune and directory.is_dir()
        else []
    )
    if not check:
        directory.mkdir(parents=True, exist_ok=True)
        for name in stale:
            (directory / name).write_text(pages[name], encoding="utf-8")
        for name in extra:
            (directory / name).unlink()
    return stale + extra


def pages_main(
    argv: Sequence[str] | None, *, prog: str, description: str, write: PageWriter, regenerate: str
) -> int:
    """``--write DIR`` or ``--check DIR``: one line per page that differs; 1 when a check fails."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR", type=Path)
    mode.add_argument("--check", metavar="DIR", type=Path)
    args = parser.parse_args(argv)
    directory: Path = args.write or args.check
    stale = write(directory, check=args.check is not None)
    verb = "out of date" if args.check else "written"
    for name in stale:
        sys.stdout.write(f"{name}: {verb}\n")
    if args.check and stale:
        sys.stdout.write(f"regenerate with: {regenerate}\n")
        return 1
    return 0

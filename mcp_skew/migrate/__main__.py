"""``python -m mcp_skew.migrate --write DIR`` (or ``--check DIR``): the generated guides."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ._pages import REGENERATE, write_pages


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mcp_skew.migrate",
        description="Write (or check) the generated migration guides and their index.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR", type=Path)
    mode.add_argument("--check", metavar="DIR", type=Path)
    args = parser.parse_args(argv)
    directory: Path = args.write or args.check
    stale = write_pages(directory, check=args.check is not None)
    verb = "out of date" if args.check else "written"
    for name in stale:
        sys.stdout.write(f"{name}: {verb}\n")
    if args.check and stale:
        sys.stdout.write(f"regenerate with: {REGENERATE}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

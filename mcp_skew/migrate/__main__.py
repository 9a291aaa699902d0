"""``python -m mcp_skew.migrate --write DIR`` (or ``--check DIR``): the generated guides."""

from __future__ import annotations

from collections.abc import Sequence

from .._pagedir import pages_main
from ._pages import REGENERATE, write_pages


def main(argv: Sequence[str] | None = None) -> int:
    return pages_main(
        argv,
        prog="python -m mcp_skew.migrate",
        description="Write (or check) the generated migration guides and their index.",
        write=write_pages,
        regenerate=REGENERATE,
    )


if __name__ == "__main__":
    raise SystemExit(main())

"""A simulated server that notes each start: ``python counting_server.py LOG NAME SPEC``.

Each start appends ``NAME<TAB>working directory`` to LOG, then is the simulated server
SPEC (``sim_stdio_server.py``). A census job runs in a scratch folder of its own, so the
distinct folders of one NAME are how many times that job was executed. Test helper for
the census; not part of mcp-skew.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sim_stdio_server  # the sibling helper, found through the path above


def main() -> int:
    log, name = Path(sys.argv[1]), sys.argv[2]
    with log.open("a", encoding="utf-8") as out:
        out.write(f"{name}\t{os.getcwd()}\n")
    sys.argv = [sys.argv[0], *sys.argv[3:]]
    return sim_stdio_server.main()


if __name__ == "__main__":
    raise SystemExit(main())

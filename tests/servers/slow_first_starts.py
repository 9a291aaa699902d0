"""A server that is slow to start the first N times it is run, then starts at once.

Usage: ``python slow_first_starts.py DIR N SECONDS SPEC [sim_stdio_server options]``.
Each start claims the first free slot ``DIR/start-K`` (created exclusively, so two
starts at once never claim the same one); a start that claims a slot below N sleeps
SECONDS before it reads its input, later ones do not. Then it is the simulated
server SPEC (``sim_stdio_server.py``). Test helper for the probe's cold start; not
part of mcp-skew.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sim_stdio_server  # the sibling helper, found through the path above


def _slot(folder: Path) -> int:
    n = 0
    while True:
        try:
            os.close(os.open(folder / f"start-{n}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            n += 1
            continue
        return n


def main() -> int:
    folder, slow, seconds = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    if _slot(folder) < slow:
        time.sleep(seconds)
    sys.argv = [sys.argv[0], *sys.argv[4:]]
    return sim_stdio_server.main()


if __name__ == "__main__":
    raise SystemExit(main())

"""A server that reads everything and never answers; at end of input it keeps running.

``--ignore-term`` also ignores SIGTERM, so only SIGKILL ends it. Test helper.
"""

from __future__ import annotations

import signal
import sys
import time


def main() -> None:
    if "--ignore-term" in sys.argv[1:]:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for _line in sys.stdin:
        pass
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()

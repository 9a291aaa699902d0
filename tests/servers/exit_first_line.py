"""A server that reads one line, complains on stderr and exits with code 3. Test helper."""

from __future__ import annotations

import sys


def main() -> int:
    line = sys.stdin.readline()
    print(f"fatal: cannot handle {line.strip()[:60]!r}", file=sys.stderr, flush=True)
    return 3


if __name__ == "__main__":
    raise SystemExit(main())

"""A server that prints a banner and answers every line with text that is not JSON.

Its last line has no newline before it exits on end of input. Test helper.
"""

from __future__ import annotations

import sys


def main() -> None:
    print("Junk server v0.1 starting up...", flush=True)
    for line in sys.stdin:
        print(f"ERROR: did not understand {len(line)} bytes", flush=True)
        print("{not json either", flush=True)
    sys.stdout.write("bye (no newline)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""A server that floods stdout after its first input line. Test helper.

Modes: ``lines`` (endless JSON-RPC notifications), ``giant`` (one endless line with no
newline), ``stderr`` (endless stderr while answering nothing on stdout).
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "lines"
    sys.stdin.readline()
    out = sys.stdout.buffer
    if mode == "lines":
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                           "params": {"level": "info", "data": "x" * 200}}).encode() + b"\n"
        while True:
            out.write(note * 64)
            out.flush()
    elif mode == "giant":
        out.write(b'{"jsonrpc": "2.0", "id": 1, "result": {"junk": "')
        while True:
            out.write(b"y" * 65536)
            out.flush()
    else:
        while True:
            sys.stderr.write("log line " * 100 + "\n")


if __name__ == "__main__":
    main()

"""A stdio server whose grandchild escapes: ``escape_server.py TOKEN [answer|hang]``.

First it starts a grandchild that leaves every way mcp-skew could find it by: a double fork
(its parent exits, so it is re-parented), ``setsid`` (a session and group of its own), standard
streams on ``/dev/null`` and an ``exec`` with an empty environment (no mark). The grandchild
sleeps forever; TOKEN is in its command line (``TOKEN-escaped``) and in the server's, so a test
finds both in ``/proc/*/cmdline``. Then the server answers ``initialize`` (``answer``, the
default) or reads its input and never answers (``hang``); it ignores SIGTERM either way.
"""

from __future__ import annotations

import json
import os
import signal
import sys

SLEEPER = "import time\nwhile True:\n    time.sleep(60)\n"


def escape(token: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execve(sys.executable, [sys.executable, "-c", SLEEPER, f"{token}-escaped"], {})
        os._exit(0)
    os.wait()


def answer(line: bytes) -> bytes | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or "id" not in message or "method" not in message:
        return None
    if message["method"] == "initialize":
        params = message.get("params") or {}
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {}, "serverInfo": {"name": "escape", "version": "0"}}
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    else:
        reply = {"jsonrpc": "2.0", "id": message["id"],
                 "error": {"code": -32601, "message": "Method not found"}}
    return json.dumps(reply).encode() + b"\n"


def main() -> None:
    token, mode = sys.argv[1], (sys.argv[2:] or ["answer"])[0]
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    escape(token)
    for line in sys.stdin.buffer:
        reply = answer(line) if mode == "answer" else None
        if reply:
            try:
                sys.stdout.buffer.write(reply)
                sys.stdout.buffer.flush()
            except OSError:
                return


if __name__ == "__main__":
    main()

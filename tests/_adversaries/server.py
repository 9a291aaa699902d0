"""A hostile stdio "server" for the adversarial tests: ``server.py MODE TOKEN``.

TOKEN is only carried in the command line, so a test can find every process this
started (``/proc/*/cmdline``) and check none is left. MODE:

- ``hang``: never reads, never writes, ignores end of input;
- ``exit``: exits at once (code 3);
- ``junk``: answers every line with junk: not JSON, bytes that are not UTF-8,
  terminal escape sequences, a JSON value that is no message;
- ``flood``: writes lines as fast as it can, forever;
- ``huge``: writes one line of 8 MiB, then reads until end of input;
- ``storm``: sends 20,000 requests of its own (ping), then answers as ``echo``;
- ``ignore-term``: ignores SIGTERM and end of input; answers as ``echo`` meanwhile;
- ``setsid``: starts a grandchild in a new session (it ignores SIGTERM and lives
  on), then answers as ``echo``;
- ``surrogates``: answers with lone surrogates (escaped and as raw bytes);
- ``deep``: answers with JSON nested 100,000 deep;
- ``echo``: a minimal server: ``initialize`` gets a result, other requests -32601.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time


def out(data: bytes) -> None:
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except (BrokenPipeError, OSError):
        os._exit(0)


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
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "adv", "version": "0"}}
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    else:
        reply = {"jsonrpc": "2.0", "id": message["id"],
                 "error": {"code": -32601, "message": "Method not found"}}
    return json.dumps(reply).encode() + b"\n"


def echo() -> None:
    for line in sys.stdin.buffer:
        reply = answer(line)
        if reply:
            out(reply)


def forever() -> None:
    while True:
        time.sleep(3600)


def main() -> None:
    mode = sys.argv[1]
    if mode == "hang":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        forever()
    elif mode == "exit":
        sys.exit(3)
    elif mode == "junk":
        for line in sys.stdin.buffer:
            out(b"not json at all\n\xff\xfe\x80 bytes\n\x1b]0;owned-title\x07\x1b[2J\n[1,2]\n")
            del line
    elif mode == "flood":
        chunk = b'{"jsonrpc":"2.0","method":"notifications/message","params":{}}\n' * 1000
        while True:
            out(chunk)
    elif mode == "huge":
        out(b'{"jsonrpc":"2.0","id":1,"result":{"x":"' + b"x" * (8 << 20) + b'"}}\n')
        for _ in sys.stdin.buffer:
            pass
    elif mode == "storm":
        out(b"".join(b'{"jsonrpc":"2.0","id":"s%d","method":"ping"}\n' % i
                     for i in range(20_000)))
        echo()
    elif mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        echo()
        forever()
    elif mode == "setsid":
        if os.fork() == 0:
            os.setsid()
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.close(0)
            forever()
        echo()
    elif mode == "surrogates":
        for line in sys.stdin.buffer:
            message = json.loads(line) if line.strip().startswith(b"{") else {}
            if "id" in message:
                out(b'{"jsonrpc":"2.0","id":%s,"result":{"s":"\\ud800\\udfff \xed\xa0\x80"}}\n'
                    % json.dumps(message["id"]).encode())
    elif mode == "deep":
        for line in sys.stdin.buffer:
            del line
            out(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    else:
        echo()


if __name__ == "__main__":
    main()

"""A fake stdio MCP server that logs every line it receives and answers as configured.

Used to observe what a real client sends first and how it reacts.  Standard
library only; runs under any Python 3.  Each received line is appended, as one
JSON object ``{"t": <seconds since start>, "msg": <parsed line>}``, to the
``--log`` file (and echoed to stderr).

Options:
  --log PATH            JSON-lines log of received messages
  --discover MODE       answer to ``server/discover``: ``result`` (a 2026-07-28
                        DiscoverResult), ``-32022:v1,v2`` (UnsupportedProtocolVersion
                        naming those versions), or anything else = treat as unknown
  --unknown MODE        answer to unknown methods (and early requests):
                        ``silent`` (no answer), or an error code such as ``-32601``
  --answer-version V    protocolVersion returned by ``initialize``; ``echo``
                        (default) returns the requested version
  --exit-on-unknown     exit(1) on the first unknown request, like old servers
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

MODERN = "2026-07-28"
TOOLS = [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
]


class Fake:
    """Answers one parsed request according to the command-line options."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args

    @staticmethod
    def send(obj: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    def result(self, rid: Any, result: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    def error(self, rid: Any, code: int, message: str, data: Any = None) -> None:
        err: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            err["data"] = data
        self.send({"jsonrpc": "2.0", "id": rid, "error": err})

    def unknown(self, rid: Any, method: str) -> None:
        if self.args.exit_on_unknown:
            sys.exit(1)
        if self.args.unknown != "silent":
            self.error(rid, int(self.args.unknown), f"Method not found: {method}")

    def handle(self, rid: Any, method: str, params: dict[str, Any]) -> None:
        mode = self.args.discover
        if method == "initialize":
            requested = params.get("protocolVersion", "")
            answer = self.args.answer_version
            self.result(
                rid,
                {
                    "protocolVersion": requested if answer == "echo" else answer,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "logging-fake-server", "version": "0"},
                },
            )
        elif method == "server/discover" and mode == "result":
            self.result(
                rid,
                {
                    "supportedVersions": [MODERN],
                    "capabilities": {"tools": {}},
                    "resultType": "complete",
                    "ttlMs": 0,
                    "cacheScope": "private",
                    "_meta": {
                        "io.modelcontextprotocol/serverInfo": {
                            "name": "logging-fake-server",
                            "version": "0",
                        }
                    },
                },
            )
        elif method == "server/discover" and mode.startswith("-32022:"):
            supported = mode.split(":", 1)[1].split(",")
            requested = (params.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
            self.error(
                rid,
                -32022,
                "Unsupported protocol version",
                {"supported": supported, "requested": requested},
            )
        elif method == "ping":
            self.result(rid, {})
        elif method == "tools/list":
            result: dict[str, Any] = {"tools": TOOLS}
            if "_meta" in params:
                result.update({"resultType": "complete", "ttlMs": 0, "cacheScope": "private"})
            self.result(rid, result)
        else:
            self.unknown(rid, method)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--log")
    ap.add_argument("--discover", default="unknown")
    ap.add_argument("--unknown", default="-32601")
    ap.add_argument("--answer-version", default="echo")
    ap.add_argument("--exit-on-unknown", action="store_true")
    args = ap.parse_args()
    fake = Fake(args)
    start = time.monotonic()
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 - lives as long as the process
    for raw in sys.stdin:
        text = raw.strip()
        if not text:
            continue
        try:
            msg = json.loads(text)
        except ValueError:
            msg = {"non_json": text}
        record = json.dumps({"t": round(time.monotonic() - start, 3), "msg": msg})
        print(record, file=sys.stderr, flush=True)
        if log is not None:
            log.write(record + "\n")
            log.flush()
        if isinstance(msg, dict) and "method" in msg and "id" in msg:
            fake.handle(msg["id"], msg["method"], msg.get("params") or {})


if __name__ == "__main__":
    main()

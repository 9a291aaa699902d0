"""A hand-written 2026-07-28 MCP server (stdio) that forgot ``server/discover``: about 40 lines.

It serves modern requests (``params._meta`` names the revision; results carry
``resultType`` and the caching hints), refuses a revision it does not serve with -32022
naming its versions, and answers everything else (``initialize`` and ``server/discover``
among them) with -32601: the probe must find that a modern server lacks the method every
2026-07-28 server MUST implement, and that dual-era clients then fall back and fail.
"""

import json
import sys

VERSION = "2026-07-28"
META = "io.modelcontextprotocol/protocolVersion"
TOOLS = [{"name": "echo", "description": "echo the text back",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]


def handle(method, params):
    asked = (params.get("_meta") or {}).get(META)
    if method == "tools/list" and asked == VERSION:
        return {"tools": TOOLS, "resultType": "complete", "ttlMs": 60000, "cacheScope": "public"}
    if method == "tools/list" and asked is not None:
        return {"code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": [VERSION], "requested": asked}}
    return {"code": -32601, "message": "Method not found"}


for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    answer = handle(message.get("method"), message.get("params") or {})
    key = "error" if "code" in answer else "result"
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], key: answer}) + "\n")
    sys.stdout.flush()

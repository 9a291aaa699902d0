"""A hand-written legacy MCP server (stdio), as a new user writes one: about 50 lines.

It speaks 2025-06-18 and 2025-03-26, answers every request it knows whether or not
``initialize`` came first (so a 2026-07-28 client's first ``tools/list`` is served
under legacy rules), answers unknown methods with -32601, and dies with a traceback
when ``echo`` gets a ``text`` that is not a string (the crash the probe must blame on
the request in flight). ``--unknown-code N`` answers unknown methods with N instead.
"""

import json
import sys

SUPPORTED = ["2025-06-18", "2025-03-26"]
UNKNOWN = int(sys.argv[sys.argv.index("--unknown-code") + 1]) if "--unknown-code" in sys.argv \
    else -32601
TOOLS = [{"name": "echo", "description": "echo the text back",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                          "required": ["text"]}}]


def handle(method, params):
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {"protocolVersion": asked if asked in SUPPORTED else SUPPORTED[0],
                "capabilities": {"tools": {}}, "serverInfo": {"name": "lenient", "version": "1"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        text = params["arguments"]["text"]
        if params.get("name") != "echo":
            return {"content": [{"type": "text", "text": "no such tool"}], "isError": True}
        return {"content": [{"type": "text", "text": "echo: " + text}]}  # TypeError on a number
    return None


for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # notifications/initialized and friends
    result = handle(message.get("method"), message.get("params") or {})
    if result is None:
        answer = {"jsonrpc": "2.0", "id": message["id"],
                  "error": {"code": UNKNOWN, "message": "Method not found"}}
    else:
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
